import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ApiError, type ConsoleEvent } from '../../shared/contract/api.js';
import { startWebHost, type WebHost } from '../../app/web/server.js';
import { createWsClient, type ConnectionStatus, type SocketEvent, type SocketLike, type WsClient } from '../../renderer/api/ws-client.js';
import { createFakeService, makeState } from '../support/fake-service.js';
import { makeStaticDir } from './helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(fake = createFakeService(), port = 0, token?: string): Promise<{ host: WebHost; dir: ReturnType<typeof makeStaticDir> }> {
  const dir = makeStaticDir();
  const host = await startWebHost({ service: fake.service, staticDir: dir.staticDir, port, token });
  cleanups.push(() => dir.cleanup(), () => host.close());
  return { host, dir };
}

function client(host: WebHost, token = host.token): WsClient {
  const c = createWsClient({
    url: `ws://127.0.0.1:${host.port}/api?token=${encodeURIComponent(token)}`,
    createSocket: (url) => new WebSocket(url, { origin: host.origin }),
    minBackoffMs: 20,
    maxBackoffMs: 100,
  });
  cleanups.push(() => c.close());
  return c;
}

describe('ws client against the real web host', () => {
  it('sends requests (queued until open) and resolves with the value', async () => {
    const fake = createFakeService();
    const { host } = await setup(fake);
    const c = client(host);
    expect(c.status()).toBe('connecting');
    const [state, page, call] = await Promise.all([
      c.api.getState({}),
      c.api.listHistory({ query: 'x' }),
      c.api.callTool({ serverId: 's1', name: 'echo' }),
    ]);
    expect(state).toEqual(fake.state);
    expect(page).toEqual({ entries: [], total: 0 });
    expect(call).toEqual({ callId: 'call-1' });
    expect(c.status()).toBe('open');
    expect(fake.calls).toContainEqual({ method: 'callTool', input: { serverId: 's1', name: 'echo', arguments: {} } });
  });

  it('rejects with ApiError carrying the host error code', async () => {
    const fake = createFakeService({
      rejectRequest: () => {
        throw new ApiError('invalid_state', 'already decided');
      },
    });
    const { host } = await setup(fake);
    const c = client(host);
    await expect(c.api.rejectRequest({ itemId: 'i1', version: 'a'.repeat(64) })).rejects.toMatchObject({ name: 'ApiError', code: 'invalid_state', message: 'already decided' });
    const bad = c.api.dismissItem({ itemId: '' });
    await expect(bad).rejects.toBeInstanceOf(ApiError);
    await expect(bad).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('delivers events to subscribers until they unsubscribe', async () => {
    const fake = createFakeService();
    const { host } = await setup(fake);
    const c = client(host);
    const got: ConsoleEvent[] = [];
    const off = c.api.onEvent((e) => got.push(e));
    await c.api.getState({});
    fake.emit({ type: 'patch', patch: { version: 2, notices: [] } });
    await expect.poll(() => got.length).toBe(1);
    expect(got[0]).toEqual({ type: 'patch', patch: { version: 2, notices: [] } });
    off();
    fake.emit({ type: 'patch', patch: { version: 3, notices: [] } });
    await c.api.getState({}); // a round trip after the emit: the event would have arrived by now
    expect(got).toHaveLength(1);
  });

  it('rejects pending requests when the connection drops, then reconnects and sends a snapshot', async () => {
    let release: (() => void) | null = null;
    const fake = createFakeService({ restartServer: () => new Promise<void>((r) => (release = r)) });
    const { host } = await setup(fake);
    const c = client(host);
    const statuses: ConnectionStatus[] = [];
    c.onStatus((s) => statuses.push(s));
    const events: ConsoleEvent[] = [];
    c.api.onEvent((e) => events.push(e));
    await c.api.getState({});
    const hanging = c.api.restartServer({ serverId: 's1' });
    await expect.poll(() => release !== null).toBe(true);
    await host.close();
    await expect(hanging).rejects.toMatchObject({ name: 'ApiError', code: 'internal', message: 'connection lost' });

    // Same port and token, new service state: the client comes back on its own.
    const fake2 = createFakeService();
    fake2.state = makeState(42);
    await setup(fake2, host.port, host.token);
    await expect.poll(() => events.find((e) => e.type === 'snapshot'), { timeout: 5000 }).toEqual({ type: 'snapshot', state: makeState(42) });
    expect(c.status()).toBe('open');
    expect(statuses).toContain('reconnecting');
    expect(statuses.at(-1)).toBe('open');
    await expect(c.api.listHistory({})).resolves.toEqual({ entries: [], total: 0 });
  });

  it('rejects everything after close() and stops reconnecting', async () => {
    const { host } = await setup();
    const c = client(host);
    await c.api.getState({});
    c.close();
    expect(c.status()).toBe('closed');
    await expect(c.api.getState({})).rejects.toMatchObject({ code: 'internal', message: 'connection lost' });
  });

  it('cannot connect with a wrong token (the host refuses the upgrade)', async () => {
    const { host } = await setup();
    const c = client(host, 'wrong-token-wrong-token');
    await expect(c.api.getState({})).rejects.toMatchObject({ code: 'internal', message: 'connection lost' });
    expect(c.status()).not.toBe('open');
  });
});

/** A scripted socket for ordering tests. */
class ScriptedSocket implements SocketLike {
  static all: ScriptedSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  private handlers = new Map<string, Array<(ev: SocketEvent) => void>>();
  constructor() {
    ScriptedSocket.all.push(this);
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.fire('close');
  }
  addEventListener(type: string, listener: (ev: SocketEvent) => void): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), listener]);
  }
  fire(type: string, data?: unknown): void {
    if (type === 'open') this.readyState = 1;
    if (type === 'close') this.readyState = 3;
    for (const h of this.handlers.get(type) ?? []) h({ type, data });
  }
  server(frame: unknown): void {
    this.fire('message', JSON.stringify(frame));
  }
}

