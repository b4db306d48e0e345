/**
 * A team's rule book in its database (table `team_rule_book`,
 * main/store/pg/migrations/0005_team_policy.sql): one versioned document — the same rules file the
 * desktop keeps in `rules.json` — with every saved revision kept (when, how, on which instance;
 * the newest is in force). It implements main/policy/rule-book.ts's {@link RuleBookStore}:
 *
 * - A save reads the newest revision n, refuses a stale `baseRevision`, versions the rules that
 *   changed against revision n, and inserts revision n + 1 with a `rules` notification, in one
 *   transaction. Two saves from the same revision collide on the primary key: the second is told
 *   (`error.rulesChanged`), as is a save that started from an older revision.
 * - Every instance keeps the book in force in memory (a decision never reads the database) and
 *   reads the newest revision again when notified or after its listener reconnected (it may have
 *   missed notifications meanwhile).
 * - A stored revision this console cannot read (written by hand, or by a newer console) is reported
 *   as a problem and the previous book stays in force; a save adds a newer revision over it.
 * - Fields the console does not know, in the stored book, are kept by later saves.
 */
import { ApiError } from '../../shared/contract/api.js';
import { bumpVersions, emptyRulesFile, RulesFileSchema, type RulesFile } from '../../shared/contract/rules.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { RuleBookChange, RuleBookSaveOptions, RuleBookStore } from '../policy/rule-book.js';
import { parseRulesText, rulesChangedError, rulesFileSpec } from '../policy/rules-store.js';
import type { Logger } from '../logger.js';
import type { Params } from '../store/pg/connection.js';
import { describeIgnored, keepIgnored, parseUserFile, shapeLike } from '../user-file.js';
import type { TeamDatabase } from './database.js';
import { notifySql } from './notify.js';

/** How problems name a stored revision ("rule book revision 7 line 3, column 5: …"). */
const labelOf = (revision: number) => `rule book revision ${revision}`;
/** PostgreSQL's "unique violation": another save took the same revision number first. */
const UNIQUE_VIOLATION = '23505';
/** How many times a save without a base revision (an import, the pause switch) tries again after losing a race. */
const RETRIES = 5;

const LATEST_SQL = 'SELECT revision, body FROM team_rule_book ORDER BY revision DESC LIMIT 1';
const INSERT_SQL = 'INSERT INTO team_rule_book (revision, body, how, instance_id) VALUES ($1, $2::jsonb, $3, $4)';

/** What {@link openTeamRuleBook} needs: the team's database as one instance holds it. */
export interface TeamRuleBookOptions {
  db: Pick<TeamDatabase, 'conn' | 'notifier' | 'target'>;
  logger?: Logger;
}

/** A stored revision as read. */
interface Stored {
  revision: number;
  body: unknown;
}

/** What one instance keeps of the book. */
interface BookState {
  readonly opts: TeamRuleBookOptions;
  rules: RulesFile;
  /** The newest stored revision seen (0: none stored yet), also when it could not be read. */
  revision: number;
  /** The last good book put in force: versions are counted from it when the newest cannot be read. */
  versionBase: RulesFile;
  problems: string[];
  notes: string[];
  readonly listeners: Set<() => void>;
  /** The read under way, and whether another was asked meanwhile. */
  reading: Promise<void> | undefined;
  readAgain: boolean;
}

/** A stored body parsed: the rules (unknown fields removed) and notes on those, or the problems. */
function parseStored(s: Stored) {
  const label = labelOf(s.revision);
  const parsed = parseUserFile(JSON.stringify(s.body, null, 2), rulesFileSpec(label));
  if (parsed.state === 'broken') return { ok: false as const, problems: parsed.problems };
  const note = describeIgnored(label, parsed.ignored);
  return { ok: true as const, rules: parsed.value, raw: parsed.raw, ignored: parsed.ignored, notes: note ? [note] : [] };
}

/**
 * Opens the team's rule book; `ready` resolves once the newest revision is read.
 * @throws (`ready` rejects) HistoryUnavailableError when the database cannot be reached at start
 */
export function openTeamRuleBook(opts: TeamRuleBookOptions): RuleBookStore {
  const { db } = opts;
  const st: BookState = { opts, rules: emptyRulesFile(), revision: 0, versionBase: emptyRulesFile(), problems: [], notes: [], listeners: new Set(), reading: undefined, readAgain: false };
  const reloadQuietly = () =>
    void read(st).catch((err: unknown) => opts.logger?.warn('team rule book: could not read it; the rules in force stay', { error: String(err) }));
  const offRules = db.notifier.subscribe('rules', (e) => {
    if (e.id === undefined || Number(e.id) > st.revision) reloadQuietly();
  });
  const offResync = db.notifier.onResync(reloadQuietly);
  return {
    location: { kind: 'database', target: db.target },
    current: () => st.rules,
    revision: () => st.revision,
    problems: () => st.problems,
    notes: () => st.notes,
    save: (next, o) => save(st, next, o),
    setPaused: (paused) => change(st, paused ? 'pause' : 'resume', (latest) => ({ ...latest, paused })),
    parse: (text, label) => parseRulesText(text, label),
    onChange(listener) {
      st.listeners.add(listener);
      return () => void st.listeners.delete(listener);
    },
    ready: read(st),
    reload: () => read(st),
    close() {
      offRules();
      offResync();
    },
  };
}

