/**
 * Writing entries into the PostgreSQL history (schema: migrations/0001_history.sql): an entry
 * becomes the same narrow and data rows as in SQLite (../rows.ts), plus its search document and
 * the list columns SQLite reads out of `extra_json`; a batch of entries is written with one
 * statement (arrays unnested), then its media and big-text links.
 */
import type { HistoryEntry } from '../../../shared/contract/state.js';
import { TEXT_FILE_MIME } from '../big-texts.js';
import { externalizeMedia, type MediaBlob, type TextRef } from '../media.js';
import { entryToRows, type DataRow, type NarrowRow } from '../rows.js';
import type { Params } from './connection.js';
import { searchDocument } from './search.js';

/** An entry ready to be written: its rows, search document and payloads. */
export interface PreparedEntry {
  id: string;
  narrow: NarrowRow;
  data: DataRow;
  /** Space-separated words (search.ts). */
  search: string;
  costUsd: number | null;
  draft: boolean;
  notDeliveredJson: string | null;
  callArgs: string | null;
  errorUiJson: string | null;
  /** Media payloads moved out of the parts. */
  blobs: MediaBlob[];
  /** Big texts stored before (prepareEntry), referenced by hash. */
  texts: TextRef[];
  /** The team instance writing it (main/team/instances.ts), or null for a console without a team. */
  instanceId: string | null;
}

/**
 * The rows of `entry`. `textRef` knows the big texts already stored (their strings become
 * references); `instanceId` is the team instance writing it (null without a team).
 * @throws TypeError when a part cannot be JSON-encoded (e.g. it is cyclic)
 */
export function prepareEntry(entry: HistoryEntry, textRef?: (text: string) => TextRef | undefined, instanceId: string | null = null): PreparedEntry {
  const { entry: stored, blobs, texts } = externalizeMedia(entry, textRef);
  const { narrow, data } = entryToRows(stored, { bytes: blobs.reduce((n, b) => n + b.bytes, 0), count: blobs.length });
  return {
    id: entry.id,
    narrow,
    data,
    search: searchDocument(entry),
    costUsd: typeof entry.costUsd === 'number' && Number.isFinite(entry.costUsd) ? entry.costUsd : null,
    draft: entry.origin === 'draft',
    notDeliveredJson: entry.notDelivered === undefined ? null : JSON.stringify(entry.notDelivered),
    callArgs: typeof entry.callArgs === 'string' ? entry.callArgs : null,
    errorUiJson: entry.errorUi === undefined ? null : JSON.stringify(entry.errorUi),
    blobs,
    texts,
    instanceId,
  };
}

/**
 * A plain text column's value as PostgreSQL can hold it: `text` cannot contain U+0000, which a
 * server's text may (the entry's JSON parts keep it, escaped); it becomes U+FFFD there.
 */
export const pgText = (v: string | null): string | null => (v === null || !v.includes('\u0000') ? v : v.replaceAll('\u0000', '\uFFFD'));

/** `history` columns written from a prepared entry, with their array types (all but `seq` and `search`). */
const NARROW: ReadonlyArray<[string, string, (p: PreparedEntry) => unknown]> = [
  ['id', 'text', (p) => pgText(p.narrow.id)],
  ['conversation_id', 'text', (p) => pgText(p.narrow.conversation_id)],
  ['server_id', 'text', (p) => pgText(p.narrow.server_id)],
  ['call_name', 'text', (p) => pgText(p.narrow.call_name)],
  ['status', 'text', (p) => pgText(p.narrow.status)],
  ['decided_by', 'text', (p) => pgText(p.narrow.decided_by)],
  ['received_at', 'float8', (p) => p.narrow.received_at],
  ['ended_at', 'float8', (p) => p.narrow.ended_at],
  ['model', 'text', (p) => pgText(p.narrow.model)],
  ['provider_id', 'text', (p) => pgText(p.narrow.provider_id)],
  ['edited', 'bool', (p) => p.narrow.edited === 1],
  ['has_error', 'bool', (p) => p.narrow.has_error === 1],
  ['input_tokens', 'float8', (p) => p.narrow.input_tokens],
  ['output_tokens', 'float8', (p) => p.narrow.output_tokens],
  ['media_bytes', 'float8', (p) => p.narrow.media_bytes],
  ['media_count', 'int4', (p) => p.narrow.media_count],
  ['kind', 'text', (p) => pgText(p.narrow.kind)],
  ['rule_id', 'text', (p) => pgText(p.narrow.rule_id)],
  ['rule_json', 'text', (p) => p.narrow.rule_json],
  ['decider_subject', 'text', (p) => pgText(p.narrow.decider_subject)],
  ['decider_name', 'text', (p) => pgText(p.narrow.decider_name)],
  ['requested_by_subject', 'text', (p) => pgText(p.narrow.requested_by_subject)],
  ['requested_by_name', 'text', (p) => pgText(p.narrow.requested_by_name)],
  ['cost_usd', 'float8', (p) => p.costUsd],
  ['draft', 'bool', (p) => p.draft],
  ['instance_id', 'text', (p) => p.instanceId],
];

