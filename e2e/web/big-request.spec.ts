/**
 * A very large prompt (long prompts never freeze the UI): the review shows a preview
 * with "Show all", editing happens in parts, and what is approved is exactly the whole text with
 * the person's edit — nothing hidden is lost. A big image comes after its review (media by
 * reference, shared/contract/media-refs.ts) and is sent whole however early Approve is pressed.
 */
import type { CallView, SamplingItemView } from '../../shared/contract/state.js';
import { paddedFixturePng } from '../../test/fixtures/sampling/media.js';
import { withWaitingRequest } from '../support/fixture-state.js';
import { expect, failNext, holdReplies, openConsole, recorded, releaseReplies, shot, test } from '../support/ui.js';

const LINE = (i: number) => `${String(i).padStart(6, '0')} ${'log line '.repeat(8)}\n`;
const BIG = Array.from({ length: 3000 }, (_, i) => LINE(i)).join(''); // ~240 KB

test('a 240 KB prompt: preview, show all, edit the last part, approve the whole edited text', async ({ page, appUrl, fixture }) => {
  withWaitingRequest(fixture.state, 'big', [{ role: 'user', content: { type: 'text', text: BIG } }]);
  await openConsole(page, appUrl, fixture);
  await page.locator('[data-testid="queue-item"][data-item-id="big"]').click();
  const review = page.getByTestId('request-review');
  // A preview, not a quarter megabyte of rendered Markdown; the rest one click away.
  await expect(review.getByText('000000 log line')).toBeVisible();
  await expect(review.getByText('002999 log line')).toHaveCount(0);
  await expect(review.getByRole('button', { name: /Show all/ })).toBeVisible();

  await page.getByTestId('message-edit-0-0').click();
  const parts = page.locator('[data-testid^="message-editor-0-0-part-"]');
  const n = await parts.count();
  expect(n).toBeGreaterThan(5);
  const last = parts.nth(n - 1);
  await expect(last).toHaveValue(/002999 log line/);
  await last.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('THE END');
  await shot(page, 'big-request-parts');
  await expect(page.getByTestId('approve-request')).toHaveText('Approve with edits');
  await page.getByTestId('approve-request').click();

  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  const [sent] = (await recorded(page, 'approveRequest')) as Array<{ params: { messages: Array<{ content: { text: string } }> } }>;
  expect(sent!.params.messages[0]!.content.text).toBe(`${BIG}THE END`);
});

test('a tool_result with a 2 MB log: a preview with Show all, not 25,000 lines; the approval sends the whole text', async ({ page, appUrl, fixture }) => {
  const log = Array.from({ length: 25_000 }, (_, i) => LINE(i)).join('');
  const messages = [
    { role: 'user' as const, content: { type: 'text' as const, text: 'Why did the deploy fail?' } },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'log-1', name: 'read_log', input: {} }] },
    { role: 'user' as const, content: [{ type: 'tool_result' as const, toolUseId: 'log-1', content: [{ type: 'text', text: log }] }] },
  ];
  withWaitingRequest(fixture.state, 'log', messages);
  await openConsole(page, appUrl, fixture);
  await page.locator('[data-testid="queue-item"][data-item-id="log"]').click();
  const result = page.getByTestId('request-review').getByTestId('tool-result');
  await expect(result.getByText('000000 log line')).toBeVisible();
  await expect(result.getByText('024999 log line')).toHaveCount(0);
  await expect(result.getByTestId('markdown-truncated')).toContainText('Showing the first 32.0 KB of 1.9 MB.');
  await result.getByTestId('markdown-show-all').click();
  await expect(result.getByText('024999 log line')).toBeAttached();
  await page.getByTestId('approve-request').click();
  await expect.poll(async () => (await recorded(page, 'approveRequest')).length).toBe(1);
  const [sent] = (await recorded(page, 'approveRequest')) as Array<{ params: { messages: Array<{ content: Array<{ content?: Array<{ text?: string }> }> }> } }>;
  expect(sent!.params.messages[2]!.content[0]!.content![0]!.text === log).toBe(true);
});

/** The fixture state with one more waiting request `id`: a question and a 400 KB PNG (`image`). */
function withImageRequest(fixture: { state: { items: SamplingItemView[] } }, id: string, image: string): void {
  const content = [{ type: 'text' as const, text: 'What is in this picture?' }, { type: 'image' as const, mimeType: 'image/png', data: image }];
  withWaitingRequest(fixture.state, id, [{ role: 'user', content }]);
}

