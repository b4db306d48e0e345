/**
 * Finding text on screen that did not come through the translations, for the pseudo-locale sweeps
 * (e2e/web/pseudo-locale.spec.ts against the fake API, pseudo-locale-live.spec.ts against the real
 * web host): in the pseudo-locale every translated text has accented letters between ⟦ ⟧, so a
 * visible run of plain English letters is either data (what a server, a person or the machine
 * wrote) or text that escaped i18next.
 */
/** Keys whose string values are English the console produced (kept for logs), not data — except as a message's parameters. */
export const ENGLISH_KEYS = new Set(['reason', 'issues', 'detail', 'error', 'warning', 'problem', 'note', 'message']);

/** Every string in `value` a person or a server wrote: the data a screen may show as it is. */
export function dataStrings(value: unknown, key = '', parent = '', out: Set<string> = new Set()): Set<string> {
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
export const TECHNICAL = [
  'MCP', 'JSON', 'URL', 'HTTP', 'HTTPS', 'SSE', 'stdio', 'API', 'PNG', 'ms', 'KB', 'MB', 'GB', 'USD', 'CPU', 'OAuth', 'UTF', 'ID',
  'inputSchema', 'temperature', 'maxTokens', 'stopReason', 'includeContext', 'modelPreferences', 'systemPrompt',
  'endTurn', 'stopSequence', 'toolUse',
  'AM', 'PM', 'Ctrl', 'Shift', 'Alt', 'Enter', 'Esc', 'Tab', 'Cmd', 'Space',
];

/**
 * Runs in the page: the visible texts with a run of plain letters that is neither data nor a
 * technical word, as `"<where>: <text>"`. A run passes when the fixture's data holds it whole;
 * otherwise each of its words must be a technical word or an identifier the data holds
 * ("tools/call", "toolu_01", "gpt-4o") — plain English words only pass inside a whole run of data.
 * Text marked `translate="no"` is skipped, unless `strict`: then it too must be data (what the
 * renderer marks as data must be data — English main wrote there is not).
 */
export function findUntranslated(args: { data: string[]; technical: string[]; strict?: boolean }): string[] {
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
  // Marked as data (`translate="no"`, strict): any word of the data passes, not only identifiers.
  const dataWordOk = (w: string) => wordOk(w) || tokens.has(w);
  const bad = (text: string, marked = false): boolean => {
    // Runs of ASCII between non-ASCII characters (the pseudo-locale's letters and brackets, CJK).
    for (const piece of text.split(/[^\x20-\x7e]+/)) {
      const run = trim(piece.trim(), punctuation);
      if (!/[A-Za-z]{2}/.test(run) || isData(run)) continue;
      const words = run.split(/[\s+]+/).map((w) => trim(w, notWordChar)); // "Ctrl+Enter" is two keys
      if (!words.every(marked ? dataWordOk : wordOk)) return true;
    }
    return false;
  };
  const visible = (el: Element | null): boolean => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const skipped = (el: Element): boolean => !!el.closest(`${args.strict ? '' : '[translate="no"], '}script, style, textarea, code, pre, kbd, option, [contenteditable="true"]`);
  const out: string[] = [];
  const where = (el: Element) => el.closest('[data-testid]')?.getAttribute('data-testid') ?? el.tagName.toLowerCase();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skipped(el) || !visible(el)) continue;
    const text = n.textContent ?? '';
    if (bad(text, !!el.closest('[translate="no"]'))) out.push(`${where(el)}: ${text.trim().slice(0, 160)}`);
  }
  for (const el of document.querySelectorAll('[placeholder], [title], [aria-label]')) {
    if (!args.strict && el.closest('[translate="no"]')) continue;
    if (!visible(el)) continue;
    for (const attr of ['placeholder', 'title', 'aria-label']) {
      const text = el.getAttribute(attr);
      if (text && bad(text, !!el.closest('[translate="no"]'))) out.push(`${where(el)} [${attr}]: ${text.slice(0, 160)}`);
    }
  }
  return [...new Set(out)];
}
