/**
 * The history store: one SQLite database (libsql, better-sqlite3 API) holding a record of every
 * sampling request. The sampling pipeline saves the whole current {@link HistoryEntry} at every
 * transition (through {@link HistoryStore.saveSoon}, so the saves of a few milliseconds share a
 * commit: an auto-approved request is one commit);
 * the history screens list, filter, search, count, export and delete; retention prunes whole
 * sessions.
 *
 * Durability ("nothing is lost"): `save` is synchronous and its transaction is
 * committed when it returns (it survives a crash of this process at once); `saveSoon` commits
 * once the calling code has run (a passing state: within {@link SAVE_SOON_WINDOW_MS}), at once
 * when anything reads, and at the end of the turn in which `durable` is asked (one transaction for
 * every caller of that turn); {@link HistoryStore.durable} resolves once that commit is made. The
 * console awaits that before it answers a server, so a delivered response's record is committed
 * (it survives the console being killed) before the server receives it; the WAL is synced to
 * stable storage in the background within {@link BACKGROUND_SYNC_MS} (group-sync.ts).
 * See {@link openHistoryStore} for the pragmas and why.
 *
 * The interface, its options and constants: `history-api.ts` (re-exported here). Schema and
 * migrations: `migrations.ts`. Row mapping: `rows.ts`. Filters: `query.ts`. Bulk operations:
 * `maintenance.ts`. Media stored once: `media.ts`. FTS text: `search-text.ts`.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createGroupSync, type GroupSync, type GroupSyncOptions } from './group-sync.js';
import Database from 'libsql';
import type { HistoryFacets, HistoryListPage, HistoryStats } from '../../shared/contract/history.js';
import { OPEN_STATUSES, TERMINAL_STATUSES, type HistoryEntry } from '../../shared/contract/state.js';
import * as maintenance from './maintenance.js';
import { migrate, readSchemaVersion, HistorySchemaTooNewError, LATEST_SCHEMA_VERSION, type Db } from './migrations.js';
import type { Offload } from '../offload/offload.js';
import { createBigTexts, type BigTexts } from './big-texts.js';
import { inflateMedia } from './media.js';
import { countSql, listSql, sessionsSql, whereOf, type WhereClause } from './query.js';
import { SQL, rowToEntry, rowToListItem, type EntryRow, type ListRow } from './rows.js';
import { checkCount, checkEntry } from './checks.js';
import { writeEntry, type IndexedText } from './write.js';
import { usageSince, type UsageRow } from './usage.js';
import { BUSY_TIMEOUT_MS, SAVE_SOON_WINDOW_MS, type HistoryListOptions, type HistoryStore, type SessionSelection } from './history-api.js';

export { HistorySchemaTooNewError, LATEST_SCHEMA_VERSION } from './migrations.js';
export { BACKGROUND_SYNC_MS } from './group-sync.js';
export { INTERRUPTED_DETAIL, type PrunePolicy } from './maintenance.js';
export type { UsageRow } from './usage.js';

export { BUSY_TIMEOUT_MS, SAVE_SOON_WINDOW_MS, whenDurable, type HistoryListOptions, type HistoryStore, type SessionSelection } from './history-api.js';

/** States committed at once by `saveSoon`: a person is looking at them (what they see is committed). */
const WAITING_ON_PERSON = new Set<string>(OPEN_STATUSES.filter((status) => status !== 'generating'));

