/**
 * Nothing untranslated: the console in the pseudo-locale (every English text of the renderer's
 * locales, `messages` included, with accented letters between ⟦ ⟧) walked through every screen
 * and dialog; a visible text — a text node, a placeholder, a title or an aria-label — with a run of
 * plain English letters fails unless that run is data the fixture holds (server names, tool
 * names, message text, model ids, paths…) or sits inside `translate="no"` (code, JSON, keys).
 * The English that main keeps beside each message code (`reason`, `outcome.message`, …) is not
 * data: showing it is the failure this test exists for.
 */
import type { Page } from '@playwright/test';
import type { FakeData } from '../support/fake-api.js';
import { buildElicitationItems } from '../support/fixture-elicitation.js';
import { buildGatewayHistoryEntry, buildGatewayItems } from '../support/fixture-gateway.js';
import { expect, test } from '../support/ui.js';
import { walkDialogs, walkPolicy, walkQueue, walkScreens, type Check } from '../support/walk.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';

/** Keys whose string values are English the console produced (kept for logs), not data — except as a message's parameters. */
const ENGLISH_KEYS = new Set(['reason', 'issues', 'detail', 'error', 'warning', 'problem', 'note', 'message']);

/** Every string in `value` a person or a server wrote: the data a screen may show as it is. */
function dataStrings(value: unknown, key = '', parent = '', out: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    // A server's own `params.message` is data; so is every parameter of a message code; an event's kind is not.
    const english = (ENGLISH_KEYS.has(key) && parent !== 'params') || (key === 'kind' && parent === 'events');
    if (!english) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) dataStrings(v, key, parent, out);
  else if (value && typeof value === 'object') {
    const { kind, name } = value as { kind?: unknown; name?: unknown };
    if (typeof kind === 'string' && typeof name === 'string') out.add(`${kind} ${name}`); // a call as rows name it: "tools/call echo"
    for (const [k, v] of Object.entries(value)) {
      out.add(k); // field names of a form, argument names of a tool
      dataStrings(v, k, key, out);
    }
  }
  return out;
}

/** Words shown as they are in every language: protocol and field names, units, keys, clock. */
const TECHNICAL = [
  'MCP', 'JSON', 'URL', 'HTTP', 'HTTPS', 'SSE', 'stdio', 'API', 'PNG', 'ms', 'KB', 'MB', 'GB', 'USD', 'CPU', 'OAuth', 'UTF', 'ID',
  'inputSchema', 'temperature', 'maxTokens', 'stopReason', 'includeContext', 'modelPreferences', 'systemPrompt',
  'AM', 'PM', 'Ctrl', 'Shift', 'Alt', 'Enter', 'Esc', 'Tab', 'Cmd', 'Space',
];

/**
 * Runs in the page: the visible texts with a run of plain letters that is neither data nor a
 * technical word, as `"<where>: <text>"`. A run passes when the fixture's data holds it whole;
 * otherwise each of its words must be a technical word or an identifier the data holds
 * ("tools/call", "toolu_01", "gpt-4o") — plain English words only pass inside a whole run of data.
 */
