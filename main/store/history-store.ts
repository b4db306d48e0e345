/**
 * The history store: one SQLite database (libsql, better-sqlite3 API) holding a record of every
 * sampling request. The sampling pipeline calls {@link HistoryStore.save} at every transition with
 * the whole current {@link HistoryEntry}; the history screens call `list` and `get`.
 *
 * Durability (ARCHITECTURE.md "nothing is lost"): `save` is synchronous and its transaction is
 * committed *and fsynced* when it returns, so the pipeline can save the delivered response and only
 * then send it to the server. See {@link openHistoryStore} for the pragmas and why.
 *
 * Schema and migrations: `migrations.ts`. Row mapping and SQL: `rows.ts`. FTS text: `search-text.ts`.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'libsql';
import type { HistoryEntry, HistoryPage } from '../../shared/state.js';
import { migrate, readSchemaVersion, HistorySchemaTooNewError, LATEST_SCHEMA_VERSION, type Db } from './migrations.js';
import { SQL, entryToRow, rowToEntry, rowToSummary, type HistoryRow, type SummaryRow } from './rows.js';
import { ftsColumns, toFtsQuery } from './search-text.js';

export { HistorySchemaTooNewError, LATEST_SCHEMA_VERSION } from './migrations.js';

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY, in ms. */
export const BUSY_TIMEOUT_MS = 5_000;

/** Options of {@link HistoryStore.list}. */
export interface HistoryListOptions {
  /**
   * Free text matched with FTS5 against the prompt text (every text block of every message,
   * including text inside `tool_result`, as received and as sent), the system prompt, the response
   * text (generated and delivered), the server id and the client request name. Words are plain
   * terms (operators and quotes mean nothing), all must match, the last one as a prefix; case and
   * diacritics are ignored. Empty, whitespace or punctuation only: no filter.
   */
  query?: string;
  /** Page size: an integer ≥ 0. */
  limit: number;
  /** Entries to skip: an integer ≥ 0. */
  offset: number;
}

/** The history database. All methods are synchronous; after `close` they throw. */
export interface HistoryStore {
  /**
   * Inserts the entry, or replaces the stored entry with the same `id` (all fields, including the
   * search index). Committed and flushed to disk when it returns.
   * @throws TypeError when the entry lacks a required field or a part cannot be JSON-encoded;
   *   SqliteError on I/O failure or SQLITE_BUSY after {@link BUSY_TIMEOUT_MS}; Error when closed.
   */
  save(entry: HistoryEntry): void;
  /**
   * A page of summaries, newest first (`receivedAt` desc, then `id` desc), and `total`: the number of
   * entries matching `query` (all entries without one). Reads only list columns and the FTS index.
   * @throws RangeError for a negative or non-integer `limit`/`offset`; Error when closed.
   */
  list(opts: HistoryListOptions): HistoryPage;
  /** The full entry as last saved, or null when no entry has that id. @throws Error when closed. */
  get(id: string): HistoryEntry | null;
  /** Closes the database (committed data is already on disk). Idempotent. */
  close(): void;
}

/**
 * Opens (creating it and its folder if needed) the history database at `path` and brings its schema
 * up to date. `':memory:'` gives a private in-memory store (no WAL; for tests).
 *
 * Connection settings:
 * - `busy_timeout` {@link BUSY_TIMEOUT_MS}: a second process (e.g. a web host next to Electron)
 *   waits for a lock instead of failing at once.
 * - `journal_mode = WAL`: readers never block the writer and a commit appends to the WAL.
 * - `synchronous = FULL`: in WAL mode NORMAL fsyncs only at checkpoints, so a commit survives a
 *   crash of the process but the last commits can be lost on power loss or an OS crash. The
 *   architecture promises that a delivered response's record exists before the server receives
 *   the response, and the server may well survive a power cut we don't (it may be remote), so FULL:
 *   the WAL is fsynced at every commit. The cost is one fsync per save; saves happen a few times per
 *   request at the pace of a person reviewing, never per streamed token. `fullfsync` makes that
 *   fsync reach the platter on macOS (F_FULLFSYNC); other systems ignore it.
 * - `foreign_keys = ON`.
 * @throws HistorySchemaTooNewError when the file was written by a newer schema (file untouched);
 *   SqliteError when the file is not a database (SQLITE_NOTADB), cannot be opened, or stays locked.
 */
