/**
 * The mapping between {@link HistoryEntry} and a `history` row, and the SQL the store runs.
 * The list's fields are real columns (read without parsing JSON); the structured parts are JSON
 * text; entry fields this schema has no column for go to `extra_json`, so a field added to the
 * contract later is kept rather than dropped.
 */
import type { HistoryEntry, HistorySummary, SamplingStatus } from '../../shared/state.js';

/** Columns of a `history` row (schema version 1). Times are epoch ms. */
export interface HistoryRow {
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

/** The columns a list row needs (no JSON). */
export type SummaryRow = Pick<
  HistoryRow,
  | 'id'
  | 'conversation_id'
  | 'server_id'
  | 'call_name'
  | 'status'
  | 'decided_by'
  | 'received_at'
  | 'ended_at'
  | 'model'
  | 'provider_id'
  | 'edited'
  | 'error'
  | 'preview'
>;

const SUMMARY_COLUMNS = [
  'id',
  'conversation_id',
  'server_id',
  'call_name',
  'status',
  'decided_by',
  'received_at',
  'ended_at',
  'model',
  'provider_id',
  'edited',
  'error',
  'preview',
] as const satisfies readonly (keyof SummaryRow)[];

const ALL_COLUMNS = [
  ...SUMMARY_COLUMNS,
  'original_json',
  'sent_json',
  'model_choice_json',
  'generated_json',
  'delivered_json',
  'error_detail_json',
  'usage_json',
  'timings_json',
  'events_json',
  'extra_json',
] as const satisfies readonly (keyof HistoryRow)[];

const summaryList = SUMMARY_COLUMNS.map((c) => `h.${c}`).join(', ');

/** The SQL of the store, exported so tests can check the query plans. Parameters are named. */
export const SQL = {
  /** Upsert by id; returns the row's rowid (stable across updates, used as the FTS rowid). */
  upsert:
    `INSERT INTO history (${ALL_COLUMNS.join(', ')}) VALUES (${ALL_COLUMNS.map((c) => `@${c}`).join(', ')}) ` +
    `ON CONFLICT (id) DO UPDATE SET ${ALL_COLUMNS.filter((c) => c !== 'id')
      .map((c) => `${c} = excluded.${c}`)
      .join(', ')} RETURNING rowid`,
  ftsDelete: 'DELETE FROM history_fts WHERE rowid = @rowid',
  ftsInsert:
    'INSERT INTO history_fts (rowid, server_id, call_name, system_prompt, prompt, response) ' +
    'VALUES (@rowid, @server_id, @call_name, @system_prompt, @prompt, @response)',
  get: `SELECT ${ALL_COLUMNS.join(', ')} FROM history WHERE id = @id`,
  /** Newest first; served by the `history_received_at` index (no sort, no JSON). */
  list: `SELECT ${summaryList} FROM history AS h ORDER BY h.received_at DESC, h.id DESC LIMIT @limit OFFSET @offset`,
  count: 'SELECT count(*) AS n FROM history',
  /** FTS5 finds the matching rowids; rows are fetched by rowid and the matches sorted. */
  search:
    `SELECT ${summaryList} FROM history_fts JOIN history AS h ON h.rowid = history_fts.rowid ` +
    'WHERE history_fts MATCH @match ORDER BY h.received_at DESC, h.id DESC LIMIT @limit OFFSET @offset',
  searchCount: 'SELECT count(*) AS n FROM history_fts WHERE history_fts MATCH @match',
} as const;

/** Builds the row for an entry. @throws TypeError when a part cannot be JSON-encoded (BigInt, cycles). */
export function entryToRow(entry: HistoryEntry): HistoryRow {
  const {
    id,
    conversationId,
    serverId,
    callName,
    status,
    decidedBy,
    receivedAt,
    endedAt,
    model,
    providerId,
    edited,
    error,
    preview,
    original,
    sent,
    modelChoice,
    generated,
    delivered,
    errorDetail,
    usage,
    timings,
    events,
    ...extra
  } = entry;
  return {
    id,
    conversation_id: conversationId,
    server_id: serverId,
    call_name: callName ?? null,
    status,
    decided_by: decidedBy ?? null,
    received_at: receivedAt,
    ended_at: endedAt ?? null,
    model: model ?? null,
    provider_id: providerId ?? null,
    edited: edited ? 1 : 0,
    error: error ?? null,
    preview,
    original_json: json(original),
    sent_json: json(sent),
    model_choice_json: json(modelChoice),
    generated_json: json(generated),
    delivered_json: json(delivered),
    error_detail_json: json(errorDetail),
    usage_json: json(usage),
    timings_json: JSON.stringify(timings),
    events_json: JSON.stringify(events),
    extra_json: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
  };
}

/** The list item of a row. Optional fields are absent (not `undefined`) when the column is NULL. */
export function rowToSummary(row: SummaryRow): HistorySummary {
  const s: HistorySummary = {
    id: row.id,
    conversationId: row.conversation_id,
    serverId: row.server_id,
    status: row.status as SamplingStatus,
    receivedAt: row.received_at,
    edited: row.edited === 1,
    preview: row.preview,
  };
  if (row.call_name !== null) s.callName = row.call_name;
  if (row.decided_by !== null) s.decidedBy = row.decided_by as NonNullable<HistorySummary['decidedBy']>;
  if (row.ended_at !== null) s.endedAt = row.ended_at;
  if (row.model !== null) s.model = row.model;
  if (row.provider_id !== null) s.providerId = row.provider_id;
  if (row.error !== null) s.error = row.error;
  return s;
}

/** The full entry of a row; the inverse of {@link entryToRow}. @throws SyntaxError on corrupt JSON. */
export function rowToEntry(row: HistoryRow): HistoryEntry {
  const extra = row.extra_json === null ? {} : (JSON.parse(row.extra_json) as Record<string, unknown>);
  const entry: HistoryEntry = {
    ...extra,
    ...rowToSummary(row),
    original: row.original_json === null ? undefined : (JSON.parse(row.original_json) as unknown),
    timings: JSON.parse(row.timings_json) as HistoryEntry['timings'],
    events: JSON.parse(row.events_json) as HistoryEntry['events'],
  };
  if (row.sent_json !== null) entry.sent = JSON.parse(row.sent_json) as NonNullable<HistoryEntry['sent']>;
  if (row.model_choice_json !== null) {
    entry.modelChoice = JSON.parse(row.model_choice_json) as NonNullable<HistoryEntry['modelChoice']>;
  }
  if (row.generated_json !== null) {
    entry.generated = JSON.parse(row.generated_json) as NonNullable<HistoryEntry['generated']>;
  }
  if (row.delivered_json !== null) {
    entry.delivered = JSON.parse(row.delivered_json) as NonNullable<HistoryEntry['delivered']>;
  }
  if (row.error_detail_json !== null) {
    entry.errorDetail = JSON.parse(row.error_detail_json) as NonNullable<HistoryEntry['errorDetail']>;
  }
  if (row.usage_json !== null) entry.usage = JSON.parse(row.usage_json) as NonNullable<HistoryEntry['usage']>;
  return entry;
}

/** JSON text of a value, or null when it is undefined (an absent optional part). */
function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}
