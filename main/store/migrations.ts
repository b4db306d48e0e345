/**
 * Schema migrations of the history database.
 *
 * `schema_version` holds one row per applied migration (`version`, `applied_at` in epoch ms,
 * `description`); the database's version is the largest `version` in it (0 when the table is
 * missing or empty). At open, every migration newer than that version runs, in order, inside one
 * `BEGIN IMMEDIATE` transaction: either all of them apply or none does, and two processes opening
 * the same file at once cannot both migrate it. A database whose version is newer than the code
 * knows is refused with {@link HistorySchemaTooNewError} before anything is written to it.
 *
 * Rules for adding a migration: append it with the next version number and never edit one that has
 * shipped (databases in the wild were built by exactly that SQL). `test/store/migrations.test.ts`
 * builds a version-1 database with frozen v1 SQL and opens it with the current code, so each new
 * migration is exercised as an upgrade of real v1 data.
 */
import type { Db } from './db.js';
import { migrateToV2 } from './migration-2.js';

export type { Db } from './db.js';

/** One schema step. `up` runs inside the migration transaction and must not COMMIT or ROLLBACK. */
export interface Migration {
  /** 1, 2, 3, … with no gaps. */
  version: number;
  /** One line for `schema_version.description`. */
  description: string;
  /** Applies the step; throwing rolls back every migration of this open. */
  up(db: Db): void;
}

/**
 * Version 1: the history table (list columns as real columns, structured parts as JSON text), the
 * index that serves the newest-first list, and a contentless FTS5 index whose rowid is the history
 * row's rowid. The FTS row is kept in sync by `save` (delete + insert in the same transaction).
 */
const V1_SQL = `
CREATE TABLE history (
  id                TEXT PRIMARY KEY NOT NULL,
  conversation_id   TEXT NOT NULL,
  server_id         TEXT NOT NULL,
  call_name         TEXT,
  status            TEXT NOT NULL,
  decided_by        TEXT,
  received_at       INTEGER NOT NULL,   -- epoch ms
  ended_at          INTEGER,            -- epoch ms
  model             TEXT,
  provider_id       TEXT,
  edited            INTEGER NOT NULL CHECK (edited IN (0, 1)),
  error             TEXT,
  preview           TEXT NOT NULL,
  original_json     TEXT,               -- JSON; NULL only when the entry's original is undefined
  sent_json         TEXT,
  model_choice_json TEXT,
  generated_json    TEXT,
  delivered_json    TEXT,
  error_detail_json TEXT,
  usage_json        TEXT,
  timings_json      TEXT NOT NULL,
  events_json       TEXT NOT NULL,
  extra_json        TEXT                -- JSON object of entry fields this schema has no column for
);
CREATE INDEX history_received_at ON history (received_at, id);
CREATE INDEX history_conversation ON history (conversation_id, received_at);
CREATE VIRTUAL TABLE history_fts USING fts5 (
  server_id, call_name, system_prompt, prompt, response,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
`;

/**
 * Version 3: the contract's `kind` (what kind of server request) and `rule` (the auto-approve rule
 * that decided) become columns of the narrow table, so the list shows them and filters by rule;
 * values v2 kept in `extra_json` move over.
 */
const V3_SQL = `
ALTER TABLE history ADD COLUMN kind TEXT;
ALTER TABLE history ADD COLUMN rule_id TEXT;
ALTER TABLE history ADD COLUMN rule_json TEXT;
UPDATE history SET
  kind = (SELECT json_extract(d.extra_json, '$.kind') FROM history_data AS d WHERE d.seq = history.seq),
  rule_json = (SELECT json_extract(d.extra_json, '$.rule') FROM history_data AS d WHERE d.seq = history.seq)
WHERE seq IN (SELECT seq FROM history_data WHERE extra_json IS NOT NULL);
UPDATE history SET rule_id = json_extract(rule_json, '$.ruleId') WHERE rule_json IS NOT NULL;
UPDATE history_data SET extra_json = nullif(json_remove(extra_json, '$.kind', '$.rule'), '{}') WHERE extra_json IS NOT NULL;
CREATE INDEX history_rule ON history (rule_id) WHERE rule_id IS NOT NULL;
`;

/**
 * Version 4: one status vocabulary for every kind (shared/contract/status.ts). Elicitation entries
 * were written with the nearest sampling status (accepted → delivered, declined and cancelled →
 * rejected, withdrawn → cancelled, waiting → awaiting_request_review); they get their own back —
 * the status their last ending event names, else the reverse of that mapping (a `delivered` one
 * becomes `accepted`, a `rejected` one `declined`). `interrupted` stays.
 */
