/**
 * The local channel between bridges and the console: owner-only socket and token, the token
 * checked, a non-socket file left alone, a stale socket replaced, requests entering the console's
 * one door with source `bridge`, and every way a request can end without an answer ending it with
 * a clear error (nothing hangs).
 */
import { lstatSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_PROTOCOL_VERSION } from '../../shared/contract/bridge-protocol.js';
import { CONSOLE_UNAVAILABLE_CODE, createConsoleLink } from '../../main/bridge/console-link.js';
import { startBridgeListener, type BridgeListener } from '../../main/bridge/listener.js';
import { bridgeSocketPath, bridgeTokenPath } from '../../main/bridge/paths.js';
import { protocolError } from '../../main/mcp/protocol.js';
import { silentLogger } from '../../main/ports.js';
import type { IncomingServerRequest } from '../../main/requests/incoming.js';
import type { ServerRequestRouter } from '../../main/requests/router.js';

const posix = process.platform !== 'win32';
const tempDir = () => mkdtempSync(path.join(tmpdir(), 'mcp-bridge-channel-'));

/** A router that records each request and answers with `answer` (or waits forever when it returns undefined). */
function fakeRouter(answer: (r: IncomingServerRequest) => Promise<unknown> | undefined) {
  const seen: IncomingServerRequest[] = [];
  const router: ServerRequestRouter = {
    receive: (r) => {
      seen.push(r);
      return (answer(r) ?? new Promise(() => undefined)) as never;
    },
  };
  return { seen, router };
}

/** Sends raw lines on the socket and resolves with the first line back. */
async function rawExchange(socketPath: string, lines: unknown[]): Promise<Record<string, unknown>> {
  const socket = net.connect(socketPath);
  return new Promise((resolve, reject) => {
    let buf = '';
    socket.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl !== -1) {
        socket.destroy();
        resolve(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      }
    });
    socket.on('error', reject);
    socket.on('connect', () => lines.forEach((l) => socket.write(`${JSON.stringify(l)}\n`)));
  });
}

