/**
 * Layout sweep: every screen at 1024×700, 1280×800 and 1920×1080, light and dark, and at 1280×800
 * in Chinese — no page-wide horizontal overflow, no scroll area inside another that scrolls the
 * same way, no text cut with "…" that cannot be read whole (a `title` or `aria-label` holding it,
 * on it or around it), no text cut off with no "…" at all, no select whose chosen option does not
 * fit. Screenshots of each go to e2e/artifacts. Then, at the smallest size in both themes, the same
 * checks at every stop of the full walk (e2e/support/walk.ts): each review state, the editors, the
 * dialogs. And no control of a review ends up under its sticky action bar when focus goes to it,
 * in the Queue and in the inline review of the Servers screen.
 */
import type { Page } from '@playwright/test';
import type { FakeData } from '../support/fake-api.js';
import { expect, expectNoHorizontalOverflow, shot, test } from '../support/ui.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';
import { buildElicitationItems } from '../support/fixture-elicitation.js';
import { walkDialogs, walkPolicy, walkQueue, walkScreens, type Check } from '../support/walk.js';

async function open(page: Page, url: string, fixture: FakeData, theme: 'light' | 'dark', language: 'en' | 'zh-CN' = 'en'): Promise<void> {
  // A server whose row says more than its list is wide: tools, prompts and calls in flight.
  const everything = fixture.state.servers.find((s) => s.id === 'everything')!;
  const prompts = ['simple', 'complex', 'resource', 'completable'].map((name) => ({ name, arguments: [] }));
  fixture.state.servers = [...fixture.state.servers, { ...everything, id: 'everything-reference-server', prompts, inFlight: 12 }];
  fixture.state = withDesktop(fixture.state, { theme, language });
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
    /** Whether `el` or an element around it offers `text` whole (its title or accessible name). */
    const readable = (el: Element, text: string): boolean => {
      // A distinct preview shows a part of its text, marked with "…" where it was cut.
      const want = text.replace(/\s+/g, ' ').trim().replace(/^…|…$/g, '');
      for (let a: Element | null = el; a; a = a.parentElement) {
        for (const attr of ['title', 'aria-label']) if ((a.getAttribute(attr) ?? '').replace(/\s+/g, ' ').includes(want)) return true;
      }
      return false;
    };
    const clipped = all
      .filter((el) => !(el instanceof HTMLInputElement && el.type === 'file')) // its button, not text
      .filter((el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1)
      .filter((el) => !readable(el, el.textContent ?? ''))
      .map((el) => `${name(el)}: ${(el.textContent ?? '').slice(0, 60)}`);
    // Text cut off with no ellipsis: a line running past the edge of a box that hides what overflows
    // sideways, or scrolls it (a list's row then looks cut too; a wide table or preformatted text
    // that scrolls sideways is fine), where no box between them ends the line with "…".
    const overflowX = (el: Element, text: Element): 'shown' | 'cut' | 'scrolls' => {
      const o = getComputedStyle(el).overflowX;
      if (o === 'visible') return 'shown';
      const wide = text.closest('table, pre');
      return o !== 'hidden' && o !== 'clip' && wide && el.contains(wide) ? 'scrolls' : 'cut';
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !(n.textContent ?? '').trim() || el.closest('textarea, script, style, option') || el.getClientRects().length === 0) continue;
      if (el.closest('details:not([open]) > :not(summary)')) continue; // a closed section's content is laid out but not shown
      const range = document.createRange();
      range.selectNodeContents(n);
      const lines = [...range.getClientRects()];
      let ellipsis = false;
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).textOverflow === 'ellipsis') ellipsis = true;
        const overflow = overflowX(a, el);
        if (overflow === 'scrolls') break;
        if (overflow === 'shown' || a.clientWidth <= 1) continue;
        const box = a.getBoundingClientRect();
        const left = box.left + a.clientLeft;
        const right = left + a.clientWidth;
        if (!lines.some((r) => r.width > 0 && (r.right > right + 1 || r.left < left - 1))) continue;
        if (!ellipsis) clipped.push(`${name(el)}: cut without "…": ${(n.textContent ?? '').trim().slice(0, 60)}`);
        break;
      }
    }
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

