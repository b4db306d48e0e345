/**
 * Bridged servers on loopback Streamable HTTP (main/bridge/http-serving.ts): a bare v2 SDK client
 * (declaring no sampling) reaches server-everything at `/mcp/everything` with the bearer token;
 * the server's sampling reaches the console's queue and the person's answer the host. Refusals:
 * no or a wrong token (401), an Origin or a foreign Host (403), an unknown server (404). DELETE
 * ends the session and its bridge; closing the serving ends them all. A 2026-07-28 client is served
 * per request (the sampling fixture, modern era).
 */
import { statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeHttpToken, createBridgeHttpServing, type BridgeHttpServing } from '../../main/bridge/http-serving.js';
import { bridgeHttpTokenPath } from '../../main/bridge/paths.js';
import { silentLogger } from '../../main/ports.js';
import { startSamplingServer } from '../fixtures/sampling-server.js';
import { everythingStdio, startHarness, type Harness, seenVersion } from '../support/console-harness.js';
import { HOST_INFO, newItem, textOf } from './support.js';

const MANUAL = { providerId: 'manual', modelId: 'manual' } as const;
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: HOST_INFO } };

/** A console, the serving mounted on a 127.0.0.1 listener, and its base URL. */
async function startServing(servers: Record<string, unknown>): Promise<{ h: Harness; serving: BridgeHttpServing; listener: Server; base: string; token: string }> {
  const h = await startHarness({ servers });
  const token = bridgeHttpToken(h.dir);
  const serving = createBridgeHttpServing({ userDataDir: h.dir, logger: silentLogger, token });
  const listener = createServer((req, res) => {
    void serving.handle(req, res).then((handled) => handled || res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return { h, serving, listener, base: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`, token };
}

/** Stops what {@link startServing} started. */
async function stopServing(s: { h?: Harness; serving?: BridgeHttpServing; listener?: Server } | undefined): Promise<void> {
  await s?.serving?.close();
  s?.listener?.closeAllConnections();
  await new Promise((resolve) => (s?.listener ? s.listener.close(resolve) : resolve(undefined)));
  await s?.h?.dispose();
}

/** A host client connected to `url` with `token`. */
async function connectClient(url: string, token: string, options: Record<string, unknown> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client(HOST_INFO, { capabilities: {}, ...options });
  await client.connect(transport);
  return { client, transport };
}

/** A raw POST of `body` (node:http, so any Host header can be sent); status and parsed body. */
function rawPost(base: string, path: string, headers: Record<string, string>, body: unknown = INITIALIZE): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('bridged server-everything on loopback Streamable HTTP', () => {
  let s: Awaited<ReturnType<typeof startServing>>;
  let host: { client: Client; transport: StreamableHTTPClientTransport };

  beforeAll(async () => {
    // Disabled: the console itself does not connect; only the bridges run it.
    s = await startServing({ everything: { ...everythingStdio(), disabled: true } });
    host = await connectClient(`${s.base}/mcp/everything`, s.token);
  }, 60_000);

  afterAll(async () => {
    await host?.client.close();
    await stopServing(s);
  });

  it('keeps its token in an owner-only file, the same on every read', () => {
    expect(bridgeHttpToken(s.h.dir)).toBe(s.token);
    expect(s.token).toMatch(/^[0-9a-f]{64}$/);
    if (process.platform !== 'win32') expect(statSync(bridgeHttpTokenPath(s.h.dir)).mode & 0o777).toBe(0o600);
  });

  it('lists the tools a sampling client gets (the bridge declares sampling for the host)', async () => {
    expect(host.client.getServerVersion()?.name).toMatch(/everything/i);
    const names = (await host.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'trigger-sampling-request']));
    expect(textOf(await host.client.callTool({ name: 'echo', arguments: { message: 'over http' } }))).toContain('over http');
  });

  it('passes progress of a long-running tool to the request that asked for it', async () => {
    const steps: number[] = [];
    const result = await host.client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, { onprogress: (p) => steps.push(p.progress) });
    expect(textOf(result)).toMatch(/completed/i);
    expect(steps.length).toBeGreaterThanOrEqual(2);
  });

  it("a server's sampling request reaches the console's queue; the person's answer reaches the host as the tool result", async () => {
    const call = host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello over http', maxTokens: 32 } });
    const item = await newItem(s.h, 'everything');
    expect(item.via).toEqual({ host: HOST_INFO.name, version: HOST_INFO.version });
    expect(JSON.stringify(item.original.messages)).toContain('hello over http');
    await s.h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL });
    await s.h.waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await s.h.service.approveResponse({ itemId: item.id, version: await seenVersion(s.h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'answered over http' }, model: 'manual', stopReason: 'endTurn' } });
    expect(textOf(await call)).toContain('answered over http');
  }, 30_000);

  it('refuses no token and a wrong token (401), an Origin or a foreign Host (403), with JSON-RPC error bodies', async () => {
    const port = new URL(s.base).port;
    const cases: Array<[Record<string, string>, number]> = [
      [{}, 401],
      [{ authorization: 'Bearer wrong' }, 401],
      [{ authorization: `Bearer ${s.token}x` }, 401],
      [{ authorization: `Bearer ${s.token}`, origin: 'https://evil.example' }, 403],
      [{ authorization: `Bearer ${s.token}`, host: `evil.example:${port}` }, 403],
    ];
    for (const [headers, status] of cases) {
      const answer = await rawPost(s.base, '/mcp/everything', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(status);
      expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.any(String) } });
    }
    expect(s.serving.sessions()).toBe(1);
  });

  it('answers 404 for a server the console does not have, and leaves other paths to the listener', async () => {
    const unknown = await rawPost(s.base, '/mcp/nope', { authorization: `Bearer ${s.token}` });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).toContain('nope');
    expect((await rawPost(s.base, '/other', { authorization: `Bearer ${s.token}` })).status).toBe(404);
  });

  it("DELETE ends a session and its bridge; the session's id is then unknown (404)", async () => {
    const second = await connectClient(`${s.base}/mcp/everything`, s.token);
    expect(s.serving.sessions()).toBe(2);
    const sid = second.transport.sessionId!;
    await second.transport.terminateSession();
    await expect.poll(() => s.serving.sessions()).toBe(1);
    const after = await rawPost(s.base, '/mcp/everything', { authorization: `Bearer ${s.token}`, 'mcp-session-id': sid }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(after.status).toBe(404);
    await second.client.close();
  });
});

describe('closing the serving', () => {
  it('closes every session; new ones are refused', async () => {
    const s = await startServing({ everything: { ...everythingStdio(), disabled: true } });
    try {
      const hosts = await Promise.all([connectClient(`${s.base}/mcp/everything`, s.token), connectClient(`${s.base}/mcp/everything`, s.token)]);
      expect(s.serving.sessions()).toBe(2);
      await s.serving.close();
      expect(s.serving.sessions()).toBe(0);
      await expect(hosts[0]!.client.listTools()).rejects.toThrow();
      expect((await rawPost(s.base, '/mcp/everything', { authorization: `Bearer ${s.token}` })).status).toBe(503);
      await Promise.all(hosts.map((x) => x.client.close()));
    } finally {
      await stopServing(s);
    }
  }, 60_000);
});

describe('a 2026-07-28 host on loopback Streamable HTTP (per request)', () => {
  let s: Awaited<ReturnType<typeof startServing>>;
  let host: { client: Client; transport: StreamableHTTPClientTransport };

  beforeAll(async () => {
    const fixture = await startSamplingServer({ transport: 'stdio', era: 'modern' });
    s = await startServing({ fixture: { ...(fixture.config as object), disabled: true } });
    host = await connectClient(`${s.base}/mcp/fixture`, s.token, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  }, 60_000);

  afterAll(async () => {
    await host?.client.close();
    await stopServing(s);
  });

  it("an embedded sampling request is answered in the console's queue; the host gets the final result", async () => {
    expect(s.serving.sessions()).toBe(0);
    const call = host.client.callTool({ name: 'ask-text', arguments: { prompt: 'modern over http' } });
    const item = await newItem(s.h, 'fixture');
    expect(item.era).toBe('modern');
    expect(item.via?.host).toBe(HOST_INFO.name);
    await s.h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL });
    await s.h.waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await s.h.service.approveResponse({ itemId: item.id, version: await seenVersion(s.h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'modern answer' }, model: 'manual', stopReason: 'endTurn' } });
    const report = JSON.parse(textOf(await call)) as Record<string, unknown>;
    expect(report).toMatchObject({ era: 'modern', result: { content: { text: 'modern answer' } } });
  }, 30_000);
});

describe("mounted on the console's gateway listener", () => {
  it('serves /mcp/<name> with the bridge token, and the gateway paths as before', async () => {
    const h = await startHarness({ servers: { everything: { ...everythingStdio(), disabled: true } }, env: { MCP_CONSOLE_GATEWAY_PORT: '0' } });
    try {
      const url = (await h.state()).gateway?.url ?? "";
      const token = bridgeHttpToken(h.dir);
      const host = await connectClient(`${url}/mcp/everything`, token);
      expect((await host.client.listTools()).tools.map((t) => t.name)).toContain('echo');
      await host.client.close();
      expect((await rawPost(url, '/mcp/everything', {})).status).toBe(401);
      expect((await rawPost(url, '/openai/v1/chat/completions', { authorization: `Bearer ${token}` }, {})).status).toBe(401);
    } finally {
      await h.dispose();
    }
  }, 60_000);
});
