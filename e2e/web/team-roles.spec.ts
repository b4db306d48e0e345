/**
 * Roles in the browser, on a real team server (`mcp-approval-console serve`, loopback, a real
 * PostgreSQL): Ana makes a personal token in Settings (shown once) and a gateway call with it; Bo, a reviewer, sees it "requested by
 * Ana" in his Queue and rejects it; History shows who decided and who requested, filters by
 * person and counts per person; Cy, an auditor, sees no setup screens and only watches a waiting
 * request (no buttons). People and sessions are made in the team's database directly (the
 * sign-in page for people is another part).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { SERVING_LINE_PREFIX } from '../../app/web/serve.js';
import { SESSION_COOKIE } from '../../app/web/team-sign-in.js';
import { createConnection, type Connection } from '../../main/store/pg/connection.js';
import { teamPeople } from '../../main/team/people.js';
import { teamSessions } from '../../main/team/sessions.js';
import { startPostgres, type PostgresCluster } from '../../test/support/postgres.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let cluster: PostgresCluster;
let child: ChildProcess | undefined;
let conn: Connection;
let url = '';
const calls: Array<Promise<unknown>> = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-roles-e2e-'));
  child = spawn(process.execPath, ['--import', 'tsx', 'app/bridge/cli.ts', 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, MCP_CONSOLE_DATABASE_URL: cluster.url(), MCP_CONSOLE_ADMIN_TOKEN: 'roles-e2e-admin-token', MCP_CONSOLE_SECRET_PASSPHRASE: 'e2e-passphrase' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith(SERVING_LINE_PREFIX));
      if (line) {
        clearTimeout(timer);
        resolve(line.slice(SERVING_LINE_PREFIX.length).trim().replace(/\/$/, ''));
      }
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
  conn = createConnection({ connection: cluster.url() });
});

test.afterAll(async () => {
  await conn?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await Promise.allSettled(calls); // answered by the server's shutdown at the latest
  await cluster?.destroy();
});

const notifier = { instanceId: () => 'e2e' };

/** A page signed in as `subject` (a session made in the database, its cookie set). */
async function pageAs(browser: Browser, subject: string): Promise<Page> {
  const { id } = await teamSessions(conn, notifier).open(subject);
  const context = await browser.newContext();
  await context.addCookies([{ name: SESSION_COOKIE, value: id, url }]);
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByTestId('signed-in-as')).toBeVisible({ timeout: 20_000 });
  return page;
}

/** A Chat Completions call to the team server's gateway with `token` (waits on a person). */
function gatewayCall(token: string, content: string): Promise<Response> {
  const answer = fetch(`${url}/openai/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test-model', messages: [{ role: 'user', content }], max_tokens: 16 }),
  });
  calls.push(answer.catch(() => undefined));
  return answer;
}

test("a reviewer decides a call requested with a colleague's personal token; History names both; an auditor only watches", async ({ browser }) => {
  test.setTimeout(120_000);
  const people = teamPeople(conn, notifier);
  const ana = await people.add({ name: 'Ana', role: 'reviewer' }, Date.now());
  const bo = await people.add({ name: 'Bo', role: 'reviewer' }, Date.now());
  const cy = await people.add({ name: 'Cy', role: 'auditor' }, Date.now());
  // Ana makes her personal token in Settings; it shows once.
  const requester = await pageAs(browser, ana.subject);
  await requester.getByTestId('nav-settings').click();
  await requester.getByTestId('personal-token-name').fill('ana-laptop');
  await requester.getByTestId('personal-token-create').click();
  const token = await requester.getByTestId('personal-token-value').inputValue();
  expect(token).toMatch(/^mcppt_/);
  await expect(requester.getByTestId('personal-token')).toHaveAttribute('data-name', 'ana-laptop');
  await expect(requester.getByTestId('settings-gateway')).toHaveCount(0);
  await requester.getByTestId('settings-personal-tokens').screenshot({ path: test.info().outputPath('team-roles-personal-tokens.png') });

  const answer = gatewayCall(token, 'Summarize the incident report.');
  const reviewer = await pageAs(browser, bo.subject);
  await expect(reviewer.getByTestId('signed-in-as')).toHaveText('Bo · reviewer');
  await expect(reviewer.getByTestId('nav-servers')).toHaveCount(0);
  const row = reviewer.getByTestId('queue-item').first();
  await expect(row.getByTestId('requested-by')).toHaveText('requested by Ana', { timeout: 20_000 });
  await row.click();
  await expect(reviewer.getByTestId('request-review')).toBeVisible();
  await reviewer.getByTestId('reject-reason').fill('not for this project');
  await reviewer.getByTestId('reject-request').click();
  expect((await answer).status).toBe(403);

  // An auditor: no setup screens; a waiting request is watched, not decided.
  const second = gatewayCall(token, 'And the follow-up?');
  const auditor = await pageAs(browser, cy.subject);
  await expect(auditor.getByTestId('signed-in-as')).toHaveText('Cy · auditor');
  await expect(auditor.getByTestId('nav-rules')).toHaveCount(0);
  await auditor.locator('[data-testid="queue-item"][data-status="rejected"]').click({ timeout: 20_000 });
  await expect(auditor.getByTestId('outcome-banner')).toBeVisible();
  await expect(auditor.getByTestId('dismiss-item')).toHaveCount(0);
  await auditor.locator('[data-testid="queue-item"][data-status="awaiting_request_review"]').click({ timeout: 20_000 });
  await expect(auditor.getByTestId('watch-only')).toHaveText('You watch this request: your role (auditor) does not decide.');
  await expect(auditor.getByTestId('approve-request')).toHaveCount(0);
  await auditor.screenshot({ path: test.info().outputPath('team-roles-auditor-watches.png') });

  // History, as Bo: who decided and who requested, the filter by person, the counters per person.
  await reviewer.getByTestId('nav-history').click();
  const entry = reviewer.getByTestId('history-item').filter({ has: reviewer.getByTestId('history-row-decider') }).first();
  await expect(entry.getByTestId('history-row-decider')).toHaveText('by Bo', { timeout: 20_000 });
  await expect(entry.getByTestId('history-row-requested-by')).toHaveText('for Ana');
  await entry.click();
  await expect(reviewer.getByTestId('history-decider')).toHaveText('Bo');
  await expect(reviewer.getByTestId('history-requested-by')).toHaveText('Ana');
  await reviewer.getByTestId('history-filters-toggle').click();
  await reviewer.getByTestId('history-filter-decider').selectOption({ label: 'Bo' });
  await expect(reviewer.getByTestId('history-item')).toHaveCount(1);
  await reviewer.getByTestId('history-stats').locator('summary').click();
  await expect(reviewer.getByTestId('history-stats-person').filter({ hasText: 'Bo' })).toContainText('1');
  await expect(reviewer.getByTestId('history-stats-person').filter({ hasText: 'Ana' })).toBeVisible();
  await expect(reviewer.getByTestId('history-retention')).toHaveCount(0);
  await reviewer.screenshot({ path: test.info().outputPath('team-roles-history.png'), fullPage: true });

  // Bo rejects the second one too, so the caller is answered.
  await reviewer.getByTestId('nav-queue').click();
  await reviewer.locator('[data-testid="queue-item"][data-status="awaiting_request_review"]').click();
  await reviewer.getByTestId('reject-request').click();
  expect((await second).status).toBe(403);
});
