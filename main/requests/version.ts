/**
 * Content versions of what a person reviews: the hex SHA-256 of a JSON value's RFC 8785 (JSON
 * Canonicalization Scheme) form — object keys sorted by UTF-16 code units, no whitespace, strings
 * and numbers as ECMAScript's `JSON.stringify` writes them. Two values with the same content have
 * the same version whatever their key order, and anyone can recompute it from History's JSON with
 * an off-the-shelf JCS implementation and `sha256sum`.
 *
 * A decision names the version the person saw (shared/contract/api.ts); main refuses one about any
 * other. Versions are made only where a person decides (nothing is hashed for auto-approved
 * requests), and a big value is hashed in slices ({@link contentVersionSliced}) so a 25 MB request
 * never holds the event loop for more than a few milliseconds at a time.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isBigPayload } from '../offload/offload.js';

/** Characters of a long string escaped and hashed at a time. */
const STRING_SLICE = 1 << 16;
/** Canonical text gathered before it is handed to the hash. */
const FLUSH_AT = 1 << 15;

/** The JSON text of `s` without its quotes, in slices that never split a surrogate pair. */
function* stringBody(s: string): Generator<string> {
  for (let at = 0; at < s.length; ) {
    let end = Math.min(at + STRING_SLICE, s.length);
    const last = s.charCodeAt(end - 1);
    if (end < s.length && last >= 0xd800 && last <= 0xdbff) end -= 1; // keep a pair together
    yield JSON.stringify(s.slice(at, end)).slice(1, -1);
    at = end;
  }
}

/**
 * The RFC 8785 text of `value`, in pieces. Like `JSON.stringify`: `undefined` members are left
 * out, `undefined` in arrays is `null`.
 * @throws TypeError for a non-finite number or a value JSON cannot hold (a function, a bigint)
 */
function* canonical(value: unknown): Generator<string> {
  if (value === null || value === undefined) return yield 'null';
  switch (typeof value) {
    case 'boolean':
      return yield value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
      return yield JSON.stringify(value);
    case 'string':
      yield '"';
      yield* stringBody(value);
      return yield '"';
    case 'object':
      break;
    default:
      throw new TypeError(`not a JSON value: ${typeof value}`);
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      yield* canonical(value[i]);
    }
    return yield ']';
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  yield '{';
  for (let i = 0; i < keys.length; i++) {
    yield `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`;
    yield* canonical(o[keys[i]!]);
  }
  yield '}';
}

/** Feeds pieces to a SHA-256 in runs of about {@link FLUSH_AT} characters. */
function hasher() {
  const hash = createHash('sha256');
  let pending = '';
  return {
    add(piece: string): void {
      pending += piece;
      if (pending.length >= FLUSH_AT) {
        hash.update(pending, 'utf8');
        pending = '';
      }
    },
    digest(): string {
      hash.update(pending, 'utf8');
      return hash.digest('hex');
    },
  };
}

/**
 * The version of `value` (hex SHA-256 of its RFC 8785 form), computed now. For values under
 * 1 MiB of text (main/offload `isBigPayload`); a big one goes through {@link contentVersionSliced}.
 * @throws TypeError when `value` is not JSON (see {@link canonical})
 */
export function contentVersion(value: unknown): string {
  const h = hasher();
  for (const piece of canonical(value)) h.add(piece);
  return h.digest();
}

/**
 * The same version as {@link contentVersion}, computed in slices of about `sliceMs` ms of this
 * thread's time, each in a turn of the event loop of its own (other servers' requests, the
 * windows' patches go on meanwhile); 24 MB take some 60 ms in all.
 * @throws TypeError (as a rejected promise) when `value` is not JSON
 */
export async function contentVersionSliced(value: unknown, sliceMs = 4): Promise<string> {
  await nextTurn(); // not in the task that asked (a request being queued has work of its own)
  const h = hasher();
  let since = performance.now();
  for (const piece of canonical(value)) {
    h.add(piece);
    if (performance.now() - since >= sliceMs) {
      await nextTurn();
      since = performance.now();
    }
  }
  return h.digest();
}

/**
 * The version of `value`: at once (`ready`) when it is small, else a promise of it computed in
 * slices. Lets callers keep the common case synchronous.
 */
export function versionOf(value: unknown): { ready: string } | { pending: Promise<string> } {
  return isBigPayload(value) ? { pending: contentVersionSliced(value) } : { ready: contentVersion(value) };
}