test('a big image: the review shows while the image is on its way; Approve pressed meanwhile waits for it and sends it whole', async ({ page, appUrl, fixture }) => {
  const image = paddedFixturePng(400_000);
  withImageRequest(fixture, 'img', image);
  await openConsole(page, appUrl, fixture);
  await holdReplies(page, 'getItemMedia');
  await page.locator('[data-testid="queue-item"][data-item-id="img"]').click();
  const review = page.getByTestId('request-review');
  await expect(review.getByText('What is in this picture?')).toBeVisible();
  const media = review.getByTestId('media-image');
  await expect(media.getByTestId('media-meta')).toHaveText('image · image/png · 390.7 KB');
  await expect(media).toContainText('(loading…)');
  await shot(page, 'big-image-loading');

  await page.getByTestId('approve-request').click();
  await expect(page.getByTestId('approve-request')).toBeDisabled(); // the approval waits for the image
  expect(await recorded(page, 'approveRequest')).toHaveLength(0);
  await releaseReplies(page, 'getItemMedia');
  await expect.poll(async () => (await recorded(page, 'approveRequest')).length).toBe(1);
  const [sent] = (await recorded(page, 'approveRequest')) as Array<{ params: { messages: Array<{ content: Array<{ data?: string }> }> } }>;
  expect(sent!.params.messages[0]!.content[1]!.data === image).toBe(true);
  expect(await recorded(page, 'getItemMedia')).toHaveLength(1); // the approval joined the fetch under way
  await expect(media.getByRole('img', { name: 'Image (image/png)' })).toBeVisible();
  await expect(media.getByTestId('media-meta')).toHaveText('image · image/png · 390.7 KB'); // the size the reference named
});

test('a big image whose fetch failed: the approval fetches it again and sends it whole', async ({ page, appUrl, fixture }) => {
  const image = paddedFixturePng(400_000);
  withImageRequest(fixture, 'img', image);
  await openConsole(page, appUrl, fixture);
  await failNext(page, 'getItemMedia', 'connection lost');
  await page.locator('[data-testid="queue-item"][data-item-id="img"]').click();
  await expect(page.getByTestId('request-review').getByTestId('media-image')).toContainText('(loading…)');
  await expect.poll(async () => (await recorded(page, 'getItemMedia')).length).toBe(1);
  await page.getByTestId('approve-request').click();
  await expect.poll(async () => (await recorded(page, 'approveRequest')).length).toBe(1);
  const [sent] = (await recorded(page, 'approveRequest')) as Array<{ params: { messages: Array<{ content: Array<{ data?: string }> }> } }>;
  expect(sent!.params.messages[0]!.content[1]!.data === image).toBe(true);
  expect(await recorded(page, 'getItemMedia')).toHaveLength(2);
});

test('a screenshot in a tool_result, still on its way: the review raises no problem, and the approval sends it whole', async ({ page, appUrl, fixture }) => {
  const image = paddedFixturePng(400_000);
  const messages = [
    { role: 'user' as const, content: { type: 'text' as const, text: 'What does the page show?' } },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'shot-1', name: 'screenshot', input: {} }] },
    { role: 'user' as const, content: [{ type: 'tool_result' as const, toolUseId: 'shot-1', content: [{ type: 'image', mimeType: 'image/png', data: image }] }] },
  ];
  withWaitingRequest(fixture.state, 'shot', messages);
  await openConsole(page, appUrl, fixture);
  await holdReplies(page, 'getItemMedia');
  await page.locator('[data-testid="queue-item"][data-item-id="shot"]').click();
  const review = page.getByTestId('request-review');
  await expect(review.getByText('What does the page show?')).toBeVisible();
  await expect(review.getByTestId('media-image')).toContainText('(loading…)');
  await expect(review.getByTestId('request-invalid')).toHaveCount(0); // a reference is not "invalid base64"
  await expect(page.getByTestId('approve-request')).toHaveText('Approve');
  await shot(page, 'tool-result-image-loading');
  await releaseReplies(page, 'getItemMedia');
  await expect(review.getByTestId('media-image').getByRole('img', { name: 'Image (image/png)' })).toBeVisible();
  await expect(review.getByTestId('request-invalid')).toHaveCount(0);
  await page.getByTestId('approve-request').click();
  await expect.poll(async () => (await recorded(page, 'approveRequest')).length).toBe(1);
  const [sent] = (await recorded(page, 'approveRequest')) as Array<{ params: { messages: Array<{ content: Array<{ content?: Array<{ data?: string }> }> }> } }>;
  expect(sent!.params.messages[2]!.content[0]!.content![0]!.data === image).toBe(true);
});

