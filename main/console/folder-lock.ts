/**
 * One console per data folder: `console.lock` in the user-data folder names the process that runs
 * the console on it (pid and, where the OS tells it, the process's start time). A second console
 * on the same folder — the desktop app opened while a bridge's headless console runs, `npm start`
 * twice — would open the same history and start the same servers again; it refuses to start with
 * a clear message instead. A lock whose process is gone (or is another process with a reused pid)
 * is taken over; the console removes its lock when it stops.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessProbe } from '../servers/leftover-processes.js';
import { writeFileAtomic } from '../user-file.js';

/** File in the user-data folder. */
export const FOLDER_LOCK_FILE = 'console.lock';

interface LockRecord {
  pid: number;
  /** The OS's start time of that process (opaque), where known. */
  startTime?: string;
}

/** The folder's lock, held. */
export interface FolderLock {
  /** Removes the lock (when it is still this process's). */
  release(): void;
}

/** The record in the lock file, or undefined when there is none or it does not parse. */
function readLock(path: string): LockRecord | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockRecord>;
    return typeof value.pid === 'number' ? { pid: value.pid, ...(typeof value.startTime === 'string' && { startTime: value.startTime }) } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process the record names still runs (same pid, and the same start time where the OS tells it). */
function running(record: LockRecord, probe: ProcessProbe | undefined): boolean {
  if (probe) {
    const facts = probe.facts(record.pid);
    return facts !== undefined && (record.startTime === undefined || facts.startTime === record.startTime);
  }
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

/**
 * The process that holds the data folder's lock, when it still runs (the same process: same pid,
 * and the same start time where the OS tells it); undefined when there is no lock or its holder is gone.
 */
export function folderLockHolder(dir: string, probe: ProcessProbe | undefined): number | undefined {
  const held = readLock(join(dir, FOLDER_LOCK_FILE));
  return held && running(held, probe) ? held.pid : undefined;
}

/**
 * Takes the data folder's lock for this process.
 * @throws Error "MCP Approval Console is already running on <dir> (process <pid>) …" when another
 *   running process holds it
 */
export function lockDataFolder(dir: string, probe: ProcessProbe | undefined): FolderLock {
  const path = join(dir, FOLDER_LOCK_FILE);
  const held = readLock(path);
  if (held && held.pid !== process.pid && running(held, probe)) {
    throw new Error(
      `MCP Approval Console is already running on ${dir} (process ${held.pid}). Use that one (a console started by a bridge shows its address in console-headless.log there), stop it first, or give this one another data folder (MCP_CONSOLE_USER_DATA).`,
    );
  }
  const startTime = probe?.facts(process.pid)?.startTime;
  writeFileAtomic(path, `${JSON.stringify({ pid: process.pid, ...(startTime && { startTime }) })}\n`);
  return {
    release() {
      if (readLock(path)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}
