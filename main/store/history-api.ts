/**
 * The history store's interface (what the console, the hosts and the history screens use), its
 * option types, errors and the timing constants its contract names. Implementations: SQLite in
 * `history-store.ts` (`openHistoryStore` there, which re-exports all of this) and PostgreSQL in
 * `pg/store.ts`.
 */
import type { HistoryFacets, HistoryFilter, HistoryListPage, HistoryStats } from '../../shared/contract/history.js';
import type { StopCause } from '../../shared/contract/drafts.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import type { UiText } from '../../shared/contract/ui-text.js';
import type * as maintenance from './maintenance.js';
import type { UsageRow } from './usage.js';

/** How long a SQLite statement waits for another connection's lock before failing with SQLITE_BUSY, in ms. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Options of {@link HistoryStore.list}: the filters (shared/contract/history.ts) plus paging.
 *
 * `query` is free text matched with the full-text index against the prompt text (every text block of every
 * message, including text inside `tool_result`, as received and as sent), the system prompt, the
 * response text (generated and delivered), the server id and the client request name. Words are
 * plain terms (operators and quotes mean nothing), all must match, the last one as a prefix; case
 * and diacritics are ignored. Empty, whitespace or punctuation only: no filter.
 */
export interface HistoryListOptions extends HistoryFilter {
  /** Page size: an integer ≥ 0. */
  limit: number;
  /** Entries to skip: an integer ≥ 0. */
  offset: number;
}

/** Which sessions an operation covers: those of the given entry ids, or those matching a filter. */
export type SessionSelection = { ids: readonly string[] } | { filter: HistoryFilter };

/**
 * How long `saveSoon` gathers saves into one commit when none of them waits on a person, in ms
 * (a state that does is committed once the calling code has run).
 */
export const SAVE_SOON_WINDOW_MS = 10;

/**
 * Thrown (rejected) by a store whose database cannot be reached now (connection refused, reset or
 * timed out; the server restarting). The store keeps trying to reconnect in the background, with
 * backoff; a later call works again once it has. Callers answer their own caller with a clear
 * error (JSON-RPC -32603, HTTP 503) rather than waiting.
 */
export class HistoryUnavailableError extends Error {
  /** Stable code for hosts mapping it to their protocol's error. */
  readonly code = 'history_unavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HistoryUnavailableError';
  }
}

/**
 * The history database: what the console, the hosts and the history screens use. Two
 * implementations pass one contract (test/store/contract/): SQLite (`openHistoryStore` in
 * history-store.ts, the desktop's) and PostgreSQL (`openPgHistoryStore` in pg/store.ts, a team's).
 *
 * Writes are enqueue-style and return at once (`save`, `saveSoon`, `saveMany`); they are applied in
 * call order, every later read of the same store sees them, and {@link HistoryStore.durable} is the
 * barrier that resolves once everything written before it is committed and on stable storage. A
 * write that fails rejects the next `durable()`. Reads are `Promise`s. After `close`, every method
 * throws (writes) or rejects (reads) with an Error saying the store is closed.
 */
