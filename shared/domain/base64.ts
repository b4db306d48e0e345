/**
 * Strict base64 (RFC 4648, padded, no whitespace) as the sampling validation checks image and
 * audio data (S-B64-1, shared/domain/validate-sampling.ts). No imports beyond ./string-memo.ts, so the
 * offload worker can check big strings without loading the validator.
 */
import { createStringMemo, MEMO_MAX_CHARS, MEMO_MIN_CHARS } from './string-memo.js';

/** One character class and no groups: linear on multi-megabyte strings (no backtracking stack). */
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded size in bytes of base64 `data` (exact for valid base64; an estimate, never negative, for anything else). */
export function base64DecodedBytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** {@link isBase64} of big strings checked elsewhere (see ./string-memo.ts). */
const checkedBase64 = createStringMemo<boolean>(MEMO_MIN_CHARS, MEMO_MAX_CHARS);

/**
 * Whether `data` is strict (RFC 4648, padded, no whitespace) base64. Linear time; a big string
 * checked elsewhere ({@link rememberBase64}) is not read again.
 */
export function isBase64(data: string): boolean {
  return checkedBase64.get(data) ?? (data.length % 4 === 0 && BASE64_CHARS.test(data));
}

/**
 * Remembers `ok`, which must be `isBase64(text)` checked elsewhere (the offload worker checks the
 * big strings it parses), so {@link isBase64} answers without reading `text`. Strings under
 * 64 KiB are not remembered.
 */
export function rememberBase64(text: string, ok: boolean): void {
  checkedBase64.set(text, ok);
}