function findUntranslated(args: { data: string[]; technical: string[] }): string[] {
  const technical = new Set(args.technical);
  /** `w` without the characters at either end that `strip` says to drop (a loop: linear on any input). */
  const trim = (w: string, strip: (c: string) => boolean): string => {
    let a = 0;
    let b = w.length;
    while (a < b && strip(w[a]!)) a++;
    while (b > a && strip(w[b - 1]!)) b--;
    return w.slice(a, b);
  };
  const notWordChar = (c: string) => !/[\w/.-]/.test(c);
  const punctuation = (c: string) => ' "\'(),.:;—-'.includes(c);
  const tokens = new Set(args.data.flatMap((d) => d.split(/\s+/).map((w) => trim(w, notWordChar))));
  const isData = (run: string) => args.data.some((d) => d.includes(run));
  const identifier = (w: string) => /[/_.\d-]|[a-z][A-Z]/.test(w);
  // A URI (a link's target) and the literal placeholder redaction writes into a text are not words.
  const literal = (w: string) => /^[a-z][a-z0-9+.-]*:\S+$/.test(w) || /^\[?REDACTED:\w+\]?$/.test(w);
  const wordOk = (w: string) => !/[A-Za-z]{2}/.test(w) || technical.has(w) || literal(w) || (identifier(w) && tokens.has(w));
  const bad = (text: string): boolean => {
    // Runs of ASCII between non-ASCII characters (the pseudo-locale's letters and brackets, CJK).
    for (const piece of text.split(/[^\x20-\x7e]+/)) {
      const run = trim(piece.trim(), punctuation);
      if (!/[A-Za-z]{2}/.test(run) || isData(run)) continue;
      const words = run.split(/[\s+]+/).map((w) => trim(w, notWordChar)); // "Ctrl+Enter" is two keys
      if (!words.every(wordOk)) return true;
    }
    return false;
  };
  const visible = (el: Element | null): boolean => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const skipped = (el: Element): boolean => !!el.closest('[translate="no"], script, style, textarea, code, pre, kbd, option, [contenteditable="true"]');
  const out: string[] = [];
  const where = (el: Element) => el.closest('[data-testid]')?.getAttribute('data-testid') ?? el.tagName.toLowerCase();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skipped(el) || !visible(el)) continue;
    const text = n.textContent ?? '';
    if (bad(text)) out.push(`${where(el)}: ${text.trim().slice(0, 160)}`);
  }
  for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
    if (el.closest('[translate="no"]')) continue;
    if (!visible(el)) continue;
    for (const attr of ['placeholder', 'title', 'aria-label']) {
      const text = el.getAttribute(attr);
      if (text && bad(text)) out.push(`${where(el)} [${attr}]: ${text.slice(0, 160)}`);
    }
  }
  return [...new Set(out)];
}


async function openPseudo(page: Page, url: string, fixture: FakeData): Promise<Check> {
  fixture.state.elicitations = buildElicitationItems(Date.now());
  // A request with sensitive data, so the review shows the detectors' findings.
  const base = fixture.state.items.find((i) => i.id === 'item-request')!;
  const secret = { ...base.original, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Mail jane.doe@example.com the key AKIAIOSFODNN7EXAMPLE.' } }] };
  fixture.state.items = [...fixture.state.items, { ...base, id: 'item-secret', conversationId: 'item-secret', original: secret, sent: secret }, ...buildGatewayItems(Date.now())];
  // A provider call through the gateway, in History too.
  fixture.history = [buildGatewayHistoryEntry(Date.now()), ...fixture.history];
  fixture.state = withDesktop({ ...fixture.state, policy: walkPolicy() });
  await openWithDesktop(page, url, fixture);
  await page.evaluate(() => (window as unknown as { __i18nPseudo(on: boolean): void }).__i18nPseudo(true));
  await expect(page.getByTestId('nav-queue')).toContainText('⟦');
  // Data too: the browser's locale (Settings names it) and what the walk types into the palette.
  const data = [...dataStrings(fixture), ...(await page.evaluate(() => [...navigator.languages])), 'zzzz nothing'];
  return async (p, name) => {
    const found = await p.evaluate(findUntranslated, { data, technical: TECHNICAL });
    expect.soft(found, `${name}: text on screen that did not come through the translations`).toEqual([]);
  };
}

test.describe('pseudo-locale', () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  test('the queue and every review screen', async ({ page, appUrl, fixture }) => {
    const check = await openPseudo(page, appUrl, fixture);
    await walkQueue(page, check);
    await page.locator('[data-testid="queue-item"][data-item-id="item-secret"]').click();
    await expect(page.getByTestId('redaction-panel')).toBeVisible();
    await check(page, 'a request with sensitive data');
    // The provider calls are the last rows: scrolled to, as a person would (the list is virtualised).
    await page.getByTestId('queue-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    for (const id of ['gw-server', 'gw-token', 'gw-nocall']) {
      await page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`).click();
      await expect(page.getByTestId('item-header').getByTestId('gateway-badge')).toBeVisible();
      await check(page, `a provider call (${id})`);
    }
  });

  test('servers, providers, history, rules, settings', async ({ page, appUrl, fixture }) => {
    await walkScreens(page, await openPseudo(page, appUrl, fixture), { historyEntries: 8 });
  });

  test('keyboard dialogs', async ({ page, appUrl, fixture }) => {
    await walkDialogs(page, await openPseudo(page, appUrl, fixture));
  });
});
