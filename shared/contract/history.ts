/**
 * The history contract beyond `HistoryEntry` (shared/contract/state.ts): list filters, per-server counters,
 * export formats and the JSONL session line, retention settings. zod schemas for every input that
 * crosses a boundary (API calls, the settings file, an exported JSONL file read back).
 *
 * Vocabulary: an *entry* is one sampling request (`HistoryEntry`); a *session* is one server's
 * sampling conversation, i.e. every entry sharing a `conversationId` (all requests of one tool
 * loop). Export and delete work on whole sessions. Times are epoch ms.
 */
import { z } from 'zod';
import type { HistoryEntry, HistorySummary } from './state.js';
import { ITEM_STATUSES } from './status.js';

/** Every status an entry can have in history: the one vocabulary of every item (./status.ts). */
export const HISTORY_STATUSES = ITEM_STATUSES;

/** Who decided: the person, an auto-approve rule (a later issue), or the console itself. */
export const DECIDERS = ['person', 'rule', 'console'] as const;

const name = z.string().min(1).max(500);
const epochMs = z.number().int().min(0).max(8.64e15);

/**
 * The filters of the history list, stats-free export and counters. Every field is optional; given
 * fields are ANDed. `from`/`to` bound `receivedAt` as [from, to). `tool` is a call name as the list
 * shows it ("tools/call trigger-sampling-request"), matching also its "(+N more in flight)" form.
 * `edited`/`errors`: true = only entries with edits / with an error; false = only those without.
 * `query`: full-text words (see HistoryStore.list). `conversationId`: one session's entries. `id`:
 * one entry (e.g. whether the entry on screen still matches the other filters).
 */
export const HistoryFilterShape = {
  query: z.string().max(500).optional(),
  serverId: name.optional(),
  tool: name.optional(),
  status: z.array(z.enum(HISTORY_STATUSES)).min(1).max(HISTORY_STATUSES.length).optional(),
  decidedBy: z.enum(DECIDERS).optional(),
  /** The id of the auto-approve rule that decided (`rule.ruleId`). */
  rule: name.optional(),
  model: name.optional(),
  providerId: name.optional(),
  from: epochMs.optional(),
  to: epochMs.optional(),
  edited: z.boolean().optional(),
  errors: z.boolean().optional(),
  conversationId: name.optional(),
  id: name.optional(),
  /** On a team server: entries decided by the person with this subject (`decider.subject`). */
  decider: name.optional(),
  /** On a team server: entries requested with a personal token of the person with this subject. */
  requestedBy: name.optional(),
} as const;

/** {@link HistoryFilterShape} as a strict object schema. */
export const HistoryFilterSchema = z.object(HistoryFilterShape).strict();

/** A parsed history filter. */
export type HistoryFilter = z.infer<typeof HistoryFilterSchema>;

/** One row of the history list: the summary plus list-only facts. */
export interface HistoryListItem extends HistorySummary {
  /** Entries in this entry's session (≥ 1). */
  sessionSize: number;
  /** 1-based position of this entry in its session, by `receivedAt`. */
  sessionIndex: number;
  /** Decoded bytes of every distinct image/audio/blob payload in the entry; 0 when none. */
  mediaBytes: number;
  /** Number of such payloads (distinct by content). */
  mediaCount: number;
}

/** A page of the history list, newest first; `total` counts every entry matching the filter. */
export interface HistoryListPage {
  entries: HistoryListItem[];
  /** Entries matching the filter; with `totalCapped`, at least this many. */
  total: number;
  /**
   * Set when a full-text search matched more entries than the store counts (a team's PostgreSQL
   * history stops counting a search at 1,000, so a common word over millions of entries stays
   * fast): `total` is then a lower bound ("1,000+"), and pages past it can still be asked for.
   * The desktop's SQLite history always counts exactly.
   */
  totalCapped?: true;
}

/** Counters of one server for a period. */
export interface HistoryServerStats {
  serverId: string;
  /** Entries (sampling requests) received in the period. */
  requests: number;
  /** Entries delivered to the server (approved request and response). */
  approved: number;
  /** Entries rejected (by the person or a rule). */
  rejected: number;
  /** Entries decided by an auto-approve rule (`decidedBy: 'rule'`). */
  auto: number;
  /** Input + output tokens the providers reported. */
  tokens: number;
  /** Sum of the recorded generation costs in USD (usage × the model's price); null when no generation of the period had a known price. */
  cost: number | null;
}

