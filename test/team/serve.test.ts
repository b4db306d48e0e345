/**
 * `mcp-approval-console serve` as operators run it, in child processes on a real PostgreSQL and
 * over TLS (a self-signed certificate): a person signs in with the admin token and makes a
 * gateway token in the UI; a developer's bridge on "another machine" (`bridge --console
 * https://… ` with that token) has its server's sampling requests reviewed there; the instance is
 * killed (SIGKILL) with a request under review — that request ends with a clear error — and
 * another instance started on the same database and address gets the bridge's next request.
 * A program calls the gateway from elsewhere with a token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SERVING_LINE_PREFIX } from '../../app/web/serve.js';
import { serverEverythingEntry } from '../../main/config.js';
import { connectHost, ROOT, tempUserData, textOf, type FakeHost } from '../bridge/support.js';
import { makeStaticDir } from '../hosts/helpers.js';
import { testDatabase } from '../support/postgres.js';

const ADMIN_TOKEN = 'team-admin-token-for-the-test';
const CLI = path.join(ROOT, 'app/bridge/cli.ts');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One `serve` instance in a child process, once it says where it serves. */
async function serve(opts: { databaseUrl: string; port: number; staticDir: string; tls: { cert: string; key: string } }): Promise<{ child: ChildProcess; url: string; output(): string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mcp-serve-'));
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--database', opts.databaseUrl, '--port', String(opts.port), '--tls-cert', opts.tls.cert, '--tls-key', opts.tls.key, '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, MCP_CONSOLE_ADMIN_TOKEN: ADMIN_TOKEN, MCP_CONSOLE_STATIC_DIR: opts.staticDir, MCP_CONSOLE_SECRET_PASSPHRASE: 'test-passphrase' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      const line = out.split('\n').find((l) => l.startsWith(SERVING_LINE_PREFIX));
      if (line) {
        clearTimeout(timer);
        resolve(line.slice(SERVING_LINE_PREFIX.length).trim());
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
  return { child, url, output: () => out };
}

/** The UI's API over the WebSocket as the page uses it, signed in with the admin token. */
async function signedInApi(url: string, ca: string): Promise<{ call(method: string, input?: unknown): Promise<unknown>; close(): void }> {
  const csrf = await new Promise<{ cookie: string; token: string }>((resolve, reject) => {
    https
      .get(`${url}/auth/session`, { ca }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ cookie: String(res.headers['set-cookie']?.[0]).split(';')[0]!, token: (JSON.parse(body) as { csrfToken: string }).csrfToken }));
      })
      .on('error', reject);
  });
  const cookie = await new Promise<string>((resolve, reject) => {
    const req = https.request(`${url}/auth/sign-in`, { method: 'POST', ca, headers: { origin: url, 'content-type': 'application/json', cookie: csrf.cookie, 'x-csrf-token': csrf.token } }, (res) => {
      res.resume();
      if (res.statusCode !== 204) return reject(new Error(`sign-in answered ${res.statusCode}`));
      resolve(String(res.headers['set-cookie']?.[0]).split(';')[0]!);
    });
    req.on('error', reject);
    req.end(JSON.stringify({ token: ADMIN_TOKEN }));
  });
  const ws = new WebSocket(`${url.replace('https:', 'wss:')}/api`, { ca, headers: { origin: url, cookie } });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const waiting = new Map<number, (reply: { ok: boolean; value?: unknown; error?: unknown }) => void>();
  ws.on('message', (d: Buffer) => {
    const frame = JSON.parse(d.toString()) as { id?: number; reply?: { ok: boolean; value?: unknown; error?: unknown } };
    if (frame.id !== undefined) waiting.get(frame.id)?.(frame.reply!);
  });
  let next = 1;
  return {
    call(method, input = {}) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, (reply) => (reply.ok ? resolve(reply.value) : reject(new Error(JSON.stringify(reply.error)))));
        ws.send(JSON.stringify({ id, method, input }));
      });
    },
    close: () => ws.close(),
  };
}

type Api = Awaited<ReturnType<typeof signedInApi>>;

