/**
 * The JSON files a person may edit by hand (rules.json, providers.json, roots.json,
 * history-settings.json, desktop-settings.json; mcp-servers.json has its own editor in
 * servers/config-file.ts on the same writer). One policy for all of them:
 *
 * - Reading tolerates fields the console does not know (a newer version's, the person's notes):
 *   they are reported as ignored, not a reason to refuse the file — except under paths a store
 *   marks strict (e.g. a rule's conditions, where a misspelt condition would widen what the rule
 *   approves).
 * - A file that is broken (not JSON, a known field of the wrong type) is never written by any UI
 *   action: the write is refused with {@link ApiError} `invalid_state` carrying the problem. The
 *   file is read again right before every write, so a hand edit since the last load counts.
 * - Every write is atomic (temp file in the same folder, fsync, rename; mode 0600), keeps the
 *   fields the console does not know and the person's key order and indentation, and leaves the
 *   previous version next to the file as `<name>.bak`.
 */
import { closeSync, existsSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { ApiError } from '../shared/contract/api-error.js';
import { describeJsonError } from './config.js';
import { jsonSyntaxError, locateJsonPath } from './policy/json-locate.js';
import { ui } from '../shared/contract/ui-text.js';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A path into a JSON document: object keys and array indices. */
export type JsonPath = ReadonlyArray<string | number>;

/** A field the console does not know, kept in the file and ignored. */
export interface IgnoredField {
  /** Path of the object holding it. */
  path: JsonPath;
  key: string;
  /** 1-based line of the field in the file's text. */
  line: number;
}

/** A user file as read. */
export type UserFileRead<T> =
  | { state: 'missing' }
  | { state: 'ok'; value: T; raw: unknown; text: string; ignored: IgnoredField[] }
  | { state: 'broken'; text: string; problems: string[] };

/** How a store's file is parsed. */
export interface UserFileSpec<S extends z.ZodType> {
  /** The file name used in messages ("rules.json"). */
  label: string;
  schema: S;
  /** Paths under which unknown fields are errors, not ignored (default: none). */
  strictUnder?: (path: JsonPath) => boolean;
}

/** "rules.json line 3, column 5: servers.x.rules.0.action: …" for one schema issue. */
function describeIssue(label: string, text: string, issue: z.core.$ZodIssue): string {
  const at = locateJsonPath(text, issue.path);
  return `${label} line ${at.line}, column ${at.column}: ${issue.path.join('.') || '(root)'}: ${issue.message}`;
}

/** Deletes `key` from the object at `path` in `root` (a clone the caller owns). */
function deleteAt(root: unknown, path: JsonPath, key: string): void {
  let node: unknown = root;
  for (const step of path) node = isRecord(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[step] : undefined;
  if (isRecord(node)) delete node[key];
}

/**
 * Parses a user file's text: JSON, then `spec.schema`, ignoring unknown fields outside strict
 * paths (they are removed from a copy and listed in `ignored`; the text is not touched).
 * @returns `ok` with the parsed value, or `broken` with readable problems (line and column)
 */
export function parseUserFile<S extends z.ZodType>(text: string, spec: UserFileSpec<S>): Exclude<UserFileRead<z.output<S>>, { state: 'missing' }> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const at = jsonSyntaxError(text);
    return { state: 'broken', text, problems: [at ? `${spec.label} line ${at.line}, column ${at.column}: ${at.message}` : `${spec.label}: ${describeJsonError(text, err)}`] };
  }
  const work: unknown = structuredClone(raw);
  const ignored: IgnoredField[] = [];
  // Each round removes the unknown fields zod reports; nesting can reveal more (bounded).
  for (let round = 0; round < 32; round++) {
    const parsed = spec.schema.safeParse(work);
    if (parsed.success) return { state: 'ok', value: parsed.data, raw, text, ignored };
    const unknown = parsed.error.issues.filter((i) => i.code === 'unrecognized_keys' && !spec.strictUnder?.(i.path as JsonPath));
    if (unknown.length !== parsed.error.issues.length || unknown.length === 0) {
      return { state: 'broken', text, problems: parsed.error.issues.slice(0, 5).map((i) => describeIssue(spec.label, text, i)) };
    }
    for (const issue of unknown) {
      for (const key of (issue as z.core.$ZodIssueUnrecognizedKeys).keys) {
        const path = issue.path as JsonPath;
        ignored.push({ path, key, line: locateJsonPath(text, [...path, key]).line });
        deleteAt(work, path, key);
      }
    }
  }
  return { state: 'broken', text, problems: [`${spec.label}: too deeply nested`] };
}

/** Reads and parses a user file (see {@link parseUserFile}); a missing file is `missing`. */
export function readUserFile<S extends z.ZodType>(path: string, spec: UserFileSpec<S>): UserFileRead<z.output<S>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing' };
    return { state: 'broken', text: '', problems: [`${spec.label} cannot be read: ${(err as Error).message}`] };
  }
  return parseUserFile(text, spec);
}

