/**
 * The audit trail's contract: who may act (actors), what is recorded (kinds), a record as stored
 * and as read back, and the files that carry it outside the database — JSONL lines exported with
 * History and anchor files. The chain's rules (how each record's hashes are made) live with the
 * code that makes and checks them (main/audit/chain.ts); docs/audit.md describes both for people.
 */
import { z } from 'zod';
import type { UiText } from './ui-text.js';

/**
 * Who acted: a person (on a team server, their account `id` and `name`; on the desktop, the one
 * person at it, no id), a rule (its `id` and `name`; the version in the record's details), the
 * console itself (it noticed a file edited by hand, it pruned History by its retention settings),
 * or an instance of a team server (its instance id) acting for a gone peer.
 */
export const AUDIT_ACTOR_KINDS = ['person', 'rule', 'console', 'instance'] as const;
/** See {@link AUDIT_ACTOR_KINDS}. */
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Text the chain stores: at most 500 characters, no NUL (PostgreSQL text cannot hold one). */
const ChainText = z.string().max(500).refine((s) => !s.includes('\0'), 'must not contain NUL');

/** An actor (see {@link AUDIT_ACTOR_KINDS}). */
export const AuditActorSchema = z.object({ kind: z.enum(AUDIT_ACTOR_KINDS), id: ChainText.optional(), name: ChainText.optional() }).strict();
/** See {@link AuditActorSchema}. */
export type AuditActor = z.infer<typeof AuditActorSchema>;

/**
 * What a record says happened. A kind is `<area>.<what>`; new kinds are added here (the list is
 * what the console writes; a chain read back may hold kinds a newer console wrote, and verifying
 * never depends on them).
 *
 * - `sampling.*`: a decision about a sampling request (or a gateway call) or its response — by a
 *   person (details: the content `version` they saw, the `sha256` of what went out, `edited`) or
 *   by a rule (details: the rule's `version`, the `action`).
 * - `elicitation.*`: an answer to an elicitation (details: `version` of the question seen, `sha256`
 *   of the answer sent), or a decline by the server's elicitation policy.
 * - `rules.changed`, `limits.changed`, `budget.changed`: the rule book, a limit or a budget changed
 *   (details: what changed and the `sha256` of the rule book now in force).
 * - `token.created`, `token.revoked`: a gateway token (or a personal token) made or revoked.
 * - `session.*`, `person.*`: sign-ins (also failed ones: the name tried, never the password),
 *   sign-outs, people added or removed, their role changed, a new password set (never the password).
 * - `claim.*`: a reviewer claimed a waiting request, released it, or an admin took it over.
 * - `approval.given`: a reviewer's approval of a request a two-person rule covers (details: the
 *   `version` seen, the `approved` version of request and model, `given` of `needed`).
 * - `history.pruned`, `history.deleted`: History's sessions removed by retention or by a person.
 */
export const AUDIT_KINDS = [
  'sampling.request_approved',
  'sampling.request_rejected',
  'sampling.response_approved',
  'sampling.response_rejected',
  'sampling.regenerated',
  'sampling.generation_cancelled',
  'elicitation.accepted',
  'elicitation.declined',
  'elicitation.cancelled',
  'rules.changed',
  'limits.changed',
  'budget.changed',
  'token.created',
  'token.revoked',
  'session.signed_in',
  'session.sign_in_failed',
  'session.signed_out',
  'person.added',
  'person.removed',
  'person.role_changed',
  'person.password_set',
  'claim.taken',
  'claim.released',
  'claim.taken_over',
  'approval.given',
  'history.pruned',
  'history.deleted',
] as const;
/** See {@link AUDIT_KINDS}. */
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** A JSON value of a record's details. */
export type AuditJson = string | number | boolean | null | AuditJson[] | { [key: string]: AuditJson };

/** Most characters of a record's details as JSON text: details hold hashes and ids, never payloads. */
export const MAX_AUDIT_DETAILS_CHARS = 16_384;

/**
 * What a part of the console records (main/audit/trail.ts `AuditTrail.record`). `subject` names
 * what it is about, as `<type>:<id>`: `item:<id>` (a sampling request or elicitation), `rules`
 * (the rule book), `token:<name>`, `person:<id>`, `history`… `at`: epoch ms (default: now).
 */
export const AuditInputSchema = z
  .object({
    actor: AuditActorSchema,
    kind: z.enum(AUDIT_KINDS),
    subject: ChainText.min(1),
    details: z.record(z.string(), z.json()).default({}),
    at: z.number().int().nonnegative().optional(),
  })
  .strict();
/** See {@link AuditInputSchema}. */
export type AuditInput = z.input<typeof AuditInputSchema>;

/** The hash before the first record (64 zeros), and the head of an empty chain. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/** A hex SHA-256. */
const Hash = z.string().regex(/^[0-9a-f]{64}$/);

/** Where a chain ends: its last record's `seq` and `hash` (0 and {@link AUDIT_GENESIS_HASH} when empty). */
export const AuditHeadSchema = z.object({ seq: z.number().int().nonnegative(), hash: Hash }).strict();
/** See {@link AuditHeadSchema}. */
export type AuditHead = z.infer<typeof AuditHeadSchema>;

