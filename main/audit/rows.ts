/**
 * The audit_log table's row, as both stores read it (SQLite's audit.db and the team's PostgreSQL
 * share one column list), and its conversion to a stored record.
 */
import type { StoredAuditRecord } from './chain.js';

/** A row of audit_log as the driver returns it (`seq` and `at` may come as strings from int8). */
export interface AuditRow {
  seq: number;
  at: number;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  kind: string;
  subject: string;
  details: string;
  prev_hash: string;
  content_hash: string;
  hash: string;
}

/** The columns of {@link AuditRow}, in order, for a SELECT list. */
export const AUDIT_COLUMNS = 'seq, at, actor_kind, actor_id, actor_name, kind, subject, details, prev_hash, content_hash, hash';

/** A row as a stored record (`seq` and `at` as numbers). */
export function recordOfRow(r: AuditRow): StoredAuditRecord {
  return { seq: Number(r.seq), at: Number(r.at), actorKind: r.actor_kind, actorId: r.actor_id, actorName: r.actor_name, kind: r.kind, subject: r.subject, details: r.details, prevHash: r.prev_hash, contentHash: r.content_hash, hash: r.hash };
}
