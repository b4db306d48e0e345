/**
 * Migration 2: the history splits into a narrow `history` table (what lists, filters and counters
 * read) and `history_data` (preview, error text, JSON parts), both keyed by `seq INTEGER PRIMARY
 * KEY` in arrival order (see rows.ts); media payloads move to `blobs`, stored once per content and
 * linked from `history_blobs`; the FTS5 index is rebuilt with `seq` as its rowid.
 *
 * Why a rebuild rather than ALTER TABLE: v1 kept JSON in the list rows (a full scan read every
 * payload), ordered FTS matches by fetching and sorting every matching row (hundreds of ms for a
 * common word at 100,000 entries), and tied the FTS index to an implicit rowid, which VACUUM may
 * renumber. Every v1 row is read with the v1 column names, turned back into its entry, and written
 * with {@link writeEntry}; the FTS text is derived from the entry, so nothing is lost.
 */
import type { HistoryEntry } from '../../shared/contract/state.js';
import { statementCache } from './maintenance.js';
import type { Db } from './db.js';
import { writeEntry } from './write.js';

const V2_SQL = `
ALTER TABLE history RENAME TO history_v1;
DROP INDEX history_received_at;
DROP INDEX history_conversation;
DROP TABLE history_fts;
CREATE TABLE history (
  seq             INTEGER PRIMARY KEY,          -- floor(received_at) * 1000 + n: arrival order
  id              TEXT NOT NULL UNIQUE,
  conversation_id TEXT NOT NULL,
  server_id       TEXT NOT NULL,
  call_name       TEXT,
  status          TEXT NOT NULL,
  decided_by      TEXT,
  received_at     INTEGER NOT NULL,             -- epoch ms
  ended_at        INTEGER,                      -- epoch ms
  model           TEXT,
  provider_id     TEXT,
  edited          INTEGER NOT NULL CHECK (edited IN (0, 1)),
  has_error       INTEGER NOT NULL CHECK (has_error IN (0, 1)),
  input_tokens    INTEGER,
  output_tokens   INTEGER,
  media_bytes     INTEGER NOT NULL DEFAULT 0,   -- decoded bytes of the entry's distinct payloads
  media_count     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX history_conversation ON history (conversation_id);
CREATE INDEX history_server ON history (server_id);
CREATE INDEX history_stats ON history (server_id, status, decided_by, input_tokens, output_tokens);
CREATE TABLE history_data (
  seq               INTEGER PRIMARY KEY REFERENCES history (seq) ON DELETE CASCADE,
  preview           TEXT NOT NULL,
  error             TEXT,
  original_json     TEXT,                       -- JSON; NULL only when the entry's original is undefined
  sent_json         TEXT,                       -- JSON, or '=' for "same as original_json"
  model_choice_json TEXT,
  generated_json    TEXT,
  delivered_json    TEXT,                       -- JSON, or '=' for "same as generated_json"
  error_detail_json TEXT,
  usage_json        TEXT,
  timings_json      TEXT NOT NULL,
  events_json       TEXT NOT NULL,
  extra_json        TEXT                        -- JSON object of entry fields with no column
);
CREATE TABLE blobs (
  sha256    TEXT PRIMARY KEY NOT NULL,          -- hex SHA-256 of data
  bytes     INTEGER NOT NULL,                   -- decoded size
  mime_type TEXT,
  data      TEXT NOT NULL                       -- base64, exactly as received
);
CREATE TABLE history_blobs (
  seq    INTEGER NOT NULL REFERENCES history (seq) ON DELETE CASCADE,
  sha256 TEXT NOT NULL REFERENCES blobs (sha256),
  PRIMARY KEY (seq, sha256)
) WITHOUT ROWID;
CREATE INDEX history_blobs_sha256 ON history_blobs (sha256);
CREATE VIRTUAL TABLE history_fts USING fts5 (
  server_id, call_name, system_prompt, prompt, response,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);
`;

/** Columns of a version-1 `history` row (frozen: this is what v1 wrote). */
interface V1Row {
  id: string;
  conversation_id: string;
  server_id: string;
  call_name: string | null;
  status: string;
  decided_by: string | null;
  received_at: number;
  ended_at: number | null;
  model: string | null;
  provider_id: string | null;
  edited: number;
  error: string | null;
  preview: string;
  original_json: string | null;
  sent_json: string | null;
  model_choice_json: string | null;
  generated_json: string | null;
  delivered_json: string | null;
  error_detail_json: string | null;
  usage_json: string | null;
  timings_json: string;
  events_json: string;
  extra_json: string | null;
}

/** Applies migration 2 (inside the migration transaction). */
export function migrateToV2(db: Db): void {
  db.exec(V2_SQL);
  const prepare = statementCache(db);
  // In pages, in v1 save order (which orders entries received in the same millisecond).
  const page = db.prepare('SELECT rowid AS r, * FROM history_v1 WHERE rowid > ? ORDER BY rowid LIMIT 500');
  for (let after = -Infinity; ; ) {
    const rows = page.all(after) as Array<V1Row & { r: number }>;
    if (rows.length === 0) break;
    for (const row of rows) writeEntry(prepare, v1Entry(row), 2);
    after = rows[rows.length - 1]!.r;
  }
  db.exec('DROP TABLE history_v1');
}

/** The entry a v1 row stood for (the v1 mapping, frozen). */
function v1Entry(row: V1Row): HistoryEntry {
  const parse = (t: string | null): unknown => (t === null ? undefined : (JSON.parse(t) as unknown));
  const extra = (parse(row.extra_json) ?? {}) as Record<string, unknown>;
  const entry: Record<string, unknown> = {
    ...extra,
    id: row.id,
    conversationId: row.conversation_id,
    serverId: row.server_id,
    status: row.status,
    receivedAt: row.received_at,
    edited: row.edited === 1,
    preview: row.preview,
    original: parse(row.original_json),
    timings: parse(row.timings_json),
    events: parse(row.events_json),
  };
  const optional: Array<[string, unknown]> = [
    ['callName', row.call_name ?? undefined],
    ['decidedBy', row.decided_by ?? undefined],
    ['endedAt', row.ended_at ?? undefined],
    ['model', row.model ?? undefined],
    ['providerId', row.provider_id ?? undefined],
    ['error', row.error ?? undefined],
    ['sent', parse(row.sent_json)],
    ['modelChoice', parse(row.model_choice_json)],
    ['generated', parse(row.generated_json)],
    ['delivered', parse(row.delivered_json)],
    ['errorDetail', parse(row.error_detail_json)],
    ['usage', parse(row.usage_json)],
  ];
  for (const [k, v] of optional) if (v !== undefined) entry[k] = v;
  return entry as unknown as HistoryEntry;
}
