/**
 * `JSON.stringify(value).length` without building the string: the size check of a sampling
 * request (S-SIZE-1) on a 25 MB request allocated 25 MB and took ~0.3 s on the event loop; this
 * walks the value and counts, allocating nothing that big.
 *
 * Exact for JSON-like values (what `JSON.parse` makes): strings count their escapes (`"` and `\`
 * one extra character, `\b \f \n \r \t` one, other control characters and lone surrogates five),
 * `undefined`, functions and symbols are skipped in objects and `null` in arrays, non-finite
 * numbers are `null`. Values with `toJSON`, bigints and cycles are measured by `JSON.stringify`
 * itself (so a cycle throws its TypeError).
 *
 * The length of a big string measured elsewhere ({@link rememberJsonLength}) is not measured again.
 */
import { createStringMemo, MEMO_MAX_CHARS, MEMO_MIN_CHARS } from './string-memo.js';

/** JSON lengths of big strings measured elsewhere (see ./string-memo.ts). */
const remembered = createStringMemo<number>(MEMO_MIN_CHARS, MEMO_MAX_CHARS);

/**
 * Remembers `length`, which must be `jsonLength(text)` measured elsewhere (the offload worker
 * measures the big strings it parses), so {@link jsonLength} of a value holding `text` does not
 * scan it. Strings under 64 KiB are not remembered.
 */
export function rememberJsonLength(text: string, length: number): void {
  remembered.set(text, length);
}

/**
 * Candidates for escaping: `"`, `\`, control characters (C0 are escaped; DEL and C1 are not) and
 * lone surrogates (in `u` mode a valid pair is one code point, not matched).
 */
const SPECIAL = /["\\\p{Cc}\p{Cs}]/gu;

/** Characters `JSON.stringify` adds to a string beyond its length and the two quotes. */
function escapeExtra(s: string): number {
  let extra = 0;
  SPECIAL.lastIndex = 0;
  for (let m = SPECIAL.exec(s); m !== null; m = SPECIAL.exec(s)) {
    const c = s.charCodeAt(m.index);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x0c || c === 0x0a || c === 0x0d || c === 0x09) extra += 1;
    else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) extra += 5; // \u00XX, or a lone surrogate as \uDXXX
  }
  return extra;
}

/** Whether `JSON.stringify` would leave `v` out of an object (and write `null` in an array). */
const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** The length of `JSON.stringify(value)` (0 where it returns undefined). @throws TypeError on a cycle or a bigint */
export function jsonLength(value: unknown): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'string':
      return remembered.get(value) ?? value.length + 2 + escapeExtra(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      break;
    default:
      return skipped(value) ? 0 : (JSON.stringify(value) ?? '').length;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return (JSON.stringify(value) ?? '').length;
  return measureContainer(value as object, new Set());
}

function measureContainer(value: object, path: Set<object>): number {
  if (path.has(value)) throw new TypeError('Converting circular structure to JSON');
  path.add(value);
  try {
    if (Array.isArray(value)) {
      let n = 2 + Math.max(0, value.length - 1); // brackets and commas
      for (const v of value) n += skipped(v) ? 4 : measure(v, path);
      return n;
    }
    let n = 2;
    let members = 0;
    for (const [k, v] of Object.entries(value)) {
      if (skipped(v)) continue;
      n += k.length + 2 + escapeExtra(k) + 1 + measure(v, path);
      members++;
    }
    return n + Math.max(0, members - 1);
  } finally {
    path.delete(value);
  }
}

function measure(v: unknown, path: Set<object>): number {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function') return measureContainer(v, path);
  return jsonLength(v);
}