export interface HistoryStore {
  /**
   * Inserts the entry, or replaces the stored entry with the same `id` (all fields, including the
   * search index and its media references).
   *
   * SQLite commits it before returning (it survives this process being killed at once) and throws
   * a failure to write it (SqliteError on I/O failure or SQLITE_BUSY after {@link
   * BUSY_TIMEOUT_MS}); what a person typed is therefore on disk when their action returns. A store
   * on a server (PostgreSQL) sends it at once, behind the writes before it, and reports a failure
   * through the next {@link HistoryStore.durable}. Either way it is on stable storage once
   * `durable()` resolves.
   * @throws TypeError when the entry lacks a required field (SQLite also when a part cannot be
   *   JSON-encoded); Error when closed.
   */
  save(entry: HistoryEntry): void;
  /**
   * Like {@link HistoryStore.save}, but the commit is shared: the entry is committed together with
   * every other `saveSoon` of the same moment, in one transaction, once the calling code has run
   * (a microtask) when one of them waits on a person (awaiting review or input) — what a person
   * sees is stored — else within {@link SAVE_SOON_WINDOW_MS}, so the states a request decided by
   * a rule passes through (received, generating, delivered) are one commit. Saving the same id
   * again before then commits only the latest state. Every read, `save`, `durable` and `close`
   * commits what is pending first, so readers always see it, and nothing reaches a server before
   * its record is committed and synced (the console awaits `durable` before answering). A crash
   * of this process loses at most a passing state of that window.
   * A failed commit (I/O, a lost connection, an entry that cannot be JSON-encoded) is reported by
   * the next {@link HistoryStore.durable} (it rejects); the entries that could be written still are.
   * @throws TypeError when the entry lacks a required field; Error when closed.
   */
  saveSoon(entry: HistoryEntry): void;
  /**
   * Readies a big entry before its first save: its big texts (./big-texts.ts) are stored once
   * (SQLite: files written on the offload worker; PostgreSQL: rows sent once), so this and later
   * saves store a reference instead of the text. Optional for correctness: without it the text is
   * stored in the row.
   * @throws (rejects) the error of writing a text; the entry is then stored inline
   */
  prepareEntry(entry: HistoryEntry): Promise<void>;
  /**
   * Resolves once every write made before the call is committed and on stable storage. SQLite:
   * one fsync of the write-ahead log on libuv's thread pool (not the event loop), shared by every
   * caller waiting at the time (group commit); entries `saveSoon` still holds are committed first,
   * in one transaction shared by every `durable()` of this turn of the event loop (`setImmediate`)
   * and of the time a running fsync takes. PostgreSQL: the server has committed it (its own WAL
   * flush). Resolves at once when nothing is pending, for `:memory:`, and after `close`.
   * @throws (rejects) the sync's error (e.g. EIO), or the error of a write that failed since the
   *   last call ({@link HistoryUnavailableError} while the database cannot be reached); the next
   *   call tries again.
   */
  durable(): Promise<void>;
  /**
   * Saves many entries in one transaction: all or none. For imports and seeding; the pipeline
   * saves one entry at a time. @throws as {@link HistoryStore.save} (nothing is saved).
   */
  saveMany(entries: readonly HistoryEntry[]): void;
  /**
   * A page of list items, newest first (`receivedAt` desc, then the later-saved first), and
   * `total`: the number of entries matching the filters (a store may stop counting a full-text
   * search at a cap, then says so with `totalCapped`). Reads list columns and the search index
   * only (no JSON).
   * @throws (rejects) RangeError for a negative or non-integer `limit`/`offset`
   */
  list(opts: HistoryListOptions): Promise<HistoryListPage>;
  /** The full entry as last saved (media and big texts inline), or null when no entry has that id. */
  get(id: string): Promise<HistoryEntry | null>;
  /** Every entry of a session, oldest first (media inline); empty for an unknown id. */
  conversation(conversationId: string): Promise<HistoryEntry[]>;
  /**
   * The conversation ids of the selected sessions, newest first, at most `max` (an integer ≥ 0).
   * Unknown entry ids are ignored.
   */
  sessions(selection: SessionSelection, max: number): Promise<string[]>;
  /** Deletes whole sessions (entries, index rows, unused blobs) in one transaction; resolves to the entries deleted. */
  deleteSessions(conversationIds: readonly string[]): Promise<number>;
  /** The sessions a retention policy removes, oldest first (open sessions never). */
  pruneCandidates(policy: maintenance.PrunePolicy): Promise<string[]>;
  /**
   * Marks every unfinished entry (a status not in TERMINAL_STATUSES) `interrupted`, with
   * `endedAt = now` (epoch ms), `notDelivered` (cause `console_stopped`; its `draft` is kept) and
   * an event {@link maintenance.INTERRUPTED_DETAIL}. Call once at start, before
   * any request arrives. Resolves to the number of entries marked.
   */
  markInterrupted(now: number): Promise<number>;
  /**
   * A team's database only (PostgreSQL; absent on SQLite, which has one console): like
   * {@link HistoryStore.markInterrupted}, for the unfinished entries last written by the team
   * instances `scope.instances` (main/team/instances.ts: instances that stopped or were found gone)
   * and, with `scope.unowned`, by consoles without a team. `notDelivered.cause` is `cause`, the
   * event's detail `detail` (a message code). Resolves to the number of entries marked.
   * @throws (rejects) HistoryUnavailableError while the database cannot be reached
   */
  interruptInstances?(scope: { instances: readonly string[]; unowned?: boolean }, now: number, why: { cause: StopCause; detail: UiText }): Promise<number>;
  /** Counters per server for [from, to) of `receivedAt` (epoch ms; missing bounds: unbounded). */
  stats(range: { from?: number; to?: number }): Promise<HistoryStats>;
  /** Distinct servers, tools, models and providers in history, for filter menus. */
  facets(): Promise<HistoryFacets>;
  /** Token usage and recorded cost per (server, provider, model) of entries received at or after `from` (epoch ms), drafts excluded (usage.ts). */
  usageSince(from: number): Promise<UsageRow[]>;
  /**
   * Commits what is pending and closes the database. SQLite: done when it returns (the promise is
   * already settled); PostgreSQL: resolves once the pending writes are committed (a failure is
   * logged, not thrown) and the connections closed. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * `answer` settled only once history is durable (see {@link HistoryStore.durable}): what a host
 * wraps around the pipeline's answer to a server, so the record of a delivered (or rejected)
 * request is on disk before the server receives anything. Settles like `answer`; a failed fsync
 * turns a result into that error (the server is told the request failed rather than receiving a
 * response history may have lost).
 */
export async function whenDurable<T>(store: Pick<HistoryStore, 'durable'>, answer: Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await answer;
  } catch (err) {
    await store.durable().catch(() => undefined); // the answer's own error matters more
    throw err;
  }
  await store.durable();
  return result;
}
