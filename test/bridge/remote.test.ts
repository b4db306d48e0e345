/**
 * The bridge channel to a team server over a WebSocket: requests enter the console's one door
 * with the remote caller's token checked at the upgrade; a refused token fails at once; control
 * requests are refused; a request in flight when the instance goes away ends with a clear error;
 * the link connects again with backoff (the load balancer's next instance) — a request asked
 * meanwhile waits for it, one asked when none comes within the wait fails clearly — and shows on
 * the new instance without a request.
 */
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { BRIDGE_PROTOCOL_VERSION } from '../../shared/contract/bridge-protocol.js';
import { CONSOLE_UNAVAILABLE_CODE, createConsoleLink, type ConsoleLink } from '../../main/bridge/console-link.js';
import { startBridgeListener, TOKEN_REVOKED_CODE, type RemoteCaller } from '../../main/bridge/listener.js';
import { bridgeChannelUrl } from '../../main/bridge/remote-channel.js';
import { bearerToken } from '../../main/http/token.js';
import { silentLogger } from '../../main/ports.js';
import type { IncomingServerRequest } from '../../main/requests/incoming.js';

const TOKEN = 'mcpgw_alice';
const FAST = { waitMs: 3_000, retryMinMs: 20, retryMaxMs: 100 };

/**
 * One "instance": a bridge listener with a tiny team-server door (`/bridge`, the bearer token
 * checked) on `port` (0: any). `answer` decides each request (undefined: never answered).
 */
