/**
 * Stdio servers left behind by a console that was killed (SIGKILL, a crash) keep running as
 * children of init — those that ignore their stdin closing, forever. The console writes down each
 * stdio server process it runs (`server-processes.json` in the user-data folder: pid, start time,
 * command line) and, at its next start, ends the ones still running — but only a process that is
 * still that server: same start time and same command line, never a pid the system gave to
 * another program since. The OS facts come through a small {@link ProcessProbe}: Linux reads
 * /proc, macOS asks `ps`; elsewhere nothing is recorded (no leftovers are ended).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../user-file.js';

/** File in the user-data folder. */
export const SERVER_PROCESSES_FILE = 'server-processes.json';

/** What the system says about a running process; undefined when it does not run (or cannot be read). */
export interface ProcessFacts {
  /** An opaque start time: equal for the same process, different for a later one with the same pid. */
  startTime: string;
  commandLine: string;
}

/** The OS facts the registry needs. */
export interface ProcessProbe {
  facts(pid: number): ProcessFacts | undefined;
  kill(pid: number, signal: NodeJS.Signals): void;
}

const RecordSchema = z.object({ serverId: z.string(), startTime: z.string(), commandLine: z.string() });
const FileSchema = z.record(z.string(), RecordSchema);
type Records = z.infer<typeof FileSchema>;

/** Linux: start time (field 22 of /proc/<pid>/stat, in clock ticks since boot) and /proc/<pid>/cmdline. */
function linuxFacts(pid: number): ProcessFacts | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself hold spaces or ")".
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z' || rest[0] === 'X') return undefined; // ended, not yet reaped: not running
    const startTime = rest[19]; // field 22 overall
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return startTime ? { startTime, commandLine } : undefined;
  } catch {
    return undefined;
  }
}

/** macOS: `ps -o lstart= -o command= -p <pid>`. */
function psFacts(pid: number): ProcessFacts | undefined {
  const run = spawnSync('ps', ['-o', 'lstart=', '-o', 'command=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 });
  const line = run.status === 0 ? run.stdout.trim() : '';
  if (!line) return undefined;
  // lstart is 24 characters ("Wed Nov 25 04:49:10 2026"), then the command line.
  return { startTime: line.slice(0, 24), commandLine: line.slice(24).trim() };
}

/** The probe of this machine, or undefined where leftovers are not tracked (Windows). */
export function systemProcessProbe(platform: NodeJS.Platform = process.platform): ProcessProbe | undefined {
  const facts = platform === 'linux' ? linuxFacts : platform === 'darwin' ? psFacts : undefined;
  if (!facts) return undefined;
  return { facts, kill: (pid, signal) => process.kill(pid, signal) };
}

/** The registry of running stdio server processes. */
export interface ProcessRegistry {
  /** Brings the file in line with the server processes running now (`serverId` by pid). */
  sync(running: ReadonlyMap<number, string>): void;
  /**
   * Ends the processes a previous console left running — each only if it still has the recorded
   * start time and command line — with SIGTERM, then SIGKILL after `graceMs`; forgets the rest.
   * @returns the server ids of the processes ended
   */
  endLeftovers(graceMs?: number): Promise<string[]>;
}

/** Opens the registry in `dir`. Without a probe it records nothing and ends nothing. */
export function openProcessRegistry(dir: string, probe: ProcessProbe | undefined): ProcessRegistry {
  const path = join(dir, SERVER_PROCESSES_FILE);
  const read = (): Records => {
    try {
      const parsed = FileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  };
  let records: Records = {};
  const write = () => writeFileAtomic(path, `${JSON.stringify(records, null, 2)}\n`);
  return {
    sync(running) {
      if (!probe) return;
      const next: Records = {};
      for (const [pid, serverId] of running) {
        const known = records[pid];
        if (known) next[pid] = known;
        else {
          const facts = probe.facts(pid);
          if (facts) next[pid] = { serverId, ...facts };
        }
      }
      const changed = JSON.stringify(Object.keys(next).sort()) !== JSON.stringify(Object.keys(records).sort());
      records = next;
      if (changed) write();
    },
    async endLeftovers(graceMs = 500) {
      if (!probe) return [];
      const left = read();
      const ended: Array<{ pid: number; serverId: string }> = [];
      for (const [pidText, rec] of Object.entries(left)) {
        const pid = Number(pidText);
        const now = probe.facts(pid);
        if (!now || now.startTime !== rec.startTime || now.commandLine !== rec.commandLine) continue; // gone, or another program
        try {
          probe.kill(pid, 'SIGTERM');
          ended.push({ pid, serverId: rec.serverId });
        } catch {
          // ended meanwhile
        }
      }
      if (ended.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, graceMs));
        for (const { pid } of ended) {
          const after = probe.facts(pid);
          if (after && after.startTime === left[pid]!.startTime) {
            try {
              probe.kill(pid, 'SIGKILL');
            } catch {
              // ended meanwhile
            }
          }
        }
      }
      records = {};
      write();
      return ended.map((e) => e.serverId);
    },
  };
}