const V4_SQL = `
UPDATE history SET status = coalesce(
  (SELECT e.value ->> '$.kind' FROM history_data AS d, json_each(d.events_json) AS e
    WHERE d.seq = history.seq AND e.value ->> '$.kind' IN ('accepted', 'declined', 'cancelled', 'withdrawn', 'completed')
    ORDER BY e.key DESC LIMIT 1),
  CASE status WHEN 'delivered' THEN 'accepted' WHEN 'rejected' THEN 'declined' WHEN 'cancelled' THEN 'withdrawn'
    WHEN 'awaiting_request_review' THEN 'awaiting_input' ELSE status END)
WHERE kind = 'elicitation' AND status <> 'interrupted';
`;

/**
 * Version 5: the person who decided an entry and the person whose personal token requested it (a
 * team server's; the desktop leaves them NULL), as list columns for History's filters and counters.
 */
const V5_SQL = `
ALTER TABLE history ADD COLUMN decider_subject TEXT;
ALTER TABLE history ADD COLUMN decider_name TEXT;
ALTER TABLE history ADD COLUMN requested_by_subject TEXT;
ALTER TABLE history ADD COLUMN requested_by_name TEXT;
CREATE INDEX history_decider ON history (decider_subject) WHERE decider_subject IS NOT NULL;
CREATE INDEX history_requested_by ON history (requested_by_subject) WHERE requested_by_subject IS NOT NULL;
`;

/** Every migration, oldest first. The last one's version is {@link LATEST_SCHEMA_VERSION}. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'history table with list columns, received_at index, FTS5 index',
    up: (db) => {
      db.exec(V1_SQL);
    },
  },
  {
    version: 2,
    description: 'narrow history + history_data keyed by arrival seq, blobs stored once, FTS rebuilt on seq',
    up: migrateToV2,
  },
  {
    version: 3,
    description: 'kind (sampling | elicitation) and the deciding rule as list columns, moved out of extra_json',
    up: (db) => {
      db.exec(V3_SQL);
    },
  },
  {
    version: 4,
    description: 'one status vocabulary: elicitation entries get their own statuses back (accepted, declined, cancelled, withdrawn, completed)',
    up: (db) => {
      db.exec(V4_SQL);
    },
  },
  {
    version: 5,
    description: 'who decided and who requested an entry (a team server\'s people) as list columns',
    up: (db) => {
      db.exec(V5_SQL);
    },
  },
];

/** The schema version this code writes. */
export const LATEST_SCHEMA_VERSION: number = latestOf(MIGRATIONS);

/** Thrown when a database was written by newer code than this; the file is left untouched. */
export class HistorySchemaTooNewError extends Error {
  /**
   * @param path the database file
   * @param found the database's schema version
   * @param supported the newest version this code knows
   */
  constructor(
    readonly path: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `History database ${path} has schema version ${found}, but this version of the console only ` +
        `understands up to ${supported}. It was written by a newer console; update the console ` +
        `(the file has not been changed).`,
    );
    this.name = 'HistorySchemaTooNewError';
  }
}

/** The database's schema version: the largest applied migration, 0 for a new database. */
export function readSchemaVersion(db: Db): number {
  const table = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`).get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT max(version) AS v FROM schema_version').get() as { v: number | null } | undefined;
  return row?.v ?? 0;
}

/**
 * Brings the database up to the last of `migrations` (default {@link MIGRATIONS}) in one
 * transaction and returns the versions before and after (`from === to` when nothing ran).
 * `path` is only used in error messages. `now` gives `applied_at` (epoch ms).
 * @throws HistorySchemaTooNewError when the database is newer than the last migration (nothing
 *   written); Error when the list is not numbered 1, 2, 3, …; whatever a migration throws (all
 *   migrations of this call are rolled back); SqliteError (e.g. SQLITE_BUSY after busy_timeout).
 */
export function migrate(
  db: Db,
  path: string,
  migrations: readonly Migration[] = MIGRATIONS,
  now: () => number = Date.now,
): { from: number; to: number } {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration #${i} has version ${m.version}, expected ${i + 1}`);
  });
  const latest = latestOf(migrations);
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
      version     INTEGER PRIMARY KEY NOT NULL,
      applied_at  INTEGER NOT NULL,
      description TEXT NOT NULL
    )`);
    const from = readSchemaVersion(db);
    if (from > latest) throw new HistorySchemaTooNewError(path, from, latest);
    const record = db.prepare('INSERT INTO schema_version (version, applied_at, description) VALUES (?, ?, ?)');
    for (const m of migrations) {
      if (m.version <= from) continue;
      m.up(db);
      record.run(m.version, now(), m.description);
    }
    db.exec('COMMIT');
    return { from, to: Math.max(from, latest) };
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

function latestOf(migrations: readonly Migration[]): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0);
}
