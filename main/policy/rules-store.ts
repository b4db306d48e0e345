/**
 * The rules file, `rules.json` in the user-data folder (format: shared/contract/rules.ts
 * {@link RulesFileSchema}). A missing file means "no rules" (every request asks, default limits),
 * at start and when the file is deleted while the console runs.
 *
 * A bad file — JSON syntax or a known field of the wrong type — is reported with its line and
 * left untouched; the rules already in force stay in force, and every write (save, pause, import)
 * is refused until the file is fixed (main/user-file.ts). Fields the console does not know are
 * kept and ignored, except inside a rule's `when` and `action` (and a server's `defaultAction`),
 * where a misspelt field would change what a rule approves: there they are errors. Writes are
 * atomic, keep the file's key order, unknown fields and indentation, and leave `rules.json.bak`.
 * The folder is watched, so a hand edit is picked up within a moment; a hand edit that changes a
 * rule without raising its `version` gets the version bumped and is written back, so history's
 * "rule X (vN)" always names a rule as it was.
 *
 * Each change of the rules in force (a save, a hand edit picked up) raises the store's revision, a
 * number kept in memory: a save that names the revision its edit started from is refused when the
 * rules changed since (the file is read again first, so a hand edit the watcher has not reported
 * yet counts).
 */
import { existsSync, mkdirSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { ApiError } from '../../shared/contract/api.js';
import { join } from 'node:path';
import { bumpVersions, emptyRulesFile, RulesFileSchema, type RulesFile } from '../../shared/contract/rules.js';
import type { Logger } from '../ports.js';
import { describeIgnored, parseUserFile, writeUserFile, type JsonPath, type UserFileSpec } from '../user-file.js';
import { ui } from '../../shared/contract/ui-text.js';

/** File name of the rules file inside the user-data folder. */
export const RULES_FILE = 'rules.json';

/** The rules in force and the file behind them. */
export interface RulesStore {
  readonly path: string;
  /** The rules in force (the last good file, or none while the file is missing). */
  current(): RulesFile;
  /** How many times the rules in force changed since the store opened, from 1. */
  revision(): number;
  /** Problems with the file on disk; empty when it is good. */
  problems(): string[];
  /** Notes about a good file (fields the console does not know, kept and ignored); empty when none. */
  notes(): string[];
  /**
   * Versions `next` against the last rules in force (kept for this even after the file was
   * deleted), writes it (atomically, mode 0600, the previous file kept as rules.json.bak) and puts
   * it in force.
   * @param baseRevision the revision the edit started from; absent: saved over whatever is in force
   * @throws ApiError invalid_input when `next` does not fit the schema; invalid_state when the
   *   file on disk is broken, or (`error.rulesChanged`) when the rules changed since `baseRevision`
   *   (nothing is written)
   */
  save(next: unknown, baseRevision?: number): RulesFile;
  /**
   * Parses a file's text (an import) without saving: the rules, or the problems with lines.
   */
  parse(text: string, label?: string): { ok: true; rules: RulesFile } | { ok: false; problems: string[] };
  /** Re-reads the file (the watcher calls this; tests may too). */
  reload(): void;
  close(): void;
}

/** Where an unknown field is an error: inside conditions and actions (it would change what a rule does). */
const strictUnder = (path: JsonPath): boolean => path.some((p) => p === 'when' || p === 'action' || p === 'defaultAction');

/** How rules.json (or an imported rules file, under another label) is read. */
export function rulesFileSpec(label = RULES_FILE): UserFileSpec<typeof RulesFileSchema> {
  return { label, schema: RulesFileSchema, strictUnder };
}

/**
 * Parses the text of a rules file (fields the console does not know are ignored, see the module
 * doc).
 * @param label file name used in problem messages
 * @returns the parsed file (and notes on ignored fields), or readable problems with line and column
 */
export function parseRulesText(text: string, label = RULES_FILE): { ok: true; rules: RulesFile; notes: string[] } | { ok: false; problems: string[] } {
  const parsed = parseUserFile(text, rulesFileSpec(label));
  if (parsed.state === 'broken') return { ok: false, problems: parsed.problems };
  const note = describeIgnored(label, parsed.ignored);
  return { ok: true, rules: parsed.value, notes: note ? [note] : [] };
}

/** Options of {@link openRulesStore}. */
export interface RulesStoreOptions {
  logger: Logger;
  /** Called after the rules in force or the problems changed (not for `save`'s own write). */
  onChange: () => void;
  /** Watch the folder for hand edits (default true). */
  watch?: boolean;
  /**
   * Called when a change of the file made outside the console (a hand edit, the file deleted) put
   * other rules in force while it runs, with the rules before and after (not at open, not for
   * `save`'s own write).
   */
  onFileChange?(before: RulesFile, after: RulesFile): void;
}

/**
 * What one store keeps: the rules in force, the rules the next file's versions are counted from,
 * the problems and notes of the file on disk, the text the store last wrote or accepted (a reload
 * that finds it again changes nothing), the folder's watcher and the pending reload's timer.
 */
interface RulesState {
  readonly dir: string;
  readonly path: string;
  readonly opts: RulesStoreOptions;
  rules: RulesFile;
  /** See {@link RulesStore.revision}. */
  revision: number;
  /**
   * The last rules put in force: versions are bumped against these, also after the file was
   * deleted (no rules in force), so a file put back with a changed rule gets a new version.
   */
  versionBase: RulesFile;
  problems: string[];
  notes: string[];
  lastWritten: string | undefined;
  watcher: FSWatcher | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Opens the rules file in `dir`.
 * @param onChange called after the rules in force or the problems changed (not for `save`'s own write)
 */
export function openRulesStore(dir: string, opts: RulesStoreOptions): RulesStore {
  const st: RulesState = { dir, path: join(dir, RULES_FILE), opts, rules: emptyRulesFile(), revision: 1, versionBase: emptyRulesFile(), problems: [], notes: [], lastWritten: undefined, watcher: undefined, timer: undefined };
  load(st, true);
  if (opts.watch !== false) watchFolder(st);
  return {
    path: st.path,
    current: () => st.rules,
    revision: () => st.revision,
    problems: () => st.problems,
    notes: () => st.notes,
    save: (next, baseRevision) => save(st, next, baseRevision),
    parse: (text, label) => parseRulesText(text, label),
    reload() {
      if (load(st)) opts.onChange();
    },
    close() {
      clearTimeout(st.timer);
      st.watcher?.close();
    },
  };
}

/**
 * Writes `file` to rules.json (shaped like the file on disk) and remembers the text written.
 * @throws ApiError invalid_state while the file on disk is broken; the fs error when it cannot be written or read back
 */
function write(st: RulesState, file: RulesFile): void {
  writeUserFile(st.path, rulesFileSpec(), file);
  st.lastWritten = readFileSync(st.path, 'utf8');
}

/**
 * Reads rules.json into the state: a good file goes in force (versions bumped against the last
 * rules in force, and written back when that changed them); a broken or unreadable one sets the
 * problems and leaves the rules in force. A missing file (at start, or deleted while running) means no
 * rules: the rules in force, problems and notes are cleared (versions still count from the last
 * rules in force).
 * `initial`: the first read at open (no change to tell `onFileChange` of).
 * @returns whether the rules in force, the problems or the notes may have changed (false: the file is the text last written or accepted, or still missing)
 */
function load(st: RulesState, initial = false): boolean {
  const before = st.rules;
  const changed = readFile(st);
  if (changed && !initial && st.rules !== before) st.opts.onFileChange?.(before, st.rules);
  return changed;
}

/** {@link load}'s reading of the file into the state. */
function readFile(st: RulesState): boolean {
  if (!existsSync(st.path)) {
    const changed = st.problems.length > 0 || st.notes.length > 0 || st.lastWritten !== undefined || JSON.stringify(st.rules) !== JSON.stringify(emptyRulesFile());
    if (JSON.stringify(st.rules) !== JSON.stringify(emptyRulesFile())) st.revision++;
    st.rules = emptyRulesFile();
    st.problems = [];
    st.notes = [];
    st.lastWritten = undefined;
    return changed;
  }
  let text: string;
  try {
    text = readFileSync(st.path, 'utf8');
  } catch (err) {
    st.problems = [`${RULES_FILE}: cannot read: ${err instanceof Error ? err.message : String(err)}`];
    return true;
  }
  if (text === st.lastWritten && st.problems.length === 0) return false;
  const parsed = parseRulesText(text);
  if (!parsed.ok) {
    st.problems = [...parsed.problems, 'The rules in force before this change stay in force; the file was left as it is, and nothing the console does writes over it until it is fixed.'];
    st.opts.logger.warn('rules file refused', { problems: parsed.problems });
    return true;
  }
  st.problems = [];
  st.notes = parsed.notes;
  const versioned = bumpVersions(st.versionBase, parsed.rules);
  if (JSON.stringify(versioned) !== JSON.stringify(st.rules)) st.revision++;
  st.rules = versioned;
  st.versionBase = versioned;
  if (JSON.stringify(versioned) !== JSON.stringify(parsed.rules)) write(st, versioned);
  else st.lastWritten = text;
  return true;
}

/** Watches the folder (creating it) and reloads 100 ms after the last event about rules.json; a folder that cannot be watched is logged. */
function watchFolder(st: RulesState): void {
  const { dir, opts } = st;
  try {
    mkdirSync(dir, { recursive: true });
    st.watcher = watch(dir, (_event, name) => {
      if (name !== null && name !== RULES_FILE) return;
      clearTimeout(st.timer);
      st.timer = setTimeout(() => {
        if (load(st)) opts.onChange();
      }, 100);
    });
    st.watcher.on('error', (err) => opts.logger.warn('rules file watcher failed', { error: String(err) }));
  } catch (err) {
    opts.logger.warn('cannot watch the rules file; edits by hand apply after a restart', { error: String(err) });
  }
}

/**
 * {@link RulesStore.save}: validates; reads the file again (a hand edit not reported yet goes in
 * force and counts as a change); refuses a stale `baseRevision`; versions against the last rules in
 * force, writes, then puts it in force.
 */
function save(st: RulesState, next: unknown, baseRevision?: number): RulesFile {
  const parsed = RulesFileSchema.safeParse(next);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ApiError('invalid_input', ui('error.rulesNotSaved', { path: issue.path.join('.') || '(root)', why: issue.message }));
  }
  if (load(st)) st.opts.onChange();
  if (baseRevision !== undefined && baseRevision !== st.revision) throw rulesChangedError(st.revision);
  const versioned = bumpVersions(st.versionBase, parsed.data);
  write(st, versioned); // refused (invalid_state) while the file on disk is broken
  if (JSON.stringify(versioned) !== JSON.stringify(st.rules)) st.revision++;
  st.rules = versioned;
  st.versionBase = versioned;
  st.problems = [];
  return versioned;
}

/** The refusal of a save whose edit started from an older rule book; `revision` is the one in force now. */
export function rulesChangedError(revision: number): ApiError {
  return new ApiError('invalid_state', ui('error.rulesChanged', { revision }));
}
