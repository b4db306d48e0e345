/**
 * Three reviewers in three browsers on a real team server — two instances (`mcp-approval-console
 * serve`) on one PostgreSQL — over 300 waiting provider calls, half arriving at each instance.
 * People are rows of `team_people`, each browser signed in with a session of their own.
 *
 * First the claims seen by people: Ana opens a call and types; Bo, opening it, watches her draft
 * arrive read-only; Cy (an admin) takes it over, Ana's page says so and her text is what Cy
 * continues from and sends. A draft Ana leaves on a call she walks away from is what Bo finds and
 * sends. Then the race: all three decide as fast as they can, each picking calls nobody holds;
 * every call is decided exactly once (one decision in the audit trail, one answer to its caller)
 * and no draft typed is lost. Last, a two-person rule: the queue shows "1 of 2 approvals" after
 * Ana's approval, and the call goes out at Bo's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import WebSocket from 'ws';
import { SERVING_LINE_PREFIX } from '../../app/web/serve.js';
import { SESSION_COOKIE } from '../../app/web/team-sign-in.js';
import { createConnection, type Connection } from '../../main/store/pg/connection.js';
import { teamPeople } from '../../main/team/people.js';
import { teamSessions } from '../../main/team/sessions.js';
import type { TeamNotifier } from '../../main/team/notify.js';
import { startOpenAICompatibleServer } from '../../test/fixtures/openai-compatible-server.js';
import { adminQuery, startPostgres, type PostgresCluster } from '../../test/support/postgres.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CALLS = 300;
const TOKEN_NAME = 'race';
const SERVER = `gateway:${TOKEN_NAME}`; // the server a named token's calls are queued under

let cluster: PostgresCluster;
let llm: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;
const servers: ChildProcess[] = [];
let urls: [string, string];
let db: Connection;
const cookies: Record<'ana' | 'bo' | 'cy', string> = { ana: '', bo: '', cy: '' };

/** Starts one instance of the team and resolves with the address it serves at. */
function serve(databaseUrl: string): Promise<string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-race-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'app/bridge/cli.ts', 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, MCP_CONSOLE_DATABASE_URL: databaseUrl, MCP_CONSOLE_ADMIN_TOKEN: 'race-admin-token', MCP_CONSOLE_SECRET_PASSPHRASE: 'e2e', OPENAI_COMPATIBLE_BASE_URL: llm.baseURL, OPENAI_COMPATIBLE_MODEL: 'test-model' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(child);
  let out = '';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 90_000);
    const onData = (d: Buffer) => {
      out = (out + d.toString()).slice(-20_000);
      const line = out.split('\n').find((l) => l.startsWith(SERVING_LINE_PREFIX));
      if (line) {
        clearTimeout(timer);
        resolve(new URL(line.slice(SERVING_LINE_PREFIX.length).trim()).origin);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
}

/** Calls API `method` as the person of `cookie` on the instance at `origin` (its UI WebSocket). */
async function call<T>(origin: string, cookie: string, method: string, input: unknown = {}): Promise<T> {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/api`, { headers: { origin, cookie: `${SESSION_COOKIE}=${cookie}` } });
  try {
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return await new Promise<T>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString()) as { id?: number; reply?: { ok: boolean; value?: T; error?: { message: string } } };
        if (frame.id !== 1 || !frame.reply) return;
        if (frame.reply.ok) resolve(frame.reply.value as T);
        else reject(new Error(`${method}: ${frame.reply.error?.message}`));
      });
      ws.send(JSON.stringify({ id: 1, method, input }));
    });
  } finally {
    ws.close();
  }
}

/** A browser page signed in as the person of `cookie`, on the Queue of the instance at `origin`. */
async function reviewer(browser: Browser, origin: string, cookie: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addCookies([{ name: SESSION_COOKIE, value: cookie, url: origin }]);
  const page = await context.newPage();
  await page.goto(origin);
  await page.getByTestId('nav-queue').click();
  return page;
}

/** The row of item `id` on `page` (scrolled into the list's view). */
const row = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`);
/** Scrolls `page`'s queue list until item `id`'s row is rendered, then clicks it. */
async function open(page: Page, id: string): Promise<void> {
  const list = page.getByTestId('queue-list');
  for (let top = 0; (await row(page, id).count()) === 0 && top < 100_000; top += 400) await list.evaluate((el, y) => (el.scrollTop = y), top);
  await row(page, id).click();
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  llm = await startOpenAICompatibleServer();
  cluster = await startPostgres();
  await adminQuery(cluster.url(), 'CREATE DATABASE team');
  const url = cluster.url('team');
  urls = [await serve(url), await serve(url)];
  db = createConnection({ connection: url });
  const notifier = { instanceId: () => 'e2e', publish: async () => undefined } as unknown as TeamNotifier;
  const people = teamPeople(db, notifier);
  const sessions = teamSessions(db, notifier);
  const now = Date.now();
  const ana = await people.add({ name: 'Ana', role: 'reviewer' }, now);
  const bo = await people.add({ name: 'Bo', role: 'reviewer' }, now);
  const cy = await people.add({ name: 'Cy', role: 'admin' }, now);
  cookies.ana = (await sessions.open(ana.subject)).id;
  cookies.bo = (await sessions.open(bo.subject)).id;
  cookies.cy = (await sessions.open(cy.subject)).id;
});
test.afterAll(async () => {
  await Promise.all(
    servers.map(async (child) => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }),
  );
  await db?.close();
  await cluster?.destroy();
  await llm?.close();
});

