/**
 * Keyboard navigation against the fake API, without the mouse: the command palette (to a screen,
 * to a waiting response, regenerate and approve), the cheat-sheet (every shortcut by scope, focus,
 * ARIA, Escape returns focus, one scrollbar at most), G sequences and j/k, visible focus on every
 * Tab stop, the global commands (theme, pause auto-approval, refused over a broken rules.json),
 * and all of it in Chinese. Decisions by keys are in keyboard.spec.ts. Screenshots:
 * e2e/artifacts/keyboard-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, failNext, openConsole, recorded, shot, test } from '../support/ui.js';
import { COMMANDS } from '../../renderer/keyboard/shortcuts.js';
import { RULES_FILE_VERSION, RulesFileSchema } from '../../shared/contract/rules.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';
import { keyboardPageSetup, openReview, press, row } from '../support/keyboard.js';

keyboardPageSetup();

test('command palette: navigate to a screen and to a waiting response, then regenerate and approve it', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await press(page, 'Control+k');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  const input = page.getByRole('combobox', { name: 'Search commands, screens, waiting items and servers' });
  await expect(input).toBeFocused();
  await expect(input).toHaveAttribute('aria-expanded', 'true');
  // The active option is announced through aria-activedescendant and moves with the arrows.
  const activeId = () => input.getAttribute('aria-activedescendant');
  const first = await activeId();
  await expect(page.locator(`#${first}`)).toHaveAttribute('aria-selected', 'true');
  await press(page, 'ArrowDown');
  expect(await activeId()).not.toBe(first);
  await press(page, 'ArrowUp');
  expect(await activeId()).toBe(first);
  await page.keyboard.type('go');
  await expect(page.getByTestId('palette-option').first()).toContainText('Go to Queue');
  await expect(page.getByTestId('palette-option').filter({ hasText: 'Go to Settings' })).toContainText('G ,');
  await shot(page, 'keyboard-palette');
  await page.keyboard.type(' to hist');
  await expect(page.getByTestId('palette-option')).toHaveCount(1);
  await press(page, 'Enter');
  await expect(palette).toHaveCount(0);
  await expect(page.getByTestId('history-screen')).toBeVisible();
  await expect(page.locator('#main')).toBeFocused();

  // Waiting items are in the palette by server, tool and prompt.
  await press(page, 'Control+k');
  await page.keyboard.type('capital of France');
  await expect(page.getByTestId('palette-option')).toHaveCount(1);
  await expect(page.getByTestId('palette-option')).toContainText('Review everything · tools/call trigger-sampling-request');
  await press(page, 'Enter');
  await expect(page.getByTestId('response-review')).toBeVisible();
  await expect(row(page, 'item-response')).toHaveAttribute('aria-current', 'true');
  await press(page, 'n');
  await expect(page.locator('[data-review-item="item-response"]')).toBeFocused(); // the palette opened it with focus inside
  await expect.poll(() => recorded(page, 'regenerate')).toEqual([{ itemId: 'item-response', version: expect.any(String) }]);
  await press(page, 'a');
  await expect.poll(() => recorded(page, 'approveResponse')).toHaveLength(1);
  expect((await recorded(page, 'approveResponse'))[0]).toMatchObject({ itemId: 'item-response' });

  // Escape closes the palette and gives focus back to where it was.
  await press(page, 'Shift+R');
  await expect(page.getByTestId('reject-reason')).toBeFocused();
  await press(page, 'Control+k');
  await expect(palette).toBeVisible();
  await press(page, 'Escape');
  await expect(palette).toHaveCount(0);
  await expect(page.getByTestId('reject-reason')).toBeFocused();
});

test('cheat-sheet (?) lists every shortcut by scope; ? typed in a field is text', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await press(page, '?');
  const sheet = page.getByTestId('cheat-sheet');
  await expect(sheet).toBeVisible();
  await expect(sheet.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
  await expect(sheet.locator('tr[data-command]')).toHaveCount(COMMANDS.length);
  await expect(sheet.getByTestId('cheat-sheet-queue-request')).toContainText('Reject the request with a reason');
  await expect(sheet.getByTestId('cheat-sheet-queue-request')).toContainText('Shift+R');
  await expect(sheet.getByTestId('cheat-sheet-queue')).toContainText('in the queue list');
  await shot(page, 'keyboard-cheat-sheet');
  // Focus stays inside the dialog.
  for (let i = 0; i < 3; i++) {
    await press(page, 'Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="cheat-sheet"]'))).toBe(true);
  }
  await press(page, 'Escape');
  await expect(sheet).toHaveCount(0);

  await openReview(page, 'item-request');
  await press(page, 'Shift+R');
  await expect(page.getByTestId('reject-reason')).toBeFocused();
  await page.keyboard.type('why?');
  await expect(page.getByTestId('reject-reason')).toHaveValue('why?');
  await expect(sheet).toHaveCount(0);
});

test('g-sequences switch screens; j/k and the arrows in the list move through the queue', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  const current = (screen: string) => expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
  for (const [key, screen] of [['s', 'servers'], ['p', 'providers'], ['h', 'history'], ['r', 'rules'], [',', 'settings'], ['q', 'queue']] as const) {
    await press(page, 'g', key);
    await current(screen);
  }
  await press(page, 'Control+2');
  await current('servers');
  await press(page, 'Control+1');
  await current('queue');

  // The Queue opened the first request waiting by itself; j moves on from it.
  await expect(row(page, 'item-request')).toHaveAttribute('aria-current', 'true');
  await press(page, 'j', 'j');
  await expect(row(page, 'item-generating')).toHaveAttribute('aria-current', 'true');
  // Tab into the list lands on a row; the arrows then move selection and focus together.
  await page.locator('[data-testid="queue-item"][aria-current="true"]').focus();
  await press(page, 'ArrowDown');
  await expect(row(page, 'item-response')).toHaveAttribute('aria-current', 'true');
  await expect(row(page, 'item-response')).toBeFocused();
  await press(page, 'ArrowUp', 'ArrowUp');
  await expect(row(page, 'item-request-2')).toBeFocused();
  await expect(page.getByTestId('request-review')).toBeVisible();
});

/**
 * Tabs through `stops` controls and fails for every one whose look does not change with focus
 * (outline, box-shadow or border compared focused vs blurred).
 */
