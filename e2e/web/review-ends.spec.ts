/**
 * A review never vanishes under the person's hands, in Chromium against the real web host and the
 * v2 sampling fixture (stdio, push era, the manual provider). A person types continuously — with
 * the keyboard, letters that are shortcuts elsewhere included (k, a, r, g h, t, …) — through each
 * way a review can end: the server stops waiting (its timeout), the server cancels, the server
 * process dies, another window decides, the console restarts. Each time:
 * - the review stays where it is, focus in its editor, with a banner saying what happened;
 * - every character typed, before and after the end, is in the kept draft in History, exactly;
 * - a second request waiting meanwhile is untouched, desktop-settings.json is untouched, the
 *   screen is the same.
 * On the Queue screen and in the inline review of the Servers screen. Screenshots:
 * e2e/artifacts/review-ends-*.png.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startSamplingServer, type StartedFixture } from '../../test/fixtures/sampling-server.js';
import { shot } from '../support/ui.js';
import { freePort, startWebHost, type WebHostProcess } from '../support/web-host.js';

let fixture: StartedFixture;

test.beforeAll(async () => {
  fixture = await startSamplingServer({ transport: 'stdio', era: 'legacy' });
});

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
});

/** What the person types, in pieces: shortcut letters, sequences, punctuation and a new line among the words. */
const PIECES = ['Stray keys ', 'are text: k', ', a, r, j,', ' g h, g r,', ' t, n, e, ', 'f, m, d, c', ', ?, Shift', '+R. Kept? ', 'Yes.\nNext ', 'line: kkk ', 'aaa rrr. '];

/** Types `PIECES` in turn, key by key, while `until` is false; then `after` more pieces. Returns all that was typed. */
async function typeThrough(page: Page, until: () => Promise<boolean>, after = 4): Promise<string> {
  let typed = '';
  let n = 0;
  const piece = () => PIECES[n++ % PIECES.length]!;
  const type = async () => {
    const p = piece();
    await page.keyboard.type(p, { delay: 25 });
    typed += p;
  };
  await type(); // some text before the end, always
  const giveUp = Date.now() + 40_000;
  while (!(await until())) {
    if (Date.now() > giveUp) throw new Error(`no banner said the review ended; typed so far: ${JSON.stringify(typed)}`);
    await type();
  }
  for (let i = 0; i < after; i++) await type();
  return typed;
}