test('layout 1280×800 in Chinese: no nested scrolling, no text cut beyond reading', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, appUrl, fixture, 'light', 'zh-CN');
  await expect(page.getByTestId('nav-queue')).toHaveText(/队列/);
  const found: string[] = [];
  for (const [screen, go] of screens) {
    await go(page);
    await expectNoHorizontalOverflow(page);
    const { nested, clipped } = await layoutProblems(page);
    found.push(...nested.map((n) => `${screen}: nested scroll ${n}`), ...clipped.map((c) => `${screen}: cut ${c}`));
    await shot(page, `1280x800-zh-CN-${screen}`);
  }
  expect(found).toEqual([]);
});

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

/**
 * The controls of the review in `root` that end up hidden under a sticky bar when focus goes to
 * them (Tab, a shortcut) from where they are at the window's lower edge, half in sight: each is put
 * there by scrolling, focused as the keyboard does, then looked for at its middle and both ends.
 */
async function hiddenWhenFocused(page: Page, root: string): Promise<string[]> {
  return page.evaluate((rootSelector) => {
    const area = document.querySelector(rootSelector)!;
    const sticky = (el: Element) => {
      for (let a: Element | null = el; a; a = a.parentElement) if (getComputedStyle(a).position === 'sticky') return a;
      return null;
    };
    const scroller = (el: Element) => {
      for (let a = el.parentElement; a; a = a.parentElement) if (/(auto|scroll)/.test(getComputedStyle(a).overflowY) && a.scrollHeight > a.clientHeight) return a;
      return document.scrollingElement!;
    };
    const controls = [...area.querySelectorAll<HTMLElement>('input, select, textarea, button, summary, a[href]')].filter((el) => el.getClientRects().length > 0 && !sticky(el));
    const hidden: string[] = [];
    for (const el of controls) {
      const box = scroller(el);
      const bottom = Math.min(box.getBoundingClientRect().bottom, window.innerHeight);
      const r = el.getBoundingClientRect();
      box.scrollTop += r.top - (bottom - r.height / 2);
      el.focus();
      const now = el.getBoundingClientRect();
      const y = now.top + now.height / 2;
      const covered = [now.left + 2, now.left + now.width / 2, now.right - 2].some((x) => {
        const hit = document.elementFromPoint(x, y);
        return !hit || !(el.contains(hit) || hit.contains(el));
      });
      if (covered) hidden.push(`${el.tagName.toLowerCase()}#${el.id || el.getAttribute('data-testid') || (el.textContent ?? '').trim().slice(0, 30)}`);
    }
    (document.activeElement as HTMLElement | null)?.blur();
    return hidden;
  }, root);
}

for (const [width, height] of [[1280, 800], [1024, 700]] as const) {
  test(`layout ${width}×${height}: focus never puts a review's control under its sticky action bar`, async ({ page, appUrl, fixture }) => {
    await page.setViewportSize({ width, height });
    // The request under review is also the oldest of the running call: the Servers screen shows it inline.
    fixture.state.items.find((i) => i.id === 'item-request')!.receivedAt = Date.now() - 3_600_000;
    await open(page, appUrl, fixture, 'light');
    await page.locator('[data-item-id="item-request"]').click();
    await expect(page.getByTestId('request-review')).toBeVisible();
    const found = (await hiddenWhenFocused(page, '[data-testid="queue-detail"] [data-review-item]')).map((c) => `queue: ${c}`);
    await page.getByTestId('nav-servers').click();
    await expect(page.getByTestId('inline-review').getByTestId('request-review')).toBeVisible();
    found.push(...(await hiddenWhenFocused(page, '[data-testid="inline-review"] [data-review-item]')).map((c) => `servers: ${c}`));
    await page.locator('#max-tokens').focus();
    await shot(page, `${width}x${height}-inline-review-focus`);
    expect(found).toEqual([]);
  });
}