/** `history_data` columns (all but `seq`). */
const DATA: ReadonlyArray<[string, (p: PreparedEntry) => unknown]> = [
  ['preview', (p) => pgText(p.data.preview)],
  ['error', (p) => pgText(p.data.error)],
  ['original_json', (p) => p.data.original_json],
  ['sent_json', (p) => p.data.sent_json],
  ['model_choice_json', (p) => p.data.model_choice_json],
  ['generated_json', (p) => p.data.generated_json],
  ['delivered_json', (p) => p.data.delivered_json],
  ['error_detail_json', (p) => p.data.error_detail_json],
  ['usage_json', (p) => p.data.usage_json],
  ['timings_json', (p) => p.data.timings_json],
  ['events_json', (p) => p.data.events_json],
  ['extra_json', (p) => p.data.extra_json],
  ['not_delivered_json', (p) => p.notDeliveredJson],
  ['call_args', (p) => pgText(p.callArgs)],
  ['error_ui_json', (p) => p.errorUiJson],
];

const INPUT_COLUMNS = [...NARROW.map(([c]) => c), 'search', ...DATA.map(([c]) => c)];
const INPUT_TYPES = [...NARROW.map(([, t]) => t), 'text', ...DATA.map(() => 'text')];

/**
 * Upserts a batch of entries (distinct ids) and their data rows by `id`, and removes their media
 * links (the caller links what they hold now). Rows: `{id, seq}` per entry (in any order), and
 * `{dropped}` per link removed (hashes that may now be unused).
 */
export const UPSERT_SQL =
  `WITH i AS (SELECT * FROM unnest(${INPUT_TYPES.map((t, n) => `$${n + 1}::${t}[]`).join(', ')}) AS i(${INPUT_COLUMNS.join(', ')})), ` +
  `h AS (INSERT INTO history AS h (${NARROW.map(([c]) => c).join(', ')}, search) ` +
  `SELECT ${NARROW.map(([c]) => c).join(', ')}, to_tsvector('history_search', search) FROM i ` +
  `ON CONFLICT (id) DO UPDATE SET ${[...NARROW.slice(1).map(([c]) => c), 'search'].map((c) => `${c} = EXCLUDED.${c}`).join(', ')} ` +
  'RETURNING h.seq, h.id), ' +
  `d AS (INSERT INTO history_data AS d (seq, ${DATA.map(([c]) => c).join(', ')}) ` +
  `SELECT h.seq, ${DATA.map(([c]) => `i.${c}`).join(', ')} FROM h JOIN i ON i.id = h.id ` +
  `ON CONFLICT (seq) DO UPDATE SET ${DATA.map(([c]) => `${c} = EXCLUDED.${c}`).join(', ')}), ` +
  'l AS (DELETE FROM history_blobs WHERE seq IN (SELECT seq FROM h) RETURNING sha256) ' +
  'SELECT h.id, h.seq, NULL::text AS dropped FROM h UNION ALL SELECT NULL, NULL, l.sha256 FROM l';

