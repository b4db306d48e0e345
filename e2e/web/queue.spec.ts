/**
 * The Queue and its review screens against a fake API: what the person sees, and exactly what the
 * renderer sends when they approve, edit, reject, cancel or dismiss.
 */
import type { Page } from '@playwright/test';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { HOSTILE_IMG, HOSTILE_SCRIPT } from '../support/fixture-state.js';
import { said, ui } from '../../shared/contract/ui-text.js';
import { emit, expect, failNext, openConsole, recorded, shot, test } from '../support/ui.js';

const select = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`).click();
const item = (state: { items: SamplingItemView[] }, id: string) => state.items.find((i) => i.id === id)!;

test.beforeEach(async ({ page }) => {
  page.on('dialog', (d) => {
    throw new Error(`unexpected dialog: ${d.message()}`);
  });
});

test('request review shows the request plainly and defuses hostile markup', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await expect(page.getByTestId('queue-badge')).toHaveText('4');
  await select(page, 'item-request');
  const review = page.getByTestId('request-review');
  await expect(review.getByTestId('item-association')).toContainText('tools/call trigger-sampling-request');
  await expect(review.getByTestId('item-waited')).toContainText(/Waiting 1 m 1\d s/);
  // Markdown is rendered...
  await expect(review.getByRole('heading', { name: 'Weekly report' })).toBeVisible();
  await expect(review.locator('strong', { hasText: 'three' })).toBeVisible();
  // ...but the hostile HTML is visible text, not elements.
  const text = page.getByTestId('message-text-0-0');
  await expect(text.getByText(HOSTILE_IMG)).toBeVisible();
  await expect(text.getByText(HOSTILE_SCRIPT)).toBeVisible();
  await expect(page.locator('.markdown img, .markdown script, [onerror]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  // Links open outside, safely.
  await expect(review.getByRole('link', { name: 'runbook' })).toHaveAttribute('rel', 'noopener noreferrer');
  // The image block, with MIME and size.
  await expect(review.getByRole('img', { name: 'Image (image/png)' })).toBeVisible();
  await expect(review.getByText('image · image/png · 115 B')).toBeVisible();
  // Parameters and the model choice.
  await expect(page.getByTestId('system-prompt')).toHaveValue('You are a concise incident analyst.');
  await expect(page.getByTestId('max-tokens')).toHaveValue('400');
  await expect(page.getByTestId('temperature')).toHaveValue('0.7');
  await expect(page.getByTestId('model-select').locator('option:checked')).toHaveText('OpenRouter — openai/gpt-4o-mini');
  await expect(page.getByTestId('model-select').locator('option')).toHaveCount(5);
  await expect(page.getByTestId('model-reason')).toContainText("hint 'gpt-4o' matched 'openai/gpt-4o-mini'");
  await expect(page.getByTestId('model-preferences')).toContainText('claude-3-sonnet');
  await expect(page.getByTestId('passed-on')).toContainText('["END"]');
});

test('approve sends the edited params and keeps every field that was not edited', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-request');
  await page.getByTestId('message-edit-0-0').click();
  await page.getByTestId('message-editor-0-0').fill('Summarise INC-101 only.');
  await page.getByTestId('system-prompt').fill('Answer in one sentence.');
  await page.getByTestId('max-tokens').fill('250');
  await page.getByTestId('temperature').fill('');
  await page.getByTestId('model-select').selectOption({ label: 'Local Ollama — llama3.2' });
  await expect(page.getByTestId('model-reason')).toContainText('Chosen by you');
  await expect(page.getByTestId('approve-request')).toHaveText('Approve with edits');
  await page.getByTestId('approve-request').click();

  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  const [sent] = await recorded(page, 'approveRequest');
  const original = item(fixture.state, 'item-request').original;
  const originalBlocks = original.messages[0]!.content as Array<Record<string, unknown>>;
  expect(sent).toEqual({
    itemId: 'item-request',
    version: expect.stringMatching(/^[0-9a-f]{64}$/),
    model: { providerId: 'ollama', modelId: 'llama3.2' },
    params: {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise INC-101 only.' }, originalBlocks[1]] }],
      systemPrompt: 'Answer in one sentence.',
      maxTokens: 250,
      stopSequences: original.stopSequences,
      metadata: original.metadata,
      includeContext: original.includeContext,
      modelPreferences: original.modelPreferences,
    },
  });
});

test('unedited approval sends the params exactly as received', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-request');
  await expect(page.getByTestId('approve-request')).toHaveText('Approve');
  await page.getByTestId('approve-request').click();
  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  const [sent] = await recorded(page, 'approveRequest');
  expect(sent!.params).toEqual(item(fixture.state, 'item-request').original);
  expect(sent!.model).toEqual({ providerId: 'openrouter', modelId: 'openai/gpt-4o-mini' });
});

test('invalid edits block approval and say why; a failed call shows its error', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-request');
  await page.getByTestId('max-tokens').fill('0');
  await expect(page.getByTestId('approve-request')).toBeDisabled();
  await expect(page.getByTestId('request-invalid')).toContainText('Max tokens must be a positive whole number');
  await page.getByTestId('max-tokens').fill('12.5');
  await expect(page.getByTestId('approve-request')).toBeDisabled();
  await page.getByTestId('max-tokens').fill('64');
  await failNext(page, 'approveRequest', 'This item is no longer awaiting review');
  await page.getByTestId('approve-request').click();
  await expect(page.getByRole('alert').filter({ hasText: 'no longer awaiting review' })).toBeVisible();
});

test('reject sends the optional reason', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-request');
  await page.getByTestId('reject-reason').fill('Not while on call');
  await page.getByTestId('reject-request').click();
  await expect.poll(() => recorded(page, 'rejectRequest')).toEqual([{ itemId: 'item-request', version: expect.stringMatching(/^[0-9a-f]{64}$/), reason: 'Not while on call' }]);
});

test('tool loop request of a bridged server: via its host, association candidates, tool_use/tool_result, audio, last error', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await expect(page.locator('[data-item-id="item-request-2"]').getByTestId('via-host')).toHaveText('via claude-ai');
  await expect(page.locator('[data-item-id="item-request"]').getByTestId('via-host')).toHaveCount(0);
  await select(page, 'item-request-2');
  const review = page.getByTestId('request-review');
  await expect(page.getByTestId('item-header').getByTestId('via-host')).toHaveText('via claude-ai');
  await expect(review.getByTestId('item-association')).toContainText('one of 2 calls in flight');
  await expect(review.getByTestId('item-association')).toContainText('long-running-operation');
  await expect(page.getByTestId('item-error')).toContainText('HTTP 429 Too Many Requests');
  await expect(page.getByTestId('message-1').getByText('get_weather')).toBeVisible();
  await expect(review.locator('.tool-block.is-error')).toContainText('HTTP 503 from weather API');
  await expect(review.locator('audio[controls]')).toHaveCount(1);
  await expect(page.getByTestId('model-select').locator('option:checked')).toHaveText('Local Ollama — llama3.2');
});

test('approval moves on to live generation; cancel stops it', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-request');
  await page.getByTestId('approve-request').click();
  const it = item(fixture.state, 'item-request');
  const generating: SamplingItemView = { ...it, status: 'generating', sent: it.original, generation: { startedAt: Date.now(), text: 'INC-101' } };
  await emit(page, { type: 'patch', patch: { version: 43, items: { upsert: [generating], remove: [] } } });
  await expect(page.getByTestId('generation-text')).toContainText('INC-101');
  await expect(page.getByTestId('queue-badge')).toHaveText('3');
  await emit(page, { type: 'patch', patch: { version: 44, items: { upsert: [{ ...generating, generation: { startedAt: Date.now(), text: 'INC-101: failover took 42 s' } }], remove: [] } } });
  await expect(page.getByTestId('generation-text')).toContainText('failover took 42 s');
  await page.getByTestId('cancel-generation').click();
  await expect.poll(() => recorded(page, 'cancelGeneration')).toEqual([{ itemId: 'item-request' }]);
});

test('response review: edit, then approve & send a single text block with model and stopReason', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-response');
  await expect(page.getByTestId('response-text').locator('strong')).toHaveText('Paris');
  await expect(page.getByTestId('response-model')).toHaveText('openai/gpt-4o-mini');
  await expect(page.getByTestId('response-stop-reason')).toHaveText('endTurn');
  await expect(page.getByText('18 in · 9 out')).toBeVisible();
  await page.getByTestId('response-edit').click();
  await page.getByTestId('response-editor').fill('Paris.');
  await page.getByTestId('approve-response').click();
  await expect.poll(() => recorded(page, 'approveResponse')).toEqual([
    {
      itemId: 'item-response',
    version: expect.stringMatching(/^[0-9a-f]{64}$/),
      result: { role: 'assistant', content: { type: 'text', text: 'Paris.' }, model: 'openai/gpt-4o-mini', stopReason: 'endTurn' },
    },
  ]);
});

test('response review: regenerate and reject', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-response');
  await page.getByTestId('regenerate').click();
  await expect.poll(() => recorded(page, 'regenerate')).toEqual([{ itemId: 'item-response', version: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  await page.getByTestId('reject-reason').fill('wrong');
  await page.getByTestId('reject-response').click();
  await expect.poll(() => recorded(page, 'rejectResponse')).toEqual([{ itemId: 'item-response', version: expect.stringMatching(/^[0-9a-f]{64}$/), reason: 'wrong' }]);
});

test('manual response: written by hand, sent with the chosen model', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-manual');
  await expect(page.getByRole('heading', { name: 'Write the response myself' })).toBeVisible();
  await expect(page.getByTestId('regenerate')).toHaveCount(0);
  await expect(page.getByTestId('response-model')).toHaveText('written by you (no model)'); // not "manual"
  await expect(page.getByTestId('response-editor')).toHaveValue('');
  await expect(page.getByTestId('approve-response')).toBeDisabled();
  await page.getByTestId('response-editor').fill('I cannot share credentials.');
  await page.getByTestId('approve-response').click();
  await expect.poll(() => recorded(page, 'approveResponse')).toEqual([
    {
      itemId: 'item-manual',
    version: expect.stringMatching(/^[0-9a-f]{64}$/),
      result: { role: 'assistant', content: { type: 'text', text: 'I cannot share credentials.' }, model: 'manual', stopReason: 'endTurn' },
    },
  ]);
});

test('finished items show their outcome, what was sent and delivered, and can be dismissed', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  // Rows of the same tool that open alike show where they differ, the whole text on hover.
  const rejectedPreview = page.locator('[data-item-id="item-rejected"]').getByTestId('queue-preview');
  await expect(rejectedPreview).toHaveText('…request number 2: summarise the changelog.');
  await expect(rejectedPreview).toHaveAttribute('title', 'Finished request number 2: summarise the changelog.');
  await select(page, 'item-rejected');
  await expect(page.getByTestId('outcome-banner')).toContainText('Rejected');
  await expect(page.getByTestId('outcome-code')).toContainText('-1');
  await select(page, 'item-failed');
  await expect(page.getByTestId('outcome-banner')).toContainText('The connection to the server closed');
  await select(page, 'item-delivered');
  const view = page.getByTestId('outcome-view');
  await expect(page.getByTestId('outcome-banner')).toContainText('Delivered');
  await expect(view).toContainText('summarise the changelog briefly');
  await expect(view).toContainText('v2.1 adds MRTR support.');
  await page.getByTestId('dismiss-item').click();
  await expect.poll(() => recorded(page, 'dismissItem')).toEqual([{ itemId: 'item-delivered' }]);
  // Selection moves to the next item so the person can keep going.
  await expect(page.locator('[data-item-id="item-rejected"]')).toHaveAttribute('aria-current', 'true');
});

test("a provider failure with nobody reviewing: the outcome names the failure's kind, as the review does", async ({ page, appUrl, fixture }) => {
  const failed = item(fixture.state, 'item-failed');
  Object.assign(failed, {
    sent: failed.original,
    sentToModelAt: Date.now() - 61_000,
    error: { message: 'OpenRouter: HTTP 429 Too Many Requests (rate limited, retry after 20 s)', at: Date.now() - 60_000, failure: 'rate-limit' },
    outcome: { at: Date.now() - 60_000, ...said(ui('outcome.providerFailed', { why: 'The LLM provider failed: HTTP 429 Too Many Requests' })), code: -32603 },
  });
  await openConsole(page, appUrl, fixture);
  await select(page, 'item-failed');
  const banner = page.getByTestId('outcome-banner');
  await expect(banner.getByTestId('provider-failure')).toHaveText('The provider is rate-limiting: wait a moment, then retry.');
  await expect(banner).toContainText('The provider failed with nobody reviewing; the caller got the error: The LLM provider failed: HTTP 429 Too Many Requests');
  await shot(page, 'queue-outcome-provider-failed');
});

test('the mirror applies patches, ignores stale ones and replaces on snapshot', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  const fresh: SamplingItemView = { ...item(fixture.state, 'item-request'), id: 'item-new', receivedAt: Date.now(), updatedAt: Date.now() };
  await emit(page, { type: 'patch', patch: { version: 43, items: { upsert: [fresh], remove: [] } } });
  await expect(page.getByTestId('queue-badge')).toHaveText('5');
  await emit(page, { type: 'patch', patch: { version: 40, items: { upsert: [], remove: ['item-new'] } } });
  await expect(page.getByTestId('queue-badge')).toHaveText('5');
  await emit(page, { type: 'patch', patch: { version: 44, items: { upsert: [], remove: ['item-new', 'item-manual'] } } });
  await expect(page.getByTestId('queue-badge')).toHaveText('3');
  await emit(page, { type: 'snapshot', state: { ...fixture.state, version: 1, items: [] } });
  await expect(page.getByTestId('queue-badge')).toHaveCount(0);
  await expect(page.getByTestId('queue-item')).toHaveCount(0);
});

test('a thousand queued items stay virtualised and reachable', async ({ page, appUrl, fixture }) => {
  const template = item(fixture.state, 'item-request');
  const many = Array.from({ length: 1000 }, (_, n): SamplingItemView => ({ ...template, id: `bulk-${n}`, conversationId: `bulk-${n}` }));
  await openConsole(page, appUrl, { ...fixture, state: { ...fixture.state, items: many } });
  await expect(page.getByTestId('queue-badge')).toHaveText('1000');
  expect(await page.getByTestId('queue-item').count()).toBeLessThan(60);
  await page.getByTestId('queue-list').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(page.locator('[data-item-id="bulk-999"]')).toBeVisible();
  await page.locator('[data-item-id="bulk-999"]').click();
  await expect(page.getByTestId('request-review')).toBeVisible();
});

test("rows of one tool say what the call was asked: its arguments, whole on hover, in the Queue and in History", async ({ page, appUrl, fixture }) => {
  const withArgs = (id: string, args: string) => {
    const found = fixture.state.items.find((i) => i.id === id)!;
    found.association = { ...found.association, calls: found.association.calls.map((c) => ({ ...c, args })) };
  };
  withArgs('item-request', 'prompt: "Summarise issue 12", maxTokens: 100');
  withArgs('item-rejected', 'prompt: "Summarise issue 14", maxTokens: 100');
  const [first, second] = fixture.history;
  first!.callArgs = 'query: "lighthouse duplicates", limit: 5';
  second!.callArgs = 'query: "flaky tests", limit: 5';
  await openConsole(page, appUrl, fixture);
  const args = page.locator('[data-item-id="item-request"]').getByTestId('queue-args');
  await expect(args).toHaveText('prompt: "Summarise issue 12", maxTokens: 100');
  await expect(args).toHaveAttribute('title', 'prompt: "Summarise issue 12", maxTokens: 100');
  await expect(page.locator('[data-item-id="item-rejected"]').getByTestId('queue-args')).toContainText('issue 14');
  await expect(page.locator('[data-item-id="item-generating"]').getByTestId('queue-args')).toHaveCount(0); // no arguments: no line
  await page.getByTestId('nav-history').click();
  await expect(page.locator(`[data-history-id="${first!.id}"]`).getByTestId('history-args')).toHaveText('query: "lighthouse duplicates", limit: 5');
  await expect(page.locator(`[data-history-id="${second!.id}"]`).getByTestId('history-args')).toHaveAttribute('title', 'query: "flaky tests", limit: 5');
  await shot(page, 'history-rows-with-arguments');
});

test('the warm-up (fonts, helpers, a sample review rendered off the page) runs without errors and leaves nothing behind', async ({ page, appUrl, fixture }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // Nothing waits at first, so no review opens by itself: what is fetched and offered is the warm-up's.
  const waiting = item(fixture.state, 'item-request');
  fixture.state.items = fixture.state.items.filter((i) => !['awaiting_request_review', 'awaiting_response_review', 'generating'].includes(i.status));
  fixture.state.elicitations = [];
  await openConsole(page, appUrl, fixture);
  await expect(page.locator('html[data-warmed-up="true"]')).toHaveCount(1, { timeout: 20_000 });
  expect(errors).toEqual([]);
  await expect(page.locator('body > :not(#root, script)')).toHaveCount(0); // the off-page text is gone
  await expect(page.getByText('Warm-up')).toHaveCount(0);
  expect(await recorded(page, 'saveDraft')).toEqual([]);
  expect(await recorded(page, 'getItem')).toEqual([]); // the sample is not fetched from main
  // The sample review's commands left with it: the palette offers Approve only once a review is open.
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('command-palette')).toBeVisible();
  await expect(page.getByTestId('palette-option').first()).toBeVisible();
  await expect(page.getByTestId('palette-option').filter({ hasText: 'Approve the request' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await emit(page, { type: 'patch', patch: { version: fixture.state.version + 1, items: { upsert: [waiting], remove: [] } } });
  await expect(page.getByTestId('request-review')).toBeVisible();
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette-option').filter({ hasText: 'Approve the request' })).not.toHaveCount(0);
});
