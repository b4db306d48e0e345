/**
 * Attention through the real web host: server-everything asks for a completion; the tab title
 * shows the count, the browser shows main's notification (server, tool, first prompt line — as
 * server-everything words it) and a
 * click on it opens the request. With "do not disturb" switched on in Settings (saved by main), the
 * next request is counted in the title but not notified.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';
import { clickNotification, recordBrowserNotifications, shownNotifications } from './settings-fixture.js';

let host: WebHostProcess;
test.beforeAll(async () => {
  test.setTimeout(60_000);
  host = await startWebHost();
});
test.afterAll(async () => host?.stop());

/** Calls trigger-sampling-request with `prompt` from the Servers screen. */
async function trigger(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('server-item').filter({ hasText: 'everything' }).click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: /^trigger-sampling-request$/ }).click();
  await page.getByTestId('tool-field-prompt').fill(prompt);
  await page.getByTestId('call-tool').click();
}

test('title count, browser notification with Review, and do not disturb', async ({ page }) => {
  test.setTimeout(90_000);
  await recordBrowserNotifications(page, 'granted');
  await page.goto(host.url);
  await expect(page).toHaveTitle('MCP Approval Console');

  await trigger(page, 'Write a limerick about queues');
  await expect(page).toHaveTitle('(1) MCP Approval Console', { timeout: 15_000 });
  await expect.poll(() => shownNotifications(page), { timeout: 10_000 }).toEqual([
    { title: 'everything asks for a completion', body: 'trigger-sampling-request: Resource trigger-sampling-request context: Write a limerick about queues', silent: true, tag: expect.any(String) },
  ]);
  await clickNotification(page, 0);
  await expect(page.getByTestId('request-review')).toBeVisible();
  await expect(page.getByTestId('message-text-0-0')).toContainText('Write a limerick about queues');

  await page.getByTestId('nav-settings').click();
  await page.getByTestId('setting-dnd').click();
  await expect(page.getByTestId('setting-dnd')).toBeChecked();
  await expect(page.getByTestId('dnd-indicator')).toBeVisible();
  const saved = JSON.parse(readFileSync(path.join(host.userDataDir, 'desktop-settings.json'), 'utf8')) as Record<string, unknown>;
  expect(saved).toMatchObject({ doNotDisturb: true, notifications: true });
  await shot(page, 'live-settings-dnd');

  await trigger(page, 'A second request while busy');
  await expect(page).toHaveTitle('(2) MCP Approval Console', { timeout: 15_000 });
  await page.waitForTimeout(500);
  expect(await shownNotifications(page)).toHaveLength(1);

  // Rejecting both brings the title back.
  await page.getByTestId('nav-queue').click();
  // Each rejection is waited for: clicking "the first waiting row" before the first rejection
  // arrived selected the rejected item again (seen on a loaded machine).
  const waiting = page.getByTestId('queue-item').filter({ has: page.locator('.status-awaiting_request_review') });
  for (let left = 2; left > 0; left--) {
    await expect(waiting).toHaveCount(left);
    await waiting.first().click();
    await page.getByTestId('reject-request').click();
  }
  await expect(waiting).toHaveCount(0);
  await expect(page).toHaveTitle('MCP Approval Console', { timeout: 10_000 });
});
