/** Helpers for UI specs that run the built renderer against the fake API. */
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { installFakeApi, toWire, wireEvent, type FakeData, type FakeEvent, type FakeHandle, type RecordedCall } from './fake-api.js';
import { buildFixtureHistory } from './fixture-history.js';
import { buildFixtureState } from './fixture-state.js';
import { serveStatic } from './static-server.js';

/**
 * `test` with two fixtures: `appUrl` (the built renderer, served once per worker) and `fixture`
 * (fresh fixture state and history, times relative to now).
 */
export const test = base.extend<{ fixture: FakeData }, { appUrl: string }>({
  appUrl: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern here
    async ({}, use) => {
      const server = await serveStatic(process.env.MCP_CONSOLE_STATIC_DIR || path.resolve(import.meta.dirname, '../../out/renderer'));
      await use(server.url);
      await server.close();
    },
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern here
  fixture: async ({}, use) => {
    const now = Date.now();
    await use({ state: buildFixtureState(now), history: buildFixtureHistory(now) });
  },
});
export { expect };

/** Where screenshots for people to look at go (git-ignored). */
export const ARTIFACTS = path.resolve(import.meta.dirname, '..', 'artifacts');

/**
 * Opens the console with the fake API serving `data`, and waits until the state is mirrored and
 * every screen's chunk has loaded (a screen opened earlier shows "Loading…" a moment first).
 */
export async function openConsole(page: Page, url: string, data: FakeData): Promise<void> {
  await page.addInitScript(installFakeApi, toWire(data));
  await page.goto(url);
  await expect(page.getByTestId('nav-queue')).toBeVisible();
  await expect(page.getByTestId('connecting')).toHaveCount(0);
  await screensLoaded(page);
}

/** Waits until the page has loaded every lazy screen's chunk (renderer/screens/lazy-screens.ts). */
export async function screensLoaded(page: Page): Promise<void> {
  await expect(page.locator('html[data-screens-loaded="true"]')).toHaveCount(1, { timeout: 15_000 });
}

/** Every request the renderer sent with `method`, oldest first. */
export async function recorded(page: Page, method: string): Promise<RecordedCall['input'][]> {
  const calls = await page.evaluate(() => (window as unknown as { __fake: FakeHandle }).__fake.calls);
  return calls.filter((c) => c.method === method).map((c) => c.input);
}

/**
 * Pushes a state event into the page, as main would: items in a patch's `upsert` may be whole
 * (they are sent as summaries, and the fake serves them whole on `getItem`).
 */
export async function emit(page: Page, event: FakeEvent): Promise<void> {
  const { event: e, whole } = wireEvent(event);
  await page.evaluate(([ev, items]) => (window as unknown as { __fake: FakeHandle }).__fake.emit(ev, items), [e, whole] as const);
}

/** Makes the next call of `method` fail with `message`. */
export async function failNext(page: Page, method: string, message: string): Promise<void> {
  await page.evaluate(([m, msg]) => (window as unknown as { __fake: FakeHandle }).__fake.failNext(m, msg), [method, message] as const);
}

/** Holds the replies of `method` until {@link releaseReplies}: the page sees its calls pending. */
export async function holdReplies(page: Page, method: string): Promise<void> {
  await page.evaluate((m) => (window as unknown as { __fake: FakeHandle }).__fake.hold(m), method);
}

/** Answers the held calls of `method` (see {@link holdReplies}) and stops holding its replies. */
export async function releaseReplies(page: Page, method: string): Promise<void> {
  await page.evaluate((m) => (window as unknown as { __fake: FakeHandle }).__fake.release(m), method);
}

/** Saves a screenshot to e2e/artifacts/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Fails when the page scrolls sideways (content wider than the window). */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'page is wider than the window').toBeLessThanOrEqual(0);
}
