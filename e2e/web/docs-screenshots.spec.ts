/**
 * The screenshots in README.md and docs/, made from the fake API at a fixed time
 * (e2e/support/fixture-docs.ts) at 1280×800 in the light theme. Each is compared with its committed
 * image in docs/images/ (Playwright's `toHaveScreenshot`, a small tolerance for font rasterising):
 * a screen that no longer looks like its picture fails here. `npm run screenshots` rewrites the
 * images that changed.
 */
import type { Page } from '@playwright/test';
import type { LanguagePreference } from '../../shared/contract/desktop.js';
import { buildDocsFixture, DOCS_NOW, type TourStage } from '../support/fixture-docs.js';
import { expect, test } from '../support/ui.js';
import { openWithDesktop } from './settings-fixture.js';

test.use({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC', locale: 'en-US', colorScheme: 'light' });

/** Opens the docs' console at `stage` with the page's clock fixed to {@link DOCS_NOW}. */
async function open(page: Page, appUrl: string, stage: TourStage, language: LanguagePreference = 'en'): Promise<void> {
  await page.clock.setFixedTime(DOCS_NOW);
  await openWithDesktop(page, appUrl, buildDocsFixture(stage, language));
}

/** Opens the tour's request in the Queue and waits for its review. */
async function openTourRequest(page: Page, reviewTestId: 'request-review' | 'response-review'): Promise<void> {
  await page.locator('[data-testid="queue-item"][data-item-id="tour-request"]').click();
  await expect(page.getByTestId(reviewTestId)).toBeVisible();
}

/** Waits for the review the Queue opened by itself (the tour's request is the only one waiting). */
async function openedForYou(page: Page): Promise<void> {
  await expect(page.locator('[data-review-item="tour-request"]').getByTestId('request-review')).toBeVisible();
  await expect(page.getByTestId('opened-for-you')).toBeVisible();
}

test('queue: the request a tool call made, under review, as the Queue opens it (README)', async ({ page, appUrl }) => {
  await open(page, appUrl, 'request');
  await openedForYou(page);
  await expect(page).toHaveScreenshot('queue-review.png');
});

test('queue: the response under review', async ({ page, appUrl }) => {
  await open(page, appUrl, 'response');
  await openTourRequest(page, 'response-review');
  await expect(page).toHaveScreenshot('queue-response.png');
});

test('queue in Simplified Chinese (languages.md)', async ({ page, appUrl }) => {
  await open(page, appUrl, 'request', 'zh-CN');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await openedForYou(page);
  await expect(page).toHaveScreenshot('queue-review-zh.png');
});

test('servers: server-everything with the tool call and its result', async ({ page, appUrl }) => {
  await open(page, appUrl, 'sent');
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('tool-item').filter({ hasText: 'trigger-sampling-request' }).click();
  await page.getByTestId('tool-field-prompt').fill('Write a haiku about code review');
  await expect(page.getByTestId('tool-form')).toBeVisible();
  await expect(page).toHaveScreenshot('servers.png');
});

test('history: the delivered request with its diff and timings', async ({ page, appUrl }) => {
  await open(page, appUrl, 'sent');
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-item').first().click();
  await expect(page.getByTestId('history-detail')).toBeVisible();
  await expect(page).toHaveScreenshot('history.png');
});

test('rules: per-server rules and limits', async ({ page, appUrl }) => {
  await open(page, appUrl, 'sent');
  await page.getByTestId('nav-rules').click();
  await expect(page.getByTestId('rules-screen')).toBeVisible();
  await expect(page).toHaveScreenshot('rules.png');
});

test('providers: a provider and its models', async ({ page, appUrl }) => {
  await open(page, appUrl, 'sent');
  await page.getByTestId('nav-providers').click();
  await expect(page.getByTestId('providers-screen')).toBeVisible();
  await expect(page).toHaveScreenshot('providers.png');
});
