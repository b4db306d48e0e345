/**
 * Keyboard-first decisions against the fake API, without the mouse: every step below is a key
 * press (page.keyboard), and the assertions check what the renderer sent (window.__fake.calls).
 * Approve one request and reject another with a reason; edit the prompt inline and full screen;
 * answer an elicitation. Keys are scoped: the list's keys act only in the queue list (G Q goes
 * there, Enter opens the review), a review's keys only inside that item's review, and keys typed
 * with focus on the page decide nothing. The palette, cheat-sheet and focus order are in
 * keyboard-navigation.spec.ts. Screenshots: e2e/artifacts/keyboard-*.png.
 */
import { buildElicitationItems } from '../support/fixture-elicitation.js';
import { emit, expect, openConsole, recorded, shot, test } from '../support/ui.js';
import { keyboardPageSetup, openReview, press, row } from '../support/keyboard.js';

keyboardPageSetup();

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