/** desktop-settings.json as it is now (null when there is none). */
function settingsOf(host: WebHostProcess): string | null {
  const file = path.join(host.userDataDir, 'desktop-settings.json');
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/** The Servers screen with the fixture selected and ready. */
async function serversScreen(page: Page): Promise<void> {
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
}

/** Calls a fixture tool from the Servers screen (arguments as raw JSON); waits for its row. */
async function callTool(page: Page, tool: string, args: Record<string, unknown>): Promise<Locator> {
  await serversScreen(page);
  await page.getByTestId('tool-item').filter({ hasText: new RegExp(`^${tool}$`) }).click();
  await page.getByTestId('tool-raw-toggle').check();
  await page.getByTestId('tool-raw').fill(JSON.stringify(args));
  const before = await page.getByTestId('call-result').count();
  await page.getByTestId('call-tool').click();
  await expect(page.getByTestId('call-result')).toHaveCount(before + 1);
  const row = page.getByTestId('call-result').first();
  await expect(row).toContainText(tool);
  return row;
}

/** A request that waits all along: it must come out of every test as it went in. */
const OTHER = 'I wait for an answer of my own; leave me alone.';

/** The queue row of the request that waits all along. */
const otherRow = (page: Page) => page.getByTestId('queue-item').filter({ hasText: OTHER });

/** That nothing else changed: the other request still waits, no setting was written, the screen is `screen`. */
async function expectNothingElseChanged(page: Page, host: WebHostProcess, settings: string | null, screen: string): Promise<void> {
  await expect(page.getByTestId(`nav-${screen}`)).toHaveAttribute('aria-current', 'page');
  expect(settingsOf(host)).toBe(settings);
  await page.getByTestId('nav-queue').click();
  await expect(otherRow(page)).toHaveAttribute('data-status', 'awaiting_request_review');
}

/** The kept draft of the newest History entry whose preview has `preview`: each typed text exactly as stored. */
async function keptTexts(page: Page, preview: string): Promise<string[]> {
  await page.getByTestId('nav-history').click();
  await page.getByTestId('history-item').filter({ hasText: preview }).first().click();
  const texts = page.getByTestId('history-detail').getByTestId('draft-text');
  await expect(page.getByTestId('history-detail')).toBeVisible();
  await texts.first().waitFor({ timeout: 1000 }).catch(() => undefined); // none yet: polled again
  const all = await texts.evaluateAll((els) => els.map((el) => el.textContent ?? ''));
  await page.getByTestId('nav-queue').click(); // read again from scratch next time
  return all;
}

/** That History's kept draft of that entry is `expected`, exactly (the last keystrokes are saved within a second). */
async function expectKept(page: Page, preview: string, expected: string[]): Promise<void> {
  await expect.poll(() => keptTexts(page, preview), { timeout: 10_000 }).toEqual(expected);
}

/** Opens the newest call's request in the Queue, approves it for "Write the response myself" and puts focus in the response editor. */
async function writeResponseInQueue(page: Page, call: Locator): Promise<Locator> {
  await call.getByTestId('call-sampling-link').first().click();
  await page.getByTestId('approve-request').click();
  const editor = page.getByTestId('response-editor');
  await editor.click();
  return editor;
}

test('the server stops waiting (its timeout) while a response is typed in the Queue', async ({ page }) => {
  test.setTimeout(120_000);
  const host = await startWebHost(30_000, { servers: { fixture: fixture.config } });
  try {
    await page.goto(host.url);
    await callTool(page, 'ask-text', { prompt: OTHER });
    const settings = settingsOf(host);
    const editor = await writeResponseInQueue(page, await callTool(page, 'ask-with-timeout', { timeoutMs: 7000 }));
    const ended = page.getByTestId('review-ended');
    const typed = await typeThrough(page, () => ended.isVisible());

    await expect(ended).toContainText(/Not delivered: the server stopped waiting at \d\d?:\d\d:\d\d/);
    await expect(ended).toContainText('Nothing you typed here was sent');
    await expect(editor).toBeFocused(); // the review did not vanish: the editor kept focus and every key
    await expect(editor).toHaveValue(typed);
    await expect(page.getByTestId('approve-response')).toBeDisabled();
    await shot(page, 'review-ends-timeout-queue');
    await expectNothingElseChanged(page, host, settings, 'queue');
    await expectKept(page, 'waits only 7000 ms', [typed]);
  } finally {
    await host.stop();
  }
});

test('the server cancels while the prompt is edited in the Queue', async ({ page }) => {
  test.setTimeout(120_000);
  const host = await startWebHost(30_000, { servers: { fixture: fixture.config } });
  try {
    await page.goto(host.url);
    await callTool(page, 'ask-text', { prompt: OTHER });
    const settings = settingsOf(host);
    const call = await callTool(page, 'ask-then-cancel', { afterMs: 7000 });
    await call.getByTestId('call-sampling-link').first().click();
    const review = page.locator('[data-review-item]');
    await review.focus();
    await page.keyboard.press('e'); // into the prompt's editor
    const editor = page.getByTestId('message-editor-0-0');
    await expect(editor).toBeFocused();
    await page.keyboard.press('Control+End');
    const original = await editor.inputValue();
    const ended = page.getByTestId('review-ended');
    const typed = await typeThrough(page, () => ended.isVisible());

    await expect(ended).toContainText(/Not delivered: the server stopped waiting at/);
    await expect(page.getByTestId('review-ended-how')).toContainText('The server cancelled the request');
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue(original + typed);
    await expectNothingElseChanged(page, host, settings, 'queue');
    await expectKept(page, 'cancelled by the server', [original + typed]);
  } finally {
    await host.stop();
  }
});

test('the server process dies while a response is typed in the inline review of the Servers screen', async ({ page }) => {
  test.setTimeout(120_000);
  const host = await startWebHost(30_000, { servers: { fixture: fixture.config } });
  try {
    await page.goto(host.url);
    await callTool(page, 'ask-then-exit', { afterMs: 9000 });
    await callTool(page, 'ask-text', { prompt: OTHER });
    const settings = settingsOf(host);
    const inline = page.getByTestId('inline-review');
    await expect(inline).toContainText('dies while it waits');
    await inline.getByTestId('approve-request').click();
    const editor = inline.getByTestId('response-editor');
    await editor.click();
    const ended = inline.getByTestId('review-ended');
    const typed = await typeThrough(page, () => ended.isVisible());

    await expect(ended).toContainText(/Not delivered: the server stopped waiting at/);
    await expect(inline.getByTestId('review-ended-how')).toContainText('The connection to the server closed');
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue(typed);
    await expect(page.getByTestId('servers-screen')).toBeVisible();
    await shot(page, 'review-ends-killed-servers');
    // Dismissed on purpose: focus stays in the review area, not on the page.
    await inline.getByTestId('dismiss-ended-review').click();
    await expect(ended).toHaveCount(0);
    expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
    expect(settingsOf(host)).toBe(settings);
    await page.getByTestId('nav-queue').click();
    await expect(otherRow(page)).toHaveAttribute('data-status', /awaiting_request_review|cancelled/); // its server died too
    await expectKept(page, 'dies while it waits', [typed]);
  } finally {
    await host.stop();
  }
});

test('another window approves the request while its prompt is edited in the inline review', async ({ page, context }) => {
  test.setTimeout(120_000);
  const host = await startWebHost(30_000, { servers: { fixture: fixture.config } });
  try {
    await page.goto(host.url);
    await callTool(page, 'ask-text', { prompt: 'Edit me while another window decides.' });
    await callTool(page, 'ask-text', { prompt: OTHER });
    const settings = settingsOf(host);
    const inline = page.getByTestId('inline-review');
    await expect(inline).toContainText('Edit me while another window decides.');
    await inline.locator('[data-review-item]').focus();
    await page.keyboard.press('e');
    const editor = inline.getByTestId('message-editor-0-0');
    await expect(editor).toBeFocused();
    await page.keyboard.press('Control+End');
    const original = await editor.inputValue();

    const other = await context.newPage();
    await other.setViewportSize({ width: 1280, height: 800 });
    await other.goto(host.url);
    await other.getByTestId('queue-item').filter({ hasText: 'Edit me while' }).click();
    const ended = inline.getByTestId('review-ended');
    let decided = false;
    const typed = await typeThrough(page, async () => {
      if (!decided) {
        decided = true;
        await other.getByTestId('approve-request').click(); // the other window decides, mid-sentence
      }
      return ended.isVisible();
    });
    await expect(other.getByTestId('response-review')).toBeVisible();

    await expect(ended).toContainText(/Another window decided this review at/);
    await expect(ended).toContainText('Review response');
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue(original + typed);
    await shot(page, 'review-ends-other-window-servers');
    expect(settingsOf(host)).toBe(settings);
    await expect(page.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
    await page.getByTestId('nav-queue').click();
    await expect(otherRow(page)).toHaveAttribute('data-status', 'awaiting_request_review');
    // The approval sent the request as the other window saw it; what was typed here is kept apart.
    await expectKept(page, 'Edit me while', [original + typed]);
    await page.getByTestId('nav-history').click();
    await page.getByTestId('history-item').filter({ hasText: 'Edit me while' }).first().click();
    await expect(page.getByTestId('history-detail').getByText(/typed after the review ended/)).toBeVisible();
    // The approval in the other window names the version it saw and the digest of what it sent.
    await expect(page.getByTestId('history-detail').getByTestId('event-version')).toHaveAttribute('data-full', /^[0-9a-f]{64}$/);
    await expect(page.getByTestId('history-detail').getByTestId('event-sha256')).toHaveAttribute('data-full', /^[0-9a-f]{64}$/);
    await other.close();
  } finally {
    await host.stop();
  }
});

test('another window rejects the response while it is typed in the Queue', async ({ page, context }) => {
  test.setTimeout(120_000);
  const host = await startWebHost(30_000, { servers: { fixture: fixture.config } });
  try {
    await page.goto(host.url);
    await callTool(page, 'ask-text', { prompt: OTHER });
    const settings = settingsOf(host);
    const editor = await writeResponseInQueue(page, await callTool(page, 'ask-text', { prompt: 'Rejected from elsewhere.' }));

    const other = await context.newPage();
    await other.goto(host.url);
    await other.getByTestId('queue-item').filter({ hasText: 'Rejected from elsewhere.' }).click();
    await expect(other.getByTestId('response-review')).toBeVisible();
    const ended = page.getByTestId('review-ended');
    let decided = false;
    const typed = await typeThrough(page, async () => {
      if (!decided) {
        decided = true;
        await other.getByTestId('reject-response').click();
      }
      return ended.isVisible();
    });

    await expect(ended).toContainText(/Decided elsewhere at .*: Response rejected by the person/);
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue(typed);
    await shot(page, 'review-ends-other-window-queue');
    await expectNothingElseChanged(page, host, settings, 'queue');
    await expectKept(page, 'Rejected from elsewhere.', [typed]);
    await other.close();
  } finally {
    await host.stop();
  }
});

test('the console restarts while a response is typed: the review stays, and everything typed reaches History', async ({ page }) => {
  test.setTimeout(150_000);
  const port = await freePort();
  const first = await startWebHost(30_000, { servers: { fixture: fixture.config }, keepUserData: true, port });
  let second: WebHostProcess | undefined;
  try {
    await page.goto(first.url);
    await callTool(page, 'ask-text', { prompt: OTHER });
    const settings = settingsOf(first);
    const editor = await writeResponseInQueue(page, await callTool(page, 'ask-text', { prompt: 'Typed through a restart.' }));
    const offline = page.getByTestId('review-offline');
    let restarting: Promise<WebHostProcess> | undefined;
    // The console dies mid-sentence and comes back at the same address; typing goes on meanwhile.
    const typed = await typeThrough(
      page,
      async () => {
        restarting ??= first.kill().then(() => startWebHost(30_000, { servers: { fixture: fixture.config }, userDataDir: first.userDataDir, port }));
        return offline.isVisible();
      },
      12,
    );
    await expect(offline).toContainText(/No connection to the console since/);
    await expect(editor).toBeFocused();
    await expect(editor).toHaveValue(typed);
    await expect(page.getByTestId('approve-response')).toBeDisabled();
    await shot(page, 'review-ends-offline-queue');
    second = await restarting!;
    await page.waitForTimeout(1500); // the last keystrokes' save waits in the page's storage

    // The console is back under a new token: the person opens its new address in this tab.
    await page.goto(second.url);
    await expect(page.getByTestId('nav-queue')).toHaveAttribute('aria-current', 'page');
    expect(settingsOf(second)).toBe(settings);
    await expectKept(page, 'Typed through a restart.', [typed]);
    await page.getByTestId('nav-history').click();
    await page.getByTestId('history-item').filter({ hasText: 'Typed through a restart.' }).first().click();
    await expect(page.getByTestId('history-detail').getByTestId('not-delivered')).toContainText(/the console stopped at/);
  } finally {
    await first.stop();
    await second?.stop();
    rmSync(first.userDataDir, { recursive: true, force: true });
  }
});
