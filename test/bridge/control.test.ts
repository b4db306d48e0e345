/**
 * The bridge channel beyond requests: the command line asking the console about itself
 * (`control` → `status`, with the same owner-only token), the host named as soon as its
 * `initialize` passed (not only once its server asked for something), and the former names a
 * bridge says in its hello.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_PROTOCOL_VERSION, type ConsoleStatus } from '../../shared/contract/bridge-protocol.js';
import { createConsoleLink } from '../../main/bridge/console-link.js';
import { askConsole, ConsoleNotRunning } from '../../main/bridge/control.js';
import { startBridgeListener, type BridgeListener, type BridgeListenerDeps } from '../../main/bridge/listener.js';
import { bridgeTokenPath } from '../../main/bridge/paths.js';
import { silentLogger } from '../../main/ports.js';
import type { ServerRequestRouter } from '../../main/requests/router.js';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'mcp-bridge-control-'));
const never: ServerRequestRouter = { receive: () => new Promise(() => undefined) as never };
const facts: Omit<ConsoleStatus, 'type'> = {
  pid: 4242,
  host: 'web',
  dataDir: '/data',
  startedAt: 1000,
  address: 'http://127.0.0.1:5000/?token=abc',
  servers: [{ id: 'everything', source: 'console', status: 'ready' }],
  waiting: 2,
  gateway: 'http://127.0.0.1:47615',
};

describe('the command line asks the console', () => {
  let listener: BridgeListener | undefined;
  const start = async (dir: string, deps: Partial<BridgeListenerDeps> = {}) => (listener = await startBridgeListener({ dir, requests: never, logger: silentLogger, status: () => facts, ...deps }));
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  it('status: pid, page address with its token, servers, requests waiting; the connection is not a bridge', async () => {
    const dir = tempDir();
    await start(dir);
    await expect(askConsole(dir, 'status')).resolves.toEqual({ type: 'status', ...facts });
    expect(listener!.connected()).toEqual([]);
  });

  it('stop: the answer is written, then the console shuts down (closing the listener loses no answer)', async () => {
    const dir = tempDir();
    let stops = 0;
    await start(dir, { stop: () => void (stops++, listener!.close()) });
    await expect(askConsole(dir, 'stop')).resolves.toMatchObject({ pid: 4242, stopping: true });
    await expect.poll(() => stops).toBe(1);
  });

  it('stop is refused by a console that cannot be stopped so; show says whether it had a window', async () => {
    const dir = tempDir();
    await start(dir);
    await expect(askConsole(dir, 'stop')).rejects.toThrow(/refused: this console cannot be asked to stop/);
    await expect(askConsole(dir, 'show')).resolves.toMatchObject({ shown: false });
    await listener!.close();
    await start(dir, { show: () => true });
    await expect(askConsole(dir, 'show')).resolves.toMatchObject({ shown: true });
  });

  it('a wrong token is refused; no console at all is "not running"', async () => {
    const dir = tempDir();
    await start(dir);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bridgeTokenPath(dir), 'not-the-token');
    await expect(askConsole(dir, 'status')).rejects.toThrow(/wrong token/);
    await listener!.close();
    listener = undefined;
    await expect(askConsole(dir, 'status')).rejects.toBeInstanceOf(ConsoleNotRunning);
    const empty = tempDir();
    rmSync(empty, { recursive: true });
    await expect(askConsole(empty, 'status')).rejects.toBeInstanceOf(ConsoleNotRunning);
  });
});

describe('the host of a bridged server', () => {
  let listener: BridgeListener | undefined;
  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  it("is named from the bridge's report once the host initialized, before its server asks for anything", async () => {
    const dir = tempDir();
    let changes = 0;
    listener = await startBridgeListener({ dir, requests: never, logger: silentLogger, onChange: () => changes++ });
    const link = createConsoleLink({ dir, serverId: 'notes' });
    await link.warmUp(); // connected before the host's initialize: no host yet
    await expect.poll(() => listener!.connected()).toEqual([expect.objectContaining({ serverId: 'notes' })]);
    expect(listener!.connected()[0]!.via).toBeUndefined();
    const before = changes;
    link.report({ type: 'activity', via: { host: 'claude-ai', version: '1.2' }, protocol: [], stderr: [], calls: [] });
    await expect.poll(() => listener!.connected()[0]?.via).toEqual({ host: 'claude-ai', version: '1.2' });
    expect(changes).toBeGreaterThan(before); // the Servers screen is told
    link.close();
  });

  it('is in the hello of a bridge that connects after the host initialized', async () => {
    const dir = tempDir();
    listener = await startBridgeListener({ dir, requests: never, logger: silentLogger });
    const link = createConsoleLink({ dir, serverId: 'notes', via: () => ({ host: 'cursor' }) });
    await link.warmUp();
    await expect.poll(() => listener!.connected()[0]?.via).toEqual({ host: 'cursor' });
    link.close();
  });
});

describe('former names in the hello', () => {
  it('reach the console', async () => {
    const dir = tempDir();
    const said: Array<[string, string[]]> = [];
    const listener = await startBridgeListener({ dir, requests: never, logger: silentLogger, onFormerNames: (id, names) => said.push([id, names]) });
    const link = createConsoleLink({ dir, serverId: 'server-everything', formerly: ['index'] });
    await link.warmUp();
    await expect.poll(() => said).toEqual([['server-everything', ['index']]]);
    link.close();
    await listener!.close();
    expect(BRIDGE_PROTOCOL_VERSION).toBe(2); // an optional field: bridges and consoles of either side still talk
  });
});
