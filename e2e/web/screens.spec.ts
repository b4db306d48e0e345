/**
 * Servers and History screens against a fake API, plus the layout at the smallest supported
 * window (900×600) and basic accessibility. Screenshots of every screen go to e2e/artifacts/.
 */
import type { Page } from '@playwright/test';
import { emit, expect, expectNoHorizontalOverflow, holdReplies, openConsole, recorded, releaseReplies, shot, test } from '../support/ui.js';

/** Every form control has an accessible name; every button has text or a label. */
async function expectNamedControls(page: Page): Promise<void> {
  const unnamed = await page.evaluate(() => {
    const bad: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('input, select, textarea, button, summary')) {
      const labelled =
        el.getAttribute('aria-label') ||
        el.getAttribute('aria-labelledby') ||
        ((el as HTMLInputElement).labels?.length ?? 0) > 0 ||
        ((el.tagName === 'BUTTON' || el.tagName === 'SUMMARY') && el.textContent?.trim());
      if (!labelled) bad.push(el.outerHTML.slice(0, 120));
    }
    return bad;
  });
  expect(unnamed).toEqual([]);
}

test('servers: status, transport, protocol and tools; the form calls the tool with typed arguments', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  const detail = page.getByTestId('server-detail');
  await expect(detail).toHaveAttribute('data-server-id', 'everything');
  await expect(detail.getByTestId('server-status')).toHaveText('ready');
  await expect(detail).toContainText('2025-11-25 (push era)');
  await expect(detail).toContainText('server-everything/dist/index.js stdio');
  await expect(page.getByTestId('tool-item')).toHaveCount(5);
  // A server an agent host runs through the bridge is listed with its host.
  await expect(page.getByTestId('bridged-server')).toHaveCount(3);
  const bridged = page.locator('[data-testid="bridged-server"][data-server-id="notes"]');
  await expect(bridged).toContainText('notes');
  await expect(bridged.getByTestId('via-host')).toHaveText('via claude-ai');
  await expect(bridged).toContainText('1 in flight');

  await page.getByTestId('tool-item').filter({ hasText: 'trigger-sampling-request' }).click();
  const form = page.getByTestId('tool-form');
  await expect(form).toContainText("the server asks the client's model for a completion");
  await expect(form.locator('label[for$="-prompt"] .required')).toBeVisible();
  await expect(page.getByTestId('tool-field-maxTokens')).toHaveValue('100');
  await page.getByTestId('call-tool').click();
  await expect(form.getByText('Required', { exact: true })).toBeVisible();
  expect(await recorded(page, 'callTool')).toEqual([]);
  await page.getByTestId('tool-field-prompt').fill('Write a limerick');
  await page.getByTestId('call-tool').click();
  await expect.poll(() => recorded(page, 'callTool')).toEqual([
    { serverId: 'everything', name: 'trigger-sampling-request', arguments: { prompt: 'Write a limerick', maxTokens: 100 } },
  ]);
});

test("servers: the request the person's own running call caused is reviewed right there, the others wait in the Queue", async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  // call-sampling is running and has three requests waiting: the oldest opens under the tools.
  const inline = page.getByTestId('inline-review');
  await expect(inline).toHaveAttribute('data-item-id', 'item-manual');
  await expect(inline.getByRole('heading', { name: 'Write the response myself' })).toBeVisible();
  await expect(inline.getByTestId('inline-review-more')).toHaveText('2 more in the Queue');
  await shot(page, 'servers-inline-review');
  await inline.getByTestId('response-editor').fill('Done by hand.');
  await inline.getByTestId('approve-response').click();
  await expect.poll(() => recorded(page, 'approveResponse')).toEqual([
    { itemId: 'item-manual', version: expect.stringMatching(/^[0-9a-f]{64}$/), result: { role: 'assistant', content: { type: 'text', text: 'Done by hand.' }, model: 'manual', stopReason: 'endTurn' } },
  ]);
  // The answered one leaves (as main reports it); the next opens in its place and takes the focus.
  await page.getByTestId('tool-item').first().focus();
  await emit(page, { type: 'patch', patch: { version: 43, items: { upsert: [], remove: ['item-manual'] } } });
  await expect(inline).toHaveAttribute('data-item-id', 'item-response');
  await expect(inline.locator('[data-review-item="item-response"]')).toBeFocused(); // its review, where its keys work
  await expect(inline.getByTestId('inline-review-more')).toHaveText('1 more in the Queue');
  // A server without a running call of the person's shows none.
  await page.getByTestId('server-item').filter({ hasText: 'remote-docs' }).click();
  await expect(page.getByTestId('inline-review')).toHaveCount(0);
});