async function instance(port: number, answer: (r: IncomingServerRequest) => Promise<unknown> | undefined, caller: RemoteCaller = { name: 'alice' }) {
  const seen: IncomingServerRequest[] = [];
  const listener = (await startBridgeListener({
    dir: mkdtempSync(path.join(tmpdir(), 'mcp-remote-')),
    logger: silentLogger,
    requests: { receive: (r) => (seen.push(r), (answer(r) ?? new Promise(() => undefined)) as never) },
  }))!;
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    if (req.url !== '/bridge') return socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
    if (bearerToken(req) !== TOKEN) return socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => listener.acceptRemote(ws, caller));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const at = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${at}`,
    port: at,
    seen,
    listener,
    /** Stops as a killed instance would look to the bridge: connections dropped, nothing answered. */
    async kill() {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await listener.close();
    },
  };
}

type Instance = Awaited<ReturnType<typeof instance>>;

describe('bridge channel to a team server', () => {
  const running: Instance[] = [];
  const links: ConsoleLink[] = [];
  const link = (url: string, token = TOKEN) => {
    const l = createConsoleLink({ dir: '/nonexistent', serverId: 'weather', remote: { url, token }, remoteTimings: FAST });
    links.push(l);
    return l;
  };
  const start = async (port: number, answer: Parameters<typeof instance>[1], caller?: RemoteCaller) => {
    const i = await instance(port, answer, caller);
    running.push(i);
    return i;
  };
  afterEach(async () => {
    for (const l of links.splice(0)) l.close();
    await Promise.all(running.splice(0).map((i) => i.kill().catch(() => undefined)));
  });

  it('bridgeChannelUrl: wss for https, ws for http, always /bridge at the root', () => {
    expect(bridgeChannelUrl('https://console.example.com')).toBe('wss://console.example.com/bridge');
    expect(bridgeChannelUrl('http://127.0.0.1:4000/anything')).toBe('ws://127.0.0.1:4000/bridge');
    expect(() => bridgeChannelUrl('ftp://x')).toThrow(/http\(s\)/);
  });

  it("a request goes through the token's door into the console's one door, named by the bridge, and is answered", async () => {
    const a = await start(0, async () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }));
    const result = await link(a.url).request('sampling', { messages: [] }, { era: 'legacy' });
    expect(result).toMatchObject({ content: { text: 'hi' } });
    expect(a.seen[0]).toMatchObject({ kind: 'sampling', source: 'bridge', serverId: 'weather' });
    expect(a.listener.connected().map((c) => c.serverId)).toEqual(['weather']);
  });

  it('a refused token fails the request at once with what to do (no waiting for retries)', async () => {
    const a = await start(0, async () => ({}));
    const started = Date.now();
    const err = await link(a.url, 'mcpgw_wrong').request('sampling', {}, { era: 'legacy' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: CONSOLE_UNAVAILABLE_CODE, message: expect.stringMatching(/cannot be reached: the team console refused the token \(HTTP 401\)/) });
    expect(Date.now() - started).toBeLessThan(FAST.waitMs);
  });

  it("a person's token: requests are requested by its owner; revoked, the next request is refused at once", async () => {
    let valid = true;
    const caller: RemoteCaller = { name: 'ana-laptop', requestedBy: { subject: 'p_ana', name: 'Ana' }, servers: ['weather'], valid: async () => valid };
    const a = await start(0, async () => ({ ok: true }), caller);
    const l = link(a.url);
    expect(await l.request('sampling', {}, { era: 'legacy' })).toEqual({ ok: true });
    expect(a.seen[0]).toMatchObject({ serverId: 'weather', requestedBy: { subject: 'p_ana', name: 'Ana' } });
    valid = false;
    const err = await l.request('sampling', {}, { era: 'legacy' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: TOKEN_REVOKED_CODE, message: expect.stringMatching(/ana-laptop was revoked/) });
    expect(a.seen).toHaveLength(1);
  });

  it("a person's token scoped to other servers: the bridge is refused at hello", async () => {
    const a = await start(0, async () => ({}), { name: 'ana-github', servers: ['github'], valid: async () => true });
    const ws = new WebSocket(bridgeChannelUrl(a.url), { headers: { authorization: `Bearer ${TOKEN}` } });
    await new Promise((resolve) => ws.once('open', resolve));
    const answer = new Promise<unknown>((resolve) => ws.once('message', (d: Buffer) => resolve(JSON.parse(d.toString()))));
    ws.send(JSON.stringify({ type: 'hello', protocol: BRIDGE_PROTOCOL_VERSION, token: TOKEN, serverId: 'weather', pid: 1 }));
    expect(await answer).toEqual({ type: 'refused', message: expect.stringMatching(/may not bring server weather/) });
    expect(a.listener.connected()).toEqual([]);
    ws.close();
  });

  it('refuses control requests (status, stop, open) from another machine', async () => {
    const a = await start(0, async () => ({}));
    const ws = new WebSocket(bridgeChannelUrl(a.url), { headers: { authorization: `Bearer ${TOKEN}` } });
    await new Promise((resolve) => ws.once('open', resolve));
    const answer = new Promise<unknown>((resolve) => ws.once('message', (d: Buffer) => resolve(JSON.parse(d.toString()))));
    ws.send(JSON.stringify({ type: 'control', protocol: BRIDGE_PROTOCOL_VERSION, token: TOKEN, action: 'stop' }));
    expect(await answer).toEqual({ type: 'refused', message: expect.stringMatching(/only on its own machine/) });
    ws.close();
  });

  it('the instance goes away mid-review: that request ends clearly; another on the same address takes the next one and the bridge shows there unasked', async () => {
    const a = await start(0, () => undefined); // never answers: under review
    const l = link(a.url);
    const pending = l.request('sampling', {}, { era: 'legacy' }).catch((e: unknown) => e);
    await expect.poll(() => a.seen.length).toBe(1);
    await a.kill();
    expect(await pending).toMatchObject({ code: CONSOLE_UNAVAILABLE_CODE, message: expect.stringMatching(/instance went away while the request was under review/) });
    const b = await start(a.port, async () => ({ answeredBy: 'b' }));
    await expect.poll(() => b.listener.connected().length, { timeout: 5_000 }).toBe(1); // reconnected in the background
    expect(await l.request('sampling', {}, { era: 'legacy' })).toEqual({ answeredBy: 'b' });
  });

  it('a request asked while no instance answers waits for the next one within the wait; past it, a clear error', async () => {
    const a = await start(0, async () => ({}));
    const port = a.port;
    const l = link(a.url);
    await l.request('sampling', {}, { era: 'legacy' });
    await a.kill();
    // The bridge sees the connection close (a request written before that would be one in flight, ended as such).
    await new Promise((r) => setTimeout(r, 100));
    const waiting = l.request('sampling', {}, { era: 'legacy' });
    waiting.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 300));
    await start(port, async () => ({ answeredBy: 'late' }));
    expect(await waiting).toEqual({ answeredBy: 'late' });
    await running.pop()!.kill();
    await new Promise((r) => setTimeout(r, 100));
    const err = await l.request('sampling', {}, { era: 'legacy' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: CONSOLE_UNAVAILABLE_CODE, message: expect.stringMatching(/^The team console at http:\/\/127\.0\.0\.1:\d+ cannot be reached/) });
  });
});
