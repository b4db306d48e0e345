/**
 * The Queue opens a review by itself — the only (or first) request waiting when nothing is shown,
 * the next one after the person's own decision — and says so; a review opened that way takes no
 * deciding key until the person puts focus in it on purpose: a double-pressed key decides about one
 * request, not two, and key repeat decides nothing. It never switches away from a review the person
 * chose and is in, nor from a held one. Against the fake API: main's answers are pushed as patches.
 * Screenshots: e2e/artifacts/open-for-you-*.png.
 */
import type { Page } from '@playwright/test';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { said, ui } from '../../shared/contract/ui-text.js';
import type { FakeData } from '../support/fake-api.js';
import { emit, expect, openConsole, recorded, shot, test } from '../support/ui.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';

const row = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`);
const area = (page: Page, id: string) => page.locator(`[data-testid="queue-detail"] [data-review-item="${id}"]`);
const note = (page: Page) => page.getByTestId('opened-for-you');

/** Keeps only the items with these ids waiting on the person (the others as they are if finished, else removed). */
function onlyWaiting(fixture: FakeData, ids: string[]): void {
  fixture.state.items = fixture.state.items.filter((i) => ids.includes(i.id) || ['delivered', 'rejected', 'failed', 'cancelled', 'timed_out'].includes(i.status));
  fixture.state.elicitations = [];
}

/** Pushes `id` as ended the way this window's decision ends it (patch version `version`). */
async function end(page: Page, fixture: FakeData, id: string, version: number, status: 'rejected' | 'delivered'): Promise<void> {
  const it = fixture.state.items.find((i) => i.id === id)!;
  const ended: SamplingItemView = { ...it, status, contentVersion: undefined, outcome: { at: Date.now(), ...said(ui(status === 'rejected' ? 'outcome.rejected' : 'outcome.delivered')) } };
  await emit(page, { type: 'patch', patch: { version, items: { upsert: [ended], remove: [] } } });
}

/** Waits for the keys pressed so far to have been handled (nothing to wait on when they did nothing). */
const settle = (page: Page) => page.waitForTimeout(300);

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('the only request waiting opens by itself, says so, and takes no deciding key until the person is in it', async ({ page, appUrl, fixture }) => {
  onlyWaiting(fixture, ['item-request']);
  await openConsole(page, appUrl, fixture);
  await expect(area(page, 'item-request').getByTestId('request-review')).toBeVisible();
  await expect(row(page, 'item-request')).toHaveAttribute('aria-current', 'true');
  await expect(note(page)).toHaveText('Opened for you: the only request waiting. Its keys work once you click in it, or press Enter on it in the list.');
  await shot(page, 'open-for-you-only');
  // Focus is not in it: its keys decide nothing.
  await page.keyboard.press('a');
  await page.keyboard.press('r');
  await settle(page);
  expect(await recorded(page, 'approveRequest')).toEqual([]);
  expect(await recorded(page, 'rejectRequest')).toEqual([]);
  // A click in it is deliberate: now A approves.
  await area(page, 'item-request').getByTestId('item-header').click();
  await page.keyboard.press('a');
  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  // Once the person decided the phase it was opened in, the review is theirs: the note goes.
  const it = fixture.state.items.find((i) => i.id === 'item-request')!;
  const writing: SamplingItemView = { ...it, status: 'awaiting_response_review', sent: it.original, response: { manual: true, draft: { role: 'assistant', content: { type: 'text', text: '' }, model: 'manual', stopReason: 'endTurn' }, generatedAt: Date.now() } };
  await emit(page, { type: 'patch', patch: { version: fixture.state.version + 1, items: { upsert: [writing], remove: [] } } });
  await expect(area(page, 'item-request').getByTestId('response-review')).toBeVisible();
  await expect(note(page)).toHaveCount(0);
});

test('in Chinese: the note says the same', async ({ page, appUrl, fixture }) => {
  onlyWaiting(fixture, ['item-request', 'item-response']);
  await openWithDesktop(page, appUrl, { ...fixture, state: withDesktop(fixture.state, { language: 'zh-CN' }) });
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(note(page)).toHaveText('已为你打开：2 个待处理请求中的第一个。点击其中，或在列表中选中它后按 Enter，即可使用它的快捷键。');
  await shot(page, 'open-for-you-first-zh');
});

test('after a decision the next request waiting opens; a double-pressed key decides about one request, not two', async ({ page, appUrl, fixture }) => {
  onlyWaiting(fixture, ['item-request', 'item-request-2', 'item-response']);
  await openConsole(page, appUrl, fixture);
  await expect(note(page)).toHaveAttribute('data-why', 'first');
  // Into the first one's review by keys, on purpose (G Q, Enter): R rejects it.
  await page.keyboard.press('g');
  await page.keyboard.press('q');
  await expect(row(page, 'item-request')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(area(page, 'item-request')).toBeFocused();
  await page.keyboard.press('r');
  await expect.poll(() => recorded(page, 'rejectRequest')).toEqual([{ itemId: 'item-request', version: expect.any(String) }]);
  await end(page, fixture, 'item-request', fixture.state.version + 1, 'rejected');
  // The next one opens, in the same place; focus stays there (not on the page) but is not in it on purpose.
  await expect(area(page, 'item-request-2').getByTestId('request-review')).toBeVisible();
  await expect(row(page, 'item-request-2')).toHaveAttribute('aria-current', 'true');
  await expect(note(page)).toHaveText(/^Opened for you: the next request waiting\./);
  await expect(area(page, 'item-request-2')).toBeFocused();
  await shot(page, 'open-for-you-next');
  // The second press of a double-pressed R (and an A) lands here: it decides nothing.
  await page.keyboard.press('r');
  await page.keyboard.press('a');
  await settle(page);
  expect(await recorded(page, 'rejectRequest')).toHaveLength(1);
  expect(await recorded(page, 'approveRequest')).toEqual([]);
  // The editing keys work at once (E goes into its editor); Esc from there puts focus in it on purpose.
  await page.keyboard.press('e');
  await expect(page.getByTestId('message-editor-0-0')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(area(page, 'item-request-2')).toBeFocused();
  // Key repeat never decides, even in a review the person is in.
  await area(page, 'item-request-2').dispatchEvent('keydown', { key: 'a', code: 'KeyA', repeat: true, bubbles: true });
  await settle(page);
  expect(await recorded(page, 'approveRequest')).toEqual([]);
  await page.keyboard.press('a');
  await expect.poll(() => recorded(page, 'approveRequest')).toEqual([expect.objectContaining({ itemId: 'item-request-2' })]);

  // A response approved and sent with the mouse: the next one waiting opens too.
  await end(page, fixture, 'item-request-2', fixture.state.version + 2, 'rejected');
  await expect(area(page, 'item-response').getByTestId('response-review')).toBeVisible();
  await area(page, 'item-response').getByTestId('approve-response').click();
  await expect.poll(() => recorded(page, 'approveResponse')).toHaveLength(1);
  await end(page, fixture, 'item-response', fixture.state.version + 3, 'delivered');
  // Nothing waits any more: the outcome stays.
  await expect(area(page, 'item-response').getByTestId('outcome-view')).toBeVisible();
  await expect(note(page)).toHaveCount(0);
});

test('a request the person chose stays: a new one arriving opens nothing; a held review stays until dismissed, then shows how it ended', async ({ page, appUrl, fixture }) => {
  onlyWaiting(fixture, ['item-request', 'item-manual']);
  await openConsole(page, appUrl, fixture);
  await row(page, 'item-manual').click();
  await expect(note(page)).toHaveCount(0);
  await page.getByTestId('response-editor').click();
  await page.keyboard.type('Typing my own answer');
  // Another request arrives: nothing moves.
  const base = fixture.state.items.find((i) => i.id === 'item-request')!;
  const fresh: SamplingItemView = { ...base, id: 'item-new', conversationId: 'item-new', receivedAt: Date.now(), updatedAt: Date.now() };
  await emit(page, { type: 'patch', patch: { version: fixture.state.version + 1, items: { upsert: [fresh], remove: [] } } });
  await expect(row(page, 'item-new')).toBeVisible();
  // The server stops waiting: the review is held, and nothing opens in its place.
  const manual = fixture.state.items.find((i) => i.id === 'item-manual')!;
  const timedOut: SamplingItemView = { ...manual, status: 'timed_out', outcome: { at: Date.now(), ...said(ui('outcome.serverTimeout')), stopped: 'server_stopped_waiting' } };
  await emit(page, { type: 'patch', patch: { version: fixture.state.version + 2, items: { upsert: [timedOut], remove: [] } } });
  await expect(page.getByTestId('review-ended')).toBeVisible();
  await page.keyboard.type(' and more');
  await settle(page);
  await expect(page.getByTestId('response-editor')).toHaveValue('Typing my own answer and more');
  await expect(row(page, 'item-manual')).toHaveAttribute('aria-current', 'true');
  // Dismissed: the item as it ended, not another one.
  await page.getByTestId('dismiss-ended-review').click();
  await expect(area(page, 'item-manual').getByTestId('outcome-view')).toBeVisible();
  await expect(row(page, 'item-manual')).toHaveAttribute('aria-current', 'true');
  await expect(note(page)).toHaveCount(0);
});

test('nothing shown: a request that arrives opens by itself', async ({ page, appUrl, fixture }) => {
  onlyWaiting(fixture, []);
  await openConsole(page, appUrl, fixture);
  await expect(page.getByTestId('queue-detail')).toContainText('Nothing is waiting for you.');
  const base = buildWaiting(fixture);
  await emit(page, { type: 'patch', patch: { version: fixture.state.version + 1, items: { upsert: [base], remove: [] } } });
  await expect(area(page, 'item-arrived').getByTestId('request-review')).toBeVisible();
  await expect(note(page)).toHaveAttribute('data-why', 'only');
});

/** A request waiting for review (id `item-arrived`), from a finished item of the fixture. */
function buildWaiting(fixture: FakeData): SamplingItemView {
  const done = fixture.state.items.find((i) => i.id === 'item-delivered')!;
  return { ...done, id: 'item-arrived', conversationId: 'item-arrived', status: 'awaiting_request_review', sent: undefined, response: undefined, outcome: undefined, receivedAt: Date.now(), updatedAt: Date.now() };
}