/** A record read back for people (the audit view): its details parsed. Times are epoch ms. */
export interface AuditRecordView {
  seq: number;
  at: number;
  actor: AuditActor;
  /** One of {@link AUDIT_KINDS}, or one a newer console wrote. */
  kind: string;
  subject: string;
  details: Record<string, unknown>;
  hash: string;
}

/** `format` of an exported audit record line (JSONL, after History's sessions). */
export const AUDIT_RECORD_FORMAT = 'mcp-approval-console/audit-record';
/** `format` of the exported audit trail's head line (the chain's head when it was exported). */
export const AUDIT_HEAD_FORMAT = 'mcp-approval-console/audit-head';
/** `version` of both line formats. */
export const AUDIT_EXPORT_VERSION = 1;

/**
 * One exported record, exactly as stored: `details` is the JSON text the record's content hash
 * covers (kept as text so the hash can be recomputed byte for byte).
 */
export const AuditRecordLineSchema = z
  .object({
    format: z.literal(AUDIT_RECORD_FORMAT),
    version: z.literal(AUDIT_EXPORT_VERSION),
    seq: z.number().int(),
    at: z.number().int(),
    actor: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string().nullable() }).strict(),
    kind: z.string(),
    subject: z.string(),
    details: z.string(),
    prevHash: z.string(),
    contentHash: z.string(),
    hash: z.string(),
  })
  .strict();
/** See {@link AuditRecordLineSchema}. */
export type AuditRecordLine = z.infer<typeof AuditRecordLineSchema>;

/** The head line of an export: the chain's head as the database said when it was exported. */
export const AuditHeadLineSchema = z.object({ format: z.literal(AUDIT_HEAD_FORMAT), version: z.literal(AUDIT_EXPORT_VERSION), seq: z.number().int().nonnegative(), hash: z.string(), exportedAt: z.number() }).strict();
/** See {@link AuditHeadLineSchema}. */
export type AuditHeadLine = z.infer<typeof AuditHeadLineSchema>;

/** `format` of an anchor file. */
export const AUDIT_ANCHOR_FORMAT = 'mcp-approval-console/audit-anchor';
/** `version` of anchor files written by this code. */
export const AUDIT_ANCHOR_VERSION = 1;

/**
 * An anchor file: the chain's head (`seq`, `hash`) at `at` (epoch ms; `time` the same in ISO
 * 8601), signed with Ed25519 by the key whose fingerprint is `keyId` (hex SHA-256 of its SPKI
 * DER). `publicKey` (PEM) is a convenience, never trusted by itself: verify checks the signature
 * against keys the operator trusts. `signature`: base64 of the signature over the text
 * main/audit/anchors.ts `anchorSignedText` makes.
 */
export const AuditAnchorSchema = z
  .object({
    format: z.literal(AUDIT_ANCHOR_FORMAT),
    version: z.literal(AUDIT_ANCHOR_VERSION),
    seq: z.number().int().nonnegative(),
    hash: Hash,
    at: z.number().int().nonnegative(),
    time: z.string(),
    keyId: Hash,
    publicKey: z.string(),
    signature: z.string().min(1),
  })
  .strict();
/** See {@link AuditAnchorSchema}. */
export type AuditAnchor = z.infer<typeof AuditAnchorSchema>;

/**
 * What verifying found:
 * - `edited`: record `seq` is not what was recorded (its content, or its hashes recomputed);
 * - `inserted`: record `seq` was added in the middle of the chain, or after its head;
 * - `removed`: records `seq`…`to` are missing (in the middle, or the newest ones);
 * - `rewritten`: the record at an anchored `seq` is not the one anchored (the chain was rebuilt
 *   with recomputed hashes, or its records before `seq` changed);
 * - `forged`: an anchor file whose signature does not verify with a trusted key (or is unreadable).
 */
export const AUDIT_FINDING_CODES = ['edited', 'inserted', 'removed', 'rewritten', 'forged'] as const;
/** See {@link AUDIT_FINDING_CODES}. */
export type AuditFindingCode = (typeof AUDIT_FINDING_CODES)[number];

/** One thing verifying found; `ui` says it for people (`message`: its English). */
export interface AuditFinding {
  code: AuditFindingCode;
  /** The first record concerned (absent for an anchor that cannot be read). */
  seq?: number;
  /** The last record of a range removed. */
  to?: number;
  /** The anchor file concerned. */
  anchor?: string;
  ui: UiText;
  message: string;
}

/** What `audit verify` reports. */
export interface AuditVerifyReport {
  /** No findings: every record is as recorded, and the chain reaches and matches every anchor. */
  intact: boolean;
  /** Records read. */
  records: number;
  /** The last record read (seq 0 and the genesis hash when there is none). */
  last: AuditHead;
  /** The head the store's head row (or the export's head line) names, when there is one. */
  storedHead?: AuditHead;
  /** Anchors checked, and the newest that verified. Times are epoch ms. */
  anchors: { checked: number; newest?: { seq: number; at: number; file: string } };
  /** Findings, the chain's first; empty when intact. */
  findings: AuditFinding[];
}