test('servers: a call that failed because its tool needs the other era says so, with Call again; the tool shows its era, settable', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  const detail = 'Error executing tool echo: this transport context has no back-channel for server-initiated requests';
  const failed = { id: 'call-era', serverId: 'everything', kind: 'tools/call' as const, name: 'echo', arguments: { message: 'hi' }, status: 'failed' as const, startedAt: Date.now() - 2000, endedAt: Date.now() - 1000, samplingItemIds: [], error: { message: detail, code: -32600 }, eraNeed: { needs: 'legacy' as const, detail } };
  const servers = fixture.state.servers.map((s) => (s.id === 'everything' ? { ...s, era: 'modern' as const, toolEras: { echo: { needs: 'legacy' as const, learned: 'failure' as const, detail, at: Date.now() } } } : s));
  await emit(page, { type: 'patch', patch: { version: 43, calls: { upsert: [failed] }, servers: { all: servers } } });
  const card = page.locator('[data-call-id="call-era"]');
  await expect(card.getByTestId('call-era-need')).toContainText('This tool needs the 2025-11-25 protocol era');
  await card.getByTestId('call-again').click();
  await expect.poll(() => recorded(page, 'rerunCall')).toEqual([{ callId: 'call-era' }]);
  await page.getByTestId('tool-item').filter({ hasText: 'echo' }).click();
  await expect(page.getByTestId('tool-era-select')).toHaveValue('legacy');
  await expect(page.getByTestId('tool-era-learned')).toContainText('Learned when it failed: Error executing tool echo');
  await shot(page, 'servers-tool-era');
  await page.getByTestId('tool-era-select').selectOption('modern');
  await page.getByTestId('tool-era-select').selectOption('');
  await expect.poll(() => recorded(page, 'setToolEra')).toEqual([
    { serverId: 'everything', tool: 'echo', era: 'modern' },
    { serverId: 'everything', tool: 'echo', era: null },
  ]);
});

test('servers: a guard-style tool its server refused on 2025-11-25 was called again at once on 2026-07-28; the call says so, without Call again', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  const detail = "Tool 'echo' returned an InputRequiredResult to request client input, but the multi-round-trip result type (SEP-2322) only exists at MCP 2026-07-28";
  const done = { id: 'call-again', serverId: 'everything', kind: 'tools/call' as const, name: 'echo', arguments: { message: 'hi' }, status: 'succeeded' as const, startedAt: Date.now() - 2000, endedAt: Date.now() - 1000, samplingItemIds: [], result: { content: [{ type: 'text', text: 'model said: hello | protocol 2026-07-28' }] }, eraNeed: { needs: 'modern' as const, detail, calledAgain: true } };
  const servers = fixture.state.servers.map((s) => (s.id === 'everything' ? { ...s, toolEras: { echo: { needs: 'modern' as const, learned: 'failure' as const, detail, at: Date.now() } } } : s));
  await emit(page, { type: 'patch', patch: { version: 43, calls: { upsert: [done] }, servers: { all: servers } } });
  const card = page.locator('[data-call-id="call-again"]');
  await expect(card.getByTestId('call-era-need')).toContainText('Called again on a 2026-07-28 session');
  await expect(card.getByTestId('call-era-need')).toContainText('The console called it again at once, without asking');
  await expect(card.getByTestId('call-again')).toHaveCount(0);
  await expect(card).toContainText('model said: hello | protocol 2026-07-28');
  await card.scrollIntoViewIfNeeded();
  await shot(page, 'servers-called-again');
  await page.getByTestId('tool-item').filter({ hasText: 'echo' }).click();
  await expect(page.getByTestId('tool-era-select')).toHaveValue('modern');
});

