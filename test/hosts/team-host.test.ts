/**
 * A team server's listener: sign-in with the shared admin token (cookie attributes, wrong or
 * missing token, too many tries, Origin checks), the UI's WebSocket (session and Origin; closed
 * when the session ends, on any instance), TLS from a self-signed certificate, plain HTTP only
 * from a trusted TLS proxy, the bridges' door, and the health check — on a real PostgreSQL.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { planListening, type ListenPlan } from '../../app/web/listen-policy.js';
import { SESSION_ENDED_CLOSE, startTeamHost, type TeamHost, type TeamHostOptions } from '../../app/web/team-host.js';
import { SIGN_IN_ATTEMPTS } from '../../app/web/team-sign-in.js';
import { ensureAdminToken } from '../../main/team/admin-token.js';
import { adminTokenAuth } from '../../main/team/auth.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { createFakeService } from '../support/fake-service.js';
import { adminQuery, testDatabase } from '../support/postgres.js';
import { makeStaticDir } from './helpers.js';

const ADMIN_TOKEN = 'correct-horse-battery-staple-42';
const FAST = { heartbeatMs: 100, leaseMs: 600, sweepMs: 100 };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP(S) request to `url`. */
function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; ca?: string } = {}): Promise<Answer> {
  const u = new URL(url);
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(u, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, ...(opts.ca && { ca: opts.ca }) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Opens a WebSocket; resolves with it once open, or with the refusal's HTTP status. */
function openSocket(url: string, headers: Record<string, string>, ca?: string): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers, ...(ca && { ca }) });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', () => resolve({ status: -1 }));
  });
}

/** The cookie pair (`name=value`) of a `Set-Cookie` answer. */
const cookiePair = (a: Answer) => String(a.headers['set-cookie']?.[0]).split(';')[0]!;

