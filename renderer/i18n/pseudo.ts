/**
 * A pseudo-locale (`en-XA`) for finding text that is not translated: every English text with its
 * letters swapped for accented ones and wrapped in ⟦ ⟧, placeholders (`{{name}}`, `$t(…)`) and
 * markup tags (`<1>…</1>`) kept. Text on screen with plain ASCII words, in a window showing this
 * locale, did not come through i18next (or is data: server names, model ids, message text).
 * Turned on by the Playwright sweep (e2e/web/pseudo-locale.spec.ts) or from DevTools:
 * `__i18nPseudo(true)`.
 */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...'áƀçđéƒĝĥíĵķĺɱñóþǫŕšŧúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŦÚṼŴẊÝŽ'][i]!]),
);

/** The pseudo-locale tag. */
export const PSEUDO_LANGUAGE = 'en-XA';

/** One text in the pseudo-locale (placeholders and tags kept as they are). */
export function pseudoText(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const keep = keptAt(text, i);
    if (keep > i) {
      out += text.slice(i, keep);
      i = keep;
    } else {
      const c = text[i]!;
      out += ACCENTED[c] ?? c;
      i += 1;
    }
  }
  return `⟦${out}⟧`;
}

/** End of a placeholder or tag starting at `i` (or `i` when none starts there). */
function keptAt(text: string, i: number): number {
  const spans: Array<[string, string]> = [
    ['{{', '}}'],
    ['$t(', ')'],
    ['<', '>'],
  ];
  for (const [open, close] of spans) {
    if (!text.startsWith(open, i)) continue;
    const end = text.indexOf(close, i + open.length);
    if (end >= 0) return end + close.length;
  }
  return i;
}

type Tree = { [key: string]: unknown };

/** A namespace's resources in the pseudo-locale (keys unchanged, every string through {@link pseudoText}). */
export function pseudoTree(tree: Tree): Tree {
  const out: Tree = {};
  for (const [k, v] of Object.entries(tree)) out[k] = typeof v === 'string' ? pseudoText(v) : v && typeof v === 'object' ? pseudoTree(v as Tree) : v;
  return out;
}
