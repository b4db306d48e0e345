/**
 * Elicitation in the Queue against a fake API: rows beside the sampling items, the generated form
 * (every field kind, defaults, validation errors per field, the exact respondElicitation payload),
 * the secret warning, URL mode (nothing opens before the click; the click opens with noopener and
 * answers accept), the -32042 item and a finished item with Dismiss. Screenshots:
 * e2e/artifacts/elicitation-*.png.
 */
import type { Locator, Page } from '@playwright/test';
import { buildElicitationItems, buildOpenedUrlError } from '../support/fixture-elicitation.js';
import { emit, expect, openConsole, recorded, shot, test } from '../support/ui.js';

const row = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`);
const field = (page: Page, name: string) => page.getByTestId(`elicitation-field-${name}`);
const opened = (page: Page) => page.evaluate(() => (window as unknown as { __opened: unknown[][] }).__opened);

test.beforeEach(async ({ page, fixture }) => {
  page.on('dialog', (d) => {
    throw new Error(`unexpected dialog: ${d.message()}`);
  });
  // Record window.open instead of opening anything (and prove nothing opens before the click).
  await page.addInitScript(() => {
    const log: unknown[][] = [];
    Object.assign(window, { __opened: log, open: (...args: unknown[]) => (log.push(args), null) });
  });
  fixture.state.elicitations = buildElicitationItems(Date.now());
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('elicitations join the queue: sorted by received time, counted on the badge', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  // 4 sampling items await review + 4 elicitations await input (the answered one does not count).
  await expect(page.getByTestId('queue-badge')).toHaveText('8');
  const form = row(page, 'elic-form');
  await expect(form).toContainText('everything');
  await expect(form).toContainText('Please provide inputs for the following fields:');
  await expect(form).toContainText('tools/call trigger-elicitation-request');
  await expect(form).toContainText('Needs your answer');
  await expect(form).toContainText('Form');
  await expect(row(page, 'elic-url')).toContainText('URL');
  await expect(row(page, 'elic-done')).toContainText('Accepted');
  const order = await page.getByTestId('queue-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')));
  const received = new Map([...fixture.state.items, ...(fixture.state.elicitations ?? [])].map((i) => [i.id, i.receivedAt]));
  const times = order.map((id) => received.get(id!)!);
  expect(times).toEqual([...times].sort((a, b) => a - b));
});

/** The inputs of the every-kind form: types by kind and format, bounds, defaults. */
async function expectInputsByKind(page: Page): Promise<void> {
  await expect(page.getByLabel('Full name')).toHaveAttribute('type', 'text');
  await expect(page.getByLabel('E-mail')).toHaveAttribute('type', 'email');
  await expect(page.getByLabel('Homepage')).toHaveAttribute('type', 'url');
  await expect(page.getByLabel('Birth date')).toHaveAttribute('type', 'date');
  await expect(page.getByLabel('Meeting time')).toHaveAttribute('type', 'datetime-local');
  await expect(page.getByRole('spinbutton', { name: 'Age', exact: true })).toHaveAttribute('type', 'number');
  await expect(page.getByRole('spinbutton', { name: 'Age', exact: true })).toHaveAttribute('min', '1');
  await expect(page.getByRole('spinbutton', { name: 'Age', exact: true })).toHaveAttribute('max', '120');
  await expect(page.getByLabel('Score')).toHaveValue('2.5');
  await expect(page.getByRole('checkbox', { name: 'Agree to the terms' })).not.toBeChecked();
  await expect(field(page, 'size')).toHaveAttribute('data-kind', 'radio');
  await expect(field(page, 'size').getByRole('radio', { name: 'Medium' })).toBeChecked();
  await expect(field(page, 'hero')).toHaveAttribute('data-kind', 'select');
  await expect(page.getByLabel('Hero')).toHaveValue('');
  await expect(field(page, 'instruments').getByRole('checkbox', { name: 'Guitar' })).toBeChecked();
  await expect(field(page, 'fish').getByRole('checkbox', { name: /Salmon/ })).not.toBeChecked();
  await expect(field(page, 'name')).toContainText('*');
  await expect(field(page, 'name')).toContainText('Your full, legal name');
}

/** Accept with the required fields empty: errors per field, nothing sent. */
async function expectRequiredErrors(page: Page, review: Locator): Promise<void> {
  await review.getByTestId('elicitation-accept').click();
  await expect(review.getByTestId('elicitation-error-name')).toContainText('is required');
  await expect(review.getByTestId('elicitation-error-email')).toContainText('is required');
  await expect(review.getByTestId('elicitation-error-age')).toContainText('is required');
  await expect(review.getByTestId('elicitation-error-homepage')).toHaveCount(0);
  await expect(page.getByLabel('Full name')).toBeFocused();
  await expect(review.locator('.action-bar')).toContainText('Fix the 3 fields marked above; nothing was sent.');
  await shot(page, 'elicitation-form-errors');
}

/** Wrong values: bounds, formats, multi-select limits. */
async function expectWrongValueErrors(page: Page, review: Locator): Promise<void> {
  await page.getByLabel('Full name').fill('A');
  await page.getByLabel('E-mail').fill('not-an-address');
  await page.getByLabel('Homepage').fill('example dot com');
  await page.getByRole('spinbutton', { name: 'Age', exact: true }).fill('300');
  await field(page, 'instruments').getByRole('checkbox', { name: 'Piano' }).check();
  await field(page, 'instruments').getByRole('checkbox', { name: 'Drums' }).check();
  await review.getByTestId('elicitation-accept').click();
  await expect(review.getByTestId('elicitation-error-name')).toContainText('at least 2 characters');
  await expect(review.getByTestId('elicitation-error-email')).toContainText('must be an e-mail address');
  await expect(review.getByTestId('elicitation-error-homepage')).toContainText('must be a URL');
  await expect(review.getByTestId('elicitation-error-age')).toContainText('must be at most 120');
  await expect(review.getByTestId('elicitation-error-instruments')).toContainText('choose at most 2');
  expect(await recorded(page, 'respondElicitation')).toEqual([]);
}

/** Fix everything: a valid value in every field, no error left. */
async function fillValidAnswer(page: Page, review: Locator): Promise<void> {
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await expect(review.getByTestId('elicitation-error-name')).toHaveCount(0);
  await page.getByLabel('E-mail').fill('ada@example.com');
  await page.getByLabel('Homepage').fill('https://ada.example.com');
  await page.getByLabel('Birth date').fill('1815-12-10');
  await page.getByLabel('Meeting time').fill('2030-03-04T10:30');
  await page.getByRole('spinbutton', { name: 'Age', exact: true }).fill('36');
  await page.getByLabel('Score').fill('9.5');
  await page.getByRole('checkbox', { name: 'Agree to the terms' }).check();
  await field(page, 'size').getByRole('radio', { name: 'Large' }).check();
  await page.getByLabel('Hero').selectOption({ label: 'Wonder Woman' });
  await field(page, 'instruments').getByRole('checkbox', { name: 'Drums' }).uncheck();
  await field(page, 'fish').getByRole('checkbox', { name: /Salmon/ }).check();
  await expect(review.locator('.action-bar [role="alert"]')).toHaveCount(0);
}

test('form: every field kind, defaults, per-field errors, then the exact payload', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await row(page, 'elic-form').click();
  const review = page.getByTestId('elicitation-review');
  await expect(review.getByTestId('elicitation-server')).toHaveText('everything');
  await expect(review.getByTestId('item-association')).toContainText('tools/call trigger-elicitation-request');
  await expect(review.getByTestId('elicitation-message').locator('strong', { hasText: 'book' })).toBeVisible();
  const warning = review.getByTestId('elicitation-warning');
  await expect(warning).toContainText('must never ask for passwords or API keys');
  await expect(warning).toHaveClass(/tone-warn/);

  await expectInputsByKind(page);
  await expectRequiredErrors(page, review);
  await expectWrongValueErrors(page, review);
  await fillValidAnswer(page, review);
  await shot(page, 'elicitation-form');
  await review.getByTestId('elicitation-accept').click();
  await expect.poll(() => recorded(page, 'respondElicitation')).toHaveLength(1);
  const meeting = await page.evaluate(() => new Date('2030-03-04T10:30').toISOString());
  expect((await recorded(page, 'respondElicitation'))[0]).toEqual({
    itemId: 'elic-form',
    version: expect.stringMatching(/^[0-9a-f]{64}$/),
    action: 'accept',
    content: {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      homepage: 'https://ada.example.com',
      birthdate: '1815-12-10',
      meeting,
      age: 36,
      score: 9.5,
      agree: true,
      size: 'l',
      hero: 'hero-3',
      instruments: ['Guitar', 'Piano'],
      fish: ['fish-2'],
    },
  });
});

test('form: Decline and Cancel send only the action; a form asking for a secret is flagged red', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await row(page, 'elic-form').click();
  const review = page.getByTestId('elicitation-review');
  await review.getByRole('button', { name: 'Decline' }).click();
  await review.getByRole('button', { name: 'Cancel' }).click();
  await expect.poll(() => recorded(page, 'respondElicitation')).toEqual([
    { itemId: 'elic-form', version: expect.stringMatching(/^[0-9a-f]{64}$/), action: 'decline' },
    { itemId: 'elic-form', version: expect.stringMatching(/^[0-9a-f]{64}$/), action: 'cancel' },
  ]);

  await row(page, 'elic-secret').click();
  const warning = page.getByTestId('elicitation-warning');
  await expect(warning).toHaveClass(/tone-error/);
  await expect(warning).toContainText('Servers must never ask for passwords, API keys');
  await expect(page.getByTestId('item-association')).toContainText('tools/call deploy');
  await shot(page, 'elicitation-secret-warning');
});

test('URL mode: domain and full URL shown, nothing opens before the click', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await row(page, 'elic-url').click();
  const review = page.getByTestId('elicitation-review');
  await expect(review).toHaveAttribute('data-mode', 'url');
  await expect(review.getByTestId('elicitation-url-domain')).toHaveText('auth.payments.example.com');
  await expect(review.getByTestId('elicitation-url-domain')).toHaveCSS('font-weight', '700');
  const url = 'https://auth.payments.example.com/authorize?client_id=mcp-console&state=8f14e45fceea167a5a36dedd4bea2543&redirect_uri=https%3A%2F%2Fexample.com%2Fcallback';
  await expect(review.getByTestId('elicitation-url-full')).toHaveText(url);
  await expect(review.getByTestId('elicitation-message')).toHaveText('Sign in to the payment provider to authorise the transfer.');
  await shot(page, 'elicitation-url');
  expect(await opened(page)).toEqual([]);
  expect(page.context().pages()).toHaveLength(1);
  expect(await recorded(page, 'respondElicitation')).toEqual([]);

  await review.getByRole('button', { name: 'Open in browser' }).click();
  await expect.poll(() => recorded(page, 'respondElicitation')).toEqual([{ itemId: 'elic-url', version: expect.stringMatching(/^[0-9a-f]{64}$/), action: 'accept' }]);
  expect(await opened(page)).toEqual([[url, '_blank', 'noopener,noreferrer']]);
});

test('URL mode from a -32042 error: the retry note; "Don\'t open" declines without opening', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await row(page, 'elic-url-error').click();
  const review = page.getByTestId('elicitation-review');
  await expect(review.getByTestId('elicitation-url-error-note')).toContainText('The server requires you to open this page first; then call the tool again.');
  await expect(review.getByTestId('elicitation-url-domain')).toHaveText('modelcontextprotocol.io');
  await expect(review.getByTestId('elicitation-cancel')).toHaveCount(0);
  await shot(page, 'elicitation-url-error');
  await review.getByRole('button', { name: "Don't open" }).click();
  await expect.poll(() => recorded(page, 'respondElicitation')).toEqual([{ itemId: 'elic-url-error', version: expect.stringMatching(/^[0-9a-f]{64}$/), action: 'decline' }]);
  expect(await opened(page)).toEqual([]);
});

test('a finished elicitation shows the outcome and the answer sent; Dismiss', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await row(page, 'elic-done').click();
  const review = page.getByTestId('elicitation-review');
  await expect(review.getByTestId('elicitation-outcome')).toContainText('Answered by the person');
  const answer = review.getByTestId('elicitation-answer');
  await expect(answer).toContainText('accept');
  await expect(answer.getByRole('row', { name: /nick/ })).toContainText('Ada');
  await expect(answer.getByRole('row', { name: /tags/ })).toContainText('a, b');
  await expect(review.getByTestId('elicitation-accept')).toHaveCount(0);
  await shot(page, 'elicitation-finished');
  await review.getByTestId('dismiss-item').click();
  await expect.poll(() => recorded(page, 'dismissItem')).toEqual([{ itemId: 'elic-done' }]);
});

test('-32042 item once opened: "Call <tool> again" calls rerunCall with the failed call, then shows how the re-run went', async ({ page, appUrl, fixture }) => {
  const { item, call } = buildOpenedUrlError(Date.now());
  fixture.state.elicitations = [...(fixture.state.elicitations ?? []), item];
  fixture.state.calls = [...fixture.state.calls, call];
  await openConsole(page, appUrl, fixture);

  // Not offered while the page is still unopened, nor for a URL request something waits on.
  await row(page, 'elic-url-error').click();
  await expect(page.getByTestId('elicitation-review')).toHaveAttribute('data-status', 'awaiting_input');
  await expect(page.getByTestId('elicitation-rerun')).toHaveCount(0);
  await row(page, 'elic-done').click();
  await expect(page.getByTestId('elicitation-outcome')).toBeVisible();
  await expect(page.getByTestId('elicitation-rerun')).toHaveCount(0);

  await row(page, 'elic-url-opened').click();
  const section = page.getByTestId('elicitation-rerun');
  await expect(section).toContainText('call trigger-url-elicitation again with the same arguments');
  await expect(section.getByTestId('elicitation-rerun-status')).toHaveCount(0);
  await section.getByRole('button', { name: 'Call trigger-url-elicitation again' }).click();
  await expect.poll(() => recorded(page, 'rerunCall')).toEqual([{ callId: 'call-url-failed' }]);

  // Main records the re-run as a new call with rerunOf; the section follows it.
  const rerun = { ...call, id: 'fake-call-1', rerunOf: call.id, status: 'running' as const, startedAt: Date.now(), endedAt: undefined, error: undefined, samplingItemIds: [] };
  await emit(page, { type: 'patch', patch: { version: fixture.state.version + 1, calls: { upsert: [rerun] } } });
  await expect(section.getByTestId('elicitation-rerun-status')).toHaveAttribute('data-status', 'running');
  await expect(section.getByRole('button', { name: 'Call trigger-url-elicitation again' })).toBeDisabled();
  await emit(page, { type: 'patch', patch: { version: fixture.state.version + 2, calls: { upsert: [{ ...rerun, status: 'succeeded', endedAt: Date.now(), result: { content: [{ type: 'text', text: 'done' }] } }] } } });
  await expect(section.getByTestId('elicitation-rerun-status')).toContainText('it succeeded');
  await expect(section.getByRole('button', { name: 'Call trigger-url-elicitation again' })).toBeEnabled();
  await shot(page, 'elicitation-url-error-rerun');
});

test('form values are one more part of the item’s draft: kept when the person looks at another item and comes back, and saved to main', async ({ page, appUrl, fixture }) => {
  await openConsole(page, appUrl, fixture);
  await row(page, 'elic-form').click();
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await row(page, 'elic-url').click();
  await expect(page.getByTestId('elicitation-review')).toContainText('https://');
  await row(page, 'elic-form').click();
  await expect(page.getByLabel('Full name')).toHaveValue('Ada Lovelace');
  await expect
    .poll(() => recorded(page, 'saveDraft'), { timeout: 5_000 })
    .toContainEqual({ itemId: 'elic-form', version: expect.stringMatching(/^[0-9a-f]{64}$/), draft: { form: expect.objectContaining({ name: 'Ada Lovelace' }) } });
});
