/**
 * Rows of the same tool often ask with the same opening words ("Summarise request number 1: …",
 * "Summarise request number 2: …"), so previews cut at the row's width look identical. A row
 * whose preview shares a long start with a neighbouring row's shows the part where it differs,
 * from a word boundary shortly before it, after an ellipsis.
 */

/** Shared starts shorter than this (characters) are left alone: the row shows them whole. */
export const MIN_SHARED_START = 24;
/** Characters of context kept before the first difference. */
const CONTEXT = 16;

/** Length of the common start of `a` and `b`, in UTF-16 code units. */
function sharedStart(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * `text` as a row shows it next to `neighbours` (the previews of the rows around it): unchanged
 * when it shares fewer than {@link MIN_SHARED_START} characters with each of them (or equals one:
 * then nothing tells them apart), else `…` plus the text from the first word that starts at most
 * {@link CONTEXT} characters before the first difference (mid-word when no word starts there).
 */
export function distinctPreview(text: string, neighbours: readonly (string | undefined)[]): string {
  let shared = 0;
  for (const other of neighbours) {
    if (other === undefined || other === text) continue;
    shared = Math.max(shared, sharedStart(text, other));
  }
  if (shared < MIN_SHARED_START) return text;
  // The first word that starts within CONTEXT characters of the difference, else the window's start.
  const window = Math.max(0, shared - CONTEXT);
  const space = text.indexOf(' ', window === 0 ? 0 : window - 1);
  let start = space !== -1 && space < shared ? space + 1 : window;
  // Do not split a surrogate pair.
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start -= 1;
  return start === 0 ? text : `…${text.slice(start)}`;
}