describe('team server listener', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  const teams: TeamDatabase[] = [];
  const hosts: TeamHost[] = [];
  const cleanups: Array<() => void> = [];
  const team = async () => {
    const t = await openTeamDatabase({ url: db.url, timings: FAST });
    teams.push(t);
    return t;
  };
  /** A host on the test database, loopback by default. */
  const start = async (plan: ListenPlan = planListening({ port: '0' }), more: Partial<TeamHostOptions> = {}) => {
    const t = await team();
    const dir = makeStaticDir();
    cleanups.push(dir.cleanup);
    const fake = createFakeService();
    const host = await startTeamHost({ plan, staticDir: dir.staticDir, auth: adminTokenAuth(t), serviceFor: () => fake.service, ...more });
    hosts.push(host);
    return { host, fake, team: t };
  };
  /** The CSRF cookie and token the page gets from `/auth/session`. */
  const csrfOf = async (url: string, ca?: string, headers: Record<string, string> = {}) => {
    const session = await request(`${url}/auth/session`, { headers, ...(ca && { ca }) });
    return { cookie: cookiePair(session), token: (JSON.parse(session.body) as { csrfToken: string }).csrfToken };
  };
  const signIn = async (host: TeamHost, token = ADMIN_TOKEN, origin = host.url, ca?: string) => {
    const csrf = await csrfOf(host.url, ca);
    return request(`${host.url}/auth/sign-in`, { method: 'POST', headers: { origin, 'content-type': 'application/json', cookie: csrf.cookie, 'x-csrf-token': csrf.token }, body: JSON.stringify({ token }), ...(ca && { ca }) });
  };

  beforeAll(async () => {
    db = await testDatabase();
    const t = await team();
    await ensureAdminToken(t.conn, t.notifier, ADMIN_TOKEN);
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    await Promise.all(teams.splice(1).map((t) => t.close()));
    for (const c of cleanups.splice(0)) c();
    await adminQuery(db.url, 'DELETE FROM team_sessions');
  });
  afterAll(async () => {
    await Promise.all(teams.splice(0).map((t) => t.close()));
    await db?.drop();
  });

  it('serves the page without a token; the session says who is signed in, and how one signs in', async () => {
    const { host } = await start();
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await request(`${host.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`);
    expect(JSON.parse((await request(`${host.url}/auth/session`)).body)).toEqual({ signedIn: false, methods: ['password', 'admin_token'], csrfToken: expect.stringMatching(/^[\w-]{43}$/) });
  });

  it('signs in with the admin token: an HttpOnly, SameSite=Strict session cookie for the whole site (not Secure on plain loopback)', async () => {
    const { host } = await start();
    const ok = await signIn(host);
    expect(ok.status).toBe(204);
    const cookie = String(ok.headers['set-cookie']?.[0]);
    expect(cookie).toMatch(/^mcp-console-session=[\w-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toContain('Secure');
    expect(cookie).toMatch(/Max-Age=\d{6}/);
    const session = await request(`${host.url}/auth/session`, { headers: { cookie: cookiePair(ok) } });
    expect(JSON.parse(session.body)).toMatchObject({ signedIn: true, subject: 'admin', role: 'admin' });
    // Only the hash is kept.
    const { rows } = await adminQuery(db.url, 'SELECT id_sha256 FROM team_sessions');
    expect(JSON.stringify(rows)).not.toContain(cookiePair(ok).split('=')[1]);
  });

  it('refuses a wrong or missing token, another Origin, a body that is not JSON; then too many tries', async () => {
    const { host } = await start();
    expect((await signIn(host, 'wrong-token-wrong-token')).status).toBe(401);
    const csrf = await csrfOf(host.url);
    const withCsrf = { origin: host.url, cookie: csrf.cookie, 'x-csrf-token': csrf.token };
    expect((await request(`${host.url}/auth/sign-in`, { method: 'POST', headers: { ...withCsrf, 'content-type': 'application/json' }, body: '{}' })).status).toBe(400);
    expect((await request(`${host.url}/auth/sign-in`, { method: 'POST', headers: { ...withCsrf, 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${ADMIN_TOKEN}` })).status).toBe(415);
    const foreign = await signIn(host, ADMIN_TOKEN, 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    expect((await request(`${host.url}/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: ADMIN_TOKEN }) })).status).toBe(403); // no Origin
    for (let i = 1; i < SIGN_IN_ATTEMPTS; i++) await signIn(host, 'wrong-token-wrong-token');
    const limited = await signIn(host); // even the right token, once over the limit
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("the UI's WebSocket needs the session and the public Origin", async () => {
    const { host, fake } = await start();
    const cookie = cookiePair(await signIn(host));
    const api = `ws://127.0.0.1:${host.port}/api`;
    expect((await openSocket(api, { origin: host.url })).status).toBe(401);
    expect((await openSocket(api, { origin: host.url, cookie: 'mcp-console-session=forged' })).status).toBe(401);
    expect((await openSocket(api, { origin: 'https://evil.example', cookie })).status).toBe(403);
    expect((await openSocket(api, { cookie })).status).toBe(403);
    const { ws } = await openSocket(api, { origin: host.url, cookie });
    const reply = new Promise<unknown>((resolve) => ws!.once('message', (d: Buffer) => resolve(JSON.parse(d.toString()))));
    ws!.send(JSON.stringify({ id: 1, method: 'getState', input: {} }));
    expect(await reply).toMatchObject({ id: 1, reply: { ok: true, value: { version: fake.state.version } } });
    ws!.close();
  });

  it('signing out on one instance closes the UI connections of that session on every instance', async () => {
    const a = await start();
    const b = await start();
    const cookie = cookiePair(await signIn(a.host));
    const { ws } = await openSocket(`ws://127.0.0.1:${b.host.port}/api`, { origin: b.host.url, cookie });
    const closed = new Promise<number>((resolve) => ws!.once('close', (code) => resolve(code)));
    // The cookie is the page's: a.host's origin signs out (b's page would be another origin).
    const csrf = await csrfOf(a.host.url);
    const out = await request(`${a.host.url}/auth/sign-out`, { method: 'POST', headers: { origin: a.host.url, cookie: `${cookie}; ${csrf.cookie}`, 'x-csrf-token': csrf.token } });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie']?.[0])).toMatch(/^mcp-console-session=; Max-Age=0/);
    expect(await closed).toBe(SESSION_ENDED_CLOSE);
    expect(JSON.parse((await request(`${b.host.url}/auth/session`, { headers: { cookie } })).body)).toMatchObject({ signedIn: false });
  });

  it('serves TLS from certificate files: a Secure __Host- cookie and HSTS; plain HTTP on that port gets nothing', async () => {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] }] });
    const folder = mkdtempSync(path.join(tmpdir(), 'mcp-tls-'));
    writeFileSync(path.join(folder, 'cert.pem'), pems.cert);
    writeFileSync(path.join(folder, 'key.pem'), pems.private);
    const { host } = await start(planListening({ port: '0', tlsCert: path.join(folder, 'cert.pem'), tlsKey: path.join(folder, 'key.pem') }));
    expect(host.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const page = await request(`${host.url}/`, { ca: pems.cert });
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    const ok = await signIn(host, ADMIN_TOKEN, host.url, pems.cert);
    const cookie = String(ok.headers['set-cookie']?.[0]);
    expect(cookie).toMatch(/^__Host-mcp-console-session=[\w-]{43}; /);
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('HttpOnly');
    const { ws } = await openSocket(`wss://127.0.0.1:${host.port}/api`, { origin: host.url, cookie: cookiePair(ok) }, pems.cert);
    expect(ws).toBeDefined();
    ws!.close();
    await expect(request(`http://127.0.0.1:${host.port}/`)).rejects.toThrow();
    await expect(request(`${host.url}/`)).rejects.toThrow(/self-signed|certificate/); // an untrusted certificate is not taken
  });

  it('behind a TLS proxy: plain HTTP only from a trusted address and only with X-Forwarded-Proto: https', async () => {
    const behind = await start(planListening({ port: '0', behindTlsProxy: true, publicUrl: 'https://console.example.com' }));
    const at = `http://127.0.0.1:${behind.host.port}`;
    expect(behind.host.url).toBe('https://console.example.com');
    expect((await request(`${at}/`)).status).toBe(403);
    expect((await request(`${at}/`, { headers: { 'x-forwarded-proto': 'http' } })).body).toMatch(/X-Forwarded-Proto: https/);
    expect((await request(`${at}/`, { headers: { 'x-forwarded-proto': 'https' } })).status).toBe(200);
    const csrf = await csrfOf(at, undefined, { 'x-forwarded-proto': 'https' });
    expect(csrf.cookie).toMatch(/^__Host-mcp-console-csrf=/);
    const ok = await request(`${at}/auth/sign-in`, { method: 'POST', headers: { 'x-forwarded-proto': 'https', origin: 'https://console.example.com', 'content-type': 'application/json', cookie: csrf.cookie, 'x-csrf-token': csrf.token }, body: JSON.stringify({ token: ADMIN_TOKEN }) });
    expect(ok.status).toBe(204);
    expect(String(ok.headers['set-cookie']?.[0])).toMatch(/^__Host-mcp-console-session=.*; Secure/);
    expect((await openSocket(`ws://127.0.0.1:${behind.host.port}/api`, { origin: 'https://console.example.com', cookie: cookiePair(ok) })).status).toBe(403);
    const { ws } = await openSocket(`ws://127.0.0.1:${behind.host.port}/api`, { origin: 'https://console.example.com', cookie: cookiePair(ok), 'x-forwarded-proto': 'https' });
    expect(ws).toBeDefined();
    ws!.close();
    // A proxy elsewhere: this machine is not it.
    const elsewhere = await start(planListening({ port: '0', behindTlsProxy: true, trustedProxies: ['10.9.8.7'], publicUrl: 'https://console.example.com' }));
    const refused = await request(`http://127.0.0.1:${elsewhere.host.port}/`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatch(/only from the TLS proxy/);
    // Load balancers' health checks come without X-Forwarded-Proto (Caddy's, nginx's) and maybe from elsewhere: health answers them.
    expect(await request(`${at}/healthz`)).toMatchObject({ status: 200, body: 'ok' });
    expect(await request(`http://127.0.0.1:${elsewhere.host.port}/healthz`)).toMatchObject({ status: 200, body: 'ok' });
    expect((await request(`${at}/healthz`, { method: 'POST' })).status).toBe(403);
  });

  it("the bridges' door: a token, no web page; the gateway's paths go to the gateway; health says whether the database is reached", async () => {
    const accepted: string[] = [];
    let healthy = true;
    const { host } = await start(undefined, {
      bridges: { authenticate: async (token) => (token === 'mcpgw_good' ? { name: 'alice' } : undefined), accept: (ws, caller) => (accepted.push(caller.name), ws.close()) },
      gateway: async (_req, res) => void res.writeHead(418).end(),
      healthy: () => healthy,
    });
    const bridge = `ws://127.0.0.1:${host.port}/bridge`;
    expect((await openSocket(bridge, {})).status).toBe(401);
    expect((await openSocket(bridge, { authorization: 'Bearer mcpgw_bad' })).status).toBe(401);
    expect((await openSocket(bridge, { authorization: 'Bearer mcpgw_good', origin: host.url })).status).toBe(403);
    const { ws } = await openSocket(bridge, { authorization: 'Bearer mcpgw_good' });
    ws?.close();
    expect(accepted).toEqual(['alice']);
    expect((await request(`${host.url}/openai/v1/models`)).status).toBe(418);
    expect((await request(`${host.url}/anthropic/v1/messages`, { method: 'POST' })).status).toBe(418);
    expect((await request(`${host.url}/healthz`)).status).toBe(200);
    healthy = false;
    expect((await request(`${host.url}/healthz`)).status).toBe(503);
  });
});