describe('ws client resync after reconnect', () => {
  it('delivers the snapshot first and drops patches it already contains', async () => {
    ScriptedSocket.all = [];
    const c = createWsClient({ url: 'ws://x/api', createSocket: () => new ScriptedSocket(), minBackoffMs: 1, maxBackoffMs: 1 });
    cleanups.push(() => c.close());
    const events: ConsoleEvent[] = [];
    c.api.onEvent((e) => events.push(e));
    const first = ScriptedSocket.all[0]!;
    first.fire('open');
    first.server({ event: { type: 'patch', patch: { version: 2 } } });
    first.fire('close');
    await expect.poll(() => ScriptedSocket.all.length).toBe(2);
    const second = ScriptedSocket.all[1]!;
    second.fire('open');
    const req = JSON.parse(second.sent[0]!) as { id: number; method: string };
    expect(req.method).toBe('getState');
    second.server({ event: { type: 'patch', patch: { version: 5 } } });
    second.server({ event: { type: 'patch', patch: { version: 7 } } });
    second.server({ id: req.id, reply: { ok: true, value: makeState(6) } });
    await expect.poll(() => events.length).toBeGreaterThan(1);
    expect(events).toEqual([
      { type: 'patch', patch: { version: 2 } },
      { type: 'snapshot', state: makeState(6) },
      { type: 'patch', patch: { version: 7 } },
    ]);
    second.server({ event: { type: 'patch', patch: { version: 8 } } });
    expect(events.at(-1)).toEqual({ type: 'patch', patch: { version: 8 } });
  });

  it('ignores garbage frames and replies to unknown ids', async () => {
    ScriptedSocket.all = [];
    const c = createWsClient({ url: 'ws://x/api', createSocket: () => new ScriptedSocket() });
    cleanups.push(() => c.close());
    const s = ScriptedSocket.all[0]!;
    s.fire('open');
    const p = c.api.getState({});
    const req = JSON.parse(s.sent[0]!) as { id: number };
    s.fire('message', '{not json');
    s.fire('message', new Uint8Array([1, 2]));
    s.server({ id: req.id + 100, reply: { ok: true, value: 1 } });
    s.server({ id: req.id, reply: { ok: 'maybe' } });
    s.server({ event: { type: 'bogus' } });
    s.server({ id: req.id, reply: { ok: true, value: makeState(1) } });
    await expect(p).resolves.toEqual(makeState(1));
  });
});
