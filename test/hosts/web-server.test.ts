import os from 'node:os';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ApiError, type ConsoleEvent } from '../../shared/contract/api.js';
import { startWebHost, type WebHost } from '../../app/web/server.js';
import { createFakeService, makeState, type FakeService } from '../support/fake-service.js';
import { get, makeStaticDir, rawUpgrade } from './helpers.js';

let dir: ReturnType<typeof makeStaticDir>;
let fake: FakeService;
let host: WebHost;

beforeAll(async () => {
  dir = makeStaticDir();
  fake = createFakeService({
    dismissItem: ({ itemId }) => {
      if (itemId === 'missing') throw new ApiError('not_found', 'no item missing');
    },
  });
  host = await startWebHost({ service: fake.service, staticDir: dir.staticDir });
});
afterAll(async () => {
  await host.close();
  dir.cleanup();
});

const page = (query = `?token=${host.token}`) => get(host.port, `/${query}`);

describe('HTTP', () => {
  it('binds 127.0.0.1 only and puts the token in the URL', async () => {
    expect(host.address.address).toBe('127.0.0.1');
    expect(host.origin).toBe(`http://127.0.0.1:${host.port}`);
    expect(host.url).toBe(`${host.origin}/?token=${encodeURIComponent(host.token)}`);
    expect(Buffer.from(host.token, 'base64url')).toHaveLength(32);
    const other = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (other) {
      await expect(
        new Promise((resolve, reject) => net.connect(host.port, other.address).on('connect', resolve).on('error', reject)),
      ).rejects.toThrow(/ECONNREFUSED/);
    }
  });

  it('serves the page with the token, with CSP and no caching', async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>console</title>');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self' ws://127.0.0.1:${host.port}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await get(host.port, `/index.html?token=${host.token}`)).status).toBe(200);
  });

  it('refuses the page without the right token', async () => {
    for (const q of ['', '?token=', '?token=wrong', `?token=${host.token}x`, `?token=${host.token.slice(1)}`]) {
      const res = await page(q);
      expect(res.status, q).toBe(401);
      expect(res.body).not.toContain('<title>console</title>');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
    expect((await get(host.port, '/index.html')).status).toBe(401);
  });

  it("needs the token however the page's path is spelled", async () => {
    for (const target of ['/index.html/', '//index.html', '/./index.html', '/assets/../index.html', '/index.html?x=1', '/INDEX.HTML', '/index.htm%6c', '/%69ndex.html', '/index.html/.']) {
      const res = await get(host.port, target, {}, 'GET');
      expect([401, 404], target).toContain(res.status);
      expect(res.body, target).not.toContain('<title>console</title>');
      const head = await get(host.port, target, {}, 'HEAD');
      expect([401, 404], `HEAD ${target}`).toContain(head.status);
    }
    expect((await get(host.port, `/index.html/?token=${host.token}`)).status).toBe(200); // with it, the page
  });

  it('serves hashed assets without the token, with content types', async () => {
    const js = await get(host.port, '/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.body).toBe('console.log("app");');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(host.port, '/assets/index-abc123.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await get(host.port, '/assets/nope.js')).status).toBe(404);
    // HTML other than the app page is never served, with or without token.
    expect((await get(host.port, `/assets/other.html?token=${host.token}`)).status).toBe(404);
  });

  it('never serves files outside the static folder', async () => {
    for (const target of [
      '/../package.json',
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%5c%2e%2e%5csecret.txt',
      '/assets/..%5csecret.txt',
      '/assets/link.txt',
      '/assets/%00.js',
      '/assets/%E0%A4%A.js',
      '/assets',
      '//etc/passwd',
    ]) {
      const res = await get(host.port, target);
      expect(res.status, target).toBe(404);
      expect(res.body).not.toContain('SECRET');
    }
  });

  it('refuses foreign Host headers (DNS rebinding) and redirects localhost to 127.0.0.1', async () => {
    for (const h of ['evil.example', `evil.example:${host.port}`, '127.0.0.1', `127.0.0.1:${host.port + 1}`]) {
      const res = await get(host.port, `/?token=${host.token}`, { host: h });
      expect(res.status, h).toBe(403);
      expect(res.body).not.toContain('<title>console</title>');
    }
    const res = await get(host.port, `/?token=${host.token}`, { host: `localhost:${host.port}` });
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`${host.origin}/?token=${host.token}`);
  });

  it('allows only GET and HEAD', async () => {
    expect((await get(host.port, `/?token=${host.token}`, {}, 'POST')).status).toBe(405);
    const head = await get(host.port, `/?token=${host.token}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });
});

describe('WebSocket upgrade', () => {
  const good = () => ({ Host: `127.0.0.1:${host.port}`, Origin: host.origin });

  it('accepts the right token, Host and Origin', async () => {
    expect(await rawUpgrade(host.port, `/api?token=${host.token}`, good())).toMatchObject({ status: 101 });
  });

  it.each([
    ['no token', '/api', {}, 401],
    ['wrong token', '/api?token=nope', {}, 401],
    ['foreign Origin', null, { Origin: 'http://evil.example' }, 403],
    ['localhost Origin', null, { Origin: 'http://localhost:PORT' }, 403],
    ['missing Origin', null, { Origin: undefined }, 403],
    ['Origin "null"', null, { Origin: 'null' }, 403],
    ['bad Host', null, { Host: 'evil.example' }, 403],
    ['rebinding Host', null, { Host: 'evil.example:PORT' }, 403],
    ['other path', '/other?token=TOKEN', {}, 404],
  ] as const)('refuses %s', async (_name, target, override, status) => {
    const headers: Record<string, string | undefined> = { ...good() };
    for (const [k, v] of Object.entries(override)) headers[k] = v?.replace('PORT', String(host.port));
    const t = (target ?? '/api?token=TOKEN').replace('TOKEN', host.token);
    const res = await rawUpgrade(host.port, t, headers);
    expect(res.status).toBe(status);
    expect(res.closed).toBe(true);
  });
});

/** An open socket to the host plus a frame inbox. */
async function open(): Promise<{ ws: WebSocket; next(): Promise<unknown>; closed: Promise<number> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api?token=${host.token}`, { origin: host.origin });
  const inbox: unknown[] = [];
  const waiters: Array<(v: unknown) => void> = [];
  ws.on('message', (data) => {
    const frame: unknown = JSON.parse(String(data));
    const w = waiters.shift();
    if (w) w(frame);
    else inbox.push(frame);
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject));
  return { ws, closed, next: () => (inbox.length ? Promise.resolve(inbox.shift()) : new Promise((r) => waiters.push(r))) };
}

describe('WebSocket protocol', () => {
  const sockets: WebSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.terminate();
  });
  const connect = async () => {
    const c = await open();
    sockets.push(c.ws);
    return c;
  };

  it('round-trips a request, with the input parsed by zod (defaults applied)', async () => {
    const c = await connect();
    fake.calls.length = 0;
    c.ws.send(JSON.stringify({ id: 7, method: 'listHistory', input: { query: 'weather' } }));
    expect(await c.next()).toEqual({ id: 7, reply: { ok: true, value: { entries: [], total: 0 } } });
    expect(fake.calls).toEqual([{ method: 'listHistory', input: { query: 'weather', limit: 50, offset: 0 } }]);
    c.ws.send(JSON.stringify({ id: 8, method: 'getState' }));
    expect(await c.next()).toEqual({ id: 8, reply: { ok: true, value: fake.state } });
  });

  it('reports invalid input, unknown methods and service errors with their codes', async () => {
    const c = await connect();
    fake.calls.length = 0;
    c.ws.send(JSON.stringify({ id: 1, method: 'dismissItem', input: { itemId: 5 } }));
    expect(await c.next()).toMatchObject({ id: 1, reply: { ok: false, error: { code: 'invalid_input' } } });
    c.ws.send(JSON.stringify({ id: 2, method: 'dismissItem', input: { itemId: 'a', extra: true } }));
    expect(await c.next()).toMatchObject({ id: 2, reply: { ok: false, error: { code: 'invalid_input' } } });
    c.ws.send(JSON.stringify({ id: 3, method: 'deleteEverything', input: {} }));
    expect(await c.next()).toMatchObject({ id: 3, reply: { ok: false, error: { code: 'unknown_method' } } });
    c.ws.send(JSON.stringify({ id: 4, method: 'dismissItem', input: { itemId: 'missing' } }));
    expect(await c.next()).toEqual({ id: 4, reply: { ok: false, error: { code: 'not_found', message: 'no item missing' } } });
    expect(fake.calls.map((x) => x.method)).toEqual(['dismissItem']);
  });

  it('answers a frame with an id but a bad shape with an error reply', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ id: 9, method: 42 }));
    expect(await c.next()).toMatchObject({ id: 9, reply: { ok: false, error: { code: 'invalid_input' } } });
    c.ws.send(JSON.stringify({ id: 10, method: 'getState', input: {}, sneaky: 1 }));
    expect(await c.next()).toMatchObject({ id: 10, reply: { ok: false, error: { code: 'invalid_input' } } });
  });

  it.each([
    ['not JSON', '{nope'],
    ['no id', JSON.stringify({ method: 'getState' })],
    ['negative id', JSON.stringify({ id: -1, method: 'getState' })],
    ['an array', '[1,2]'],
    ['null', 'null'],
  ])('closes with 1008 on %s, and the host keeps serving', async (_name, text) => {
    const c = await connect();
    c.ws.send(text);
    expect(await c.closed).toBe(1008);
    const d = await connect();
    d.ws.send(JSON.stringify({ id: 1, method: 'getState', input: {} }));
    expect(await d.next()).toMatchObject({ id: 1, reply: { ok: true } });
  });

  it('closes on binary frames and on frames over maxPayload', async () => {
    const c = await connect();
    c.ws.send(Buffer.from('{"id":1,"method":"getState"}'));
    expect(await c.closed).toBe(1008);
    const small = await startWebHost({ service: fake.service, staticDir: dir.staticDir, maxPayloadBytes: 1024 });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${small.port}/api?token=${small.token}`, { origin: small.origin });
      await new Promise((resolve) => ws.on('open', resolve));
      const closed = new Promise<number>((resolve) => ws.on('close', resolve));
      ws.on('error', () => {});
      ws.send(JSON.stringify({ id: 1, method: 'getState', input: { pad: 'x'.repeat(2000) } }));
      expect(await closed).toBe(1009);
    } finally {
      await small.close();
    }
  });

  it('forwards service events and unsubscribes on close', async () => {
    const before = fake.listenerCount();
    const c = await connect();
    expect(fake.listenerCount()).toBe(before + 1);
    const events: ConsoleEvent[] = [
      { type: 'snapshot', state: makeState(3) },
      { type: 'patch', patch: { version: 4, notices: [] } },
    ];
    for (const e of events) fake.emit(e);
    expect(await c.next()).toEqual({ event: events[0] });
    expect(await c.next()).toEqual({ event: events[1] });
    c.ws.close();
    await c.closed;
    await expect.poll(() => fake.listenerCount()).toBe(before);
  });

  it('close() ends open sockets and stops listening', async () => {
    const extra = await startWebHost({ service: fake.service, staticDir: dir.staticDir });
    const ws = new WebSocket(`ws://127.0.0.1:${extra.port}/api?token=${extra.token}`, { origin: extra.origin });
    await new Promise((resolve) => ws.on('open', resolve));
    const closed = new Promise<number>((resolve) => ws.on('close', resolve));
    await extra.close();
    expect(await closed).toBe(1001);
    await expect(get(extra.port, '/')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('reload without the token', () => {
  it('the 401 page loads a same-origin script that restores the token from sessionStorage once', async () => {
    const { runInNewContext } = await import('node:vm');
    const res = await page('');
    expect(res.body).toContain('<script src="/__reauth.js"></script>');
    const script = await get(host.port, '/__reauth.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const run = (search: string, stored: string | null) => {
      const replaced: string[] = [];
      runInNewContext(script.body, {
        URLSearchParams,
        location: { search, hash: '#h', replace: (u: string) => replaced.push(u) },
        sessionStorage: { getItem: (k: string) => (k === 'mcp-console-token' ? stored : null) },
      });
      return replaced;
    };
    expect(run('', 'tok')).toEqual(['/?token=tok#h']);
    expect(run('?token=bad', 'tok')).toEqual([]); // no loop when the stored token is wrong
    expect(run('', null)).toEqual([]);
  });
});