/** Counters of one person of a team server for a period (shared/contract/personal-tokens.ts PersonRef). */
export interface HistoryPersonStats {
  subject: string;
  /** Their latest name in the period. */
  name: string;
  /** Entries they decided (`decider`). */
  decided: number;
  /** Of those, entries delivered (approved) and refused (rejected). */
  approved: number;
  rejected: number;
  /** Entries requested with their personal tokens (`requestedBy`). */
  requested: number;
}

/**
 * Counters per server for [from, to) (missing bounds: unbounded), servers sorted by id; on a team
 * server, `people`: per person who decided or requested something in the period, sorted by name
 * (absent when nobody did).
 */
export interface HistoryStats {
  from?: number;
  to?: number;
  servers: HistoryServerStats[];
  people?: HistoryPersonStats[];
}

/** Distinct values present in history, for the filter menus (sorted). */
export interface HistoryFacets {
  servers: string[];
  tools: string[];
  models: string[];
  providers: string[];
  /** Rules that decided something: id, name and server (latest name seen), sorted by name. */
  rules: Array<{ ruleId: string; name: string; serverId: string }>;
  /** On a team server: the people who decided or requested something (subject and their latest name), sorted by name; absent when none. */
  people?: Array<{ subject: string; name: string }>;
}

/** Export formats: JSONL (one session per line, machine-readable) or a readable report. */
export const EXPORT_FORMATS = ['jsonl', 'markdown', 'html'] as const;
/** One of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An exported file, for the renderer to save (a Blob download). */
export interface ExportedFile {
  /** e.g. "mcp-history-2026-11-20T14-03-27.jsonl". */
  filename: string;
  /** `application/x-ndjson`, `text/markdown` or `text/html`, with `; charset=utf-8`. */
  mimeType: string;
  content: string;
  /** Sessions and entries in the file. */
  sessions: number;
  entries: number;
}

/** Value of `format` in every JSONL line. */
export const SESSION_FORMAT = 'mcp-approval-console/session';
/** Value of `version` in every JSONL line written by this code. */
export const SESSION_FORMAT_VERSION = 1;

/**
 * One JSONL line: a session with all its entries, oldest first, each exactly as stored (media
 * payloads inline as base64). Documented in docs/history.md, "JSONL export".
 */
export interface HistorySession {
  format: typeof SESSION_FORMAT;
  version: typeof SESSION_FORMAT_VERSION;
  conversationId: string;
  serverId: string;
  /** `receivedAt` of the first entry. */
  startedAt: number;
  /** The latest `endedAt` of its entries; absent while any entry has none. */
  endedAt?: number;
  requests: HistoryEntry[];
}

/** Structural check of an entry read back from JSONL (required fields; the rest is kept as is). */
export const HistoryEntryLooseSchema = z.looseObject({
  id: z.string().min(1),
  conversationId: z.string().min(1),
  serverId: z.string().min(1),
  status: z.string().min(1),
  receivedAt: z.number(),
  edited: z.boolean(),
  preview: z.string(),
  timings: z.record(z.string(), z.unknown()),
  events: z.array(z.looseObject({ at: z.number(), kind: z.string() })),
});

/** Schema of one JSONL line ({@link HistorySession}). */
export const HistorySessionSchema = z
  .object({
    format: z.literal(SESSION_FORMAT),
    version: z.literal(SESSION_FORMAT_VERSION),
    conversationId: z.string().min(1),
    serverId: z.string().min(1),
    startedAt: z.number(),
    endedAt: z.number().optional(),
    requests: z.array(HistoryEntryLooseSchema).min(1),
  })
  .strict();

/** Retention: null = no limit. Both limits apply when both are set. */
export const HistorySettingsSchema = z
  .object({
    /** Keep sessions whose newest entry is at most this many days old. */
    retentionDays: z.number().int().min(1).max(36_500).nullable(),
    /** Keep at most this many sessions (the newest ones). */
    retentionSessions: z.number().int().min(1).max(100_000_000).nullable(),
  })
  .strict();

/** Parsed retention settings. */
export type HistorySettings = z.infer<typeof HistorySettingsSchema>;

/** Keep everything (the default). */
export const DEFAULT_HISTORY_SETTINGS: HistorySettings = { retentionDays: null, retentionSessions: null };

/** Most sessions one export may hold (the file travels as one string to the renderer). */
export const MAX_EXPORT_SESSIONS = 10_000;
