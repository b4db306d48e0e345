/**
 * Pure helpers for very long texts in the review (no DOM, no React; unit-tested on Node): the
 * Markdown preview of a long text, and the parts a long text is edited in (PartsEditor.tsx).
 */

/**
 * Texts longer than this (UTF-16 code units) are shown as a preview first, with "Show all":
 * `marked` + DOMPurify take about a second per megabyte, on the main thread (`npm run bench`,
 * renderer scenario). The person still reviews all of it with Show all or Edit.
 */
export const MARKDOWN_PREVIEW_CHARS = 32_768;

/** The first {@link MARKDOWN_PREVIEW_CHARS} of `text`, cut at a line end when there is one in the second half. */
export function markdownPreview(text: string): string {
  if (text.length <= MARKDOWN_PREVIEW_CHARS) return text;
  const lineEnd = text.lastIndexOf('\n', MARKDOWN_PREVIEW_CHARS);
  return text.slice(0, lineEnd > MARKDOWN_PREVIEW_CHARS / 2 ? lineEnd : MARKDOWN_PREVIEW_CHARS);
}

/** Texts longer than this are edited in parts. */
export const PARTS_FROM_CHARS = 65_536;
/** Largest part, in characters. */
export const PART_CHARS = 32_768;

/** `text` cut into parts of at most {@link PART_CHARS}, at a line end where there is one in the part's second half. */
export function splitParts(text: string): string[] {
  const parts: string[] = [];
  let at = 0;
  while (text.length - at > PART_CHARS) {
    const lineEnd = text.lastIndexOf('\n', at + PART_CHARS - 1);
    const end = lineEnd >= at + PART_CHARS / 2 ? lineEnd + 1 : at + PART_CHARS;
    parts.push(text.slice(at, end));
    at = end;
  }
  parts.push(text.slice(at));
  return parts;
}