test('servers: leaving and coming back finds each server page as it was left: tab, tool, typed arguments, scroll', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('tool-item').filter({ hasText: 'echo' }).click();
  await page.getByTestId('tool-field-message').fill('typed for echo');
  await page.getByTestId('tool-item').filter({ hasText: 'trigger-sampling-request' }).click();
  await page.getByTestId('tool-field-prompt').fill('typed for sampling');
  const pane = page.locator('.split-detail');
  await pane.evaluate((el) => el.scrollTo({ top: 420 }));
  await expect.poll(() => pane.evaluate((el) => el.scrollTop)).toBe(420);
  await page.waitForTimeout(100); // the scroll event has been handled

  const expectAsLeft = async () => {
    await expect(page.getByTestId('tool-item').filter({ hasText: 'trigger-sampling-request' })).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('tool-field-prompt')).toHaveValue('typed for sampling');
    await expect.poll(() => pane.evaluate((el) => el.scrollTop)).toBe(420);
  };
  // Another screen and back.
  await page.getByTestId('nav-history').click();
  await page.getByTestId('nav-servers').click();
  await expectAsLeft();
  // Another server (which opens at its own top, on its own tab) and back.
  await page.getByTestId('server-item').filter({ hasText: 'broken-python' }).click();
  await expect(page.getByTestId('server-detail')).toHaveAttribute('data-server-id', 'broken-python');
  await expect.poll(() => pane.evaluate((el) => el.scrollTop)).toBe(0);
  await page.getByTestId('server-tab-log').click();
  await page.getByTestId('server-item').filter({ hasText: 'everything' }).first().click();
  await expectAsLeft();
  await expect(page.getByTestId('server-tab-tools')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('tool-item').filter({ hasText: 'echo' }).click();
  await expect(page.getByTestId('tool-field-message')).toHaveValue('typed for echo');
  await page.getByTestId('server-item').filter({ hasText: 'broken-python' }).click();
  await expect(page.getByTestId('server-tab-log')).toHaveAttribute('aria-selected', 'true');
});

test('servers: the result of a call the person started is scrolled into view when the call ends', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('tool-item').filter({ hasText: 'echo' }).click();
  await page.getByTestId('tool-field-message').fill('far below');
  await page.getByTestId('call-tool').click();
  await expect.poll(() => recorded(page, 'callTool')).toHaveLength(1);
  const started = { id: 'fake-call-1', serverId: 'everything', kind: 'tools/call' as const, name: 'echo', arguments: { message: 'far below' }, status: 'running' as const, startedAt: Date.now(), samplingItemIds: [] };
  await emit(page, { type: 'patch', patch: { version: 43, calls: { upsert: [started] } } });
  const card = page.locator('[data-call-id="fake-call-1"]');
  await expect(card).toHaveAttribute('data-status', 'running');
  // While it runs the person reads the review of the other running call, at the top of the page.
  await page.locator('.split-detail').evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(card).not.toBeInViewport();
  const echoed = Array.from({ length: 12 }, (_, i) => `Echo line ${i + 1}: far below`).join('\n');
  await emit(page, { type: 'patch', patch: { version: 44, calls: { upsert: [{ ...started, status: 'succeeded', endedAt: Date.now(), result: { content: [{ type: 'text', text: echoed }] } }] } } });
  await expect(card).toHaveAttribute('data-status', 'succeeded');
  await expect(card).toBeInViewport({ ratio: 0.99 }); // whole, give or take a sub-pixel
  await shot(page, 'servers-call-result-in-view');

  // Asked for reduced motion, the page jumps there instead of gliding.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.evaluate(() => {
    const w = window as unknown as { __scrolls: unknown[] };
    w.__scrolls = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element, arg?: boolean | ScrollIntoViewOptions) {
      w.__scrolls.push(arg);
      original.call(this, arg);
    };
  });
  await page.getByTestId('call-tool').click();
  await expect.poll(() => recorded(page, 'callTool')).toHaveLength(2);
  const again = { ...started, id: 'fake-call-2', startedAt: Date.now() };
  await emit(page, { type: 'patch', patch: { version: 45, calls: { upsert: [again] } } });
  await page.locator('.split-detail').evaluate((el) => el.scrollTo({ top: 0 }));
  await emit(page, { type: 'patch', patch: { version: 46, calls: { upsert: [{ ...again, status: 'succeeded', endedAt: Date.now(), result: { content: [{ type: 'text', text: echoed }] } }] } } });
  await expect(page.locator('[data-call-id="fake-call-2"]')).toBeInViewport({ ratio: 0.99 });
  expect(await page.evaluate(() => (window as unknown as { __scrolls: unknown[] }).__scrolls)).toEqual([{ block: 'nearest', behavior: 'auto' }]);
});

test('notices show at the top and can be hidden, for every window (main drops them)', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  const notices = page.getByTestId('notices');
  await expect(notices).toContainText('servers.broken-python.command: Command is required — the last good config stays in force.');
  await notices.getByRole('button', { name: 'Hide this notice' }).click();
  await expect(notices).toHaveCount(0);
  expect(await recorded(page, 'dismissNotice')).toEqual([{ id: fixture.state.notices[0]!.id }]);
});

