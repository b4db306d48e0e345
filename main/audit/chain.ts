/**
 * The audit trail's chain: how a record's two hashes are made, so that anyone can recompute them
 * from the stored (or exported) fields with `sha256sum`.
 *
 * - `contentHash` = hex SHA-256 of the UTF-8 JSON text (as ECMAScript's `JSON.stringify` writes
 *   it) of the array `["mcp-approval-console/audit-record/1", at, actorKind, actorId, actorName,
 *   kind, subject, details]` — `actorId`/`actorName` `null` when absent, `details` the stored JSON
 *   text (a string inside the array);
 * - `hash` = hex SHA-256 of the JSON text of `[seq, prevHash, contentHash]`, where `prevHash` is the
 *   `hash` of the record numbered `seq - 1` ({@link AUDIT_GENESIS_HASH} for record 1).
 *
 * Editing a record changes its content hash; renumbering, reordering or relinking it changes its
 * hash; and every record's hash is in the next one's `prevHash`, so no record can change without
 * breaking the chain after it — unless every hash after it is recomputed, which is what anchors
 * (anchors.ts) catch.
 */
import { createHash } from 'node:crypto';
import { AUDIT_GENESIS_HASH, type AuditActor, type AuditHead } from '../../shared/contract/audit.js';

export { AUDIT_GENESIS_HASH } from '../../shared/contract/audit.js';

/** The tag that starts every content hash's input (its version). */
const CONTENT_TAG = 'mcp-approval-console/audit-record/1';

/** A record as stored, every field as the chain's hashes cover it. `at`: epoch ms. */
export interface StoredAuditRecord {
  seq: number;
  at: number;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  kind: string;
  subject: string;
  /** The details as the JSON text that was hashed. */
  details: string;
  prevHash: string;
  contentHash: string;
  hash: string;
}

/** What is sealed into the chain: a checked input with its details already JSON text. `at`: epoch ms. */
export interface SealInput {
  at: number;
  actor: AuditActor;
  kind: string;
  subject: string;
  details: string;
}

/** Hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The content hash of a record's fields (see the module doc). */
export function contentHashOf(r: Pick<StoredAuditRecord, 'at' | 'actorKind' | 'actorId' | 'actorName' | 'kind' | 'subject' | 'details'>): string {
  return sha256Hex(JSON.stringify([CONTENT_TAG, r.at, r.actorKind, r.actorId, r.actorName, r.kind, r.subject, r.details]));
}

/** The chain hash of record `seq` linked to `prevHash` (see the module doc). */
export function linkHashOf(seq: number, prevHash: string, contentHash: string): string {
  return sha256Hex(JSON.stringify([seq, prevHash, contentHash]));
}

/**
 * The records `inputs` become when appended after `head`, numbered on from it, each linked to the
 * one before. Pure: the store writes them and moves its head to the last one's seq and hash.
 */
export function seal(head: AuditHead, inputs: readonly SealInput[]): StoredAuditRecord[] {
  let prev = head;
  return inputs.map((input) => {
    const fields = { at: input.at, actorKind: input.actor.kind, actorId: input.actor.id ?? null, actorName: input.actor.name ?? null, kind: input.kind, subject: input.subject, details: input.details };
    const contentHash = contentHashOf(fields);
    const seq = prev.seq + 1;
    const hash = linkHashOf(seq, prev.hash, contentHash);
    const record: StoredAuditRecord = { seq, ...fields, prevHash: prev.hash, contentHash, hash };
    prev = { seq, hash };
    return record;
  });
}

/** The head of an empty chain. */
export const EMPTY_HEAD: AuditHead = { seq: 0, hash: AUDIT_GENESIS_HASH };