/** The parameters of {@link UPSERT_SQL} for `batch`: one array per column. */
export function upsertParams(batch: readonly PreparedEntry[]): Params {
  return [...NARROW.map(([, , get]) => batch.map(get)), batch.map((p) => p.search), ...DATA.map(([, get]) => batch.map(get))];
}

/** Links entries (`seq`) to payloads (`sha256`); both arrays the same length. */
export const LINK_SQL = 'INSERT INTO history_blobs (seq, sha256) SELECT * FROM unnest($1::bigint[], $2::text[]) ON CONFLICT DO NOTHING';

/** Marks payloads as just used (so the collector leaves them alone). */
export const TOUCH_SQL = 'UPDATE blobs SET touched_at = now() WHERE sha256 = ANY($1::text[])';

/** Stores a payload once: $1 sha256, $2 bytes, $3 mime type, $4 encoding, $5 data; touches it when stored already. */
export const BLOB_SQL =
  'INSERT INTO blobs AS b (sha256, bytes, mime_type, encoding, data) VALUES ($1, $2, $3, $4, $5) ' +
  'ON CONFLICT (sha256) DO UPDATE SET touched_at = now()';

/**
 * Removes payloads no entry links to that were last touched more than $2 ms ago; $1: only those
 * hashes (null: all). A writer linking one touches it first, in the same transaction, so a payload
 * about to be linked is never removed; rows another transaction holds are skipped (left for the
 * next run), so collecting never waits on a writer nor deadlocks with another instance's collector.
 */
export const COLLECT_SQL =
  'DELETE FROM blobs WHERE sha256 IN (SELECT b.sha256 FROM blobs AS b ' +
  "WHERE b.touched_at < now() - $2::float8 * interval '1 millisecond' AND ($1::text[] IS NULL OR b.sha256 = ANY($1::text[])) " +
  'AND NOT EXISTS (SELECT 1 FROM history_blobs AS l WHERE l.sha256 = b.sha256) FOR UPDATE SKIP LOCKED)';

/** How a payload's string is kept in `blobs.data` (see migrations/0001_history.sql). */
export type BlobEncoding = 'base64' | 'utf8' | 'json';

/** A UTF-16 code unit UTF-8 cannot encode (a surrogate without its pair). */
const LONE_SURROGATE = /\p{Cs}/u;

/** A string as `blobs.data` and its encoding: UTF-8 when that holds it exactly, else its JSON literal. */
function stringData(value: string): { encoding: BlobEncoding; data: Buffer } {
  return !LONE_SURROGATE.test(value) && !value.includes('\u0000') ? { encoding: 'utf8', data: Buffer.from(value, 'utf8') } : { encoding: 'json', data: Buffer.from(JSON.stringify(value), 'utf8') };
}

/**
 * The parameters of {@link BLOB_SQL} for a media payload: decoded when the base64 text
 * round-trips exactly (a quarter smaller), else the string itself.
 */
export function mediaBlobParams(blob: MediaBlob): Params {
  const decoded = Buffer.from(blob.data, 'base64');
  const { encoding, data } = decoded.toString('base64') === blob.data ? { encoding: 'base64', data: decoded } : stringData(blob.data);
  return [blob.sha256, blob.bytes, blob.mimeType, encoding, data];
}

/** The parameters of {@link BLOB_SQL} for a big text. */
export function textBlobParams(value: string, ref: TextRef): Params {
  const { encoding, data } = stringData(value);
  return [ref.sha256, ref.bytes, TEXT_FILE_MIME, encoding, data];
}

/** A payload's string back from `blobs.data`. */
export function blobString(encoding: BlobEncoding, data: Buffer): string {
  if (encoding === 'base64') return data.toString('base64');
  const s = data.toString('utf8');
  return encoding === 'json' ? (JSON.parse(s) as string) : s;
}

/** The reference of a big text: its SHA-256 (hex, of its UTF-8 bytes, hashed off the event loop) and UTF-8 size. */
export async function textRefOf(text: string): Promise<TextRef> {
  const bytes = Buffer.from(text, 'utf8');
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return { sha256: Buffer.from(digest).toString('hex'), bytes: bytes.length };
}
