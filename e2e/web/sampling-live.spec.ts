/**
 * Live sampling end to end in Chromium: the real web host configured with the v2 sampling fixture
 * (test/fixtures/sampling-server.ts, stdio, push era) and the manual provider. The person calls
 * the fixture's tools from the Servers screen and clicks through the review screens: an image
 * request, an audio request and a two-round parallel tool loop. Each ends with what the SERVER got
 * back (the fixture's JSON report in the call result). Screenshots: e2e/artifacts/live-sampling-*.png.
 */
import { expect, test, type Page } from '@playwright/test';
import { startSamplingServer } from '../../test/fixtures/sampling-server.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

let host: WebHostProcess;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  const fixture = await startSamplingServer({ transport: 'stdio', era: 'legacy' });
  host = await startWebHost(30_000, { servers: { fixture: fixture.config } });
});
test.afterAll(async () => host?.stop());

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(host.url);
});

/** Calls a fixture tool from the Servers screen (arguments as raw JSON) and opens its first sampling request. */
async function callTool(page: Page, tool: string, args: Record<string, unknown> = {}): Promise<void> {
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: new RegExp(`^${tool}$`) }).click();
  await page.getByTestId('tool-raw-toggle').check();
  await page.getByTestId('tool-raw').fill(JSON.stringify(args));
  const before = await page.getByTestId('call-result').count();
  await page.getByTestId('call-tool').click();
  // Wait for this call's row (newest first) before following its link, not a previous call's.
  await expect(page.getByTestId('call-result')).toHaveCount(before + 1);
  const row = page.getByTestId('call-result').first();
  await expect(row).toContainText(tool);
  await row.getByTestId('call-sampling-link').first().click();
  await expect(page.getByTestId('request-review')).toBeVisible();
}

/** Approves the request as is (manual provider), writes `text` and sends it. */
async function writeAndSend(page: Page, text: string): Promise<void> {
  await page.getByTestId('approve-request').click();
  await expect(page.getByTestId('response-review')).toBeVisible();
  await page.getByTestId('response-editor').fill(text);
  await page.getByTestId('approve-response').click();
  await expect(page.getByTestId('outcome-banner')).toContainText('Delivered');
}

/** The newest call's result text on the Servers screen, once it succeeded. */
async function serverReport(page: Page): Promise<Record<string, unknown>> {
  await page.getByTestId('nav-servers').click();
  const call = page.getByTestId('call-result').first();
  await expect(call).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
  const text = await call.locator('.call-output').first().innerText();
  return JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;
}

test('image request: shown with preview, MIME and size; the written answer reaches the server', async ({ page }) => {
  await callTool(page, 'ask-image');
  const review = page.getByTestId('request-review');
  await expect(review.getByTestId('item-era')).toContainText('push');
  const image = review.getByRole('img', { name: 'Image (image/png)' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([8, 8]);
  await expect(review.getByTestId('media-image').getByTestId('media-meta')).toHaveText('image · image/png · 90 B');
  await shot(page, 'live-sampling-image-request');
  await writeAndSend(page, 'Four coloured squares: red, green, blue and amber.');
  const report = await serverReport(page);
  expect(report.result).toEqual({ role: 'assistant', content: { type: 'text', text: 'Four coloured squares: red, green, blue and amber.' }, model: 'manual', stopReason: 'endTurn' });
  await shot(page, 'live-sampling-image-result');
});

test('a big image (600 KB) is decoded on the media worker and shown', async ({ page }) => {
  await callTool(page, 'ask-image', { padBytes: 600_000 });
  const review = page.getByTestId('request-review');
  const image = review.getByRole('img', { name: 'Image (image/png)' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight, img.src.startsWith('blob:')])).toEqual([8, 8, true]);
  await expect(review.getByTestId('media-image').getByTestId('media-meta')).toHaveText('image · image/png · 586.0 KB');
  // Decoded by the worker, not on the page's thread: its script was loaded.
  expect(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /media-worker/.test(e.name)))).toBe(true);
  await writeAndSend(page, 'Four coloured squares.');
});

