/**
 * Keyboard-first against the fake API, without the mouse: every step below is a key
 * press (page.keyboard), and the assertions check what the renderer sent (window.__fake.calls).
 * Approve one request and reject another with a reason; edit the prompt inline and full screen;
 * review a response found through the command palette; answer an elicitation; the palette and
 * cheat-sheet dialogs (focus, ARIA, Escape returns focus). Keys are scoped: the list's keys act
 * only in the queue list (G Q goes there, Enter opens the review), a review's keys only inside
 * that item's review, and keys typed with focus on the page decide nothing. Screenshots:
 * e2e/artifacts/keyboard-*.png.
 */
import type { Page } from '@playwright/test';
import { buildElicitationItems } from '../support/fixture-elicitation.js';
import { emit, expect, failNext, openConsole, recorded, shot, test } from '../support/ui.js';
import { COMMANDS } from '../../renderer/keyboard/shortcuts.js';
import { RULES_FILE_VERSION, RulesFileSchema } from '../../shared/contract/rules.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';

const row = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`);
const press = async (page: Page, ...keys: string[]) => {
  for (const k of keys) await page.keyboard.press(k);
};

test.beforeEach(async ({ page }) => {
  page.on('dialog', (d) => {
    throw new Error(`unexpected dialog: ${d.message()}`);
  });
  await page.setViewportSize({ width: 1280, height: 860 });
});

/** Into the Queue's list (G Q), then `j` until `id` is the selected row, then into its review (Enter). */
async function openReview(page: Page, id: string): Promise<void> {
  await press(page, 'g', 'q');
  for (let i = 0; i < 12 && (await row(page, id).getAttribute('aria-current')) !== 'true'; i++) await press(page, 'j');
  await expect(row(page, id)).toHaveAttribute('aria-current', 'true');
  await expect(row(page, id)).toBeFocused();
  await press(page, 'Enter');
  await expect(page.locator(`[data-review-item="${id}"]`)).toBeFocused();
}

test('approve a request and reject another with a reason, keyboard only', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await openReview(page, 'item-request');
  await expect(page.getByTestId('request-review')).toBeVisible();
  // The buttons say their shortcuts (tooltip and aria-keyshortcuts), from the same registry.
  await expect(page.getByTestId('approve-request')).toHaveAttribute('aria-keyshortcuts', 'A Control+Enter');
  await expect(page.getByTestId('approve-request')).toHaveAttribute('title', 'Approve the request (A / Ctrl+Enter)');
  await expect(page.getByTestId('reject-request')).toHaveAttribute('aria-keyshortcuts', 'R');
  await expect(page.getByTestId('reject-reason')).toHaveAttribute('aria-keyshortcuts', 'Shift+R');

  await press(page, 'a');
  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  // The decision names the version of the request shown (its contentVersion).
  expect((await recorded(page, 'approveRequest'))[0]).toMatchObject({ itemId: 'item-request', version: expect.stringMatching(/^[0-9a-f]{64}$/), model: { providerId: 'openrouter', modelId: 'openai/gpt-4o-mini' } });

  // Esc: from the review back to the list, where j moves on.
  await press(page, 'Escape');
  await expect(row(page, 'item-request')).toBeFocused();
  await press(page, 'j', 'Enter');
  await expect(row(page, 'item-request-2')).toHaveAttribute('aria-current', 'true');
  await press(page, 'Shift+R');
  await expect(page.getByTestId('reject-reason')).toBeFocused();
  // Letters typed into the field are text, not shortcuts (the reason holds "a", "r", "j", "e"…).
  await page.keyboard.type('Wrong data, reject and ask again');
  await press(page, 'Enter');
  await expect.poll(() => recorded(page, 'rejectRequest')).toEqual([{ itemId: 'item-request-2', version: expect.any(String), reason: 'Wrong data, reject and ask again' }]);
  expect(await recorded(page, 'approveRequest')).toHaveLength(1);
  await expect(row(page, 'item-request-2')).toHaveAttribute('aria-current', 'true');

  // R alone rejects at once (no reason). Esc leaves the field for its review, Esc again the review for the list; k goes back.
  await press(page, 'Escape');
  await expect(page.locator('[data-review-item="item-request-2"]')).toBeFocused();
  await press(page, 'Escape', 'k', 'Enter');
  await expect(row(page, 'item-request')).toHaveAttribute('aria-current', 'true');
  await press(page, 'r');
  await expect.poll(() => recorded(page, 'rejectRequest')).toHaveLength(2);
  expect((await recorded(page, 'rejectRequest'))[1]).toEqual({ itemId: 'item-request', version: expect.any(String) });
});

test('keys decide only inside their own review: typed on the page or in the list they approve, reject and select nothing', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await row(page, 'item-request-2').click();
  await expect(page.getByTestId('request-review')).toBeVisible();
  // Focus on the page (as when an editor went away under the person): keys that would have
  // selected the request above, approved it and rejected it do nothing.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  await page.keyboard.type('kar');
  await press(page, 'j', 'Shift+R', 'n');
  await page.waitForTimeout(300);
  expect(await recorded(page, 'approveRequest')).toEqual([]);
  expect(await recorded(page, 'rejectRequest')).toEqual([]);
  expect(await recorded(page, 'regenerate')).toEqual([]);
  await expect(row(page, 'item-request-2')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('reject-reason')).not.toBeFocused();
  // In the list, a review's keys are not the list's: a and r decide nothing there either.
  await row(page, 'item-request-2').focus();
  await press(page, 'a', 'r');
  await page.waitForTimeout(300);
  expect(await recorded(page, 'approveRequest')).toEqual([]);
  expect(await recorded(page, 'rejectRequest')).toEqual([]);
  // Back inside the review, its keys work again.
  await press(page, 'Enter', 'r');
  await expect.poll(() => recorded(page, 'rejectRequest')).toEqual([{ itemId: 'item-request-2', version: expect.any(String) }]);
});

test("the request the person's own call caused, reviewed on the Servers screen by keys alone", async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await press(page, 'g', 's'); // Servers: the running call's oldest request opens under its tools
  await expect(page.getByTestId('servers-screen')).toBeVisible();
  const inline = page.getByTestId('inline-review');
  await expect(inline).toHaveAttribute('data-item-id', 'item-manual');
  // Its keys work once focus is inside it: Tab there.
  const area = inline.locator('[data-review-item="item-manual"]');
  for (let i = 0; i < 40 && !(await area.evaluate((el) => el.contains(document.activeElement))); i++) await press(page, 'Tab');
  await press(page, 'e'); // into the hand-written response
  await expect(inline.getByTestId('response-editor')).toBeFocused();
  await page.keyboard.type('Written with the keys.');
  await press(page, 'Control+Enter');
  await expect.poll(() => recorded(page, 'approveResponse')).toEqual([
    { itemId: 'item-manual', version: expect.any(String), result: { role: 'assistant', content: { type: 'text', text: 'Written with the keys.' }, model: 'manual', stopReason: 'endTurn' } },
  ]);
});

test('after this window approves, focus stays in the review; where it merely fell no key decides until it is moved there on purpose', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await openReview(page, 'item-request');
  await press(page, 'e', 'Control+Enter');
  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  // Main answers: the response is to be written by hand. The request's editor goes away under the focus.
  const it = fixture.state.items.find((i) => i.id === 'item-request')!;
  const writing = { ...it, status: 'awaiting_response_review' as const, sent: it.original, response: { manual: true, draft: { role: 'assistant' as const, content: { type: 'text' as const, text: '' }, model: 'manual', stopReason: 'endTurn' }, generatedAt: Date.now() } };
  await emit(page, { type: 'patch', patch: { version: 43, items: { upsert: [writing], remove: [] } } });
  await expect(page.getByTestId('response-review')).toBeVisible();
  const area = page.locator('[data-review-item="item-request"]');
  await expect(area).toBeFocused(); // not the page
  await page.keyboard.type('r'); // typed on, as into the editor that was there: rejects nothing
  await page.waitForTimeout(300);
  expect(await recorded(page, 'rejectResponse')).toEqual([]);
  await press(page, 'e'); // editing keys still work
  await expect(page.getByTestId('response-editor')).toBeFocused();
  await page.keyboard.type('Written after the approval.');
  await press(page, 'Escape', 'r'); // focus put back on purpose (Esc from the field): R rejects
  await expect.poll(() => recorded(page, 'rejectResponse')).toEqual([{ itemId: 'item-request', version: expect.any(String) }]);
});

test('edit the prompt inline (E) and full screen (F), then approve the edit with Ctrl+Enter', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await openReview(page, 'item-request');
  await press(page, 'e');
  const inline = page.getByTestId('message-editor-0-0');
  await expect(inline).toBeFocused();
  await press(page, 'Control+a');
  await page.keyboard.type('Summarise INC-101');
  await expect(page.getByTestId('approve-request')).toHaveText('Approve with edits');
  // Escape leaves the field for its review (not the page), so single keys are the review's shortcuts again.
  await press(page, 'Escape');
  await expect(inline).not.toBeFocused();
  await expect(page.locator('[data-review-item="item-request"]')).toBeFocused();

  await press(page, 'f');
  const dialog = page.getByTestId('fullscreen-editor');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toHaveText('Edit: message 1 (user)');
  const big = page.getByTestId('fullscreen-text');
  await expect(big).toBeFocused();
  await expect(big).toHaveValue('Summarise INC-101');
  await press(page, 'End');
  await page.keyboard.type(' only.');
  await shot(page, 'keyboard-fullscreen-editor');
  await press(page, 'Control+Enter');
  await expect(dialog).toHaveCount(0);
  // The same draft: the inline editor shows the full-screen edit, and nothing was approved yet.
  await expect(inline).toHaveValue('Summarise INC-101 only.');
  expect(await recorded(page, 'approveRequest')).toHaveLength(0);

  // Ctrl+Enter approves from anywhere, even from inside a field.
  await press(page, 'm');
  await expect(page.getByTestId('model-select')).toBeFocused();
  await press(page, 'Control+Enter');
  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  const [sent] = await recorded(page, 'approveRequest');
  const params = sent!.params as { messages: Array<{ content: Array<{ type: string; text?: string }> }> };
  expect(params.messages[0]!.content[0]).toEqual({ type: 'text', text: 'Summarise INC-101 only.' });
});

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

test('elicitation: first field (E), type, accept with Ctrl+Enter; decline another with D', async ({ page, appUrl, fixture }) => {
  fixture.state.elicitations = buildElicitationItems(Date.now());
  await openConsole(page, appUrl, fixture);
  await press(page, 'Control+k');
  await page.keyboard.type('url');
  await expect(page.getByTestId('palette-option').first()).toContainText('Review');
  await press(page, 'Escape');

  // Select the all-kinds form through the list (j until it is the selected row), then into its review.
  await openReview(page, 'elic-form');
  await expect(page.getByTestId('elicitation-review')).toHaveAttribute('data-status', 'awaiting_input');
  // The buttons say their keys (tooltip second line, aria-keyshortcuts).
  await expect(page.getByTestId('elicitation-accept')).toHaveAttribute('aria-keyshortcuts', 'Control+Enter');
  await expect(page.getByTestId('elicitation-decline')).toHaveAttribute('title', /\n.*\(D\)$/);
  await expect(page.getByTestId('elicitation-cancel')).toHaveAttribute('aria-keyshortcuts', 'C');
  await press(page, 'd');
  await expect.poll(() => recorded(page, 'respondElicitation')).toEqual([{ itemId: 'elic-form', version: expect.any(String), action: 'decline' }]);
  await press(page, 'e');
  await expect(page.locator('[data-testid="elicitation-review"] form input').first()).toBeFocused();
  await press(page, 'Control+Enter');
  // Accept runs the form's own validation: required fields are empty, nothing is sent.
  await expect.poll(async () => (await recorded(page, 'respondElicitation')).length).toBe(1);
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