/**
 * Opens (creating it and its folder if needed) the history database at `path` and brings its schema
 * up to date. `':memory:'` gives a private in-memory store (no WAL; for tests).
 *
 * Connection settings:
 * - `busy_timeout` {@link BUSY_TIMEOUT_MS}: a second process (e.g. a web host next to Electron)
 *   waits for a lock instead of failing at once.
 * - `journal_mode = WAL`: readers never block the writer and a commit appends to the WAL.
 * - `synchronous = NORMAL`: in WAL mode a commit is written to the WAL (the OS has it, so it
 *   survives a crash of this process) and SQLite fsyncs only at checkpoints. The console promises
 *   that an answered call's record survives the console being killed at any moment, so it awaits
 *   {@link HistoryStore.durable} (the commit) before answering a server; it does not wait for an
 *   fsync, which cost half of the gateway's added time under load. The store fsyncs the WAL itself
 *   in the background — on libuv's thread pool, one fsync for every commit of the last {@link
 *   BACKGROUND_SYNC_MS} (group-sync.ts) — so a power cut or an OS crash loses at most the records
 *   of that window; `close` syncs everything. `fullfsync` keeps
 *   SQLite's own checkpoint syncs reaching the platter on macOS (F_FULLFSYNC, as libuv's fsync
 *   does); other systems ignore it.
 * - `foreign_keys = ON` (entry → blob links cascade on delete).
 * - `cache_size = -32768`: up to 32 MB of page cache per connection (SQLite's default is 2 MB),
 *   allocated as used; at 100,000 entries the FTS and list pages of common searches stay cached.
 * `opts.offload`: where big texts are written to files (./big-texts.ts); absent: inline.
 * `opts.sync`, `opts.syncAtClose`, `opts.syncFolder`: how the WAL file (and its folder) is flushed
 * to stable storage in the background and at close (group-sync.ts; tests replace the fsync).
 * @throws HistorySchemaTooNewError when the file was written by a newer schema (file untouched);
 *   SqliteError when the file is not a database (SQLITE_NOTADB), cannot be opened, or stays locked.
 */
export function openHistoryStore(path: string, opts: { offload?: Offload } & GroupSyncOptions = {}): HistoryStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db: Db = new Database(path);
  try {
    configure(db, path);
    migrate(db, path);
    return new SqliteHistoryStore(db, createGroupSync(path === ':memory:' ? null : path, opts), createBigTexts(path, opts.offload));
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
  db.pragma('synchronous = NORMAL');
  db.pragma('fullfsync = ON');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -32768');
}

/** The JSON columns a big-text reference can be in. */
const TEXT_REF_COLUMNS = ['original_json', 'sent_json', 'generated_json', 'delivered_json'] as const;

/** Most unfinished entries whose indexed text the store remembers (see writeEntry). */
const INDEXED_KEPT = 5_000;

class SqliteHistoryStore implements HistoryStore {
  private readonly prepare: maintenance.Prepare;
  private readonly saveTxn: (entries: readonly HistoryEntry[]) => IndexedText[];
  private readonly saveManyTxn: (entries: readonly HistoryEntry[]) => void;
  private readonly deleteTxn: (conversationIds: readonly string[]) => number;
  private closed = false;
  /**
   * What the FTS index holds for unfinished entries, by id, as this connection wrote it (dropped
   * when an entry finishes; at most {@link INDEXED_KEPT}, oldest dropped first). Only consulted
   * when the entry keeps its `seq`, so a row deleted meanwhile is re-indexed on the insert path
   * anyway; forgotten whenever another connection committed (`PRAGMA data_version` moved).
   */
  private readonly indexed = new Map<string, IndexedText>();
  private dataVersion = -1;
  /** Entries `saveSoon` has not committed yet, by id: the latest state, in first-save order. */
  private readonly pending = new Map<string, HistoryEntry>();
  private flushQueued = false;
  /** The commit every `durable()` asked since the last one waits for: at the end of this turn of the event loop. */
  private nextCommit: Promise<void> | undefined;
  /** Why the last commit of pending entries failed, until `durable` reports it. */
  private failure: unknown;

  constructor(
    private readonly db: Db,
    private readonly group: GroupSync,
    private readonly texts: BigTexts,
  ) {
    this.prepare = maintenance.statementCache(db);
    for (const sql of Object.values(SQL)) this.prepare(sql);
    const textRef = (text: string) => texts.refOf(text);
    this.saveTxn = db.transaction((entries: readonly HistoryEntry[]) => entries.map((e) => writeEntry(this.prepare, e, 5, this.indexed.get(e.id), textRef))).immediate;
    this.saveManyTxn = db.transaction((entries: readonly HistoryEntry[]) => entries.forEach((e) => writeEntry(this.prepare, e, 5, undefined, textRef))).immediate;
    this.deleteTxn = db.transaction((ids: readonly string[]) => maintenance.deleteSessions(this.prepare, ids)).immediate;
    this.sweepTexts();
  }

  prepareEntry(entry: HistoryEntry): Promise<void> {
    this.assertOpen();
    return this.texts.prepare(entry);
  }

