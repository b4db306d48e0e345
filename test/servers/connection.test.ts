/**
 * One connection (main/mcp/connection.ts) against the real server-everything over stdio, without
 * the rest of the console: the catalog (tools, prompts, resources, templates), prompts/get with
 * arguments, resources/read of a static and a templated resource, the protocol and stderr logs,
 * and automatic reconnection after the server process is killed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerConnection, type ServerConnection } from '../../main/mcp/connection.js';
import type { ServerView } from '../../shared/contract/state.js';
import { everythingStdio } from '../support/console-harness.js';

const call = (name: string, kind: 'prompts/get' | 'resources/read' | 'tools/call' = 'tools/call') => ({ call: { callId: `c-${name}`, kind, name } });

async function until(conn: ServerConnection, pred: (v: ServerView) => boolean, what: string, timeoutMs = 20_000): Promise<ServerView> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = conn.view();
    if (pred(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify({ status: v.status, error: v.error, reconnect: v.reconnect })}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a stdio connection to server-everything', () => {
  let conn: ServerConnection;
  beforeAll(async () => {
    conn = createServerConnection('everything', { ...everythingStdio(), protocol: 'legacy' }, {
      logger: { info() {}, warn() {}, error() {} },
      onChange() {},
      requests: { receive: () => Promise.reject(new Error('no sampling here')) },
    });
    await conn.connect();
  }, 30_000);
  afterAll(async () => conn?.close());

  it('shows server info, capabilities and what it offers', async () => {
    const v = await until(conn, (x) => x.status === 'ready' && (x.resources?.length ?? 0) > 0 && (x.prompts?.length ?? 0) > 0, 'lists');
    expect(v.serverInfo?.name).toBeTruthy();
    expect(v.capabilities).toHaveProperty('prompts');
    expect(v.capabilities).toHaveProperty('resources');
    expect(v.pid).toBeGreaterThan(0);
    expect(v.prompts?.find((p) => p.name === 'args-prompt')?.arguments).toMatchObject([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state', required: false },
    ]);
    expect(v.resourceTemplates?.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
  });

  it('prompts/get passes the arguments and returns the messages', async () => {
    const res = await conn.getPrompt('args-prompt', { city: 'Lisbon', state: 'Lisboa' }, call('args-prompt', 'prompts/get'));
    expect(res.messages).toEqual([{ role: 'user', content: { type: 'text', text: "What's weather in Lisbon, Lisboa?" } }]);
  });

  it('resources/read reads a static resource and a templated one', async () => {
    const v = conn.view();
    const statik = v.resources!.find((r) => r.uri.startsWith('demo://resource/static/document/'))!;
    const one = await conn.readResource(statik.uri, call(statik.uri, 'resources/read'));
    expect(one.contents[0]?.uri).toBe(statik.uri);
    expect(one.contents[0]?.text?.length).toBeGreaterThan(0);
    const templated = await conn.readResource('demo://resource/dynamic/text/7', call('t', 'resources/read'));
    expect(templated.contents[0]?.text).toMatch(/^Resource 7: This is a plaintext resource/);
  });

  it('logs every message with direction, method, id and size, and answers a search', () => {
    const page = conn.log.page('prompts/get');
    const req = page.protocol.find((e) => e.direction === 'out' && e.kind === 'request');
    const res = page.protocol.find((e) => e.direction === 'in' && e.kind === 'response' && e.id === req?.id);
    expect(req).toMatchObject({ method: 'prompts/get' });
    expect(res).toMatchObject({ method: 'prompts/get' });
    expect(res!.size).toBeGreaterThan(20);
    expect(page.protocol.every((e) => e.method === 'prompts/get')).toBe(true);
    expect(conn.log.page().protocol.some((e) => e.method === 'initialize')).toBe(true);
    expect(conn.log.stderr.total).toBeGreaterThan(0);
  });

  it('reconnects on its own after the server process is killed, with a visible attempt', async () => {
    const before = conn.view().pid!;
    const seen: Array<ServerView['reconnect']> = [];
    process.kill(before, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    let v = conn.view();
    while (!(v.status === 'ready' && v.pid !== undefined && v.pid !== before)) {
      if (v.reconnect) seen.push(v.reconnect);
      if (Date.now() > deadline) throw new Error(`did not recover: ${JSON.stringify(v.status)}`);
      await new Promise((r) => setTimeout(r, 10));
      v = conn.view();
    }
    expect(seen[0]).toMatchObject({ attempt: 1, maxAttempts: 8 });
    expect(seen[0]!.nextAt).toBeGreaterThan(0);
    expect(v.reconnect).toBeUndefined();
    const res = await conn.getPrompt('simple-prompt', {}, call('simple-prompt', 'prompts/get'));
    expect(res.messages[0]?.content).toMatchObject({ text: 'This is a simple prompt without arguments.' });
  });
});
