/**
 * Two web hosts as instances of one team on a throw-away PostgreSQL (MCP_CONSOLE_DATABASE_URL): a
 * stdio server run by instance A calls the `openai` SDK inside its `summarize` tool through A's
 * gateway (test/fixtures/gateway-caller-server.ts); the person calls the tool in a page of A; a
 * reviewer in a page of B finds the call in B's Queue, approves it, edits the response and
 * approves; the tool's result on A is the edited text, and History on B has it.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startOpenAICompatibleServer } from '../../test/fixtures/openai-compatible-server.js';
import { adminQuery, startPostgres, type PostgresCluster } from '../../test/support/postgres.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let cluster: PostgresCluster;
let a: WebHostProcess;
let b: WebHostProcess;
let llm: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  llm = await startOpenAICompatibleServer();
  cluster = await startPostgres();
  await adminQuery(cluster.url(), 'CREATE DATABASE team');
  const env = { OPENAI_COMPATIBLE_BASE_URL: llm.baseURL, OPENAI_COMPATIBLE_MODEL: 'loop-small', MCP_CONSOLE_GATEWAY_PORT: '0', MCP_CONSOLE_DATABASE_URL: cluster.url('team') };
  a = await startWebHost(60_000, {
    env,
    servers: { caller: { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/gateway-caller-server.ts')], cwd: ROOT, providerGateway: true } },
  });
  b = await startWebHost(60_000, { env, servers: {} });
});
test.afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await cluster?.destroy();
  await llm?.close();
});

/** Calls the `summarize` tool in a page of A. */
async function callToolOnA(page: Page): Promise<void> {
  await page.goto(a.url);
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: /^summarize$/ }).click();
  await page.getByTestId('tool-field-text').fill('A long meeting about the budget.');
  await page.getByTestId('call-tool').click();
}

test('a call that arrived at instance A is reviewed in a page of instance B; A answers its caller', async ({ page, browser }) => {
  test.setTimeout(120_000);
  llm.script({ text: 'The meeting agreed on the budget.' });
  await callToolOnA(page);

  const reviewer = await (await browser.newContext()).newPage();
  await reviewer.goto(b.url);
  await reviewer.getByTestId('nav-queue').click();
  await reviewer.getByTestId('queue-item').first().click({ timeout: 15_000 });
  await expect(reviewer.getByTestId('request-review')).toBeVisible();
  await expect(reviewer.getByTestId('item-header').getByTestId('gateway-badge')).toHaveAttribute('data-api', 'openai');
  await expect(reviewer.getByTestId('message-text-0-0')).toContainText('A long meeting about the budget.');
  await shot(reviewer, 'live-team-review-on-b');
  await reviewer.getByTestId('approve-request').click();

  await expect(reviewer.getByTestId('response-review')).toBeVisible({ timeout: 15_000 });
  await expect(reviewer.getByTestId('response-text')).toContainText('The meeting agreed on the budget.');
  await reviewer.getByTestId('response-edit').click();
  await reviewer.getByTestId('response-editor').fill('Budget agreed (checked on B).');
  await reviewer.getByTestId('approve-response').click();
  await expect(reviewer.getByTestId('outcome-banner')).toContainText('The caller received the response', { timeout: 15_000 });
  // The edit saved before the approval reached A before it: nothing shows as typed after the review ended.
  await expect(reviewer.getByTestId('reopen-draft')).toHaveCount(0);
  await shot(reviewer, 'live-team-outcome-on-b');

  const call = page.getByTestId('call-result').first();
  await expect(call).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
  await expect(call).toContainText('Budget agreed (checked on B).');
});