  /** Removes text files no blob row names any more (after deletes, and at open for what a crash left). */
  private sweepTexts(): void {
    const referenced = new Set((this.prepare('SELECT sha256 FROM blobs').all() as { sha256: string }[]).map((r) => r.sha256));
    this.texts.sweep(referenced);
  }

  save(entry: HistoryEntry): void {
    this.assertOpen();
    checkEntry(entry);
    this.pending.delete(entry.id); // this state supersedes a pending one
    this.flushPending();
    this.commit([entry]);
  }

  saveSoon(entry: HistoryEntry): void {
    this.assertOpen();
    checkEntry(entry);
    this.pending.set(entry.id, entry); // a pending id keeps its place: seq follows the first save
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      if (this.closed) return;
      // A state that waits on a person is committed now; one that passes on its own (generating)
      // waits for the window, so a request decided by a rule is one commit with its ending.
      if ([...this.pending.values()].some((e) => WAITING_ON_PERSON.has(e.status))) return this.flushNow();
      setTimeout(() => this.flushNow(), SAVE_SOON_WINDOW_MS).unref();
    });
  }

  private flushNow(): void {
    this.flushQueued = false;
    if (!this.closed) this.flushPending();
  }

  /**
   * Commits the pending entries in one transaction. When it fails, each is tried alone, so one
   * entry that cannot be written does not lose the others; the error is kept for `durable`.
   */
  private flushPending(): void {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    try {
      this.commit(batch);
    } catch (err) {
      if (batch.length === 1) {
        this.failure ??= err;
        return;
      }
      for (const entry of batch) {
        try {
          this.commit([entry]);
        } catch (one) {
          this.failure ??= one;
        }
      }
    }
  }

  /** Writes `entries` (distinct ids) in one transaction and counts the commit for group sync. */
  private commit(entries: readonly HistoryEntry[]): void {
    const version = (this.prepare('PRAGMA data_version').get() as { data_version: number }).data_version;
    if (version !== this.dataVersion) this.indexed.clear(); // another connection wrote meanwhile
    this.dataVersion = version;
    let written: IndexedText[];
    try {
      written = this.saveTxn(entries);
    } catch (err) {
      for (const e of entries) this.indexed.delete(e.id); // rolled back: what the index holds is not known any more
      throw err;
    }
    entries.forEach((entry, i) => {
      this.indexed.delete(entry.id);
      if (!TERMINAL_STATUSES.includes(entry.status)) {
        this.indexed.set(entry.id, written[i]!);
        if (this.indexed.size > INDEXED_KEPT) this.indexed.delete(this.indexed.keys().next().value!);
      }
    });
    this.group.committed();
  }

  durable(): Promise<void> {
    if (this.closed || this.pending.size === 0) return this.reportFailure();
    // One transaction for every durable() asked in this turn of the event loop: a transaction
    // per answered request was the largest part of its history cost under load. The fsync is not
    // awaited: the committed WAL survives the console being killed; group-sync.ts syncs it soon.
    this.nextCommit ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.nextCommit = undefined;
      if (!this.closed) this.flushPending();
    });
    return this.nextCommit.then(() => this.reportFailure());
  }

  /** Resolves, or rejects once with the error of a failed `saveSoon` commit, else of a failed background sync, since the last call. */
  private reportFailure(): Promise<void> {
    const failure = this.failure ?? this.group.takeFailure();
    this.failure = undefined;
    return failure === undefined ? Promise.resolve() : Promise.reject(failure);
  }

  saveMany(entries: readonly HistoryEntry[]): void {
    this.assertCurrent();
    entries.forEach(checkEntry);
    if (entries.length === 0) return;
    for (const e of entries) this.indexed.delete(e.id);
    this.saveManyTxn(entries);
    this.group.committed();
  }

  async list(opts: HistoryListOptions): Promise<HistoryListPage> {
    this.assertCurrent();
    checkCount('limit', opts.limit);
    checkCount('offset', opts.offset);
    const { limit, offset, ...filter } = opts;
    const where = whereOf(filter);
    return {
      entries: (this.prepare(listSql(where)).all({ ...where.params, limit, offset }) as ListRow[]).map(rowToListItem),
      total: (this.prepare(countSql(where)).get(where.params) as { n: number }).n,
    };
  }

  async get(id: string): Promise<HistoryEntry | null> {
    return this.getNow(id);
  }

  /** {@link HistoryStore.get}, synchronously. */
  private getNow(id: string): HistoryEntry | null {
    this.assertCurrent();
    const row = this.prepare(SQL.get).get({ id }) as EntryRow | undefined;
    return row === undefined ? null : this.toEntry(row);
  }

  async conversation(conversationId: string): Promise<HistoryEntry[]> {
    this.assertCurrent();
    return (this.prepare(SQL.conversation).all({ conversationId }) as EntryRow[]).map((r) => this.toEntry(r));
  }

  async sessions(selection: SessionSelection, max: number): Promise<string[]> {
    this.assertCurrent();
    checkCount('max', max);
    let where: WhereClause;
    if ('ids' in selection) {
      where = { sql: 'h.id IN (SELECT value FROM json_each(@ids))', params: { ids: JSON.stringify(selection.ids) }, match: null };
    } else {
      where = whereOf(selection.filter);
    }
    return (this.prepare(sessionsSql(where)).all({ ...where.params, max }) as { c: string }[]).map((r) => r.c);
  }

  async deleteSessions(conversationIds: readonly string[]): Promise<number> {
    this.assertCurrent();
    if (conversationIds.length === 0) return 0;
    const deleted = this.deleteTxn(conversationIds);
    this.group.committed();
    this.sweepTexts();
    return deleted;
  }

  async pruneCandidates(policy: maintenance.PrunePolicy): Promise<string[]> {
    this.assertCurrent();
    return maintenance.pruneCandidates(this.prepare, policy);
  }

  async markInterrupted(now: number): Promise<number> {
    this.assertCurrent();
    const ids = maintenance.unfinishedIds(this.prepare);
    for (const id of ids) {
      const entry = this.getNow(id);
      if (entry === null) continue;
      this.save({
        ...entry,
        status: 'interrupted',
        endedAt: now,
        // Nothing was delivered; a draft the person typed stays with the entry.
        notDelivered: { cause: 'console_stopped', at: now, draft: entry.draft !== undefined },
        events: [...entry.events, { at: now, kind: 'interrupted', ...maintenance.INTERRUPTED_EVENT }],
      });
    }
    return ids.length;
  }

  async stats(range: { from?: number; to?: number }): Promise<HistoryStats> {
    this.assertCurrent();
    return maintenance.stats(this.prepare, range);
  }

  async facets(): Promise<HistoryFacets> {
    this.assertCurrent();
    return maintenance.facets(this.prepare);
  }

  async usageSince(from: number): Promise<UsageRow[]> {
    this.assertCurrent();
    return usageSince(this.prepare, from);
  }

  async close(): Promise<void> {
    this.closeNow();
  }

  /** {@link HistoryStore.close}, synchronously: done when it returns. */
  private closeNow(): void {
    if (this.closed) return;
    this.flushPending(); // a failure here has nobody left to tell: the console answered every server first
    this.closed = true;
    try {
      this.db.pragma('optimize'); // refreshes planner statistics; an optimisation only
    } catch {
      // e.g. SQLITE_BUSY: closing matters more than statistics
    }
    this.db.close(); // the last connection checkpoints the WAL into the database and syncs it
    this.group.closed(); // else the WAL is synced here
    this.indexed.clear();
  }

  /** A row as an entry, its media payloads put back from `blobs` and its big texts from their files. */
  private toEntry(row: EntryRow): HistoryEntry {
    const entry = rowToEntry(row);
    const texts = TEXT_REF_COLUMNS.some((c) => row[c]?.includes('"textRef":') === true);
    if (row.media_count === 0 && !texts) return entry;
    return inflateMedia(
      entry,
      (sha256) => (this.prepare(SQL.blob).get({ sha256 }) as { data: string } | undefined)?.data,
      texts ? (sha256) => this.texts.read(sha256) : undefined,
    );
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('history store is closed');
  }

  /** Throws when closed; commits pending entries first, so a read sees every save. */
  private assertCurrent(): void {
    this.assertOpen();
    this.flushPending();
  }
}
