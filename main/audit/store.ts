/**
 * Where the audit trail is kept: one interface, two implementations passing one contract
 * (test/audit/contract/): SQLite (`audit.db` in the data folder, the desktop's: sqlite-store.ts)
 * and PostgreSQL (a team's database, migration 0012_audit.sql: pg-store.ts).
 *
 * Both keep the chain in `audit_log` (one row per record, every field the hashes cover, chain.ts)
 * and its head in `audit_head` (one row: the last record's seq and hash). An append locks the head
 * row for its transaction (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: `SELECT … FOR UPDATE`), so any
 * number of processes or instances append to one chain in turn and it never forks. The tables
 * refuse UPDATE and DELETE of records (triggers) — against mistakes; against someone who can
 * change the database, the chain and its anchors are the protection (verify.ts).
 */
import type { AuditHead } from '../../shared/contract/audit.js';
import type { SealInput, StoredAuditRecord } from './chain.js';

/** A page of records for people, newest first. */
export interface AuditListOptions {
  /** Only records with a smaller seq (paging back); absent: from the newest. */
  before?: number;
  /** Page size, 1…500. */
  limit: number;
}

/** The audit trail's storage. Times are epoch ms. */
export interface AuditStore {
  /** Where it is, for messages (a file path, or a database without its password). */
  readonly where: string;
  /**
   * Appends `inputs` (in order) after the head in one transaction that holds the head row, and
   * moves the head to the last one. Resolves to the records as stored.
   * @throws (rejects) HistoryUnavailableError while a PostgreSQL database cannot be reached; the
   *   database's error otherwise (nothing of this call is appended)
   */
  append(inputs: readonly SealInput[]): Promise<StoredAuditRecord[]>;
  /** Up to `limit` records with seq ≥ `from`, ascending, exactly as stored (nothing checked). */
  read(from: number, limit: number): Promise<StoredAuditRecord[]>;
  /** The record numbered `seq` as stored, or null. */
  at(seq: number): Promise<StoredAuditRecord | null>;
  /** Records newest first (for the audit view). */
  list(opts: AuditListOptions): Promise<StoredAuditRecord[]>;
  /** The head row: where the chain ends as the store last moved it ({seq: 0, genesis} when empty). */
  head(): Promise<AuditHead>;
  /**
   * Resolves once every append before the call is committed: it survives the process being killed;
   * on SQLite it reaches stable storage within 100 ms (a background fsync), on PostgreSQL at commit.
   * @throws (rejects) a failed background sync's error, once
   */
  durable(): Promise<void>;
  /** Closes what this store opened. Idempotent. */
  close(): Promise<void>;
}

/** Every record of a store from `from` on, in pages, ascending. */
export async function* allRecords(store: Pick<AuditStore, 'read'>, from = 1, page = 1_000): AsyncGenerator<StoredAuditRecord> {
  for (let next = from; ; ) {
    const rows = await store.read(next, page);
    yield* rows;
    if (rows.length < page) return;
    next = rows[rows.length - 1]!.seq + 1;
  }
}
