/**
 * End to end with a real LLM provider path: the web host is configured (from the environment) with
 * an OpenAI-compatible provider pointing at the loopback Chat Completions server, which streams its
 * reply slowly. The person edits the prompt and system prompt, picks that model, watches the
 * response stream in, edits it and approves. Asserted at both ends: what the LLM received and what
 * server-everything received.
 */
import { expect, test } from '@playwright/test';
import { startOpenAICompatibleServer } from '../../test/fixtures/openai-compatible-server.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

let host: WebHostProcess;
let llm: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  llm = await startOpenAICompatibleServer();
  host = await startWebHost(30_000, {
    env: { OPENAI_COMPATIBLE_BASE_URL: llm.baseURL, OPENAI_COMPATIBLE_MODEL: 'loop-small,loop-large' },
  });
});
test.afterAll(async () => {
  await host?.stop();
  await llm?.close();
});

test('edit the prompt, generate with streaming, edit the response, approve: both ends see the edits', async ({ page }) => {
  llm.script({ text: 'Streaming words arrive one by one from the loopback model', chunks: 10, delayMs: 250 });
  await page.goto(host.url);
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: /^trigger-sampling-request$/ }).click();
  await page.getByTestId('tool-field-prompt').fill('the original question');
  await page.getByTestId('call-tool').click();
  await page.getByTestId('call-sampling-link').first().click();
  await expect(page.getByTestId('request-review')).toBeVisible();

  // Edit the prompt and the system prompt, lower maxTokens, pick the larger model.
  await page.getByTestId('message-edit-0-0').click();
  await page.getByTestId('message-editor-0-0').fill('the question, as edited by the person');
  await page.getByTestId('system-prompt').fill('Answer in one sentence.');
  await page.getByTestId('max-tokens').fill('42');
  const option = page.getByTestId('model-select').locator('option', { hasText: 'loop-large' });
  await page.getByTestId('model-select').selectOption({ value: (await option.getAttribute('value'))! });
  await shot(page, 'live-request-edited');
  await page.getByTestId('approve-request').click();

  // The response streams in while the person watches.
  await expect(page.getByTestId('generating-view')).toBeVisible();
  await expect(page.getByTestId('generation-text')).toContainText('Streaming', { timeout: 10_000 });
  await shot(page, 'live-generating');

  await expect(page.getByTestId('response-review')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('response-model')).toContainText('loop-large');
  await expect(page.getByTestId('response-stop-reason')).toContainText('endTurn');
  await expect(page.getByTestId('response-text')).toContainText('Streaming words arrive one by one from the loopback model');
  await page.getByTestId('response-edit').click();
  await page.getByTestId('response-editor').fill('A response the person corrected before sending.');
  await shot(page, 'live-response-review');
  await page.getByTestId('approve-response').click();
  await expect(page.getByTestId('outcome-banner')).toContainText('Delivered');

  // What the LLM received: the edited prompt, system prompt, max tokens and model.
  const sent = llm.requests.at(-1)!.body as { model: string; messages: Array<{ role: string; content: unknown }>; max_tokens?: number; max_completion_tokens?: number };
  expect(sent.model).toBe('loop-large');
  expect(JSON.stringify(sent.messages)).toContain('the question, as edited by the person');
  expect(JSON.stringify(sent.messages)).not.toContain('the original question');
  expect(sent.messages[0]).toMatchObject({ role: 'system', content: 'Answer in one sentence.' });
  expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(42);

  // What the server received: the edited response, with the model that generated it.
  await page.getByTestId('nav-servers').click();
  const call = page.getByTestId('call-result').first();
  await expect(call).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
  await expect(call).toContainText('A response the person corrected before sending.');
  await expect(call).toContainText('loop-large');
  await call.scrollIntoViewIfNeeded();
  await shot(page, 'live-call-result');
});