async function expectVisibleFocus(page: Page, stops: number): Promise<void> {
  const invisible: string[] = [];
  for (let i = 0; i < stops; i++) {
    await press(page, 'Tab');
    const seen = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const look = () => {
        const cs = getComputedStyle(el);
        return `${cs.outlineStyle} ${cs.outlineWidth} ${cs.outlineColor} | ${cs.boxShadow} | ${cs.borderColor}`;
      };
      const focused = look();
      el.blur();
      const blurred = look();
      el.focus(); // still focus-visible: the last interaction was a key
      return { same: focused === blurred, what: el.outerHTML.slice(0, 90) };
    });
    if (seen?.same) invisible.push(seen.what);
  }
  expect(invisible, 'controls without a visible focus indicator').toEqual([]);
}

test('focus is visible on every control reached with Tab (queue, servers, settings)', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await press(page, 'g', 'q'); // onto the row of the request the Queue opened
  await expect(row(page, 'item-request')).toBeFocused();
  await expect(page.getByTestId('request-review')).toBeVisible();
  await expectVisibleFocus(page, 45);
  await press(page, 'g', 's');
  await expectVisibleFocus(page, 25);
  await press(page, 'g', ',');
  await expectVisibleFocus(page, 20);
});

/** The focused element, for comparing: its test id, else its id, else its start tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return el.getAttribute('data-testid') ?? (el.id ? `#${el.id}` : el.outerHTML.slice(0, 90));
  });

test('a G shortcut shows the screen and focuses it within its own key event: a Tab right after moves on from there', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await press(page, 'g', 's');
  await expect(page.locator('#main')).toBeFocused();
  await press(page, 'Tab', 'Tab'); // on a control of the Servers screen, which the shortcut takes away
  expect(await focused(page)).not.toBe('#main');
  // Hold the page's animation frames: nothing the shortcut leaves for a later frame can run.
  await page.evaluate(() => {
    const held: FrameRequestCallback[] = [];
    Object.assign(window, { __frames: { held, real: window.requestAnimationFrame } });
    window.requestAnimationFrame = (callback) => held.push(callback);
  });
  await press(page, 'g', ',');
  const atShortcut = await focused(page);
  await press(page, 'Tab');
  const reached = await focused(page);
  await page.evaluate(() => {
    const frames = (window as unknown as { __frames: { held: FrameRequestCallback[]; real: typeof requestAnimationFrame } }).__frames;
    window.requestAnimationFrame = frames.real;
    for (const callback of frames.held.splice(0)) callback(performance.now());
  });
  await expect(page.getByTestId('settings-screen')).toBeVisible();
  expect(atShortcut, 'the new screen is focused before any frame').toBe('#main');
  expect(reached).not.toBe('#main');
  expect(await focused(page), 'focus stays where Tab put it').toBe(reached);
  // Where Tab put it is the first control in the screen's region.
  await page.locator('#main').focus();
  await press(page, 'Tab');
  expect(await focused(page)).toBe(reached);
});

test('global commands: T switches the theme, Shift+P pauses auto-approval; the nav says its keys', async ({ page, appUrl, fixture }) => {
  const rules = RulesFileSchema.parse({ version: RULES_FILE_VERSION, servers: {} });
  fixture.state = withDesktop({ ...fixture.state, policy: { rules, path: '/tmp/rules.json', problems: [], counters: {}, globalRateLimited: 0, pricesKnown: false } }, { theme: 'light' });
  await openWithDesktop(page, appUrl, fixture);
  await expect(page.getByTestId('nav-queue')).toHaveAttribute('title', 'Go to Queue (G Q / Ctrl+1)');
  await expect(page.getByTestId('nav-queue')).toHaveAttribute('aria-keyshortcuts', 'Control+1');
  await press(page, 't');
  await expect.poll(() => recorded(page, 'setDesktopSettings')).toEqual([{ theme: 'dark' }]);
  await press(page, 'Shift+P');
  await expect.poll(() => recorded(page, 'setAutoApprovalPaused')).toEqual([{ paused: true }]);
});

test('Shift+P refused over a broken rules.json: the refusal and its problem are shown', async ({ page, appUrl, fixture }) => {
  const rules = RulesFileSchema.parse({ version: RULES_FILE_VERSION, servers: {} });
  fixture.state = withDesktop({ ...fixture.state, policy: { rules, path: '/tmp/rules.json', problems: [], counters: {}, globalRateLimited: 0, pricesKnown: false } }, { theme: 'light' });
  await openWithDesktop(page, appUrl, fixture);
  const refusal = 'rules.json has a problem, so nothing was changed and the file was left as it is: rules.json line 3, column 13: paused: expected boolean';
  await failNext(page, 'setAutoApprovalPaused', refusal);
  await press(page, 'Shift+P');
  await expect(page.getByTestId('keyboard-error')).toContainText(refusal);
});

test('Chinese: the palette and cheat-sheet are translated, no key missing', async ({ page, appUrl, fixture }) => {
  fixture.state = withDesktop(fixture.state, { language: 'zh-CN' });
  await openWithDesktop(page, appUrl, fixture);
  await press(page, '?');
  const sheet = page.getByTestId('cheat-sheet');
  await expect(sheet.getByRole('heading', { name: '键盘快捷键' })).toBeVisible();
  await expect(sheet.getByTestId('cheat-sheet-queue-request')).toContainText('填写理由并拒绝请求');
  await shot(page, 'keyboard-cheat-sheet-zh');
  await press(page, 'Escape', 'Control+k');
  await page.keyboard.type('历史');
  await expect(page.getByTestId('palette-option')).toContainText(['转到历史记录']);
  await shot(page, 'keyboard-palette-zh');
  expect(await page.evaluate(() => (window as unknown as { __i18nMissing(): string[] }).__i18nMissing())).toEqual([]);
});

for (const [width, height] of [[1024, 700], [1280, 800], [1920, 1080]] as const) {
  test(`cheat-sheet at ${width}×${height}: one scrollbar at most, the list's (no nested scrolling)`, async ({ page, appUrl, fixture }) => {
    await page.setViewportSize({ width, height });
    await openConsole(page, appUrl, fixture);
    await press(page, '?');
    const sheet = page.getByTestId('cheat-sheet');
    await expect(sheet).toBeVisible();
    const scrolling = await sheet.evaluate((root) =>
      [root, ...root.querySelectorAll('*')]
        .filter((el) => {
          const s = getComputedStyle(el);
          const y = /(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight + 1;
          const x = /(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
          return x || y;
        })
        .map((el) => el.className),
    );
    expect(scrolling.length).toBeLessThanOrEqual(1);
    if (scrolling.length === 1) expect(scrolling[0]).toContain('kb-sheet-grid');
    await shot(page, `${width}x${height}-keyboard-cheat-sheet`);
  });
}
