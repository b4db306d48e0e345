/**
 * What a function answered for a big string, remembered by the string, so a result measured
 * elsewhere counts here. The console's offload worker (main/offload) measures the big strings it
 * parses — their JSON length, whether they are base64 — and the main thread remembers the answers,
 * so validating a 24 MB request there does not scan the 24 MB again in one go. A remembered answer
 * is the function's own answer for that content (the worker runs the same function), so results
 * are the same with or without it.
 *
 * Keyed by content, as a `Map` of strings is. V8 hashes a string this long by its length alone, so
 * looking up the very string that was remembered does not read its characters (~0.01 ms for 24 MB);
 * only another string of the same length is compared. Holds the strings (they cannot be weak
 * keys): entries are dropped, oldest first, past a total length, and strings shorter than a
 * minimum are never remembered.
 */

/** A bounded memo of answers by string. */
export interface StringMemo<T> {
  /** The answer remembered for `text`, if any (always undefined for a short string). */
  get(text: string): T | undefined;
  /** Remembers `answer` for `text` (nothing for a string shorter than the minimum). */
  set(text: string, answer: T): void;
}

/**
 * Creates a memo.
 * @param minChars strings shorter than this (UTF-16 code units) are not remembered
 * @param maxChars the most characters of strings held; older entries are dropped past it
 */
export function createStringMemo<T>(minChars: number, maxChars: number): StringMemo<T> {
  const answers = new Map<string, T>();
  let chars = 0;
  return {
    get(text) {
      return text.length >= minChars ? answers.get(text) : undefined;
    },
    set(text, answer) {
      if (text.length < minChars || text.length > maxChars) return;
      if (answers.delete(text)) chars -= text.length;
      answers.set(text, answer);
      chars += text.length;
      for (const old of answers.keys()) {
        if (chars <= maxChars) break;
        answers.delete(old);
        chars -= old.length;
      }
    },
  };
}

/** Strings at least this long (UTF-16 code units) are worth remembering answers for: 64 KiB. */
export const MEMO_MIN_CHARS = 64 * 1024;

/** Characters of strings a memo holds at most: 64 Mi (two requests at the 25 MB cap). */
export const MEMO_MAX_CHARS = 64 * 1024 * 1024;
