/**
 * The rules file, `rules.json` in the user-data folder (format: shared/rules.ts
 * {@link RulesFileSchema}). A missing file means "no rules" (every request asks, default limits).
 *
 * A bad file — JSON syntax or schema — is reported with its line and left untouched; the rules
 * already in force stay in force. The folder is watched, so a hand edit is picked up within a
 * moment; a hand edit that changes a rule without raising its `version` gets the version bumped and
 * is written back, so history's "rule X (vN)" always names a rule as it was.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../shared/api.js';
import { bumpVersions, emptyRulesFile, RulesFileSchema, type RulesFile } from '../../shared/rules.js';
import { describeJsonError } from '../config.js';
import type { Logger } from '../ports.js';
import { jsonSyntaxError, locateJsonPath } from './json-locate.js';

/** File name of the rules file inside the user-data folder. */
export const RULES_FILE = 'rules.json';

/** The rules in force and the file behind them. */
export interface RulesStore {
  readonly path: string;
  /** The rules in force (the last good file, or none). */
  current(): RulesFile;
  /** Problems with the file on disk; empty when it is good. */
  problems(): string[];
  /**
   * Versions `next` against the rules in force, writes it (atomically, mode 0600) and puts it in force.
   * @throws ApiError invalid_input when `next` does not fit the schema
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

/**
 * Parses the text of a rules file.
 * @param label file name used in problem messages
 * @returns the parsed file, or readable problems with line and column
 */
export function parseRulesText(text: string, label = RULES_FILE): { ok: true; rules: RulesFile } | { ok: false; problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const at = jsonSyntaxError(text);
    return { ok: false, problems: [at ? `${label} line ${at.line}, column ${at.column}: ${at.message}` : `${label}: ${describeJsonError(text, err)}`] };
  }
  const parsed = RulesFileSchema.safeParse(json);
  if (parsed.success) return { ok: true, rules: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.slice(0, 5).map((issue) => {
      const at = locateJsonPath(text, issue.path);
      return `${label} line ${at.line}, column ${at.column}: ${issue.path.join('.') || '(root)'}: ${issue.message}`;
    }),
  };
}

/**
 * Opens the rules file in `dir`.
 * @param onChange called after the rules in force or the problems changed (not for `save`'s own write)
 */
export function openRulesStore(dir: string, opts: { logger: Logger; onChange: () => void; watch?: boolean }): RulesStore {
  const path = join(dir, RULES_FILE);
  let rules = emptyRulesFile();
  let problems: string[] = [];
  let lastWritten: string | undefined;
  let watcher: FSWatcher | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const write = (file: RulesFile) => {
    mkdirSync(dir, { recursive: true });
    const text = `${JSON.stringify(file, null, 2)}\n`;
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, path);
    lastWritten = text;
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
      problems = [...parsed.problems, 'The rules in force before this change stay in force; the file was left as it is.'];
      opts.logger.warn('rules file refused', { problems: parsed.problems });
      return true;
    }
    problems = [];
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
    save(next) {
      const parsed = RulesFileSchema.safeParse(next);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new ApiError('invalid_input', `Rules not saved: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      }
      const versioned = bumpVersions(rules, parsed.data);
      write(versioned);
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