/** One line for the ignored fields of a file ("rules.json: unknown fields kept and ignored: …"). */
export function describeIgnored(label: string, ignored: readonly IgnoredField[]): string | undefined {
  if (ignored.length === 0) return undefined;
  const list = ignored.slice(0, 5).map((f) => `"${[...f.path, f.key].join('.')}" (line ${f.line})`);
  return `${label}: fields the console does not know are kept and ignored: ${list.join(', ')}${ignored.length > 5 ? ` and ${ignored.length - 5} more` : ''}`;
}

/** The indentation the person's text uses (spaces or a tab), 2 spaces for a new file. */
export function indentOf(text: string): string | number {
  const m = /\n([ \t]+)["}\]]/.exec(text);
  if (!m) return 2;
  return m[1]!.startsWith('\t') ? '\t' : m[1]!.length;
}

/** Whether `key` of the object at `path` in the old file should be kept though `next` lacks it. */
export type KeepKey = (path: JsonPath, key: string) => boolean;

/** The index in `old` of the element `item` replaces: same `id` when both have one, else same index. */
function counterpart(old: unknown[], item: unknown, index: number): number {
  if (isRecord(item) && typeof item.id === 'string') {
    const byId = old.findIndex((o) => isRecord(o) && o.id === item.id);
    if (byId !== -1) return byId;
  }
  return index;
}

/**
 * `next` shaped like `old` (the file as it is): object keys in the file's order (new keys after),
 * and the file's keys `next` lacks kept where `keep` says so (fields the console does not know).
 * Arrays follow `next`; their objects are matched to the file's by `id`, else by index. `path` is
 * the path in the old file (`keep` is asked about the file's fields).
 */
export function shapeLike(next: unknown, old: unknown, keep: KeepKey, path: JsonPath = []): unknown {
  if (Array.isArray(next)) {
    const oldArr = Array.isArray(old) ? old : [];
    // `path` stays a path into the old file (what `keep` knows), so a rule deleted or moved before
    // another does not cost that one its unknown fields.
    return next.map((item, i) => {
      const j = counterpart(oldArr, item, i);
      return shapeLike(item, oldArr[j], keep, [...path, j]);
    });
  }
  if (!isRecord(next)) return next;
  if (!isRecord(old)) return next;
  const out: Json = {};
  for (const [key, value] of Object.entries(old)) {
    if (key in next) out[key] = shapeLike(next[key], value, keep, [...path, key]);
    else if (keep(path, key)) out[key] = value;
  }
  for (const [key, value] of Object.entries(next)) if (!(key in out)) out[key] = value;
  return out;
}

/** {@link KeepKey} for a parse's ignored fields: exactly those are kept. */
export function keepIgnored(ignored: readonly IgnoredField[]): KeepKey {
  const set = new Set(ignored.map((f) => JSON.stringify([...f.path, f.key])));
  return (path, key) => set.has(JSON.stringify([...path, key]));
}

/**
 * Writes `text` to `path` atomically: a temp file next to it (mode 0600), fsync, rename over;
 * when `previous` is given, it is first written the same way to `<path>.bak`. A reader sees the
 * old file or the new one, never a half-written one.
 */
export function writeFileAtomic(path: string, text: string, previous?: string): void {
  mkdirSync(dirname(path), { recursive: true });
  if (previous !== undefined) replaceWith(`${path}.bak`, previous);
  replaceWith(path, text);
}

/** Replaces `path` with `text` atomically (temp file, fsync, rename); an existing file keeps its permission bits, a new one is owner-only. */
function replaceWith(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const mode = existsSync(path) ? statSync(path).mode & 0o777 : 0o600;
  const fd = openSync(tmp, 'w', mode);
  try {
    if (process.platform !== 'win32') fchmodSync(fd, mode); // exactly, whatever the umask
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** The refusal for a write over a broken file. */
export function brokenFileError(label: string, problems: readonly string[]): ApiError {
  return new ApiError('invalid_state', ui('error.userFileProblem', { label, problems: problems.join('; ') }));
}

/**
 * Writes `next` (validated with `spec.schema`) over the user file at `path`: refused when the file
 * on disk is broken now; otherwise shaped like the file (its key order, its unknown fields, its
 * indentation), written atomically, the previous text kept as `<path>.bak`.
 * @param keep extra keys to keep beyond the parse's ignored ones (default: none)
 * @returns the parsed value written
 * @throws ApiError invalid_state (the file is broken), invalid_input (`next` does not fit the schema)
 */
export function writeUserFile<S extends z.ZodType>(path: string, spec: UserFileSpec<S>, next: unknown, keep?: KeepKey): z.output<S> {
  const current = readUserFile(path, spec);
  if (current.state === 'broken') throw brokenFileError(spec.label, current.problems);
  const parsed = spec.schema.safeParse(next);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError('invalid_input', ui('error.userFileNotSaved', { label: spec.label, path: issue.path.join('.') || '(root)', why: issue.message }));
  }
  if (current.state === 'missing') {
    writeFileAtomic(path, `${JSON.stringify(parsed.data, null, 2)}\n`);
    return parsed.data;
  }
  const kept = keepIgnored(current.ignored);
  const shaped = shapeLike(parsed.data, current.raw, (p, k) => kept(p, k) || (keep?.(p, k) ?? false));
  writeFileAtomic(path, `${JSON.stringify(shaped, null, indentOf(current.text))}\n`, current.text);
  return parsed.data;
}