test('servers: enum and boolean fields, and the Raw JSON mode with its parse error', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('tool-item').filter({ hasText: 'get-annotated-message' }).click();
  await expect(page.getByTestId('tool-field-includeImage')).toHaveValue('false');
  await page.getByTestId('tool-field-messageType').selectOption('success');
  await page.getByTestId('call-tool').click();
  await expect.poll(() => recorded(page, 'callTool')).toHaveLength(1);

  await page.getByTestId('tool-raw-toggle').check();
  await expect(page.getByTestId('tool-raw')).toHaveValue(/"messageType": "success"/);
  await page.getByTestId('tool-raw').fill('{"messageType": ');
  await expect(page.getByTestId('tool-raw-error')).toContainText('Parse error');
  await expect(page.getByTestId('call-tool')).toBeDisabled();
  await page.getByTestId('tool-raw').fill('["not", "an object"]');
  await expect(page.getByTestId('tool-raw-error')).toContainText('must be a JSON object');
  await page.getByTestId('tool-raw').fill('{"messageType": "debug", "extra": [1, 2]}');
  await expect(page.getByTestId('tool-raw-error')).toHaveCount(0);
  await page.getByTestId('call-tool').click();
  const calls = await expect.poll(() => recorded(page, 'callTool')).toHaveLength(2).then(() => recorded(page, 'callTool'));
  expect(calls).toEqual([
    { serverId: 'everything', name: 'get-annotated-message', arguments: { messageType: 'success', includeImage: false } },
    { serverId: 'everything', name: 'get-annotated-message', arguments: { messageType: 'debug', extra: [1, 2] } },
  ]);
});

test('servers: an errored server shows its error and stderr; calls show status, results and sampling links', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  const calls = page.getByTestId('call-result');
  await expect(calls).toHaveCount(6);
  await expect(calls.first()).toHaveAttribute('data-status', 'running');
  await expect(calls.first().getByTestId('call-status')).toContainText(/running · 3 m 3\d s/);
  const toolError = page.locator('[data-call-id="call-tool-error"]');
  await expect(toolError).toHaveClass(/is-error/);
  await expect(toolError).toContainText('isError');
  await expect(page.locator('[data-call-id="call-image"] img')).toBeVisible();
  await expect(page.locator('[data-call-id="call-failed"]').getByTestId('call-error')).toHaveText('Request timed out (code -32001)');
  await expect(page.locator('[data-call-id="call-echo"]')).toContainText('Echo: hello');
  // A call keeps its newest items' links; the earlier ones are counted.
  const looped = page.locator('[data-call-id="call-done"]');
  await expect(looped.getByTestId('call-sampling-earlier')).toHaveText('#1–#137 in history,');
  await expect(looped.getByTestId('call-sampling-link')).toHaveText(['#138 (delivered)', '#139 (rejected)', '#140 (in history)']);

  await page.getByTestId('server-item').filter({ hasText: 'broken-python' }).click();
  await expect(page.getByTestId('server-error')).toContainText('Process exited with code 1');
  await expect(page.getByTestId('server-stderr')).toContainText("ModuleNotFoundError: No module named 'httpx'");

  await page.getByTestId('server-item').filter({ hasText: 'everything' }).click();
  await page.locator('[data-call-id="call-sampling"]').getByTestId('call-sampling-link').nth(3).click();
  await expect(page.getByTestId('nav-queue')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('response-review')).toBeVisible();
  await expect(page.locator('[data-item-id="item-response"]')).toHaveAttribute('aria-current', 'true');
});

