/**
 * Providers end to end through the real web host: the person adds an OpenAI-compatible
 * provider on the Providers screen with an API key, fetches its models, tests the connection,
 * saves; then approves a server-everything sampling request that streams from that provider — first
 * hitting a 429 (shown with its retry-after and a Retry button), then succeeding. Finally the
 * user-data folder and the host's logs are searched for the key.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startOpenAICompatibleServer } from '../../test/fixtures/openai-compatible-server.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

const KEY = 'sk-e2e-PROVIDERS-0f1e2d3c4b5a6978';
let host: WebHostProcess;
let llm: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Stops the host, then checks that the key is in no file of the user-data folder and not in the host's logs. */
async function expectKeyNowhere(): Promise<void> {
  await host.stop();
  const files = filesUnder(host.userDataDir);
  expect(files.some((f) => f.endsWith('secrets.enc.json'))).toBe(true);
  for (const f of files) {
    const raw = readFileSync(f);
    expect(raw.toString('latin1').includes(KEY), `${f} contains the key`).toBe(false);
    expect(raw.toString('utf8').includes(KEY), `${f} contains the key`).toBe(false);
  }
  expect(host.logs()).not.toContain(KEY);
  expect(JSON.parse(readFileSync(path.join(host.userDataDir, 'providers.json'), 'utf8')).providers[0]).toMatchObject({ id: 'loopback', models: ['loop-small', 'loop-large'] });
}

test.beforeAll(async () => {
  test.setTimeout(60_000);
  llm = await startOpenAICompatibleServer({ apiKey: KEY, models: ['loop-small', 'loop-large'] });
  host = await startWebHost(30_000, { keepUserData: true });
});
test.afterAll(async () => {
  await host?.stop();
  if (host) rmSync(host.userDataDir, { recursive: true, force: true });
  await llm?.close();
});

test('add a provider, test it, approve a request that streams from it; the key is nowhere on disk or in the logs', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(host.url);

  // Add the provider: custom OpenAI-compatible URL, a name, the key.
  await page.getByTestId('nav-providers').click();
  await expect(page.getByTestId('provider-presets')).toContainText('No provider yet');
  await page.getByTestId('provider-preset-custom').click();
  const editor = page.getByTestId('provider-editor');
  await editor.getByTestId('provider-label').fill('Loopback LLM');
  await editor.getByTestId('provider-id').fill('loopback');
  await editor.getByTestId('provider-base-url').fill(llm.baseURL);
  await editor.getByTestId('provider-api-key').fill(KEY);

  // Its models come from its own list.
  await editor.getByTestId('provider-fetch-models').click();
  await expect(editor.getByTestId('provider-fetched-model')).toHaveCount(2);
  await editor.getByTestId('provider-add-all').click();
  await expect(editor.getByTestId('provider-model')).toHaveText(['loop-small×', 'loop-large×']);

  // Test connection, with a clear result.
  await editor.getByTestId('provider-test').click();
  await expect(editor.getByTestId('provider-test-result')).toContainText(/Connected to Loopback LLM: 2 models listed in \d+ ms/);
  await shot(page, 'providers-add-tested');

  await editor.getByTestId('provider-save').click();
  await expect(page.getByTestId('provider-item').filter({ hasText: 'Loopback LLM' })).toContainText('2 models');
  const saved = page.getByTestId('provider-editor');
  await expect(saved.getByTestId('provider-key-stored')).toContainText(`stored …${KEY.slice(-4)}`);
  await expect(page.locator('body')).not.toContainText(KEY);
  await shot(page, 'providers-saved');

  // A sampling request from server-everything; the new provider is the default model.
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: /^trigger-sampling-request$/ }).click();
  await page.getByTestId('tool-field-prompt').fill('Say hello to the person');
  await page.getByTestId('call-tool').click();
  await page.getByTestId('call-sampling-link').first().click();
  const review = page.getByTestId('request-review');
  await expect(review).toBeVisible();
  await expect(review.getByTestId('model-select').locator('option:checked')).toContainText('Loopback LLM — loop-small');
  await expect(review.getByTestId('model-reason')).toContainText('using the default model (Loopback LLM)');

  // First attempt: the provider says 429 with retry-after; the person sees it and retries.
  llm.script({ error: { status: 429, retryAfter: 7, message: 'Rate limit reached' } }, { text: 'Hello! Streaming from the loopback provider, word by word.', chunks: 8, delayMs: 200 });
  await review.getByTestId('approve-request').click();
  const error = page.getByTestId('request-review').getByTestId('item-error');
  await expect(error).toContainText('429 Too Many Requests — rate limited by the provider; retry after 7 s', { timeout: 15_000 });
  await expect(error).not.toContainText(KEY);
  await shot(page, 'providers-429-retry');
  await error.getByTestId('retry-generation').click();

  await expect(page.getByTestId('generating-view')).toBeVisible();
  await expect(page.getByTestId('generation-text')).toContainText('Streaming', { timeout: 10_000 });
  await shot(page, 'providers-streaming');
  const response = page.getByTestId('response-review');
  await expect(response).toBeVisible({ timeout: 15_000 });
  await expect(response.getByTestId('response-model')).toContainText('loop-small');
  await response.getByTestId('approve-response').click();
  await expect(page.getByTestId('outcome-banner')).toContainText('Delivered');
  await shot(page, 'providers-delivered');

  // The LLM got the key as a bearer token on every request (and only there).
  expect(llm.requests.length).toBeGreaterThanOrEqual(2);
  expect(llm.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);

  // History recorded the failure and the model choice.
  await page.getByTestId('nav-history').click();
  await expect(page.locator('body')).toContainText('loop-small');

  // After the session: no trace of the key in the user-data folder or the logs.
  await page.close();
  await expectKeyNowhere();
});