test('a tool_result embedding a 1 MB PDF and a resource link: the review shows each by its URI and size, never the base64; the approval sends the PDF whole', async ({ page, appUrl, fixture }) => {
  const pdf = Buffer.alloc(1_000_000, 7).toString('base64');
  const messages = [
    { role: 'user' as const, content: { type: 'text' as const, text: 'Read the Q3 report.' } },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'read-1', name: 'read_file', input: { path: '/reports/q3.pdf' } }] },
    {
      role: 'user' as const,
      content: [{ type: 'tool_result' as const, toolUseId: 'read-1', content: [
        { type: 'resource', resource: { uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: pdf } },
        { type: 'resource_link', uri: 'file:///reports/q2.pdf', name: 'q2.pdf', description: 'Last quarter' },
      ] }],
    },
  ];
  withWaitingRequest(fixture.state, 'pdf', messages);
  await openConsole(page, appUrl, fixture);
  await holdReplies(page, 'getItemMedia');
  await page.locator('[data-testid="queue-item"][data-item-id="pdf"]').click();
  const result = page.getByTestId('request-review').getByTestId('tool-result');
  await expect(result.getByTestId('resource-meta')).toHaveText('file:///reports/q3.pdf · application/pdf · 976.6 KB (base64) (loading…)');
  await expect(result.getByTestId('resource-link')).toContainText('file:///reports/q2.pdf');
  await expect(result.getByTestId('resource-link')).toContainText('Last quarter');
  await expect(page.getByTestId('request-invalid')).toHaveCount(0);
  await shot(page, 'tool-result-resource-loading');
  await releaseReplies(page, 'getItemMedia');
  await expect(result.getByTestId('resource-meta')).toHaveText('file:///reports/q3.pdf · application/pdf · 976.6 KB (base64)');
  expect((await result.textContent())!.length).toBeLessThan(1_000); // the head of the blob, not 1.3 MB of it
  await page.getByTestId('approve-request').click();
  await expect.poll(async () => (await recorded(page, 'approveRequest')).length).toBe(1);
  const [sent] = (await recorded(page, 'approveRequest')) as Array<{ params: { messages: Array<{ content: Array<{ content?: Array<{ resource?: { blob?: string } }> }> }> } }>;
  expect(sent!.params.messages[2]!.content[0]!.content![0]!.resource!.blob === pdf).toBe(true);
});

test("a call's big result image and resource blob: the state holds them by reference; the card shows at once and fetches them", async ({ page, appUrl, fixture }) => {
  const image = paddedFixturePng(400_000);
  const calls = fixture.state.calls as CallView[];
  calls.push({ id: 'call-shot', serverId: 'everything', kind: 'tools/call', name: 'take-screenshot', arguments: {}, status: 'succeeded', startedAt: Date.now() - 3000, endedAt: Date.now() - 2000, samplingItemIds: [], result: { content: [{ type: 'text', text: 'The page as it looks now' }, { type: 'image', mimeType: 'image/png', data: image }] } });
  calls.push({ id: 'call-read', serverId: 'everything', kind: 'resources/read', name: 'file:///chart.png', arguments: { uri: 'file:///chart.png' }, status: 'succeeded', startedAt: Date.now() - 1500, endedAt: Date.now() - 1000, samplingItemIds: [], resource: { contents: [{ uri: 'file:///chart.png', mimeType: 'image/png', blob: image }] } });
  await openConsole(page, appUrl, fixture);
  await holdReplies(page, 'getCallMedia');
  await page.getByTestId('nav-servers').click();
  const card = page.locator('[data-call-id="call-shot"]');
  await expect(card).toContainText('The page as it looks now');
  await expect(card.getByTestId('media-meta')).toHaveText('image · image/png · 390.7 KB');
  await expect(card.getByTestId('media-image')).toContainText('(loading…)');
  const read = page.locator('[data-call-id="call-read"]').getByTestId('resource-contents');
  await expect(read).toContainText('file:///chart.png · image/png · 390.7 KB (base64) (loading…)');
  await releaseReplies(page, 'getCallMedia');
  await expect(card.getByRole('img', { name: 'Image (image/png)' })).toBeVisible();
  await expect(read.getByRole('img', { name: 'file:///chart.png' })).toBeVisible();
  await expect(read).not.toContainText('loading');
  const ref = expect.stringMatching(/^mcp-console-media:/) as unknown as string;
  expect(await recorded(page, 'getCallMedia')).toEqual(expect.arrayContaining([{ callId: 'call-shot', refs: [ref] }, { callId: 'call-read', refs: [ref] }]));
});