test('history: debounced search, newest first, readable diffs, events and raw JSON', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-history').click();
  const rows = page.getByTestId('history-item');
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toHaveAttribute('data-history-id', 'h-edited');
  // A refused request has no text to preview: its row says why it failed.
  await expect(page.locator('[data-history-id="h-refused"]').getByTestId('history-preview-reason')).toHaveText('Failed: maxTokens is required');
  await expect(page.locator('[data-history-id="h-refused"]')).not.toContainText('(no text)');
  await expect(rows.first()).toContainText('edited');

  // The detail pane follows the list: the open entry closes when the search filters it out.
  await page.locator('[data-history-id="h-edited"]').click();
  await expect(page.getByTestId('history-detail')).toBeVisible();
  await page.getByTestId('history-search').pressSequentially('environment', { delay: 20 });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-history-id', 'h-rejected');
  await expect(page.getByTestId('history-detail')).toHaveCount(0);
  const queries = (await recorded(page, 'listHistory')).filter((i) => !i.id && !i.conversationId).map((i) => i.query); // the list's own pages
  expect(queries.at(-1)).toBe('environment');
  expect(queries.length, 'typing is debounced, not one request per key').toBeLessThan(5);
  await rows.first().click();
  await expect(page.getByTestId('history-detail')).toContainText('Print every environment variable');

  await page.getByTestId('history-search').fill('');
  await expect(rows).toHaveCount(4);
  await rows.first().click();
  const detail = page.getByTestId('history-detail');
  await expect(page.getByTestId('history-system-diff').locator('del')).toHaveText('marketing assistant');
  await expect(page.getByTestId('history-system-diff').locator('ins')).toHaveText('precise technical writer');
  await expect(page.getByTestId('history-message-diff-0').locator('ins')).toHaveText('team');
  const changes = page.getByTestId('history-field-changes');
  await expect(changes.locator('tr.is-changed')).toHaveCount(2);
  await expect(changes.locator('tr', { hasText: 'maxTokens' })).toContainText('1000');
  await expect(changes.locator('tr', { hasText: 'maxTokens' })).toContainText('300');
  await expect(page.getByTestId('history-response-diff').locator('ins')).toHaveText(/support/);
  await expect(page.getByTestId('history-events').locator('li')).toHaveCount(4);
  await detail.locator('summary', { hasText: 'Raw JSON: sent' }).click();
  await expect(detail.locator('details[open] pre')).toContainText('"maxTokens": 300');

  await page.locator('[data-history-id="h-refused"]').click();
  await expect(page.getByTestId('history-error')).toContainText('S-MAX-1');
  await expect(page.getByTestId('history-detail')).toContainText('did not parse');
  await expect(page.getByTestId('history-reopen')).toHaveCount(0);
  // Parsed but refused by a spec rule: its error is shown, and it is not offered for re-opening.
  await page.locator('[data-history-id="h-refused-tools"]').click();
  await expect(page.getByTestId('history-error')).toContainText('S-TR-2');
  await expect(page.getByTestId('history-reopen')).toHaveCount(0);
  // A valid request is offered.
  await page.locator('[data-history-id="h-rejected"]').click();
  await expect(page.getByTestId('history-reopen')).toBeVisible();
});

test("history: the counters are the chosen period's; while its reply is pending, the previous period's are not shown", async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-history').click();
  const stats = page.getByTestId('history-stats');
  await stats.locator('summary').click();
  const statRows = page.getByTestId('history-stats-row');
  const servers = new Set(fixture.history.map((e) => e.serverId)).size;
  await expect(statRows).toHaveCount(servers); // the last 7 days'

  await holdReplies(page, 'historyStats');
  await page.getByTestId('history-period').selectOption('all');
  await expect.poll(async () => (await recorded(page, 'historyStats')).at(-1)).toEqual({}); // asked for all time, not answered yet
  await expect(statRows).toHaveCount(0);
  await expect(stats).toContainText('Loading…');
  await expect(stats).not.toContainText('No requests in this period.');

  await releaseReplies(page, 'historyStats');
  await expect(statRows).toHaveCount(servers);
  await expect(stats).not.toContainText('Loading…');
});

for (const [width, height] of [
  [900, 600],
  [1280, 800],
] as const) {
  test(`every screen fits ${width}×${height}, controls are named (screenshots in e2e/artifacts)`, async ({ page, appUrl, fixture }) => {
    await page.setViewportSize({ width, height });
    await openConsole(page, appUrl, fixture);
    const screens: Array<[string, () => Promise<unknown>]> = [
      ['queue-request', () => page.locator('[data-item-id="item-request"]').click()],
      ['queue-request-tools', () => page.locator('[data-item-id="item-request-2"]').click()],
      ['queue-generating', () => page.locator('[data-item-id="item-generating"]').click()],
      ['queue-response', () => page.locator('[data-item-id="item-response"]').click()],
      ['queue-manual', () => page.locator('[data-item-id="item-manual"]').click()],
      ['queue-delivered', () => page.locator('[data-item-id="item-delivered"]').click()],
      ['queue-rejected', () => page.locator('[data-item-id="item-rejected"]').click()],
      ['servers', () => page.getByTestId('nav-servers').click().then(() => page.getByTestId('tool-item').nth(2).click())],
      ['servers-error', () => page.getByTestId('server-item').nth(1).click()],
      ['history', () => page.getByTestId('nav-history').click().then(() => page.getByTestId('history-item').first().click())],
    ];
    for (const [name, open] of screens) {
      await open();
      await expect(page.getByTestId('connecting')).toHaveCount(0);
      await expectNoHorizontalOverflow(page);
      await expectNamedControls(page);
      const primary = page.locator('.action-bar button').last();
      if (await primary.count()) await expect(primary).toBeInViewport();
      await shot(page, `${width}x${height}-${name}`);
    }
  });
}
