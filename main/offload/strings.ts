/**
 * Big strings of a worker's answer cross to the console as bytes. Structured clone builds every
 * string of an answer in the receiving thread inside the message event, and whatever the answer
 * starts (a parsed request read on: validated, previewed, queued) ran in the same turn: one block
 * of the console's event loop for the copy of the 24 MB text and all that followed. Instead the
 * worker ({@link packStrings}) puts each string of {@link SENT_AS_BYTES_MIN_CHARS} or more into a
 * buffer of its own (latin1 when every character fits in a byte, else UTF-16LE), moved to the
 * console without a copy, and the console ({@link unpackStrings}) decodes each in a turn of the
 * event loop of its own.
 *
 * What the console's validation reads of a whole string — its JSON length, whether it is base64 —
 * is measured on the worker as well and remembered with the string (shared/domain/json-length.ts,
 * shared/domain/base64.ts), so validating the request in the main thread does not scan it.
 */
import { jsonLength, rememberJsonLength } from '../../shared/domain/json-length.js';
import { isBase64, rememberBase64 } from '../../shared/domain/base64.js';

/** Strings at least this long (characters) cross as bytes: 64 KiB. Shorter ones clone in well under 1 ms. */
export const SENT_AS_BYTES_MIN_CHARS = 64 * 1024;

/** One string of an answer, as bytes, with what was measured of it on the worker. */
export interface SentString {
  /** Where it goes in the answer: the keys and indexes from the root (never empty). */
  path: Array<string | number>;
  encoding: 'latin1' | 'utf16le';
  /** Its characters in `encoding`; the buffer is this string's alone (transferred). */
  bytes: Uint8Array;
  /** `jsonLength` of the string (shared/domain/json-length.ts). */
  jsonLength: number;
  /** `isBase64` of the string (shared/domain/base64.ts). */
  base64: boolean;
}

/** Any character beyond latin1 (one code unit is enough to need UTF-16). */
const WIDE = /[^\0-\xFF]/u;

/** A container met on the walk, with how it was reached (to name its path only when needed). */
interface Step {
  value: unknown;
  parent?: Step;
  key?: string | number;
}

const pathOf = (step: Step): Array<string | number> => {
  const path: Array<string | number> = [];
  for (let s: Step | undefined = step; s?.parent; s = s.parent) path.push(s.key!);
  return path.reverse();
};

/**
 * Takes the strings of {@link SENT_AS_BYTES_MIN_CHARS} or more out of `value` (a JSON-like value:
 * objects, arrays, primitives), leaving `null` in their places; changes `value` in place. Strings
 * that are object keys, and `value` itself when it is a string, stay. Returns the value, the
 * strings as bytes and the buffers to transfer.
 */
export function packStrings(value: unknown): { value: unknown; strings: SentString[]; transfer: ArrayBuffer[] } {
  const strings: SentString[] = [];
  const stack: Step[] = [{ value }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const v = step.value;
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) continue;
    const record = v as Record<string | number, unknown>;
    const keys: Array<string | number> = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    for (const key of keys) {
      const child = record[key];
      if (typeof child === 'string' && child.length >= SENT_AS_BYTES_MIN_CHARS) {
        strings.push(toBytes(child, pathOf({ value: child, parent: step, key })));
        record[key] = null;
      } else if (child !== null && typeof child === 'object') {
        stack.push({ value: child, parent: step, key });
      }
    }
  }
  return { value, strings, transfer: strings.map((s) => s.bytes.buffer as ArrayBuffer) };
}

function toBytes(text: string, path: Array<string | number>): SentString {
  const encoding = WIDE.test(text) ? 'utf16le' : 'latin1';
  const bytes = new Uint8Array(encoding === 'latin1' ? text.length : text.length * 2);
  Buffer.from(bytes.buffer).write(text, 0, encoding);
  return { path, encoding, bytes, jsonLength: jsonLength(text), base64: isBase64(text) };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Puts `strings` back into `value` (what {@link packStrings} left), each decoded in a turn of the
 * event loop of its own, and remembers what the worker measured of each.
 * Resolves to `value`. @throws (rejects) Error when a path does not lead into `value`
 */
export async function unpackStrings(value: unknown, strings: readonly SentString[]): Promise<unknown> {
  for (const sent of strings) {
    const text = await decode(sent);
    let at = value as Record<string | number, unknown>;
    for (const key of sent.path.slice(0, -1)) at = at?.[key] as Record<string | number, unknown>;
    if (at === null || typeof at !== 'object') throw new Error(`no place for a sent string at ${sent.path.join('.')}`);
    at[sent.path[sent.path.length - 1]!] = text;
    rememberJsonLength(text, sent.jsonLength);
    rememberBase64(text, sent.base64);
  }
  return value;
}

/**
 * A string from its bytes, decoded whole in a turn of the event loop of its own, so the copy
 * (~15 ms for 24 MB on an idle 2-core machine, several times that under load) is not added to
 * whatever runs next. Decoding it in slices and joining them saves nothing: the joined slices are
 * a rope to V8, which copies it into one flat string at the first read of its characters (the
 * request's preview reads its first 2,000), and that copy costs as much as decoding it whole.
 */
async function decode({ bytes, encoding }: SentString): Promise<string> {
  await nextTurn();
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);
  await nextTurn();
  return text;
}
