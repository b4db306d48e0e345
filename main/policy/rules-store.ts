/**
 * The rules file, `rules.json` in the user-data folder (format: shared/contract/rules.ts
 * {@link RulesFileSchema}). A missing file means "no rules" (every request asks, default limits).
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
  /** The rules in force (the last good file, or none). */
  current(): RulesFile;
  /** Problems with the file on disk; empty when it is good. */
  problems(): string[];
  /** Notes about a good file (fields the console does not know, kept and ignored); empty when none. */
  notes(): string[];
  /**
   * Versions `next` against the rules in force, writes it (atomically, mode 0600, the previous
   * file kept as rules.json.bak) and puts it in force.
   * @throws ApiError invalid_input when `next` does not fit the schema; invalid_state when the
   *   file on disk is broken (nothing is written)
   */
  save(next: unknown): RulesFile;
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

/**
 * Opens the rules file in `dir`.
 * @param onChange called after the rules in force or the problems changed (not for `save`'s own write)
 */
export function openRulesStore(dir: string, opts: { logger: Logger; onChange: () => void; watch?: boolean }): RulesStore {
  const path = join(dir, RULES_FILE);
  let rules = emptyRulesFile();
  let problems: string[] = [];
  let notes: string[] = [];
  let lastWritten: string | undefined;
  let watcher: FSWatcher | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const write = (file: RulesFile) => {
    writeUserFile(path, rulesFileSpec(), file);
    lastWritten = readFileSync(path, 'utf8');
  };

  const load = (): boolean => {
    if (!existsSync(path)) {
      const changed = problems.length > 0;
      problems = [];
      return changed;
    }
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      problems = [`${RULES_FILE}: cannot read: ${err instanceof Error ? err.message : String(err)}`];
      return true;
    }
    if (text === lastWritten && problems.length === 0) return false;
    const parsed = parseRulesText(text);
    if (!parsed.ok) {
      problems = [...parsed.problems, 'The rules in force before this change stay in force; the file was left as it is, and nothing the console does writes over it until it is fixed.'];
      opts.logger.warn('rules file refused', { problems: parsed.problems });
      return true;
    }
    problems = [];
    notes = parsed.notes;
    const versioned = bumpVersions(rules, parsed.rules);
    rules = versioned;
    if (JSON.stringify(versioned) !== JSON.stringify(parsed.rules)) write(versioned);
    else lastWritten = text;
    return true;
  };

  load();
  if (opts.watch !== false) {
    try {
      mkdirSync(dir, { recursive: true });
      watcher = watch(dir, (_event, name) => {
        if (name !== null && name !== RULES_FILE) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (load()) opts.onChange();
        }, 100);
      });
      watcher.on('error', (err) => opts.logger.warn('rules file watcher failed', { error: String(err) }));
    } catch (err) {
      opts.logger.warn('cannot watch the rules file; edits by hand apply after a restart', { error: String(err) });
    }
  }

  return {
    path,
    current: () => rules,
    problems: () => problems,
    notes: () => notes,
    save(next) {
      const parsed = RulesFileSchema.safeParse(next);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new ApiError('invalid_input', ui('error.rulesNotSaved', { path: issue.path.join('.') || '(root)', why: issue.message }));
      }
      const versioned = bumpVersions(rules, parsed.data);
      write(versioned); // refused (invalid_state) while the file on disk is broken
      rules = versioned;
      problems = [];
      return versioned;
    },
    parse: (text, label) => parseRulesText(text, label),
    reload() {
      if (load()) opts.onChange();
    },
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