/**
 * One gateway call to the instance at `origin` with `token`; resolves with its HTTP status once a
 * person decided. node:http, not fetch: fetch gives up after 5 minutes without a header, and a
 * caller here waits as long as the reviewers take.
 */
const gatewayCall = (origin: string, token: string, content: string) =>
  new Promise<number>((resolve, reject) => {
    const body = JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content }], max_tokens: 32 });
    const req = http.request(
      `${origin}/openai/v1/chat/completions`,
      { method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });

interface Waiting {
  id: string;
  status: string;
  preview?: string;
}

/** The rules with limits high enough for every call to wait (and `extra` rules on the calls' server). */
async function saveRules(server: string, extra: unknown[] = []): Promise<void> {
  const state = await call<{ policy?: { revision?: string } }>(urls[0], cookies.cy, 'getState');
  const many = { maxWaiting: 5_000, requestsPerMinute: 100_000 };
  const rules = { version: 1, global: many, servers: { [server]: { limits: many, rules: extra } } };
  await call(urls[0], cookies.cy, 'saveRules', { rules, baseRevision: state.policy!.revision });
}

test('three reviewers, two instances, 300 waiting calls: each decided once, no draft lost', async ({ browser }) => {
  test.setTimeout(900_000);
  const { token } = await call<{ token: string }>(urls[0], cookies.cy, 'createGatewayToken', { name: TOKEN_NAME });
  await saveRules(SERVER);
  for (let i = 0; i < 10; i++) llm.script({ text: 'The model answers.' });
  const answers = Array.from({ length: CALLS }, (_, i) => gatewayCall(urls[i % 2]!, token, `call ${i}`));
  let answered = 0;
  for (const a of answers) void a.then(
    () => answered++,
    () => answered++,
  );

  const ana = await reviewer(browser, urls[0], cookies.ana);
  const bo = await reviewer(browser, urls[1], cookies.bo);
  const cy = await reviewer(browser, urls[0], cookies.cy);
  for (const page of [ana, bo, cy]) await expect(page.getByTestId('queue-item')).not.toHaveCount(0, { timeout: 60_000 });
  const state = () => call<{ items: Waiting[]; team?: { claims: Record<string, unknown> } }>(urls[1], cookies.cy, 'getState');
  const items = async () => (await state()).items;
  await expect.poll(async () => (await items()).filter((i) => i.status === 'awaiting_request_review').length, { timeout: 120_000 }).toBe(CALLS);
  await expect(ana.getByTestId('online-person')).toHaveText(['Ana', 'Bo', 'Cy'].map((n) => new RegExp(`^${n}$`)), { timeout: 20_000 });
  // Each page opened (and claimed) a call by itself: the scripted part uses calls nobody holds.
  await expect.poll(async () => Object.keys((await state()).team?.claims ?? {}).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  const now = await state();
  const free = now.items.filter((i) => !now.team?.claims[i.id]).map((i) => i.id);
  // The Queue opens the next call below one decided for whoever decided it: the second and third are far below.
  const [first, second, third] = [free[0], free.at(-1), free.at(-2)];

  // Ana opens the first call and types; Bo watches her text arrive, read-only.
  await open(ana, first!);
  await expect(row(ana, first!).getByTestId('queue-claim')).toHaveText('Ana is reviewing', { timeout: 15_000 });
  await ana.getByTestId('message-edit-0-0').click();
  await ana.getByTestId('message-editor-0-0').fill('Ana typed this first');
  await open(bo, first!);
  await expect(bo.getByTestId('review-watching')).toContainText('Ana is reviewing this request', { timeout: 15_000 });
  await expect(bo.getByTestId('reject-request')).toBeDisabled();
  await expect(bo.getByTestId('message-editor-0-0')).toHaveValue('Ana typed this first', { timeout: 15_000 });
  await expect(row(bo, first!).getByTestId('queue-claim')).toHaveText('Ana is reviewing');
  await bo.screenshot({ path: test.info().outputPath('watcher-view.png') });
  await row(bo, first!).screenshot({ path: test.info().outputPath('claimed-row.png') });

  // Cy, an admin, takes it over: Ana's page says so; Cy continues from her text and sends it.
  await open(cy, first!);
  await cy.getByTestId('take-over').click();
  await expect(ana.getByTestId('review-taken-over')).toContainText('Cy took over this review', { timeout: 15_000 });
  await expect(ana.getByTestId('message-editor-0-0')).toHaveValue('Ana typed this first');
  await ana.screenshot({ path: test.info().outputPath('taken-over.png') });
  await expect(cy.getByTestId('review-watching')).toHaveCount(0, { timeout: 15_000 });
  await expect(cy.getByTestId('message-editor-0-0')).toHaveValue('Ana typed this first');
  await cy.getByTestId('message-editor-0-0').fill('Ana typed this first, Cy finished it');
  await cy.getByTestId('approve-request').click();
  await cy.getByTestId('approve-response').click({ timeout: 30_000 });
  await ana.getByTestId('dismiss-taken-over').click();

  // Ana types on the second call and walks away to the third: Bo finds her text and sends it.
  await open(ana, second!);
  await expect(row(ana, second!).getByTestId('queue-claim')).toHaveText('Ana is reviewing', { timeout: 15_000 });
  await ana.getByTestId('message-edit-0-0').click();
  await ana.getByTestId('message-editor-0-0').fill('Ana left this behind');
  await open(ana, third!);
  await open(bo, second!);
  await expect(bo.getByTestId('review-watching')).toHaveCount(0);
  await expect(row(bo, second!).getByTestId('queue-claim')).toHaveText('Bo is reviewing', { timeout: 15_000 });
  await expect(bo.getByTestId('message-editor-0-0')).toHaveValue('Ana left this behind', { timeout: 15_000 });
  await bo.getByTestId('approve-request').click();
  await bo.getByTestId('approve-response').click({ timeout: 30_000 });

  // The race: everyone rejects what they hold, then picks a call nobody holds.
  const done = () => answered >= CALLS;
  const decided = await Promise.all([race(ana, 'Ana', done), race(bo, 'Bo', done), race(cy, 'Cy', done)]);
  const statuses = await Promise.all(answers);
  expect(statuses.filter((s) => s === 200)).toHaveLength(2);
  expect(statuses.filter((s) => s !== 200).every((s) => s === 403)).toBe(true);
  for (const n of decided) expect(n).toBeGreaterThan(0);

  // Exactly once: one decision about each call's request in the audit trail.
  const once = await db.query<{ subject: string; n: number }>(
    "SELECT subject, count(*)::int AS n FROM audit_log WHERE kind IN ('sampling.request_approved', 'sampling.request_rejected') GROUP BY subject",
  );
  expect(once).toHaveLength(CALLS);
  expect(once.every((r) => r.n === 1)).toBe(true);
  // No draft lost: what was typed is what went out.
  const entry = async (id: string) => JSON.stringify(await call(urls[1], cookies.cy, 'getHistoryEntry', { id }));
  expect(await entry(first!)).toContain('Ana typed this first, Cy finished it');
  expect(await entry(second!)).toContain('Ana left this behind');
  for (const page of [ana, bo, cy]) await page.context().close();
});

/**
 * One reviewer deciding as fast as they can until `done`: rejects the request their page shows
 * when they hold it, else opens a waiting call nobody holds. Returns how many they decided.
 */
async function race(page: Page, name: string, done: () => boolean): Promise<number> {
  let decided = 0;
  const list = page.getByTestId('queue-list');
  while (!done()) {
    const selected = page.locator('[data-testid="queue-item"][aria-current="true"][data-status="awaiting_request_review"]');
    if ((await selected.count()) > 0 && (await page.getByTestId('request-review').count()) > 0) {
      const claim = selected.getByTestId('queue-claim');
      await claim.waitFor({ timeout: 3_000 }).catch(() => undefined);
      // Every read has a timeout: the row may leave the list between two reads (decided elsewhere, scrolled away).
      if ((await claim.textContent({ timeout: 2_000 }).catch(() => null)) === `${name} is reviewing`) {
        const id = await selected.getAttribute('data-item-id', { timeout: 2_000 }).catch(() => null);
        if (!id) continue;
        await page.getByTestId('reject-request').click({ timeout: 5_000 }).catch(() => undefined);
        const gone = await expect(row(page, id))
          .not.toHaveAttribute('data-status', 'awaiting_request_review', { timeout: 15_000 })
          .then(() => true)
          .catch(() => false);
        if (gone) decided++;
        continue;
      }
    }
    const free = page.locator('[data-testid="queue-item"][data-status="awaiting_request_review"]:not(:has([data-testid="queue-claim"]))');
    const n = await free.count();
    if (n === 0) {
      // Decided calls stay listed until dismissed: look further down (or from the top again).
      await list.evaluate((el) => (el.scrollTop = el.scrollTop + el.clientHeight >= el.scrollHeight - 2 ? 0 : el.scrollTop + el.clientHeight));
      await page.waitForTimeout(100);
      continue;
    }
    await free
      .nth(Math.floor(Math.random() * Math.min(n, 5)))
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  }
  return decided;
}

test('a two-person rule: "1 of 2 approvals" in the queue, the call goes out at the second', async ({ browser }) => {
  test.setTimeout(120_000);
  const { token } = await call<{ token: string }>(urls[0], cookies.cy, 'createGatewayToken', { name: 'pair' });
  await saveRules('gateway:pair', [{ id: 'two', name: 'Two people', action: { kind: 'ask', approvals: 2 } }]);
  llm.script({ text: 'Two approved it.' });
  const answer = gatewayCall(urls[1], token, 'needs two people');
  const ana = await reviewer(browser, urls[0], cookies.ana);
  const bo = await reviewer(browser, urls[1], cookies.bo);
  await expect.poll(async () => (await call<{ items: Waiting[] }>(urls[0], cookies.cy, 'getState')).items.filter((i) => i.status === 'awaiting_request_review').length, { timeout: 30_000 }).toBe(1);
  const { items } = await call<{ items: Waiting[] }>(urls[0], cookies.cy, 'getState');
  const id = items.find((i) => i.status === 'awaiting_request_review')!.id;
  await open(ana, id);
  await expect(row(ana, id).getByTestId('queue-claim')).toHaveText('Ana is reviewing', { timeout: 15_000 });
  await ana.getByTestId('approve-request').click();
  await expect(ana.getByTestId('review-approved')).toContainText('1 of 2 approvals', { timeout: 15_000 });
  await open(bo, id);
  await expect(row(bo, id).getByTestId('queue-approvals')).toHaveText('1 of 2 approvals', { timeout: 15_000 });
  await expect(row(bo, id).getByTestId('queue-claim')).toHaveText('Bo is reviewing', { timeout: 15_000 });
  await bo.screenshot({ path: test.info().outputPath('one-of-two.png') });
  await bo.getByTestId('approve-request').click();
  await bo.getByTestId('approve-response').click({ timeout: 30_000 });
  expect(await answer).toBe(200);
});