test("a call's 2 MB result text: the state holds it by reference; the card shows its size, then a preview with Show all", async ({ page, appUrl, fixture }) => {
  const log = Array.from({ length: 25_000 }, (_, i) => LINE(i)).join('');
  const calls = fixture.state.calls as CallView[];
  calls.push({ id: 'call-log', serverId: 'everything', kind: 'tools/call', name: 'read-log', arguments: {}, status: 'succeeded', startedAt: Date.now() - 3000, endedAt: Date.now() - 2000, samplingItemIds: [], result: { content: [{ type: 'text', text: 'app.log, 25,000 lines' }, { type: 'text', text: log }] } });
  await openConsole(page, appUrl, fixture);
  await holdReplies(page, 'getCallMedia');
  await page.getByTestId('nav-servers').click();
  const card = page.locator('[data-call-id="call-log"]');
  await expect(card).toContainText('app.log, 25,000 lines');
  await expect(card.getByTestId('text-loading')).toHaveText('text · 1.9 MB (loading…)');
  await releaseReplies(page, 'getCallMedia');
  await expect(card.getByText('000000 log line')).toBeVisible();
  await expect(card.getByTestId('markdown-truncated')).toContainText('Showing the first 32.0 KB of 1.9 MB.');
  const font = await card.locator('pre.result-text').first().evaluate((e) => getComputedStyle(e).fontFamily);
  expect(font).toMatch(/monospace/); // a tool's output in the mono face, as the rest of the card's results
  await card.getByTestId('markdown-show-all').click();
  await expect(card.getByText('024999 log line')).toBeAttached();
  expect(await recorded(page, 'getCallMedia')).toEqual([{ callId: 'call-log', refs: [expect.stringMatching(/^mcp-console-text:/) as unknown as string] }]);
});

test('a history entry with a big image: the entry shows at once, sizes included; its raw JSON gets the image after it (media by reference)', async ({ page, appUrl, fixture }) => {
  const image = paddedFixturePng(400_000);
  const base = fixture.history.find((e) => e.id === 'h-edited')!;
  const asked = { messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What does this chart say?' }, { type: 'image' as const, mimeType: 'image/png', data: image }] }], maxTokens: 200 };
  fixture.history.push({ ...base, id: 'h-chart', conversationId: 'h-chart', receivedAt: Date.now() - 1000, endedAt: Date.now() - 500, edited: false, preview: 'What does this chart say?', original: asked, sent: asked });
  await openConsole(page, appUrl, fixture);
  await holdReplies(page, 'getHistoryMedia');
  await page.getByTestId('nav-history').click();
  await page.locator('[data-history-id="h-chart"]').click();
  const detail = page.getByTestId('history-detail');
  await expect(detail.getByText('What does this chart say?').first()).toBeVisible();
  await expect(detail.getByTestId('history-media-bytes').first()).toHaveText('390.7 KB'); // the size the reference names
  const raw = detail.getByTestId('history-raw-original');
  await raw.locator('summary').click();
  await expect(raw.locator('pre')).toContainText('mcp-console-media:');
  await releaseReplies(page, 'getHistoryMedia');
  await expect(raw.locator('pre')).toContainText(image.slice(0, 60));
  await expect(raw.locator('pre')).not.toContainText('mcp-console-media:');
  expect(await recorded(page, 'getHistoryEntry')).toEqual([{ id: 'h-chart', media: 'by-ref' }]);
  expect(await recorded(page, 'getHistoryMedia')).toHaveLength(1);
});
