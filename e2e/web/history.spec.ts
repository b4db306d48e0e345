/**
 * History against the real store: a web host runs on a fresh user-data folder, and the spec seeds
 * its history database (a second connection on the same WAL file, as a second process would) with
 * 605 entries. Then, in Chromium: the list is virtualised; full-text search; filters; counters per
 * server; a session's timeline, diffs, media size and raw JSON; export of selected and filtered
 * sessions (JSONL parsed back, HTML checked for escaping); delete with confirmation; retention;
 * re-open as draft; the audit trail panel (retention's pruning recorded, the chain verified). Screenshots land in e2e/artifacts/history-*.png.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { openHistoryStore } from '../../main/store/history-store.js';
import { HISTORY_STATUSES } from '../../shared/contract/history.js';
import { parseJsonl } from '../../main/history/export.js';
import { HOSTILE, buildLiveHistory } from '../support/fixture-history.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

const FILLER = 600;
let host: WebHostProcess;
test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(60_000);
  host = await startWebHost(30_000, { servers: {} });
  const store = openHistoryStore(path.join(host.userDataDir, 'history.db'));
  try {
    store.saveMany(buildLiveHistory(Date.now(), FILLER));
  } finally {
    await store.close();
  }
});
test.afterAll(async () => host?.stop());

async function openHistory(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-total')).toHaveText(`${(FILLER + 5).toLocaleString('en-US')} total`);
}

const rowIds = (page: Page) => page.getByTestId('history-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-history-id')));

async function downloadText(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]) as [Download, void];
  const file = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(file, 'utf8') };
}

test('virtualised list, search, filters and counters', async ({ page }) => {
  await openHistory(page);
  // Only the rows in view exist; the newest is first.
  const shown = await rowIds(page);
  expect(shown[0]).toBe('hostile-1');
  expect(shown.length).toBeGreaterThan(5);
  expect(shown.length).toBeLessThan(40);
  // Scrolling to the end fetches the last page: the oldest entry appears.
  await page.getByTestId('history-list').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.locator('[data-history-id="fill-0"]')).toBeVisible();
  expect((await rowIds(page)).length).toBeLessThan(40);
  await page.getByTestId('history-list').evaluate((el) => el.scrollTo(0, 0));

  // Full-text search (prompts, system prompts, responses), newest first.
  await page.getByTestId('history-search').fill('lighthouse');
  await expect(page.getByTestId('history-total')).toHaveText('4 found');
  expect(await rowIds(page)).toEqual(['failed-1', 'loop-3', 'loop-2', 'loop-1']);
  await expect(page.locator('[data-history-id="loop-1"]')).toContainText('1/3');
  await expect(page.locator('[data-history-id="loop-1"]').getByTestId('history-media-size')).toHaveText('29.3 KB');
  await shot(page, 'history-search');

  // Filters AND with the search: server, then status.
  await page.getByTestId('history-filters-toggle').click();
  await page.getByTestId('history-filter-serverId').selectOption('github');
  await expect(page.getByTestId('history-total')).toHaveText('3 found');
  await page.getByTestId('history-filter-status').selectOption('rejected');
  await expect(page.getByTestId('history-total')).toHaveText('1 found');
  expect(await rowIds(page)).toEqual(['loop-3']);
  await page.getByTestId('history-search').fill('');
  await page.getByTestId('history-filter-serverId').selectOption('');
  await expect(page.getByTestId('history-total')).toHaveText(`${FILLER / 5 + 1} found`); // every 5th filler + loop-3
  await page.getByTestId('history-filter-status').selectOption('');
  await page.getByTestId('history-filter-errors').selectOption('yes');
  await expect(page.getByTestId('history-total')).toHaveText('2 found');
  await page.getByTestId('history-filter-edited').selectOption('yes');
  expect(await page.getByTestId('history-filter-status').locator('option').count()).toBe(HISTORY_STATUSES.length + 1);
  await expect(page.getByTestId('history-total')).toHaveText('0 found');
  await shot(page, 'history-filters');
  await page.getByTestId('history-filters-clear').click();
  await expect(page.getByTestId('history-total')).toHaveText(`${(FILLER + 5).toLocaleString('en-US')} total`);

  // Counters per server for a period.
  await page.getByTestId('history-stats').locator('summary').click();
  await page.getByTestId('history-period').selectOption('24h');
  await expect(page.getByTestId('history-stats-row')).toHaveCount(3);
  const github = page.locator('[data-testid="history-stats-row"][data-server-id="github"]');
  await expect(github.locator('td')).toHaveText(['3', '2', '1', '0', '1,020', '—']);
  await page.getByTestId('history-period').selectOption('all');
  await expect(page.locator('[data-testid="history-stats-row"][data-server-id="weather"] td').first()).toHaveText(String(FILLER / 2 + 1));
  await shot(page, 'history-stats');
});

test('a session: timeline, diffs, media and raw JSON of what went to the LLM and back', async ({ page }) => {
  await openHistory(page);
  await page.getByTestId('history-search').fill('duplicates');
  await page.locator('[data-history-id="loop-2"]').click();
  await expect(page.getByTestId('history-round')).toHaveCount(3);
  await shot(page, 'history-detail');
  await expect(page.locator('[data-round-id="loop-2"] button')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('history-system-diff').locator('del')).toHaveText('careful');
  await expect(page.getByTestId('history-system-diff').locator('ins')).toHaveText('terse');
  await expect(page.getByTestId('history-message-diff-0').locator('ins')).toHaveText(/^exact\s*$/);
  await expect(page.getByTestId('history-field-changes').locator('tr.is-changed')).toContainText('maxTokens');
  await expect(page.getByTestId('history-response-diff').locator('ins').filter({ hasText: 'close 14' })).toHaveCount(1);
  await expect(page.getByTestId('history-response-diff').locator('del').filter({ hasText: 'look like' })).toHaveCount(1);
  await expect(page.getByTestId('history-media-bytes').first()).toHaveText('29.3 KB');
  await page.getByTestId('history-raw-sent').locator('summary').click();
  await expect(page.getByTestId('history-raw-sent').locator('pre')).toContainText('"systemPrompt": "You are a terse triage assistant."');
  await page.getByTestId('history-raw-delivered').locator('summary').click();
  await expect(page.getByTestId('history-raw-delivered').locator('pre')).toContainText('Issues 12 and 14 are duplicates; close 14.');
  await shot(page, 'history-diff');
  // The timeline opens the other rounds.
  await page.locator('[data-round-id="loop-3"] button').click();
  await expect(page.getByTestId('history-error')).toContainText('enough rounds');
});

test('export selected and filtered sessions; the HTML report escapes server text', async ({ page }) => {
  await openHistory(page);
  await page.getByTestId('history-search').fill('duplicates');
  await expect(page.getByTestId('history-total')).toHaveText('3 found');
  await page.locator('[data-history-id="loop-3"]').locator('..').getByTestId('history-check').check();
  await expect(page.getByTestId('history-selection')).toContainText('1 selected');
  const jsonl = await downloadText(page, () => page.getByTestId('history-export-selected').click());
  expect(jsonl.name).toMatch(/^mcp-history-.*\.jsonl$/);
  const sessions = parseJsonl(jsonl.text);
  expect(sessions.map((s) => [s.conversationId, s.requests.map((r) => r.id)])).toEqual([['loop-1', ['loop-1', 'loop-2', 'loop-3']]]);
  expect(JSON.stringify(sessions[0]!.requests[0]!.original)).toContain('iVBORw0KGgo'); // media inline again
  await expect(page.getByTestId('history-action-status')).toContainText('Exported 1 session (3 requests)');

  await page.getByTestId('history-search').fill('marmalade');
  await expect(page.getByTestId('history-total')).toHaveText('1 found');
  await page.getByTestId('history-export-format').selectOption('html');
  const html = await downloadText(page, () => page.getByTestId('history-export-filtered').click());
  expect(html.name).toMatch(/\.html$/);
  expect(html.text).not.toContain(HOSTILE);
  expect(html.text).not.toMatch(/<script|<img/i);
  expect(html.text).toContain('&#60;script&#62;alert(&#34;pwned&#34;)&#60;/script&#62;');
  await page.getByTestId('history-export-format').selectOption('markdown');
  const md = await downloadText(page, () => page.getByTestId('history-export-filtered').click());
  expect(md.text).toContain('# MCP Approval Console — history report');
  await shot(page, 'history-export');
  // The hostile entry's own detail renders its text as text.
  await page.locator('[data-history-id="hostile-1"]').click();
  await expect(page.getByTestId('history-detail')).toContainText('<script>alert("pwned")</script>');
  expect(await page.locator('img[src="x"]').count()).toBe(0);
});

test('delete selected sessions after confirming; retention; re-open as draft', async ({ page }) => {
  await openHistory(page);
  await page.getByTestId('history-search').fill('duplicates');
  await page.locator('[data-history-id="loop-1"]').locator('..').getByTestId('history-check').check();
  await page.getByTestId('history-delete').click();
  await expect(page.getByTestId('history-delete-confirm')).toContainText('every request in them');
  await shot(page, 'history-delete-confirm');
  await page.getByTestId('history-delete-yes').click();
  await expect(page.getByTestId('history-action-status')).toContainText('Deleted 1 session (3 requests)');
  await expect(page.getByTestId('history-total')).toHaveText('0 found');
  await page.getByTestId('history-search').fill('');
  await expect(page.getByTestId('history-total')).toHaveText(`${FILLER + 2} total`);

  // Retention: keep the newest 100 sessions.
  await page.getByTestId('history-retention').locator('summary').click();
  await page.getByTestId('history-retention-sessions').fill('100');
  await page.getByTestId('history-retention-save').click();
  await expect(page.getByTestId('history-retention-status')).toContainText(`${FILLER + 2 - 100} older requests were deleted`);
  await expect(page.getByTestId('history-total')).toHaveText('100 total');
  await page.getByTestId('history-retention-sessions').fill('');
  await page.getByTestId('history-retention-save').click();
  await expect(page.getByTestId('history-retention')).toContainText('Retention: keep everything');

  // Re-open a past request as a draft in the queue (no server waiting).
  await page.locator('[data-history-id="failed-1"]').click();
  await page.getByTestId('history-reopen').click();
  await expect(page.getByTestId('nav-queue')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('request-review')).toContainText('Will the lighthouse ferry run in the storm?');
  await shot(page, 'history-reopened-draft');
});

test('the audit trail: History pruned by retention is recorded, and Verify walks the chain', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(host.url);
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-audit').locator('summary').click();
  const pruned = page.getByTestId('audit-record').filter({ hasText: 'history.pruned' });
  await expect(pruned.first()).toBeVisible();
  await expect(pruned.first()).toContainText('the console');
  await expect(page.getByTestId('history-audit').locator('summary')).toHaveText(/Audit trail \(\d+ records\)/);
  await page.getByTestId('audit-verify').click();
  await expect(page.getByTestId('audit-verify-result')).toContainText(/Intact: \d+ records as recorded; 0 anchors checked\. No anchors configured/);
  await shot(page, 'history-audit-trail');
});
