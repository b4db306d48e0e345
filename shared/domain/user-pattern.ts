/**
 * Patterns people type — custom redaction patterns, rule conditions, tool-call globs, model
 * family and price patterns — run on re2js, a linear-time regular-expression engine (RE2's
 * automata in JavaScript): whatever the pattern and the text, matching takes time proportional to
 * the text. The price: RE2 syntax, which has no look-ahead and no back-references; a pattern using
 * them is refused, with {@link userPatternProblem}'s message, when it is saved.
 *
 * Pure: no Node, no DOM. Offsets are UTF-16 code-unit indices, as for JavaScript strings.
 */
import { RE2JS } from 're2js';
import { z } from 'zod';

/** How a user pattern matches. */
export interface UserPatternOptions {
  ignoreCase?: boolean;
}

const compiled = new Map<string, RE2JS>();
const CACHE_LIMIT = 500;

function flagsOf(options: UserPatternOptions): number {
  return RE2JS.LOOKBEHINDS | (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
}

/**
 * Compiles `source` on re2js (cached: rules evaluate the same patterns for every request).
 * @throws Error (re2js's syntax error) when the pattern is not RE2 syntax; see {@link userPatternProblem}
 */
export function compileUserPattern(source: string, options: UserPatternOptions = {}): RE2JS {
  const key = `${options.ignoreCase ? 'i' : '-'}${source}`;
  let re = compiled.get(key);
  if (!re) {
    re = RE2JS.compile(source, flagsOf(options));
    if (compiled.size >= CACHE_LIMIT) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, re);
  }
  return re;
}

/** What is wrong with a pattern: the two things people most often reach for, or other syntax. */
export type UserPatternProblemKind = 'back_reference' | 'look_ahead' | 'syntax';

/**
 * What is wrong with `source` as a pattern (kind, and re2js's own words in `detail`); undefined
 * when it compiles. The renderer words each kind in the person's language.
 */
export function userPatternProblemKind(source: string): { kind: UserPatternProblemKind; detail: string } | undefined {
  try {
    RE2JS.compile(source, RE2JS.LOOKBEHINDS);
    return undefined;
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err);
    if (/\\[1-9]|\\k</.test(source)) return { kind: 'back_reference', detail };
    if (source.includes('(?=') || source.includes('(?!')) return { kind: 'look_ahead', detail };
    return { kind: 'syntax', detail };
  }
}

/**
 * Why `source` cannot be used as a pattern, in words a person can act on; undefined when it can.
 * Look-ahead and back-references are named, since they are what people most often reach for.
 */
export function userPatternProblem(source: string): string | undefined {
  const problem = userPatternProblemKind(source);
  if (!problem) return undefined;
  const { kind, detail } = problem;
  if (kind === 'back_reference') return `back-references (\\1, \\k<name>) are not supported: patterns run on a linear-time engine (${detail})`;
  if (kind === 'look_ahead') return `look-ahead ((?=…), (?!…)) is not supported: patterns run on a linear-time engine (${detail})`;
  return `not a valid pattern: ${detail}`;
}

/** Whether `source` matches somewhere in `text`. @throws like {@link compileUserPattern} */
export function userPatternFound(source: string, text: string, options: UserPatternOptions = {}): boolean {
  return compileUserPattern(source, options).matcher(text).find();
}

/** Every non-overlapping match of `source` in `text`, left to right, as `[start, end)`. */
export function userPatternMatches(source: string, text: string, options: UserPatternOptions = {}): Array<{ start: number; end: number }> {
  const m = compileUserPattern(source, options).matcher(text);
  const out: Array<{ start: number; end: number }> = [];
  while (m.find()) {
    if (m.end() > m.start()) out.push({ start: m.start(), end: m.end() });
  }
  return out;
}

/** RE2 source of a glob: `*` is any run of characters, everything else literal. */
export function globSource(glob: string): string {
  return glob
    .split('*')
    .map((s) => RE2JS.quote(s))
    .join('.*');
}

/**
 * Whether `text` matches the glob `pattern` (`*` = any run of characters): the whole text when
 * `anchored`, else anywhere in it (a substring match). Linear time (re2js).
 */
export function globMatches(pattern: string, text: string, options: { anchored?: boolean; ignoreCase?: boolean } = {}): boolean {
  const source = options.anchored ? `^(?:${globSource(pattern)})$` : globSource(pattern);
  return compileUserPattern(source, { ignoreCase: options.ignoreCase }).matcher(text).find();
}

/** A pattern a person types, as a schema: 1–1000 characters that the linear-time engine accepts ({@link userPatternProblem} says why not). */
export const UserPatternSchema = z
  .string()
  .min(1)
  .max(1000)
  .superRefine((s, ctx) => {
    const problem = userPatternProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