/** Waits until `api`'s queue holds a sampling request of `serverId` awaiting review; returns its id. */
async function waitingItem(api: Api, serverId: string, notIn: Set<string>): Promise<string> {
  const until = Date.now() + 30_000;
  for (;;) {
    const state = (await api.call('getState')) as { items: Array<{ id: string; serverId: string; kind: string; status: string }> };
    const item = state.items.find((i) => i.serverId === serverId && i.kind === 'sampling' && i.status === 'awaiting_request_review' && !notIn.has(i.id));
    if (item) return item.id;
    if (Date.now() > until) throw new Error(`no request of ${serverId} arrived: ${JSON.stringify(state.items)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Rejects item `id` on `api` (as a person would, at the version on screen). */
async function reject(api: Api, id: string, reason: string): Promise<void> {
  const { item } = (await api.call('getItem', { id })) as { item: { contentVersion: number } };
  await api.call('rejectRequest', { itemId: id, version: item.contentVersion, reason });
}

describe('serve: a team server in child processes, over TLS', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let tls: { cert: string; key: string; pem: string };
  let staticDir: ReturnType<typeof makeStaticDir>;
  const children: ChildProcess[] = [];
  let host: FakeHost | undefined;
  beforeAll(async () => {
    db = await testDatabase();
    staticDir = makeStaticDir();
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }] });
    const folder = mkdtempSync(path.join(tmpdir(), 'mcp-serve-tls-'));
    tls = { cert: path.join(folder, 'cert.pem'), key: path.join(folder, 'key.pem'), pem: pems.cert };
    writeFileSync(tls.cert, pems.cert);
    writeFileSync(tls.key, pems.private);
  });
  afterEach(async () => {
    await host?.close();
    host = undefined;
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });
  afterAll(async () => {
    staticDir?.cleanup();
    await db?.drop();
  });

  it("a developer's bridge reaches the team server with a token; its instance killed, the request under review ends clearly and the next one goes to another instance", async () => {
    const port = await freePort();
    const a = await serve({ databaseUrl: db.url, port, staticDir: staticDir.staticDir, tls });
    children.push(a.child);
    let api = await signedInApi(a.url, tls.pem);
    const { token } = (await api.call('createGatewayToken', { name: 'alice-laptop' })) as { token: string };
    expect(token).toMatch(/^mcpgw_/);

    const caFile = path.join(path.dirname(tls.cert), 'ca.pem');
    writeFileSync(caFile, tls.pem);
    host = await connectHost({
      dir: tempUserData(),
      bridgeArgs: ['--name', 'everything', '--console', a.url, '--', process.execPath, serverEverythingEntry(), 'stdio'],
      env: { MCP_CONSOLE_TOKEN: token, MCP_CONSOLE_CA_FILE: caFile },
    });
    const seen = new Set<string>();
    const ask = (prompt: string) => host!.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt, maxTokens: 8 } });

    // Reviewed on the team server: the person's answer reaches the server on the laptop.
    const first = ask('first');
    const firstId = await waitingItem(api, 'everything', seen);
    seen.add(firstId);
    await reject(api, firstId, 'not this one');
    expect(textOf(await first)).toMatch(/rejected/i);

    // The instance dies with a request under review: that request ends with a clear error, at once.
    const second = ask('second');
    seen.add(await waitingItem(api, 'everything', seen));
    api.close();
    a.child.kill('SIGKILL');
    expect(textOf(await second)).toMatch(/instance went away while the request was under review/);

    // Another instance on the same database and address: the bridge reconnects and its next request works.
    const b = await serve({ databaseUrl: db.url, port, staticDir: staticDir.staticDir, tls });
    children.push(b.child);
    api = await signedInApi(b.url, tls.pem);
    const third = ask('third');
    const thirdId = await waitingItem(api, 'everything', seen);
    await reject(api, thirdId, 'reviewed on the second instance');
    expect(textOf(await third)).toMatch(/rejected/i); // the second instance's answer (the item was in its queue)

    // A program elsewhere calls the team's gateway with a token; a wrong one is refused.
    const call = (key: string) =>
      new Promise<number>((resolve, fail) => {
        const req = https.request(`${b.url}/openai/v1/models`, { ca: tls.pem, headers: { authorization: `Bearer ${key}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', fail);
        req.end();
      });
    expect(await call(token)).toBe(200);
    expect(await call('mcpgw_wrong')).toBe(401);
    api.close();
  }, 180_000);
});