test('audio request: a player with the duration; the written answer reaches the server', async ({ page }) => {
  await callTool(page, 'ask-audio');
  const audio = page.getByTestId('request-review').getByTestId('media-audio');
  await expect(audio.locator('audio')).toBeVisible();
  await expect(audio.getByTestId('audio-duration')).toHaveText(' · 0.50 s');
  await expect(audio.getByTestId('media-meta')).toContainText('audio · audio/wav · 7.9 KB');
  await expect.poll(() => audio.locator('audio').evaluate((el: HTMLAudioElement) => el.duration), { timeout: 10_000 }).toBeCloseTo(0.5, 2);
  await shot(page, 'live-sampling-audio-request');
  await writeAndSend(page, 'A steady 440 Hz tone, half a second long.');
  expect((await serverReport(page)).result).toMatchObject({ content: { text: 'A steady 440 Hz tone, half a second long.' } });
});

test('S-RES-1: two-round parallel tool loop: tool calls written by the person in round 1, the results reviewed in round 2, one timeline', async ({ page }) => {
  await callTool(page, 'tool-loop', { rounds: 2, parallel: true });
  const review = page.getByTestId('request-review');
  await expect(review.getByTestId('tool-offer')).toHaveCount(2);
  await expect(page.getByTestId('tool-choice')).toHaveValue('auto');
  await shot(page, 'live-sampling-loop-round1-request');
  await page.getByTestId('approve-request').click();

  // Round 1: the person answers with two parallel tool calls.
  await expect(page.getByTestId('response-review')).toBeVisible();
  await page.getByTestId('add-tool-input').fill('{"city": "Paris"}');
  await page.getByTestId('add-tool-call').click();
  await page.getByTestId('add-tool-name').selectOption('get_time');
  await page.getByTestId('add-tool-input').fill('{"zone": "Asia/Tokyo"}');
  await page.getByTestId('add-tool-call').click();
  await expect(page.getByTestId('response-stop-reason')).toHaveText('toolUse');
  await shot(page, 'live-sampling-loop-round1-response');
  await page.getByTestId('approve-response').click();
  await expect(page.getByTestId('outcome-banner')).toContainText('Delivered');

  // Round 2 arrives in the same conversation; open it from the timeline.
  const next = page.locator('[data-testid="timeline-step"][data-round="2"]').getByRole('button');
  await expect(next).toBeVisible({ timeout: 15_000 });
  await next.click();
  await expect(review.getByTestId('round-counter')).toHaveText('Round 2 of this tool loop');
  await expect(page.locator('[data-testid="timeline-step"][data-round="1"]')).toContainText('called get_weather, get_time');
  await expect(page.getByTestId('tool-choice')).toHaveValue('none');
  const results = review.getByTestId('tool-result');
  await expect(results).toHaveCount(2);
  await expect(results.first()).toContainText('"tempC":18');
  await results.nth(1).getByTestId('tool-result-link').click();
  await expect(review.locator('[data-testid="tool-use"][data-tool-use-id^="toolu_manual_"]').nth(1)).toHaveClass(/is-flashing/);
  await shot(page, 'live-sampling-loop-round2-request');
  await writeAndSend(page, 'Paris: 18 °C and cloudy. Tokyo: 14:05.');

  const report = await serverReport(page);
  expect(report).toMatchObject({ rounds: 2, ended: 'answered' });
  const transcript = report.transcript as Array<{ toolChoice: string; outcome: { result: { stopReason: string; content: unknown } } }>;
  expect(transcript.map((r) => [r.toolChoice, r.outcome.result.stopReason])).toEqual([
    ['auto', 'toolUse'],
    ['none', 'endTurn'],
  ]);
  expect(transcript[0]!.outcome.result.content).toMatchObject([
    { type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'tool_use', name: 'get_time', input: { zone: 'Asia/Tokyo' } },
  ]);
  await shot(page, 'live-sampling-loop-result');
});