export function openHistoryStore(path: string): HistoryStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db: Db = new Database(path);
  try {
    configure(db, path);
    migrate(db, path);
    return new SqliteHistoryStore(db);
  } catch (err) {
    db.close();
    throw err;
  }
}

function configure(db: Db, path: string): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Refuse a newer schema before changing anything in the file (even its journal mode).
  const found = readSchemaVersion(db);
  if (found > LATEST_SCHEMA_VERSION) throw new HistorySchemaTooNewError(path, found, LATEST_SCHEMA_VERSION);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('fullfsync = ON');
  db.pragma('foreign_keys = ON');
}

/** Prepares every statement of {@link SQL} once per connection. */
function prepareAll(db: Db): Record<keyof typeof SQL, Database.Statement> {
  const out: Partial<Record<keyof typeof SQL, Database.Statement>> = {};
  for (const key of Object.keys(SQL) as (keyof typeof SQL)[]) out[key] = db.prepare(SQL[key]);
  return out as Record<keyof typeof SQL, Database.Statement>;
}

class SqliteHistoryStore implements HistoryStore {
  private readonly stmt: Record<keyof typeof SQL, Database.Statement>;
  private readonly saveTxn: (entry: HistoryEntry) => void;
  private closed = false;

  constructor(private readonly db: Db) {
    this.stmt = prepareAll(db);
    this.saveTxn = db.transaction((entry: HistoryEntry) => {
      const row = entryToRow(entry);
      const { rowid } = this.stmt.upsert.get(row) as { rowid: number };
      this.stmt.ftsDelete.run({ rowid });
      this.stmt.ftsInsert.run({ rowid, ...ftsColumns(entry) });
    }).immediate;
  }

  save(entry: HistoryEntry): void {
    this.assertOpen();
    checkEntry(entry);
    this.saveTxn(entry);
  }

  list(opts: HistoryListOptions): HistoryPage {
    this.assertOpen();
    checkCount('limit', opts.limit);
    checkCount('offset', opts.offset);
    const page = { limit: opts.limit, offset: opts.offset };
    const match = opts.query === undefined ? null : toFtsQuery(opts.query);
    if (match === null) {
      return {
        entries: (this.stmt.list.all(page) as SummaryRow[]).map(rowToSummary),
        total: (this.stmt.count.get() as { n: number }).n,
      };
    }
    return {
      entries: (this.stmt.search.all({ ...page, match }) as SummaryRow[]).map(rowToSummary),
      total: (this.stmt.searchCount.get({ match }) as { n: number }).n,
    };
  }

  get(id: string): HistoryEntry | null {
    this.assertOpen();
    const row = this.stmt.get.get({ id }) as HistoryRow | undefined;
    return row === undefined ? null : rowToEntry(row);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.pragma('optimize'); // refreshes planner statistics; an optimisation only
    } catch {
      // e.g. SQLITE_BUSY: closing matters more than statistics
    }
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('history store is closed');
  }
}

/** Rejects entries that would violate the schema with a readable message instead of a SQL error. */
function checkEntry(entry: HistoryEntry): void {
  const strings = ['id', 'conversationId', 'serverId', 'status'] as const;
  for (const key of strings) {
    if (typeof entry[key] !== 'string' || entry[key] === '') {
      throw new TypeError(`history entry: ${key} must be a non-empty string`);
    }
  }
  if (typeof entry.preview !== 'string') throw new TypeError('history entry: preview must be a string');
  if (!Number.isFinite(entry.receivedAt)) throw new TypeError('history entry: receivedAt must be epoch ms');
  if (entry.endedAt !== undefined && !Number.isFinite(entry.endedAt)) {
    throw new TypeError('history entry: endedAt must be epoch ms');
  }
  if (typeof entry.edited !== 'boolean') throw new TypeError('history entry: edited must be a boolean');
  if (typeof entry.timings !== 'object' || entry.timings === null) {
    throw new TypeError('history entry: timings must be an object');
  }
  if (!Array.isArray(entry.events)) throw new TypeError('history entry: events must be an array');
}

function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer ≥ 0, got ${value}`);
}