describe('bridge channel', () => {
  let listener: BridgeListener | undefined;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  it.runIf(posix)('creates the socket and the token file owner-only (0600)', async () => {
    const dir = tempDir();
    listener = await startBridgeListener({ dir, requests: fakeRouter(() => undefined).router, logger: silentLogger });
    expect(lstatSync(listener!.path).isSocket()).toBe(true);
    expect(statSync(listener!.path).mode & 0o777).toBe(0o600);
    expect(statSync(bridgeTokenPath(dir)).mode & 0o777).toBe(0o600);
  });

  it('refuses a hello with a wrong token', async () => {
    const dir = tempDir();
    listener = await startBridgeListener({ dir, requests: fakeRouter(() => undefined).router, logger: silentLogger });
    const reply = await rawExchange(listener!.path, [{ type: 'hello', protocol: BRIDGE_PROTOCOL_VERSION, token: 'not-the-token', serverId: 'x' }]);
    expect(reply).toMatchObject({ type: 'refused', message: expect.stringMatching(/wrong token/) });
  });

  it('answers a request that arrives before the hello by closing (nothing reaches the console)', async () => {
    const dir = tempDir();
    const { seen, router } = fakeRouter(() => Promise.resolve({}));
    listener = await startBridgeListener({ dir, requests: router, logger: silentLogger });
    const reply = await rawExchange(listener!.path, [{ type: 'request', id: 1, kind: 'roots', era: 'legacy', params: {} }]);
    expect(reply.type).toBe('refused');
    expect(seen).toHaveLength(0);
  });

  it.runIf(posix)('leaves a file that is not a socket alone and does not start; replaces a stale socket', async () => {
    const dir = tempDir();
    writeFileSync(bridgeSocketPath(dir), 'mine');
    await expect(startBridgeListener({ dir, requests: fakeRouter(() => undefined).router, logger: silentLogger })).rejects.toThrow(/not a socket/);
    const stale = tempDir();
    const old = net.createServer();
    await new Promise<void>((r) => old.listen(bridgeSocketPath(stale), r));
    // Closing a listening server removes its socket file; a crash leaves it. Simulate the crash: keep the file, stop answering.
    (old as unknown as { _handle?: { close(): void } })._handle?.close();
    listener = await startBridgeListener({ dir: stale, requests: fakeRouter(() => undefined).router, logger: silentLogger });
    expect(listener).toBeDefined();
  });

  it("hands requests to the console's door with source bridge, the host and the calls; the answer comes back", async () => {
    const dir = tempDir();
    const { seen, router } = fakeRouter((r) => (r.kind === 'roots' ? Promise.resolve({ roots: [] }) : Promise.reject(protocolError(-1, 'rejected by the person'))));
    listener = await startBridgeListener({ dir, requests: router, logger: silentLogger });
    const link = createConsoleLink({ dir, serverId: 'srv' });
    const call = { callId: 'host:7', kind: 'tools/call' as const, name: 'ask' };
    await expect(link.request('roots', {}, { era: 'legacy', via: { host: 'claude-ai', version: '1' }, calls: [call] })).resolves.toEqual({ roots: [] });
    await expect(link.request('sampling', { messages: [] }, { era: 'legacy', calls: [call], exact: true })).rejects.toMatchObject({ code: -1, message: expect.stringContaining('rejected by the person') });
    expect(seen[0]).toMatchObject({ kind: 'roots', source: 'bridge', serverId: 'srv', via: { host: 'claude-ai', version: '1' }, inFlight: [call] });
    expect(seen[1]).toMatchObject({ kind: 'sampling', call });
    link.close();
  });

  it('lists the bridges connected now (server, host once known, since, requests in hand) and says when that changes', async () => {
    const dir = tempDir();
    let release: (v: unknown) => void = () => undefined;
    const { router } = fakeRouter(() => new Promise((resolve) => (release = resolve)));
    let changes = 0;
    listener = await startBridgeListener({ dir, requests: router, logger: silentLogger, now: () => 1234, onChange: () => changes++ });
    expect(listener!.connected()).toEqual([]);
    const link = createConsoleLink({ dir, serverId: 'notes' });
    const pending = link.request('roots', {}, { era: 'legacy', via: { host: 'claude-ai', version: '1' } });
    await expect.poll(() => listener!.connected()).toEqual([{ serverId: 'notes', via: { host: 'claude-ai', version: '1' }, since: 1234, pending: 1 }]);
    release({ roots: [] });
    await pending;
    await expect.poll(() => listener!.connected()[0]?.pending).toBe(0);
    const before = changes;
    link.close();
    await expect.poll(() => listener!.connected()).toEqual([]);
    expect(changes).toBeGreaterThan(before);
  });

  it("the server's cancel aborts the console's request with its typed cause", async () => {
    const dir = tempDir();
    const { seen, router } = fakeRouter(() => undefined);
    listener = await startBridgeListener({ dir, requests: router, logger: silentLogger });
    const link = createConsoleLink({ dir, serverId: 'srv' });
    const abort = new AbortController();
    const pending = link.request('sampling', {}, { era: 'legacy', signal: abort.signal });
    await expect.poll(() => seen.length).toBe(1);
    const { RequestAbort } = await import('../../main/requests/incoming.js');
    abort.abort(new RequestAbort('server_timeout', 'Request timed out'));
    await expect(pending).rejects.toThrow();
    await expect.poll(() => seen[0]!.signal.aborted).toBe(true);
    expect(seen[0]!.signal.reason).toMatchObject({ abortCause: 'server_timeout', serverReason: 'Request timed out' });
    link.close();
  });

  it('a console that stops with a request under review ends it with a clear error; then it is "not running"', async () => {
    const dir = tempDir();
    listener = await startBridgeListener({ dir, requests: fakeRouter(() => undefined).router, logger: silentLogger });
    const link = createConsoleLink({ dir, serverId: 'srv' });
    const outcome = link.request('sampling', {}, { era: 'legacy' }).then(() => undefined, (err: unknown) => err);
    await new Promise((r) => setTimeout(r, 100));
    await listener!.close();
    listener = undefined;
    expect(await outcome).toMatchObject({ code: CONSOLE_UNAVAILABLE_CODE, message: expect.stringMatching(/MCP Approval Console stopped/) });
    await expect(link.request('roots', {}, { era: 'legacy' })).rejects.toMatchObject({ code: CONSOLE_UNAVAILABLE_CODE, message: expect.stringMatching(/^MCP Approval Console is not running: /) });
    link.close();
  });

  it('a link whose launch fails says why in the error', async () => {
    const dir = tempDir();
    const link = createConsoleLink({ dir, serverId: 'srv', launch: () => Promise.reject(new Error('the console could not be started: it exited (1): boom')) });
    await expect(link.request('sampling', {}, { era: 'legacy' })).rejects.toMatchObject({ code: CONSOLE_UNAVAILABLE_CODE, message: expect.stringMatching(/^MCP Approval Console is not running: .*boom/) });
    link.close();
  });
});

describe('launch lock', () => {
  it('one bridge takes it; the next does not while it is fresh; a stale one is replaced', async () => {
    const { takeLaunchLock } = await import('../../main/bridge/launch.js');
    const lock = path.join(mkdtempSync(path.join(tmpdir(), 'launch-lock-')), 'console-launch.lock');
    expect(takeLaunchLock(lock, 30_000)).toBe(true);
    expect(takeLaunchLock(lock, 30_000)).toBe(false);
    expect(statSync(lock).mode & 0o777).toBe(0o600);
    expect(takeLaunchLock(lock, -1)).toBe(true); // older than "stale": its bridge died while launching
  });
});

describe('two bridges find no console at once', () => {
  it('only one starts it; the other waits for it to listen', async () => {
    const { launchHeadlessConsole } = await import('../../main/bridge/launch.js');
    const dir = mkdtempSync(path.join(tmpdir(), 'launch-race-'));
    const starts = path.join(dir, 'starts.txt');
    // A stand-in console: notes its start, then listens on the channel's socket after a moment.
    const script = `require('fs').appendFileSync(process.env.STARTS, 'x'); setTimeout(() => require('net').createServer().listen(process.env.SOCK), 300); setTimeout(() => process.exit(0), 5000);`;
    const spec = { command: process.execPath, args: ['-e', script], env: { STARTS: starts, SOCK: bridgeSocketPath(dir) } };
    const [a, b] = await Promise.all([launchHeadlessConsole(spec, dir, 10_000), launchHeadlessConsole(spec, dir, 10_000)]);
    expect([a, b].filter((pid) => pid !== undefined)).toHaveLength(1);
    expect(readFileSync(starts, 'utf8')).toBe('x');
    for (const pid of [a, b]) if (pid) process.kill(pid);
  }, 20_000);
});
