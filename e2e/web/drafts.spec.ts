/**
 * Nothing a person typed is lost (README, "Drafts"), in Chromium against the real web host and the
 * v2 sampling fixture (stdio, push era, manual provider): a response typed while the server's
 * timer runs out stays on screen (the review held until dismissed, then the outcome) with "Not
 * delivered: the server stopped waiting at …", copyable,
 * is in History in full and re-opens where it was typed; and a response typed a second before the
 * console is killed is in History after the console starts again over the same data folder.
 * Screenshots: e2e/artifacts/drafts-*.png.
 */
import { rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { startSamplingServer, type StartedFixture } from '../../test/fixtures/sampling-server.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

let fixture: StartedFixture;

test.beforeAll(async () => {
  fixture = await startSamplingServer({ transport: 'stdio', era: 'legacy' });
});

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
});

/** Calls a fixture tool from the Servers screen (arguments as raw JSON) and opens its sampling request. */
async function callTool(page: Page, tool: string, args: Record<string, unknown>): Promise<void> {
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: new RegExp(`^${tool}$`) }).click();
  await page.getByTestId('tool-raw-toggle').check();
  await page.getByTestId('tool-raw').fill(JSON.stringify(args));
  const before = await page.getByTestId('call-result').count();
  await page.getByTestId('call-tool').click();
  await expect(page.getByTestId('call-result')).toHaveCount(before + 1);
  const row = page.getByTestId('call-result').first();
  await expect(row).toContainText(tool);
  await row.getByTestId('call-sampling-link').first().click();
  await expect(page.getByTestId('request-review')).toBeVisible();
}

/** Approves the request for "Write the response myself" and types `text` into the response, key by key at the end. */
async function writeResponse(page: Page, text: string): Promise<void> {
  await page.getByTestId('approve-request').click();
  const editor = page.getByTestId('response-editor');
  await expect(editor).toBeVisible();
  await editor.fill(text.slice(0, -12));
  await editor.pressSequentially(text.slice(-12), { delay: 20 });
  await expect(editor).toHaveValue(text);
}

test('a response typed while the server gives up stays on screen, copyable, and in History in full; it re-opens where it was typed', async ({ page, context }) => {
  test.setTimeout(90_000);
  const host = await startWebHost(30_000, { servers: { fixture: fixture.config } });
  try {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(host.url).origin });
    await page.goto(host.url);
    const text = 'Dear server, here is the answer I wrote by hand.\nIt has two lines.';
    await callTool(page, 'ask-with-timeout', { timeoutMs: 7000 });
    await writeResponse(page, text);

    // The server's timer runs out: the review stays as it was, with a banner, until dismissed.
    await expect(page.getByTestId('review-ended')).toContainText(/Not delivered: the server stopped waiting at \d/, { timeout: 15_000 });
    await expect(page.getByTestId('response-editor')).toHaveValue(text);
    await page.getByTestId('dismiss-ended-review').click();
    // Then the item as it ended: what was typed stays.
    const outcome = page.getByTestId('outcome-view');
    await expect(outcome).toBeVisible({ timeout: 15_000 });
    await expect(outcome.getByTestId('not-delivered')).toContainText(/Not delivered: the server stopped waiting at \d/);
    await expect(outcome.getByTestId('draft-text')).toHaveText(text);
    await expect(outcome).not.toContainText('What was sent to the model'); // nothing was: no model was called
    await expect(outcome).toContainText('The approved request (no model was called)');
    await outcome.getByTestId('copy-draft').click();
    await expect(outcome.getByTestId('copy-draft')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    await shot(page, 'drafts-not-delivered');

    // History: marked not delivered, the full text in the detail.
    await page.getByTestId('nav-history').click();
    const row = page.getByTestId('history-item').first();
    await expect(row.getByTestId('history-not-delivered')).toHaveText('not delivered · draft kept');
    await row.click();
    const detail = page.getByTestId('history-detail');
    await expect(detail.getByTestId('not-delivered')).toContainText(/Not delivered: the server stopped waiting at \d/);
    await expect(detail.getByTestId('draft-text')).toHaveText(text);
    await expect(detail.getByRole('definition').filter({ hasText: 'written by the person (no model)' })).toBeVisible(); // not "manual — manual"
    await shot(page, 'drafts-history');

    // Re-open: back in the Queue, in the response editor, with the text.
    await detail.getByTestId('history-reopen').click();
    await expect(page.getByTestId('response-review')).toBeVisible();
    await expect(page.getByTestId('response-editor')).toHaveValue(text);
  } finally {
    await host.stop();
  }
});

test('a response typed a second before the console is killed is in History after a restart over the same folder', async ({ page }) => {
  test.setTimeout(90_000);
  const first = await startWebHost(30_000, { servers: { fixture: fixture.config }, keepUserData: true });
  let second: WebHostProcess | undefined;
  try {
    await page.goto(first.url);
    const text = 'Typed right before the console went away.';
    await callTool(page, 'ask-text', { prompt: 'Take your time.' });
    await writeResponse(page, text);
    await page.waitForTimeout(1000); // "persisted within a second of the last keystroke"
    await first.kill();

    second = await startWebHost(30_000, { servers: { fixture: fixture.config }, userDataDir: first.userDataDir });
    await page.goto(second.url);
    await page.getByTestId('nav-history').click();
    const row = page.getByTestId('history-item').first();
    await expect(row.getByTestId('history-not-delivered')).toHaveText('not delivered · draft kept');
    await row.click();
    const detail = page.getByTestId('history-detail');
    await expect(detail.getByTestId('not-delivered')).toContainText(/Not delivered: the console stopped at \d/);
    await expect(detail.getByTestId('draft-text')).toHaveText(text);
    await shot(page, 'drafts-after-restart');
  } finally {
    await first.stop();
    await second?.stop();
    rmSync(first.userDataDir, { recursive: true, force: true });
  }
});
