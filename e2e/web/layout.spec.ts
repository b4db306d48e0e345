/**
 * Layout sweep: every screen at 1024×700, 1280×800 and 1920×1080, light and dark — no page-wide
 * horizontal overflow, no scroll area inside another that scrolls the same way, and no text cut with "…" that cannot be read
 * whole (a `title` on it or around it), no select whose chosen option does not fit. Screenshots of
 * each go to e2e/artifacts. Then, at the smallest size in both themes, the same checks at every
 * stop of the full walk (e2e/support/walk.ts): each review state, the editors, the dialogs.
 */
import type { Page } from '@playwright/test';
import type { FakeData } from '../support/fake-api.js';
import { expect, expectNoHorizontalOverflow, shot, test } from '../support/ui.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';
import { buildElicitationItems } from '../support/fixture-elicitation.js';
import { walkDialogs, walkPolicy, walkQueue, walkScreens, type Check } from '../support/walk.js';

async function open(page: Page, url: string, fixture: FakeData, theme: 'light' | 'dark'): Promise<void> {
  fixture.state = withDesktop(fixture.state, { theme });
  await openWithDesktop(page, url, fixture);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Scroll areas that sit inside another scroll area, and "…"-cut texts with no way to read them whole. */
async function layoutProblems(page: Page): Promise<{ nested: string[]; clipped: string[] }> {
  return page.evaluate(() => {
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}.${String(el.className).split(' ').join('.')}`;
    /** The directions an element scrolls in (it has overflow to scroll to). */
    const axes = (el: Element) => {
      const s = getComputedStyle(el);
      return {
        y: /(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1,
        x: /(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1,
      };
    };
    const all = [...document.querySelectorAll('body *')].filter((el) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).position === 'fixed');
    const scrolling = all.map((el) => ({ el, ...axes(el) })).filter((s) => s.x || s.y);
    // Nested: scrolling in a direction an enclosing scroll area scrolls in too (a wide table that
    // scrolls sideways inside a page that scrolls down is fine; a list inside a list is not).
    const nested = scrolling
      .filter((s) => scrolling.some((o) => o.el !== s.el && o.el.contains(s.el) && ((o.y && s.y) || (o.x && s.x))))
      .map((s) => name(s.el));
    const clipped = all
      .filter((el) => !(el instanceof HTMLInputElement && el.type === 'file')) // its button, not text
      .filter((el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
      .filter((el) => !el.closest('[title]') && !el.closest('[aria-label]'))
      .map((el) => `${name(el)}: ${(el.textContent ?? '').slice(0, 60)}`);
    // A select shows its chosen option on one line: cut when the text is wider than the box.
    const ctx = document.createElement('canvas').getContext('2d')!;
    for (const sel of all.filter((el): el is HTMLSelectElement => el instanceof HTMLSelectElement)) {
      const s = getComputedStyle(sel);
      ctx.font = s.font;
      const text = sel.selectedOptions[0]?.text ?? '';
      const room = sel.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 16; // the arrow
      if (ctx.measureText(text).width > room) clipped.push(`${name(sel)}: ${text.slice(0, 60)}`);
    }
    return { nested, clipped };
  });
}

const screens: Array<[string, (page: Page) => Promise<unknown>]> = [
  ['queue', (page) => page.locator('[data-item-id="item-request"]').click()],
  ['servers', (page) => page.getByTestId('nav-servers').click().then(() => page.getByTestId('tool-item').nth(2).click())],
  ['providers', (page) => page.getByTestId('nav-providers').click()],
  ['history', (page) => page.getByTestId('nav-history').click().then(() => page.getByTestId('history-item').first().click())],
  ['rules', (page) => page.getByTestId('nav-rules').click()],
  ['settings', (page) => page.getByTestId('nav-settings').click()],
];

for (const theme of ['light', 'dark'] as const) {
  for (const [width, height] of [[1024, 700], [1280, 800], [1920, 1080]] as const) {
    test(`layout ${width}×${height} ${theme}: no nested scrolling, no text cut beyond reading`, async ({ page, appUrl, fixture }) => {
      await page.setViewportSize({ width, height });
      await open(page, appUrl, fixture, theme);
      const found: string[] = [];
      for (const [screen, go] of screens) {
        await go(page);
        await expect(page.getByTestId('connecting')).toHaveCount(0);
        await expectNoHorizontalOverflow(page);
        const { nested, clipped } = await layoutProblems(page);
        found.push(...nested.map((n) => `${screen}: nested scroll ${n}`), ...clipped.map((c) => `${screen}: cut ${c}`));
        await shot(page, `${width}x${height}-${theme}-${screen}`);
      }
      expect(found).toEqual([]);
    });
  }
}

for (const theme of ['light', 'dark'] as const) {
  test(`layout 1024×700 ${theme}: every review state, editor and dialog of the walk`, async ({ page, appUrl, fixture }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1024, height: 700 });
    fixture.state.elicitations = buildElicitationItems(Date.now());
    fixture.state.policy = walkPolicy();
    await open(page, appUrl, fixture, theme);
    const found: string[] = [];
    const check: Check = async (p, name) => {
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) found.push(`${name}: the page is ${overflow} px wider than the window`);
      const { nested, clipped } = await layoutProblems(p);
      found.push(...nested.map((n) => `${name}: nested scroll ${n}`), ...clipped.map((c) => `${name}: cut ${c}`));
      if (theme === 'light') await shot(p, `1024x700-walk-${name.replace(/[^a-z0-9]+/gi, '-')}`);
    };
    await walkQueue(page, check);
    await walkScreens(page, check, { historyEntries: 4 });
    await page.getByTestId('nav-queue').click();
    await walkDialogs(page, check);
    expect(found).toEqual([]);
  });
}