/** Reads the newest revision (one read at a time; one asked meanwhile runs once after it) and puts it in force. */
function read(st: BookState): Promise<void> {
  if (st.reading) {
    st.readAgain = true;
    return st.reading;
  }
  st.reading = (async () => {
    try {
      const [latest] = await st.opts.db.conn.query<Stored>(LATEST_SQL);
      if (latest && latest.revision > st.revision) take(st, latest);
    } finally {
      st.reading = undefined;
      if (st.readAgain) {
        st.readAgain = false;
        void read(st).catch(() => undefined);
      }
    }
  })();
  return st.reading;
}

/** Puts a stored revision in force (or reports it as a problem, keeping the book in force) and tells the listeners. */
function take(st: BookState, s: Stored, quiet = false): void {
  const parsed = parseStored(s);
  st.revision = s.revision;
  if (parsed.ok) {
    st.rules = parsed.rules;
    st.versionBase = parsed.rules;
    st.problems = [];
    st.notes = parsed.notes;
  } else {
    st.problems = [...parsed.problems, 'The rules in force before this revision stay in force; saving the rules stores a newer revision over it.'];
    st.opts.logger?.warn('team rule book: the newest revision cannot be read', { revision: s.revision, problems: parsed.problems });
  }
  if (!quiet) for (const l of st.listeners) l();
}

/** {@link RuleBookStore.save}: validates, then stores it as the next revision (see the module doc). */
function save(st: BookState, next: unknown, o: RuleBookSaveOptions = {}): Promise<RulesFile> {
  const parsed = RulesFileSchema.safeParse(next);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return Promise.reject(new ApiError('invalid_input', ui('error.rulesNotSaved', { path: issue.path.join('.') || '(root)', why: issue.message })));
  }
  return change(st, o.how ?? 'save', () => parsed.data, o.baseRevision);
}

/**
 * Stores `next(latest book)` as the revision after the newest, in one transaction with its
 * notification, and puts it in force here. A save that named `baseRevision` and lost a race is
 * refused; one that did not (an import, the pause switch) tries again on the newer book.
 * @throws (rejects) ApiError invalid_state `error.rulesChanged`; the database's errors
 */
async function change(st: BookState, how: RuleBookChange, next: (latest: RulesFile) => RulesFile, baseRevision?: number): Promise<RulesFile> {
  for (let attempt = 1; ; attempt++) {
    try {
      const stored = await st.opts.db.conn.transaction((q) => insertNext(st, q, how, next, baseRevision));
      // A newer revision read meanwhile (another instance saved after this one) stays in force.
      if (stored.revision > st.revision) take(st, stored, true);
      return st.rules;
    } catch (err) {
      if ((err as { code?: unknown }).code !== UNIQUE_VIOLATION) throw err;
      await read(st).catch(() => undefined); // show the book that won
      if (baseRevision !== undefined || attempt >= RETRIES) throw rulesChangedError(st.revision);
    }
  }
}

/** Inside the save's transaction: reads the newest revision, checks the base, versions, shapes like the stored body, inserts and notifies. */
async function insertNext(st: BookState, q: <R>(text: string, params?: Params) => Promise<R[]>, how: RuleBookChange, next: (latest: RulesFile) => RulesFile, baseRevision?: number): Promise<Stored> {
  const [latest] = await q<Stored>(LATEST_SQL);
  const latestRevision = latest?.revision ?? 0;
  if (baseRevision !== undefined && baseRevision !== latestRevision) {
    if (latest) take(st, latest);
    throw rulesChangedError(latestRevision);
  }
  const prev = latest ? parseStored(latest) : undefined;
  const base = prev?.ok ? prev.rules : st.versionBase;
  const versioned = bumpVersions(base, RulesFileSchema.parse(next(base)));
  // Fields this console does not know, in the stored book, are kept (as the rules file keeps them).
  const body = prev?.ok ? shapeLike(versioned, prev.raw, keepIgnored(prev.ignored)) : versioned;
  const revision = latestRevision + 1;
  await q(INSERT_SQL, [revision, JSON.stringify(body), how, st.opts.db.notifier.instanceId()]);
  const notify = notifySql({ topic: 'rules', id: String(revision), from: st.opts.db.notifier.instanceId() });
  await q(notify.text, notify.params);
  return { revision, body };
}
