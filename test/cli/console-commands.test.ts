/**
 * `status`, `stop`, `open` and `doctor` against a console's channel in a temp data folder: what
 * they print, their exit codes (0 / 1 / 3), a console that holds the folder but does not answer,
 * the browser opener injected (no browser is launched), and each doctor check failing with what
 * to do.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleStatus } from '../../shared/contract/bridge-protocol.js';
import { startBridgeListener, type BridgeListener, type BridgeListenerDeps } from '../../main/bridge/listener.js';
import { FOLDER_LOCK_FILE } from '../../main/console/folder-lock.js';
import { silentLogger } from '../../main/ports.js';
import type { ProcessProbe } from '../../main/servers/leftover-processes.js';
import { openCommand, statusCommand, stopCommand } from '../../app/cli/console-commands.js';
import { doctorCommand, runDoctorChecks } from '../../app/cli/doctor.js';
import { ROOT } from '../bridge/support.js';

/** A probe that finds every pid alive (the lock records no start time to compare). */
const anyLiveProbe: ProcessProbe = { facts: () => ({ startTime: 'x', commandLine: 'node' }), kill: () => undefined };
const tempDir = () => mkdtempSync(path.join(tmpdir(), 'mcp-cli-'));
const facts = (over: Partial<ConsoleStatus> = {}): Omit<ConsoleStatus, 'type'> => ({
  pid: 4242,
  host: 'web',
  dataDir: '/data',
  startedAt: Date.UTC(2026, 10, 27, 9, 0),
  address: 'http://127.0.0.1:5000/?token=abc',
  servers: [
    { id: 'everything', source: 'console', status: 'ready' },
    { id: 'server-everything', source: 'bridge', status: 'connected', via: 'claude-ai' },
  ],
  waiting: 2,
  gateway: 'http://127.0.0.1:47615',
  ...over,
});

/** The console-command context on `dir`, recording output and the URLs opened. */
function context(dir: string, browser = true) {
  const seen = { out: '', err: '', opened: [] as string[] };
  return {
    seen,
    ctx: {
      userDataDir: dir,
      platform: process.platform,
      env: {},
      out: (t: string) => void (seen.out += t),
      err: (t: string) => void (seen.err += t),
      openUrl: async (url: string) => (seen.opened.push(url), browser),
    },
  };
}

let listener: BridgeListener | undefined;
const listen = async (dir: string, deps: Partial<BridgeListenerDeps> = {}) => (listener = await startBridgeListener({ dir, requests: { receive: () => new Promise(() => undefined) as never }, logger: silentLogger, status: () => facts(), ...deps }));
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe('status', () => {
  it('running: exit 0 with pid, page address and token, requests waiting, servers (bridged ones with their host)', async () => {
    const dir = tempDir();
    await listen(dir);
    const { ctx, seen } = context(dir);
    expect(await statusCommand(ctx, { json: false })).toBe(0);
    expect(seen.out).toMatch(/^MCP Approval Console is running \(pid 4242, browser host, since /);
    expect(seen.out).toContain('page         http://127.0.0.1:5000/?token=abc');
    expect(seen.out).toContain('waiting      2 requests for a person');
    expect(seen.out).toContain('servers      everything (ready), server-everything (through the bridge, from claude-ai)');
    const json = context(dir);
    expect(await statusCommand(json.ctx, { json: true })).toBe(0);
    expect(JSON.parse(json.seen.out)).toEqual({ running: true, ...facts() });
  });

  it('not running: exit 3, said on stdout (and as JSON)', async () => {
    const { ctx, seen } = context(tempDir());
    expect(await statusCommand(ctx, { json: false })).toBe(3);
    expect(seen.out).toMatch(/is not running on /);
    const json = context(tempDir());
    expect(await statusCommand(json.ctx, { json: true })).toBe(3);
    expect(JSON.parse(json.seen.out)).toMatchObject({ running: false });
  });

  it('a console that holds the folder but does not answer: exit 1, with its pid, on stderr', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, FOLDER_LOCK_FILE), JSON.stringify({ pid: process.pid }));
    const { ctx, seen } = context(dir);
    expect(await statusCommand({ ...ctx, probe: anyLiveProbe }, { json: false })).toBe(1);
    expect(seen.err).toContain(`(pid ${process.pid}) but does not answer`);
  });
});

describe('stop', () => {
  it('asks the console to stop and waits until its process exited', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await listen(dir, { status: () => facts({ pid: child.pid! }), stop: () => void setTimeout(() => child.kill('SIGTERM'), 300) });
    const { ctx, seen } = context(dir);
    expect(await stopCommand(ctx, { timeoutMs: 10_000 })).toBe(0);
    expect(seen.out).toBe(`Stopped MCP Approval Console (pid ${child.pid})\n`);
    expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
  });

  it('a console that holds the folder but does not answer is sent SIGTERM; none running is fine', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    writeFileSync(path.join(dir, FOLDER_LOCK_FILE), JSON.stringify({ pid: child.pid }));
    const { ctx, seen } = context(dir);
    expect(await stopCommand({ ...ctx, probe: anyLiveProbe }, { timeoutMs: 10_000 })).toBe(0);
    expect(await exited).toBe('SIGTERM');
    expect(seen.err).toMatch(/does not answer .*sending it SIGTERM/);
    const none = context(tempDir());
    expect(await stopCommand(none.ctx, { timeoutMs: 1000 })).toBe(0);
    expect(none.seen.out).toMatch(/is not running/);
  });

  it('exit 1 when the console does not exit in time', async () => {
    const dir = tempDir();
    await listen(dir, { status: () => facts({ pid: process.pid }), stop: () => undefined });
    const { ctx, seen } = context(dir);
    expect(await stopCommand(ctx, { timeoutMs: 300 })).toBe(1);
    expect(seen.err).toMatch(/still running after/);
  });
});

