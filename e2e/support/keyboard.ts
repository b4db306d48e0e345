/**
 * Keyboard-first specs' helpers: a queue row, key presses one after another, opening a review by
 * keys alone (G Q, then j, then Enter), and the page set-up every keyboard spec uses (no dialog may
 * open; a fixed viewport).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './ui.js';

/** The queue row of item `id`. */
export const row = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`);

/** Presses `keys` one after another. */
export const press = async (page: Page, ...keys: string[]) => {
  for (const k of keys) await page.keyboard.press(k);
};

/** Registers the set-up of every test of the file: an unexpected dialog fails it; 1280×860. */
export function keyboardPageSetup(): void {
  test.beforeEach(async ({ page }) => {
    page.on('dialog', (d) => {
      throw new Error(`unexpected dialog: ${d.message()}`);
    });
    await page.setViewportSize({ width: 1280, height: 860 });
  });
}

/** Into the Queue's list (G Q), then `j` until `id` is the selected row, then into its review (Enter). */
export async function openReview(page: Page, id: string): Promise<void> {
  await press(page, 'g', 'q');
  for (let i = 0; i < 12 && (await row(page, id).getAttribute('aria-current')) !== 'true'; i++) await press(page, 'j');
  await expect(row(page, id)).toHaveAttribute('aria-current', 'true');
  await expect(row(page, id)).toBeFocused();
  await press(page, 'Enter');
  await expect(page.locator(`[data-review-item="${id}"]`)).toBeFocused();
}
