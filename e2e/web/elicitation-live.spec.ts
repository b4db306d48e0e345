/**
 * Elicitation and roots through the real web host (server-everything is the default server):
 * the person calls trigger-elicitation-request from the Servers screen, answers the generated form
 * in the Queue, and the tool result shows the accepted content; then adds a folder as a root in
 * the server's Roots panel (main's refusal of a relative path shown first) and get-roots-list
 * returns it. Screenshots: e2e/artifacts/live-elicitation-*.png, live-roots.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

let host: WebHostProcess;
let folder: string;
test.beforeAll(async () => {
  test.setTimeout(60_000);
  folder = mkdtempSync(path.join(os.tmpdir(), 'roots-live-'));
  host = await startWebHost();
});
test.afterAll(async () => {
  await host?.stop();
  rmSync(folder, { recursive: true, force: true });
});
test.describe.configure({ mode: 'serial' });

/** Opens server-everything's page once it is ready and calls `tool` (no arguments). */
async function callTool(page: Page, tool: string): Promise<void> {
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('server-item').filter({ hasText: 'everything' }).click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: new RegExp(`^${tool}$`) }).click();
  await page.getByTestId('call-tool').click();
}

test('trigger-elicitation-request: answered in the Queue, the server gets the content', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(host.url);
  await callTool(page, 'trigger-elicitation-request');
  await expect(page.getByTestId('call-result').first()).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('queue-badge')).toHaveText('1', { timeout: 15_000 });

  await page.getByTestId('nav-queue').click();
  const row = page.locator('[data-testid="queue-item"][data-kind="elicitation"]');
  await expect(row).toContainText('Please provide inputs for the following fields:');
  await expect(row).toContainText('tools/call trigger-elicitation-request');
  await row.click();
  const review = page.getByTestId('elicitation-review');
  await expect(review.getByTestId('elicitation-server')).toHaveText('everything');
  await expect(review.getByTestId('item-association')).toContainText('tools/call trigger-elicitation-request');
  await expect(review.getByTestId('elicitation-warning')).toContainText('must never ask for passwords');
  // server-everything's defaults are applied.
  await expect(review.getByTestId('elicitation-field-firstLine').locator('input')).toHaveValue('It was a dark and stormy night.');
  await expect(review.getByTestId('elicitation-field-integer').locator('input')).toHaveValue('42');

  // Its one required field empty: refused in the form, nothing sent.
  await review.getByTestId('elicitation-accept').click();
  await expect(review.getByTestId('elicitation-error-name')).toContainText('is required');
  await review.getByTestId('elicitation-field-name').locator('input').fill('Grace Hopper');
  await review.getByTestId('elicitation-field-check').locator('input').check();
  await review.getByTestId('elicitation-field-email').locator('input').fill('grace@example.com');
  await review.getByTestId('elicitation-field-birthdate').locator('input').fill('1906-12-09');
  await review.getByTestId('elicitation-field-integer').locator('input').fill('7');
  await review.getByTestId('elicitation-field-legacyTitledEnum').locator('select').selectOption({ label: 'Dogs' });
  await shot(page, 'live-elicitation-form');
  await review.getByTestId('elicitation-accept').click();
  await expect(review.getByTestId('elicitation-outcome')).toContainText('Answered by the person');
  await expect(review.getByTestId('elicitation-answer')).toContainText('Grace Hopper');
  await expect(page.getByTestId('queue-badge')).toHaveCount(0);
  await shot(page, 'live-elicitation-answered');

  await page.getByTestId('nav-servers').click();
  const call = page.getByTestId('call-result').first();
  await expect(call).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
  await expect(call).toContainText('User provided the requested information');
  await expect(call).toContainText('- Name: Grace Hopper');
  await expect(call).toContainText('- Agreed to terms: true');
  await expect(call).toContainText('- Email: grace@example.com');
  await expect(call).toContainText('- Birthdate: 1906-12-09');
  await expect(call).toContainText('- Favorite Integer: 7');
  await expect(call).toContainText('"legacyTitledEnum": "pet-2"');
});

test('roots: a folder added in the Roots panel is what get-roots-list returns', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(host.url);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('server-item').filter({ hasText: 'everything' }).click();
  const panel = page.getByTestId('roots-panel');
  await expect(panel.getByTestId('roots-empty')).toBeVisible();
  await panel.getByTestId('root-add-input').fill('relative/dir');
  await panel.getByTestId('root-add').click();
  await expect(panel.getByTestId('root-add-error')).toContainText('not an absolute folder path');
  await panel.getByTestId('root-add-input').fill(folder);
  await panel.getByTestId('root-add').click();
  const uri = pathToFileURL(folder).href;
  await expect(panel.locator(`[data-testid="root-item"][data-uri="${uri}"]`)).toContainText(path.basename(folder));
  await expect(panel.getByTestId('root-add-error')).toHaveCount(0);
  await shot(page, 'live-roots');

  await callTool(page, 'get-roots-list');
  const call = page.getByTestId('call-result').first();
  await expect(call).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
  await expect(call).toContainText('Current MCP Roots (1 total)');
  await expect(call).toContainText(uri);

  await panel.getByRole('button', { name: `Remove ${path.basename(folder)}` }).click();
  await expect(panel.getByTestId('roots-empty')).toBeVisible();
});
