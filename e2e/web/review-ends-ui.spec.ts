/**
 * The banner of a review that ended under the person, against the fake API, in English and
 * Chinese at 1280×800, on the Queue screen and in the inline review of the Servers screen: the
 * review stays as it was (editor, focus and text), the banner says what happened and when, that
 * nothing was sent and where the text goes; decisions are off; Dismiss shows the item as it is now.
 * Screenshots: e2e/artifacts/review-ends-ui-*.png.
 */
import type { Page } from '@playwright/test';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { emit, expect, recorded, shot, test } from '../support/ui.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';
import type { FakeData } from '../support/fake-api.js';

/** The fixture's hand-written response waiting on the person (the one a running call caused). */
const manualOf = (data: FakeData) => data.state.items.find((i) => i.id === 'item-manual') as SamplingItemView;

/** `item` timed out: the server stopped waiting at `at`. */
const timedOut = (item: SamplingItemView, at: number): SamplingItemView => ({
  ...item,
  status: 'timed_out',
  contentVersion: undefined,
  updatedAt: at,
  outcome: { at, message: 'The server stopped waiting (timeout)', ui: { code: 'outcome.serverTimeout' }, stopped: 'server_stopped_waiting' },
});

/** Types into the response editor of the review shown, then ends its item as the server would. */
async function typeThenEnd(page: Page, data: FakeData, scope: string): Promise<string> {
  const editor = page.locator(`${scope} [data-testid="response-editor"]`);
  await editor.click();
  await page.keyboard.type('Half of my answer, then k a r');
  await emit(page, { type: 'patch', patch: { version: 50, items: { upsert: [timedOut(manualOf(data), Date.now())], remove: [] } } });
  await page.keyboard.type(' and the rest.');
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue('Half of my answer, then k a r and the rest.');
  return 'Half of my answer, then k a r and the rest.';
}

for (const language of ['en', 'zh-CN'] as const) {
  const words =
    language === 'en'
      ? { title: /Not delivered: the server stopped waiting at/, how: 'The server stopped waiting (timeout)', kept: 'kept in History', dismiss: 'Dismiss this review' }
      : { title: /未送达/, how: '服务器', kept: '历史记录', dismiss: '关闭此审核' };

  test(`Queue, ${language}: the review stays with a banner; decisions are off; Dismiss shows the item as it is now`, async ({ page, appUrl, fixture }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    fixture.state = withDesktop(fixture.state, { language });
    await openWithDesktop(page, appUrl, fixture);
    await page.locator('[data-testid="queue-item"][data-item-id="item-manual"]').click();
    await typeThenEnd(page, fixture, '[data-testid="queue-detail"]');
    const banner = page.getByTestId('review-ended');
    await expect(banner).toContainText(words.title);
    await expect(banner).toContainText(words.how);
    await expect(banner).toContainText(words.kept);
    await expect(page.getByTestId('approve-response')).toBeDisabled();
    await expect(page.locator('[data-testid="queue-item"][data-item-id="item-manual"]')).toHaveAttribute('data-status', 'timed_out');
    await shot(page, `review-ends-ui-queue-${language}`);
    // Ctrl+Enter in the editor of a held review sends nothing.
    await page.keyboard.press('Control+Enter');
    expect(await recorded(page, 'approveResponse')).toEqual([]);
    await banner.getByRole('button', { name: words.dismiss }).click();
    await expect(page.getByTestId('outcome-view')).toBeVisible();
    await expect(page.locator('[data-review-item="item-manual"]')).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { __i18nMissing?(): string[] }).__i18nMissing?.() ?? [])).toEqual([]);
  });

  test(`Servers, ${language}: the inline review stays with a banner after its item ended`, async ({ page, appUrl, fixture }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    fixture.state = withDesktop(fixture.state, { language });
    await openWithDesktop(page, appUrl, fixture);
    await page.getByTestId('nav-servers').click();
    const inline = page.getByTestId('inline-review');
    await expect(inline).toHaveAttribute('data-item-id', 'item-manual');
    await typeThenEnd(page, fixture, '[data-testid="inline-review"]');
    await expect(inline.getByTestId('review-ended')).toContainText(words.title);
    await expect(inline.getByTestId('review-ended')).toContainText(words.kept);
    await expect(inline).toHaveAttribute('data-item-id', 'item-manual');
    await shot(page, `review-ends-ui-servers-${language}`);
  });
}
