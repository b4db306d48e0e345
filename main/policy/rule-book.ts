/**
 * The rule book (rules, limits, redaction settings, the pause switch: one {@link RulesFile}) as the
 * policy reads and changes it, wherever it lives: `rules.json` in the data folder on the desktop
 * (./rules-store.ts, the source of truth there), or the team's database on a team server
 * (main/team/policy-rules.ts). Both keep the same promises:
 *
 * - the book in force is read from memory (`current`), never from storage on a request's path;
 * - every change of the book in force raises its `revision`; a save naming the revision its edit
 *   started from (`baseRevision`) is refused with ApiError `invalid_state` (`error.rulesChanged`)
 *   when the book changed since — two people saving at once: the second is told and the screen
 *   shows the newer book — and nothing is written;
 * - rules that changed get a new `version` (history's "rule X (vN)" names a rule as it was);
 * - a save without `baseRevision` (an import) replaces whatever is in force; the pause switch
 *   changes only `paused` of the newest book;
 * - fields the console does not know, already in the stored book, are kept.
 */
import type { RulesFile } from '../../shared/contract/rules.js';
import type { Logger } from '../ports.js';
import { openRulesStore } from './rules-store.js';

/** Where the rule book lives, for people: the rules file's path, or the team database (host:port/name, no password). */
export type RuleBookLocation = { kind: 'file'; path: string } | { kind: 'database'; target: string };

/** How a change came about (kept with a stored revision on a team: who changed what, and how). */
export type RuleBookChange = 'save' | 'import' | 'pause' | 'resume';

/** Options of {@link RuleBookStore.save}. */
export interface RuleBookSaveOptions {
  /** The revision the edit started from; absent: saved over whatever is in force (an import). */
  baseRevision?: number;
  /** What kind of change this is (default `save`). */
  how?: RuleBookChange;
}

/** The rule book in force and where it is kept. */
export interface RuleBookStore {
  readonly location: RuleBookLocation;
  /** The book in force (in memory). */
  current(): RulesFile;
  /** The revision of the book in force (see the module doc); a file's counts from 1 in memory, a database's is stored. */
  revision(): number;
  /** Problems with the stored book (the previous book stays in force); empty when it is good. */
  problems(): string[];
  /** Notes about a good book (fields the console does not know, kept and ignored). */
  notes(): string[];
  /**
   * Saves `next` as the whole book (rules that changed get a new version) and puts it in force.
   * @throws (rejects) ApiError invalid_input when `next` does not fit the schema; invalid_state
   *   when the stored book is broken (a file) or changed since `baseRevision` (`error.rulesChanged`);
   *   HistoryUnavailableError when the team database cannot be reached
   */
  save(next: unknown, opts?: RuleBookSaveOptions): Promise<RulesFile>;
  /** Sets the pause switch of the newest book (nothing else changes). @throws (rejects) as {@link RuleBookStore.save} */
  setPaused(paused: boolean): Promise<RulesFile>;
  /** Parses a rules file's text (an import) without saving: the rules, or the problems with lines. */
  parse(text: string, label?: string): { ok: true; rules: RulesFile } | { ok: false; problems: string[] };
  /** Calls `listener` after the book in force, its problems or notes changed elsewhere (not for this store's own saves). */
  onChange(listener: () => void): () => void;
  /** Resolves once the first read is done. @throws (rejects) when the book cannot be read at all (a team database refusing) */
  ready: Promise<void>;
  /** Reads the stored book again. */
  reload(): Promise<void>;
  close(): void;
}

/** Options of {@link openFileRuleBook}. */
export interface FileRuleBookOptions {
  logger: Logger;
  /** Watch the folder for hand edits (default true). */
  watch?: boolean;
  /** Called when a change of the file made outside the console put other rules in force (not at open, not for its own saves). */
  onFileChange?(before: RulesFile, after: RulesFile): void;
}

/**
 * The desktop's rule book: `rules.json` in `dir` (./rules-store.ts), whose writes are synchronous —
 * a save is in force when the call returns, before its promise settles.
 */
export function openFileRuleBook(dir: string, opts: FileRuleBookOptions): RuleBookStore {
  const listeners = new Set<() => void>();
  const store = openRulesStore(dir, {
    logger: opts.logger,
    onChange: () => listeners.forEach((l) => l()),
    ...(opts.watch !== undefined && { watch: opts.watch }),
    ...(opts.onFileChange && { onFileChange: opts.onFileChange }),
  });
  const now = <T>(fn: () => T): Promise<T> => {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err as Error);
    }
  };
  return {
    location: { kind: 'file', path: store.path },
    current: () => store.current(),
    revision: () => store.revision(),
    problems: () => store.problems(),
    notes: () => store.notes(),
    save: (next, o) => now(() => store.save(next, o?.baseRevision)),
    setPaused: (paused) =>
      now(() => {
        store.reload(); // a hand edit not reported yet is kept: only `paused` changes
        return store.save({ ...store.current(), paused });
      }),
    parse: (text, label) => store.parse(text, label),
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    ready: Promise.resolve(),
    reload: () => now(() => store.reload()),
    close: () => store.close(),
  };
}
