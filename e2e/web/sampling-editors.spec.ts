/**
 * The sampling review editors against a fake API: removing images and audio, the tools offered and
 * the tool choice, includeContext and era, the conversation timeline of a tool loop, tool_result →
 * tool_use links, editing tool_use inputs (validated), adding tool calls to a hand-written
 * response, and editing a tool_result's texts and media (History's diff shows them). Asserts
 * exactly what the renderer sends. Screenshots: e2e/artifacts/editors-*.png.
 */
import type { Page } from '@playwright/test';
import type { FakeData } from '../support/fake-api.js';
import { buildSamplingItems, LOOP_TOOLS, PNG_B64, withWaitingRequest } from '../support/fixture-state.js';
import { expect, openConsole, recorded, shot, test } from '../support/ui.js';

const open = async (page: Page, url: string, fixture: FakeData, id: string) => {
  fixture.state.items.push(...buildSamplingItems(Date.now()));
  await page.setViewportSize({ width: 1280, height: 900 });
  await openConsole(page, url, fixture);
  await page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`).click();
};

test('media: audio shows its duration; image and audio can be removed, and an emptied message blocks approval', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture, 'media-request');
  const review = page.getByTestId('request-review');
  await expect(review.getByRole('img', { name: 'Image (image/png)' })).toBeVisible();
  const audio = review.getByTestId('media-audio');
  await expect(audio.getByTestId('audio-duration')).toHaveText(' · 0.05 s');
  await expect(audio.locator('audio')).toHaveAttribute('controls', '');

  await review.getByRole('button', { name: /Remove image in Message 1/ }).click();
  await expect(review.getByTestId('media-image')).toHaveAttribute('data-removed', 'true');
  await expect(review.getByRole('img', { name: 'Image (image/png)' })).toHaveCount(0);
  await review.getByRole('button', { name: /Remove audio in Message 2/ }).click();
  await expect(page.getByTestId('request-invalid')).toContainText('Message 2 would be empty');
  await expect(page.getByTestId('approve-request')).toBeDisabled();
  await shot(page, 'editors-media-removed');
  await review.getByRole('button', { name: /Restore audio in Message 2/ }).click();
  await expect(page.getByTestId('approve-request')).toHaveText('Approve with edits');
  await page.getByTestId('approve-request').click();

  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  const [sent] = await recorded(page, 'approveRequest');
  const params = sent!.params as { messages: Array<{ content: unknown }> };
  expect(params.messages[0]!.content).toEqual([{ type: 'text', text: 'Describe the picture and the clip.' }]);
  expect(params.messages[1]!.content).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
  expect(JSON.stringify(params)).not.toContain(PNG_B64.slice(0, 40));
});

test('tools in sampling: tools offered with schema, remove one, change the tool choice; era, includeContext (S-CAP-3) and the round counter are shown', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture, 'loop-r2');
  const review = page.getByTestId('request-review');
  await expect(review.getByTestId('item-era')).toContainText('MRTR, 2026-07-28');
  await expect(review.getByTestId('round-counter')).toHaveText('Round 2 of this tool loop');
  const steps = review.getByTestId('timeline-step');
  await expect(steps).toHaveCount(2);
  await expect(steps.first()).toContainText('called get_weather, get_time');
  await expect(review.getByTestId('passed-on-includeContext')).toContainText(
    'thisServer: not shared. The console declares no sampling.context, so this is treated as none',
  );

  const offers = review.getByTestId('tool-offer');
  await expect(offers).toHaveCount(2);
  await expect(offers.first()).toContainText('Current weather for a city.');
  await offers.first().getByText('inputSchema').click();
  await expect(offers.first().getByTestId('tool-offer-schema')).toContainText('"required"');
  await expect(page.getByTestId('tool-choice')).toHaveValue('none');
  await review.getByRole('button', { name: 'Remove tool get_time' }).click();
  await expect(review.getByTestId('tools-offered')).toContainText('Tools offered to the model (1 of 2)');
  await page.getByTestId('tool-choice').selectOption('auto');
  await expect(review.getByTestId('tools-offered')).toContainText('changed (server asked for none)');
  await shot(page, 'editors-tools-offered');
  await page.getByTestId('approve-request').click();

  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  const [sent] = await recorded(page, 'approveRequest');
  expect(sent!.params).toMatchObject({ tools: [LOOP_TOOLS[0]], toolChoice: { mode: 'auto' }, includeContext: 'thisServer' });
  expect((sent!.params as { messages: unknown[] }).messages).toHaveLength(3);
});

test('tool_result links to its tool_use (isError shown); the timeline opens earlier rounds', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture, 'loop-r2');
  const results = page.getByTestId('tool-result');
  await expect(results).toHaveCount(2);
  await expect(results.nth(1).getByTestId('tool-result-error')).toBeVisible();
  await expect(results.nth(0).getByTestId('tool-result-error')).toHaveCount(0);
  await results.nth(1).getByTestId('tool-result-link').click();
  const target = page.locator('[data-testid="tool-use"][data-tool-use-id="toolu_t"]');
  await expect(target).toHaveClass(/is-flashing/);
  await expect(target).toBeInViewport();
  await expect(target.getByTestId('tool-use-input')).toContainText('"zone": "Asia/Tokyo"');

  await page.getByTestId('timeline-step').first().getByRole('button').click();
  await expect(page.getByTestId('outcome-view')).toBeVisible();
  await expect(page.getByTestId('outcome-view').getByTestId('round-counter')).toHaveText('Round 1 of this tool loop');
});

test('S-RES-1: generated parallel tool_use: each input is editable as JSON, validated, and sent with stopReason toolUse', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture, 'tool-response');
  const review = page.getByTestId('response-review');
  await expect(review.getByTestId('response-stop-reason')).toHaveText('toolUse');
  await expect(review.getByTestId('response-tool-calls')).toContainText('2');
  const editors = review.getByTestId('tool-use-editor');
  await expect(editors).toHaveCount(2);
  await editors.first().fill('{"city": "Lyon"');
  await expect(review.getByTestId('tool-input-error')).toContainText('not valid JSON');
  await expect(page.getByTestId('response-invalid')).toContainText('Tool call get_weather (toolu_w)');
  await expect(page.getByTestId('approve-response')).toBeDisabled();
  await editors.first().fill('["Lyon"]');
  await expect(review.getByTestId('tool-input-error')).toContainText('input must be a JSON object');
  await editors.first().fill('{"city": "Lyon", "units": "metric"}');
  await expect(review.getByTestId('tool-input-error')).toHaveCount(0);
  await shot(page, 'editors-tool-use-edit');
  await page.getByTestId('approve-response').click();

  await expect.poll(() => recorded(page, 'approveResponse')).toHaveLength(1);
  const [sent] = await recorded(page, 'approveResponse');
  expect(sent!.result).toEqual({
    role: 'assistant',
    model: 'llama3.2',
    stopReason: 'toolUse',
    content: [
      { type: 'text', text: 'Let me look both up.' },
      { type: 'tool_use', id: 'toolu_w', name: 'get_weather', input: { city: 'Lyon', units: 'metric' } },
      { type: 'tool_use', id: 'toolu_t', name: 'get_time', input: { zone: 'Asia/Tokyo' } },
    ],
  });
});

test('S-RES-1: hand-written response: add tool calls from the offered tools; sent as tool_use blocks with stopReason toolUse', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture, 'manual-tools');
  const calls = page.getByTestId('manual-tool-calls');
  await expect(page.getByTestId('add-tool-name').locator('option')).toHaveText(['get_weather', 'get_time']);
  await expect(page.getByTestId('add-tool-input')).toHaveValue('{\n  "city": ""\n}');
  await page.getByTestId('add-tool-input').fill('{"city": "Paris"}');
  await page.getByTestId('add-tool-call').click();
  await page.getByTestId('add-tool-name').selectOption('get_time');
  await page.getByTestId('add-tool-input').fill('{"zone" "Asia/Tokyo"}');
  await expect(page.getByTestId('add-tool-call')).toBeDisabled();
  await page.getByTestId('add-tool-input').fill('{"zone": "Asia/Tokyo"}');
  await page.getByTestId('add-tool-call').click();
  await expect(calls.getByTestId('tool-use')).toHaveCount(2);
  await expect(page.getByTestId('response-stop-reason')).toHaveText('toolUse');
  await shot(page, 'editors-manual-tool-calls');
  await page.getByTestId('approve-response').click();

  await expect.poll(() => recorded(page, 'approveResponse')).toHaveLength(1);
  const [sent] = await recorded(page, 'approveResponse');
  const result = sent!.result as { content: Array<{ type: string; id: string; name: string; input: unknown }>; stopReason: string; model: string };
  expect(result.stopReason).toBe('toolUse');
  expect(result.model).toBe('manual');
  expect(result.content.map((b) => [b.type, b.name, b.input])).toEqual([
    ['tool_use', 'get_weather', { city: 'Paris' }],
    ['tool_use', 'get_time', { zone: 'Asia/Tokyo' }],
  ]);
  expect(new Set(result.content.map((b) => b.id)).size).toBe(2);
});

test("a tool_result's content is edited like a message's: a secret a tool read is redacted, a text edited by hand, an image removed", async ({ page, appUrl, fixture }) => {
  const config = 'region = eu-west-1\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\nretries = 3';
  const messages = [
    { role: 'user' as const, content: { type: 'text' as const, text: 'Is the deploy config sane?' } },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'read-1', name: 'read_file', input: { path: 'deploy.ini' } }] },
    { role: 'user' as const, content: [{ type: 'tool_result' as const, toolUseId: 'read-1', content: [{ type: 'text', text: config }, { type: 'image', mimeType: 'image/png', data: PNG_B64 }, { type: 'text', text: 'size: 3 lines' }] }] },
  ];
  withWaitingRequest(fixture.state, 'cfg', messages);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openConsole(page, appUrl, fixture);
  await page.locator('[data-testid="queue-item"][data-item-id="cfg"]').click();

  const panel = page.getByTestId('redaction-panel');
  await expect(panel.locator('mark')).toHaveText(['AKIAIOSFODNN7EXAMPLE']);
  await expect(panel).toContainText('Message 3, tool result');
  await panel.getByTestId('redact-0').click();
  await expect(panel).toContainText('All found items are redacted');
  const result = page.getByTestId('tool-result');
  await expect(result.getByTestId('message-text-2-0-0')).toHaveText(config.replace('AKIAIOSFODNN7EXAMPLE', '[REDACTED:api_key]'));
  await expect(result.getByText('edited')).toBeVisible();

  await result.getByTestId('message-edit-2-0-2').click();
  await result.getByTestId('message-editor-2-0-2').fill('size: 3 lines (checked)');
  await result.getByRole('button', { name: /Remove image in Message 3/ }).click();
  await expect(result.getByTestId('media-image')).toHaveAttribute('data-removed', 'true');
  await shot(page, 'editors-tool-result-text');
  await expect(page.getByTestId('approve-request')).toHaveText('Approve with edits');
  await page.getByTestId('approve-request').click();
  await expect.poll(async () => (await recorded(page, 'approveRequest')).length).toBe(1);
  const [sent] = (await recorded(page, 'approveRequest')) as Array<{ params: { messages: Array<{ content: unknown }> } }>;
  expect((sent!.params.messages[2]!.content as unknown[])[0]).toEqual({
    type: 'tool_result',
    toolUseId: 'read-1',
    content: [{ type: 'text', text: config.replace('AKIAIOSFODNN7EXAMPLE', '[REDACTED:api_key]') }, { type: 'text', text: 'size: 3 lines (checked)' }],
  });
  expect(sent!.params.messages.slice(0, 2)).toEqual(messages.slice(0, 2));
});

test("History's diff of a request shows what was edited inside a tool_result", async ({ page, appUrl, fixture }) => {
  const base = fixture.history.find((e) => e.id === 'h-edited')!;
  const result = (text: string) => ({ role: 'user' as const, content: [{ type: 'tool_result' as const, toolUseId: 'read-1', content: [{ type: 'text', text }] }] });
  const head = [
    { role: 'user' as const, content: { type: 'text' as const, text: 'Is the deploy config sane?' } },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'read-1', name: 'read_file', input: {} }] },
  ];
  const original = { messages: [...head, result('aws_access_key_id = AKIAIOSFODNN7EXAMPLE')], maxTokens: 100 };
  const sent = { messages: [...head, result('aws_access_key_id = [REDACTED:api_key]')], maxTokens: 100 };
  fixture.history.push({ ...base, id: 'h-cfg', conversationId: 'h-cfg', receivedAt: Date.now() - 1000, endedAt: Date.now() - 500, edited: true, preview: 'Is the deploy config sane?', original, sent });
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-history').click();
  await page.locator('[data-history-id="h-cfg"]').click();
  const diff = page.getByTestId('history-message-diff-2');
  await expect(diff).toContainText('tool_result read-1');
  await expect(diff.locator('del')).toContainText('AKIAIOSFODNN7EXAMPLE');
  await expect(diff.locator('ins')).toContainText('[REDACTED:api_key]');
});

test("a tool_result's structuredContent shows, saying whether the model gets it", async ({ page, appUrl, fixture }) => {
  const call = (id: string) => ({ role: 'assistant' as const, content: [{ type: 'tool_use' as const, id, name: 'get_weather', input: {} }] });
  const result = (id: string, content: Array<{ type: string; text: string }>) => ({ role: 'user' as const, content: [{ type: 'tool_result' as const, toolUseId: id, content, structuredContent: { city: 'Paris', tempC: 18 } }] });
  withWaitingRequest(fixture.state, 'structured', [
    { role: 'user', content: { type: 'text', text: 'Weather in Paris, twice?' } },
    call('w1'),
    result('w1', []),
    call('w2'),
    result('w2', [{ type: 'text', text: '18 °C in Paris' }]),
  ]);
  await openConsole(page, appUrl, fixture);
  await page.locator('[data-testid="queue-item"][data-item-id="structured"]').click();
  const results = page.getByTestId('tool-result');
  await expect(results.nth(0).getByTestId('tool-result-structured')).toContainText('structuredContent: what the model gets (the result has no content)');
  await expect(results.nth(0).getByTestId('tool-result-structured')).toContainText('"tempC": 18');
  await expect(results.nth(0)).not.toContainText('(empty result)');
  await expect(results.nth(1).getByTestId('tool-result-structured')).toContainText('structuredContent: not sent (the model gets the content above)');
});

test("an embedded resource in a tool_result can be left out of the request, like an image", async ({ page, appUrl, fixture }) => {
  const resource = { type: 'resource', resource: { uri: 'file:///notes/hr.txt', mimeType: 'text/plain', text: 'Salary review: confidential' } };
  const link = { type: 'resource_link', uri: 'file:///notes/index.md', name: 'index.md' };
  withWaitingRequest(fixture.state, 'res', [
    { role: 'user', content: { type: 'text', text: 'Summarise my notes.' } },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'n1', name: 'read_notes', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', toolUseId: 'n1', content: [resource, link] }] },
  ]);
  await openConsole(page, appUrl, fixture);
  await page.locator('[data-testid="queue-item"][data-item-id="res"]').click();
  const contents = page.getByTestId('tool-result').getByTestId('resource-contents');
  await expect(contents).toContainText('Salary review: confidential');
  await contents.getByRole('button', { name: /Remove resource in Message 3/ }).click();
  await expect(contents).toHaveAttribute('data-removed', 'true');
  await expect(contents).not.toContainText('Salary review');
  await expect(contents).toContainText('file:///notes/hr.txt');
  await expect(page.getByTestId('approve-request')).toHaveText('Approve with edits');
  await page.getByTestId('approve-request').click();
  await expect.poll(async () => (await recorded(page, 'approveRequest')).length).toBe(1);
  const [sent] = (await recorded(page, 'approveRequest')) as Array<{ params: { messages: Array<{ content: unknown }> } }>;
  expect(sent!.params.messages[2]!.content).toEqual([{ type: 'tool_result', toolUseId: 'n1', content: [link] }]);
});
