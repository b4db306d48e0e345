/**
 * The web host's frames as JSON text, with a shortcut for the long strings that whole items
 * carry (a request's base64 image, a long prompt without line breaks).
 *
 * `JSON.stringify` scans and copies every character of a string it writes; on the Node the web
 * host runs (22), a 2.8 MB base64 image alone costs ~16 ms of the event loop. A string that needs
 * no escaping is written as itself between quotes instead — a string concatenation V8 does without
 * copying, flattened once when the socket encodes the frame. The text is exactly what
 * `JSON.stringify` gives (tested on every kind of character).
 */

/** Strings at least this long (UTF-16 code units) take the shortcut; shorter ones cost nothing to scan. */
export const LONG_STRING_CHARS = 65_536;

/** A character JSON may escape: `"`, `\`, the C0 controls, and any surrogate (a lone one is escaped; such strings take the plain path). */
// eslint-disable-next-line no-control-regex -- the C0 controls are among the characters JSON escapes
const MAY_NEED_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Marker standing in for long string number `n` while the rest is serialised (written escaped, `"\u0000n\u0000"`). */
const marker = (n: number): string => `\u0000${n}\u0000`;
const MARKED = /"\\u0000(\d+)\\u0000"/g;

/**
 * `JSON.stringify(value)` (same text), writing long strings that need no escaping without a scan
 * by the serialiser. For a frame the host knows may be big (a whole item, a history entry): the
 * replacer it uses costs small frames more than it saves.
 * @throws TypeError as `JSON.stringify` does (cycles, BigInt)
 */
export function stringifyWithLongStrings(value: unknown): string {
  const long: string[] = [];
  const marked = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'string' || v.length < LONG_STRING_CHARS || MAY_NEED_ESCAPE.test(v)) return v;
    long.push(v);
    return marker(long.length - 1);
  });
  if (long.length === 0) return marked;
  // A short string of the value could read like a marker: then there are more of them than long
  // strings, and the plain serialiser writes the frame instead.
  let seen = 0;
  for (const _ of marked.matchAll(MARKED)) seen++;
  if (seen !== long.length) return JSON.stringify(value);
  return marked.replace(MARKED, (_m, n: string) => `"${long[Number(n)]}"`);
}
