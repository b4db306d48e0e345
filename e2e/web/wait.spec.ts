/**
 * Time made visible: each waiting item shows how long it has waited and how long its
 * server will still wait; items about to expire and items past their server's wait stand out.
 */
import type { SamplingItemView } from '../../shared/contract/state.js';
import { expect, openConsole, shot, test } from '../support/ui.js';

const row = (page: import('@playwright/test').Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`);

test('waiting items count down to their server timeout and are highlighted near and past it', async ({ page, appUrl, fixture }) => {
  const items = fixture.state.items as SamplingItemView[];
  const set = (id: string, ms: number, source: 'configured' | 'sdk-default') => {
    const it = items.find((i) => i.id === id)!;
    it.serverWait = { until: it.receivedAt + ms, ms, source };
  };
  set('item-request', 60_000, 'sdk-default'); // received 75 s ago: past it
  set('item-request-2', 50_000, 'configured'); // received 40 s ago: 10 s left
  set('item-response', 600_000, 'configured'); // received 120 s ago: plenty left
  // item-generating has no known wait (e.g. a 2026-07-28 request)
  await page.setViewportSize({ width: 1100, height: 700 });
  await openConsole(page, appUrl, fixture);

  await expect(row(page, 'item-request')).toHaveClass(/wait-expired/);
  // No timeout is known for it: the SDKs' 60 s default is a maybe, not a fact (Python servers wait on).
  await expect(row(page, 'item-request').getByTestId('queue-wait')).toContainText('past 1 m 00 s: may have given up');
  await expect(row(page, 'item-request').getByTestId('queue-wait')).toHaveAttribute('title', /timeout is not known: .*Python's mcp or fastmcp wait as long as it takes/);
  await expect(row(page, 'item-request-2')).toHaveClass(/wait-soon/);
  await expect(row(page, 'item-request-2').getByTestId('queue-wait')).toContainText(/(?<!\d)\d+ s left/);
  await expect(row(page, 'item-request-2').getByTestId('queue-wait')).toHaveAttribute('title', /waits 50 s for an answer \(serverTimeoutMs/);
  await expect(row(page, 'item-response')).not.toHaveClass(/wait-(soon|expired)/);
  await expect(row(page, 'item-response').getByTestId('queue-wait')).toContainText(/(?<!\d)\d+ m \d+ s left/);
  await expect(row(page, 'item-generating')).not.toHaveClass(/wait-/);
  await expect(row(page, 'item-generating').getByTestId('queue-wait')).not.toContainText('left');
  await expect(row(page, 'item-generating').getByTestId('queue-wait')).toHaveAttribute('title', /No server timer/);

  // The countdown runs: the item with 10 s left gives up while we watch, then is marked expired.
  await expect(row(page, 'item-request-2')).toHaveClass(/wait-expired/, { timeout: 15_000 });

  // The review header shows the same clock.
  await row(page, 'item-response').click();
  await expect(page.getByTestId('item-wait')).toContainText(/left/);
  await row(page, 'item-request').click();
  await expect(page.getByTestId('item-wait')).toHaveAttribute('data-wait-level', 'expired');
  await shot(page, 'queue-wait-highlight');
});