describe('open', () => {
  it("prints the page's address and opens it in the browser; --print only prints", async () => {
    const dir = tempDir();
    await listen(dir);
    const { ctx, seen } = context(dir);
    expect(await openCommand(ctx, { print: false })).toBe(0);
    expect(seen.out).toBe('http://127.0.0.1:5000/?token=abc\n');
    expect(seen.opened).toEqual(['http://127.0.0.1:5000/?token=abc']);
    const printed = context(dir);
    expect(await openCommand(printed.ctx, { print: true })).toBe(0);
    expect(printed.seen.opened).toEqual([]);
  });

  it('no browser here: the address is printed and said so', async () => {
    const dir = tempDir();
    await listen(dir);
    const { ctx, seen } = context(dir, false);
    expect(await openCommand(ctx, { print: false })).toBe(0);
    expect(seen.err).toMatch(/No browser to open here/);
  });

  it('the desktop app shows its window; a page not served yet is exit 1; no console is exit 3', async () => {
    const dir = tempDir();
    await listen(dir, { status: () => facts({ host: 'electron', address: undefined }), show: () => true });
    const desktop = context(dir);
    expect(await openCommand(desktop.ctx, { print: false })).toBe(0);
    expect(desktop.seen.out).toMatch(/Showed the desktop app's window/);
    await listener!.close();
    await listen(dir, { status: () => facts({ address: undefined }) });
    const building = context(dir);
    expect(await openCommand(building.ctx, { print: false })).toBe(1);
    expect(building.seen.err).toMatch(/not served yet/);
    const none = context(tempDir());
    expect(await openCommand(none.ctx, { print: false })).toBe(3);
    expect(none.seen.err).toMatch(/npm start/);
  });
});

describe('doctor', () => {
  const doctorContext = (dir: string, over: Record<string, unknown> = {}) => {
    const c = context(dir);
    return { ...c, ctx: { ...c.ctx, installRoot: ROOT, nodeVersion: '22.14.0', env: { MCP_CONSOLE_GATEWAY_PORT: '0' }, ...over } };
  };

  it('all fine: exit 0, one line per check', async () => {
    const dir = tempDir();
    const { ctx, seen } = doctorContext(dir);
    const code = await doctorCommand(ctx, { json: false });
    const checks = await runDoctorChecks(ctx);
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(code).toBe(0);
    expect(checks.map((c) => c.id)).toEqual(expect.arrayContaining(['node', 'renderer', 'data_folder', 'gateway_port', 'secrets', 'console']));
    expect(seen.out).toMatch(/\[ok\] {3}Node\.js 22\.14\.0 \(needs >=22\.12\)/);
  });

  it('each problem fails with what to do; exit 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const base = tempDir();
      const dir = path.join(base, 'data');
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'secrets.enc.json'), '{ not json');
      const emptyInstall = path.join(base, 'install');
      mkdirSync(emptyInstall);
      const { ctx, seen } = doctorContext(dir, { nodeVersion: '20.11.1', installRoot: emptyInstall, env: { MCP_CONSOLE_GATEWAY_PORT: String(port) } });
      expect(await doctorCommand(ctx, { json: true })).toBe(1);
      const { checks } = JSON.parse(seen.out) as { checks: Array<{ id: string; status: string; fix?: string }> };
      const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
      expect(byId.node).toMatchObject({ status: 'fail', fix: expect.stringMatching(/install Node\.js 22\.12 or newer/) });
      expect(byId.renderer).toMatchObject({ status: 'fail', fix: expect.stringMatching(/npm install.*npm run build/) });
      expect(byId.gateway_port).toMatchObject({ status: 'fail', fix: expect.stringMatching(/"port" in .*gateway\.json/) });
      expect(byId.secrets).toMatchObject({ status: 'fail', fix: expect.stringMatching(/MCP_CONSOLE_SECRET_PASSPHRASE|move .* away/) });
      const unwritable = path.join(base, 'a-file');
      writeFileSync(unwritable, 'x');
      const blocked = doctorContext(path.join(unwritable, 'data'));
      const folder = (await runDoctorChecks(blocked.ctx)).find((c) => c.id === 'data_folder');
      expect(folder).toMatchObject({ status: 'fail', fix: expect.stringMatching(/MCP_CONSOLE_USER_DATA or --data-dir/) });
    } finally {
      blocker.close();
    }
  });

  it('the gateway port the running console listens on is fine', async () => {
    const dir = tempDir();
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      await listen(dir, { status: () => facts({ gateway: `http://127.0.0.1:${port}` }) });
      const { ctx } = doctorContext(dir, { env: { MCP_CONSOLE_GATEWAY_PORT: String(port) } });
      expect((await runDoctorChecks(ctx)).find((c) => c.id === 'gateway_port')).toMatchObject({ status: 'ok', summary: expect.stringMatching(/in use by the running console/) });
    } finally {
      blocker.close();
    }
  });
});
