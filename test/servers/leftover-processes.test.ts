import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConsole } from '../../main/console.js';
import { openProcessRegistry, SERVER_PROCESSES_FILE, systemProcessProbe, type ProcessFacts, type ProcessProbe } from '../../main/servers/leftover-processes.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** A probe over a table of "running" processes; kills are recorded (SIGTERM ends the process). */
function fakeProbe(running: Map<number, ProcessFacts>): ProcessProbe & { killed: Array<[number, string]> } {
  const killed: Array<[number, string]> = [];
  return {
    killed,
    facts: (pid) => running.get(pid),
    kill: (pid, signal) => {
      killed.push([pid, signal]);
      running.delete(pid);
    },
  };
}

describe('stdio servers a killed console left running', () => {
  it('are ended at the next start only when they are still the same process (start time and command line)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leftovers-'));
    const running = new Map<number, ProcessFacts>([
      [101, { startTime: '5000', commandLine: 'python server.py' }],
      [102, { startTime: '6000', commandLine: 'node other.js' }],
    ]);
    const before = fakeProbe(running);
    openProcessRegistry(dir, before).sync(new Map([[101, 'py'], [102, 'js']]));
    expect(Object.keys(JSON.parse(readFileSync(join(dir, SERVER_PROCESSES_FILE), 'utf8')))).toEqual(['101', '102']);
    // The console was killed; meanwhile 102 ended and its pid went to another program.
    running.set(102, { startTime: '9999', commandLine: 'node other.js' });
    running.set(103, { startTime: '1', commandLine: 'vim' });
    const after = fakeProbe(running);
    expect(await openProcessRegistry(dir, after).endLeftovers(10)).toEqual(['py']);
    expect(after.killed).toEqual([[101, 'SIGTERM']]);
    expect(running.has(102)).toBe(true); // a reused pid is never ended
    expect(JSON.parse(readFileSync(join(dir, SERVER_PROCESSES_FILE), 'utf8'))).toEqual({});
  });

  it('a server that ignores SIGTERM gets SIGKILL; a stopped server is forgotten', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leftovers-'));
    const running = new Map<number, ProcessFacts>([[7, { startTime: '1', commandLine: 'stubborn' }]]);
    openProcessRegistry(dir, fakeProbe(running)).sync(new Map([[7, 's']]));
    const stubborn: ProcessProbe & { killed: string[] } = { killed: [], facts: (pid) => running.get(pid), kill: (_pid, signal) => void stubborn.killed.push(signal) };
    await openProcessRegistry(dir, stubborn).endLeftovers(10);
    expect(stubborn.killed).toEqual(['SIGTERM', 'SIGKILL']);
  });

  it.runIf(systemProcessProbe() !== undefined)('a real console killed with SIGKILL: its stdio server that ignores EOF is ended when the next one starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leftovers-real-'));
    const pidFile = join(dir, 'server.pid');
    const server = { command: process.execPath, args: [join(ROOT, 'test/fixtures/stubborn-server.mjs')], env: { PID_FILE: pidFile }, protocol: 'legacy' };
    writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { stubborn: server } }));
    const script = `import { createConsole } from ${JSON.stringify(join(ROOT, 'main/console.ts'))};
const h = await createConsole({ host: 'test', userDataDir: ${JSON.stringify(dir)}, nodeRuntime: { command: process.execPath }, env: {} });
await h.ready; process.stdout.write('ready\\n'); setInterval(() => {}, 1000);`;
    const first = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      first.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      first.on('exit', (code) => reject(new Error(`the first console exited (${code})`)));
    });
    for (let i = 0; !existsSync(join(dir, SERVER_PROCESSES_FILE)) || readFileSync(join(dir, SERVER_PROCESSES_FILE), 'utf8').length < 10; i++) {
      if (i > 100) throw new Error('the server process was never recorded');
      await new Promise((r) => setTimeout(r, 50));
    }
    const serverPid = Number(readFileSync(pidFile, 'utf8'));
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    await new Promise((r) => setTimeout(r, 300));
    expect(systemProcessProbe()!.facts(serverPid), 'the server outlived the console').toBeDefined();
    const second = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: {} });
    try {
      expect(systemProcessProbe()!.facts(serverPid), 'the leftover was ended').toBeUndefined();
      expect((await second.service.getState({})).notices.map((n) => n.message).join(' ')).toMatch(/Ended 1 server process.*stubborn/);
    } finally {
      await second.dispose();
    }
  }, 60_000);
});
