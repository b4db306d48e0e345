/**
 * The history store's interface (what the console, the hosts and the history screens use), its
 * option types and the timing constants its contract names; the SQLite implementation is
 * `history-store.ts` (`openHistoryStore` there), which re-exports all of this.
 */
import type { HistoryFacets, HistoryFilter, HistoryListPage, HistoryStats } from '../../shared/contract/history.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import type * as maintenance from './maintenance.js';
import type { UsageRow } from './usage.js';

/** How long a statement waits for another connection's lock before failing with SQLITE_BUSY, in ms. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Options of {@link HistoryStore.list}: the filters (shared/contract/history.ts) plus paging.
 *
 * `query` is free text matched with FTS5 against the prompt text (every text block of every
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

/** The history database. All methods are synchronous; after `close` they throw. */
export interface HistoryStore {
  /**
   * Inserts the entry, or replaces the stored entry with the same `id` (all fields, including the
   * search index and its media references). Committed when it returns: readers see it, and it
   * survives this process being killed. On stable storage (power loss, OS crash) once
   * {@link HistoryStore.durable} resolves — the store starts that fsync right away, in the
   * background, shared by every commit made meanwhile.
   * @throws TypeError when the entry lacks a required field or a part cannot be JSON-encoded;
   *   SqliteError on I/O failure or SQLITE_BUSY after {@link BUSY_TIMEOUT_MS}; Error when closed.
   */
  save(entry: HistoryEntry): void;
  /**
   * Like {@link HistoryStore.save}, but the commit is shared: the entry is committed together with
   * every other `saveSoon` of the same moment, in one transaction, once the calling code has run
   * (a microtask) when one of them waits on a person (awaiting review or input) — what a person
   * sees is on disk — else within {@link SAVE_SOON_WINDOW_MS}, so the states a request decided by
   * a rule passes through (received, generating, delivered) are one commit. Saving the same id
   * again before then commits only the latest state. Every read, `save`, `durable` and `close`
   * commits what is pending first, so readers always see it, and nothing reaches a server before
   * its record is committed and synced (the console awaits `durable` before answering). A crash
   * of this process loses at most a passing state of that window.
   * A failed commit (I/O, SQLITE_BUSY, an entry that cannot be JSON-encoded) is reported by the
   * next {@link HistoryStore.durable} (it rejects); the entries that could be written still are.
   * @throws TypeError when the entry lacks a required field; Error when closed.
   */
  saveSoon(entry: HistoryEntry): void;
  /**
   * Readies a big entry before its first save: its big texts (./big-texts.ts) are written to files
   * on the offload worker, so this and later saves store a reference instead of the text. Optional
   * for correctness: without it the text is stored in the row.
   * @throws (rejects) the fs error when a file cannot be written
   */
  prepareEntry(entry: HistoryEntry): Promise<void>;
  /**
   * Resolves once every commit made before the call is on stable storage: one fsync of the
   * write-ahead log on libuv's thread pool (not the event loop), shared by every caller waiting
   * at the time (group commit). Entries `saveSoon` still holds are committed first, in one
   * transaction shared by every `durable()` of this turn of the event loop (`setImmediate`) and
   * of the time a running fsync takes. Resolves at once when nothing is pending, for `:memory:`,
   * and after `close` (closing checkpoints and syncs the database).
   * @throws (rejects) the fsync's error (e.g. EIO), or the error of a `saveSoon` commit that
   *   failed since the last call; the next call tries again.
   */
  durable(): Promise<void>;
  /**
   * Saves many entries in one transaction (one fsync): all or none. For imports and seeding; the
   * pipeline saves one entry at a time. @throws as {@link HistoryStore.save} (nothing is saved).
   */
  saveMany(entries: readonly HistoryEntry[]): void;
  /**
   * A page of list items, newest first (`receivedAt` desc, then `id` desc), and `total`: the number
   * of entries matching the filters. Reads list columns and the FTS index only (no JSON).
   * @throws RangeError for a negative or non-integer `limit`/`offset`; Error when closed.
   */
  list(opts: HistoryListOptions): HistoryListPage;
  /** The full entry as last saved (media inline), or null when no entry has that id. */
  get(id: string): HistoryEntry | null;
  /** Every entry of a session, oldest first (media inline); empty for an unknown id. */
  conversation(conversationId: string): HistoryEntry[];
  /**
   * The conversation ids of the selected sessions, newest first, at most `max` (an integer ≥ 0).
   * Unknown entry ids are ignored.
   */
  sessions(selection: SessionSelection, max: number): string[];
  /** Deletes whole sessions (entries, index rows, unused blobs) in one transaction; returns entries deleted. */
  deleteSessions(conversationIds: readonly string[]): number;
  /** The sessions a retention policy removes, oldest first (open sessions never). */
  pruneCandidates(policy: maintenance.PrunePolicy): string[];
  /**
   * Marks every unfinished entry (a status not in TERMINAL_STATUSES) `interrupted`, with
   * `endedAt = now` (epoch ms), `notDelivered` (cause `console_stopped`; its `draft` is kept) and
   * an event {@link maintenance.INTERRUPTED_DETAIL}. Call once at start, before
   * any request arrives. Returns the number of entries marked.
   */
  markInterrupted(now: number): number;
  /** Counters per server for [from, to) of `receivedAt` (epoch ms; missing bounds: unbounded). */
  stats(range: { from?: number; to?: number }): HistoryStats;
  /** Distinct servers, tools, models and providers in history, for filter menus. */
  facets(): HistoryFacets;
  /** Token usage and recorded cost per (server, provider, model) of entries received at or after `from` (epoch ms), drafts excluded (usage.ts). */
  usageSince(from: number): UsageRow[];
  /** Closes the database (committed data is already on disk). Idempotent. */
  close(): void;
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
