/**
 * The mapping between {@link HistoryEntry} and its rows (schema version 2), and the fixed SQL the
 * store runs.
 *
 * An entry is two rows sharing `seq`: `history` holds the narrow columns that lists, filters and
 * counters read (so scanning it stays cheap at 100,000s of entries), `history_data` the preview,
 * the error text and the structured parts as JSON text. Entry fields the schema has no column for
 * go to `extra_json`, so a field added to the contract later is kept rather than dropped.
 *
 * `seq` orders entries by arrival: `floor(receivedAt) * 1000 + n` (n counts entries received in
 * the same millisecond, in save order). Newest first is `seq DESC`, which the FTS5 index can
 * produce directly (its rowid is `seq`), so a search stops after one page however many entries
 * match. Two JSON columns repeat another so often that they store a marker instead:
 * `sent_json = '='` means "same as original_json", `delivered_json = '='` "same as
 * generated_json" ('=' is not JSON, so it cannot be mistaken for a value).
 */
import type { HistoryListItem, HistoryPersonStats } from '../../shared/contract/history.js';
import type { HistoryEntry, HistorySummary, ItemStatus } from '../../shared/contract/state.js';
import type { UiText } from '../../shared/contract/ui-text.js';

/** `seq` values one millisecond of `receivedAt` spans. */
export const SEQ_PER_MS = 1000;

/** Marker in `sent_json` / `delivered_json`: same JSON as `original_json` / `generated_json`. */
export const SAME = '=';

/** Columns of a `history` row. Times epoch ms, sizes bytes. */
export interface NarrowRow {
  seq: number;
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
  has_error: number;
  input_tokens: number | null;
  output_tokens: number | null;
  /** Decoded bytes and number of the distinct media payloads moved to `blobs`. */
  media_bytes: number;
  media_count: number;
  /** `HistorySummary.kind` (schema 3); NULL when absent. */
  kind: string | null;
  /** The deciding rule's id and the whole `RuleRef` as JSON (schema 3). */
  rule_id: string | null;
  rule_json: string | null;
  /** The deciding person and the requesting person of a team server (schema 5); NULL when absent. */
  decider_subject: string | null;
  decider_name: string | null;
  requested_by_subject: string | null;
  requested_by_name: string | null;
}

/** Columns of a `history_data` row. */
export interface DataRow {
  seq: number;
  preview: string;
  error: string | null;
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

/** Both rows of an entry, as one joined row. */
export type EntryRow = NarrowRow & DataRow;

/**
 * A list row: narrow columns, preview and error, the entry's place in its session, and its
 * `notDelivered` (JSON, from extra_json; NULL when absent), `callArgs` and `errorUi` (JSON) from extra_json.
 */
export type ListRow = NarrowRow &
  Pick<DataRow, 'preview' | 'error'> & { session_size: number; session_index: number; not_delivered_json: string | null; call_args: string | null; error_ui_json: string | null };

const NARROW_COLUMNS = [
  'seq', 'id', 'conversation_id', 'server_id', 'call_name', 'status', 'decided_by', 'received_at', 'ended_at', 'model',
  'provider_id', 'edited', 'has_error', 'input_tokens', 'output_tokens', 'media_bytes', 'media_count', 'kind', 'rule_id',
  'rule_json', 'decider_subject', 'decider_name', 'requested_by_subject', 'requested_by_name',
] as const satisfies readonly (keyof NarrowRow)[];

/** An update of only `columns` of a `history` row, by `@seq` (callers cache one statement per list). */
export const updateNarrowSql = (columns: readonly string[]): string => update('history', ['seq', ...columns]);

/** The `history` columns an update may set (all but `seq`). */
export const updateNarrowColumns: readonly Exclude<keyof NarrowRow, 'seq'>[] = NARROW_COLUMNS.filter((c): c is Exclude<keyof NarrowRow, 'seq'> => c !== 'seq');

/** The narrow columns of schema version 2 (before `kind` and the rule columns); migration 2 writes these. */
const NARROW_COLUMNS_V2 = NARROW_COLUMNS.slice(0, NARROW_COLUMNS.indexOf('kind'));
/** The narrow columns of schema versions 3 and 4 (before the people columns of version 5). */
const NARROW_COLUMNS_V3 = NARROW_COLUMNS.slice(0, NARROW_COLUMNS.indexOf('decider_subject'));

const DATA_COLUMNS = [
  'seq', 'preview', 'error', 'original_json', 'sent_json', 'model_choice_json', 'generated_json', 'delivered_json',
  'error_detail_json', 'usage_json', 'timings_json', 'events_json', 'extra_json',
] as const satisfies readonly (keyof DataRow)[];

const insert = (table: string, cols: readonly string[]) =>
  `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`;
const update = (table: string, cols: readonly string[]) =>
  `UPDATE ${table} SET ${cols.filter((c) => c !== 'seq').map((c) => `${c} = @${c}`).join(', ')} WHERE seq = @seq`;
const joined = `${NARROW_COLUMNS.map((c) => `h.${c}`).join(', ')}, ${DATA_COLUMNS.filter((c) => c !== 'seq').map((c) => `d.${c}`).join(', ')}`;

/** The select list of a list row, for a query over `history AS h JOIN history_data AS d`. */
export const LIST_SELECT =
  `${NARROW_COLUMNS.map((c) => `h.${c}`).join(', ')}, d.preview, d.error, ` +
  "json_extract(d.extra_json, '$.notDelivered') AS not_delivered_json, json_extract(d.extra_json, '$.callArgs') AS call_args, " +
  "json_extract(d.extra_json, '$.errorUi') AS error_ui_json, " +
  '(SELECT count(*) FROM history AS c WHERE c.conversation_id = h.conversation_id) AS session_size, ' +
  '(SELECT count(*) FROM history AS c WHERE c.conversation_id = h.conversation_id AND c.seq <= h.seq) AS session_index';

/** The fixed SQL of the store, exported so tests can check the query plans. Parameters are named. */
export const SQL = {
  insertNarrow: insert('history', NARROW_COLUMNS),
  insertData: insert('history_data', DATA_COLUMNS),
  updateNarrow: update('history', NARROW_COLUMNS),
  /** Schema-2 forms, for migration 2 (which runs before migration 3 adds columns). */
  insertNarrowV2: insert('history', NARROW_COLUMNS_V2),
  updateNarrowV2: update('history', NARROW_COLUMNS_V2),
  /** Schema-3 forms (versions 3 and 4), for tests that build such a database. */
  insertNarrowV3: insert('history', NARROW_COLUMNS_V3),
  updateNarrowV3: update('history', NARROW_COLUMNS_V3),
  updateData: update('history_data', DATA_COLUMNS),
  /** The stored `seq` of an id. */
  seqOf: 'SELECT seq FROM history WHERE id = @id',
  /** The largest `seq` taken in [@lo, @hi). */
  maxSeq: 'SELECT max(seq) AS s FROM history WHERE seq >= @lo AND seq < @hi',
  /** Removes an entry (its data and blob links cascade) and its index row. */
  deleteNarrow: 'DELETE FROM history WHERE seq = @seq',
  ftsDelete: 'DELETE FROM history_fts WHERE rowid = @seq',
  ftsInsert:
    'INSERT INTO history_fts (rowid, server_id, call_name, system_prompt, prompt, response) ' +
    'VALUES (@seq, @server_id, @call_name, @system_prompt, @prompt, @response)',
  get: `SELECT ${joined} FROM history AS h JOIN history_data AS d ON d.seq = h.seq WHERE h.id = @id`,
  /** Every entry of a session, oldest first. */
  conversation:
    `SELECT ${joined} FROM history AS h JOIN history_data AS d ON d.seq = h.seq ` +
    'WHERE h.conversation_id = @conversationId ORDER BY h.seq',
  /** A stored payload by hash. */
  blob: 'SELECT data FROM blobs WHERE sha256 = @sha256',
  blobInsert: 'INSERT OR IGNORE INTO blobs (sha256, bytes, mime_type, data) VALUES (@sha256, @bytes, @mimeType, @data)',
  /** The hashes an entry references now (before its links are replaced). */
  blobLinks: 'SELECT sha256 FROM history_blobs WHERE seq = @seq',
  blobUnlink: 'DELETE FROM history_blobs WHERE seq = @seq',
  blobLink: 'INSERT OR IGNORE INTO history_blobs (seq, sha256) VALUES (@seq, @sha256)',
} as const;

/** Latest epoch ms a `Date` can hold; `receivedAt` must be in 0..this. */
export const MAX_EPOCH_MS = 8.64e15;

/**
 * The first `seq` of the millisecond an entry was received in. Times outside 0..{@link
 * MAX_EPOCH_MS} (which `save` refuses, but a v1 database may hold) are clamped into it.
 */
export function seqBase(receivedAt: number): number {
  const ms = Number.isFinite(receivedAt) ? Math.min(Math.max(Math.floor(receivedAt), 0), MAX_EPOCH_MS) : 0;
  return ms * SEQ_PER_MS;
}

/**
 * Builds the rows of an entry (media already externalized; `media` gives their total decoded bytes
 * and count) for the given schema version. `seq` is filled in by the store.
 * @throws TypeError when a part cannot be JSON-encoded.
 */
export function entryToRows(
  entry: HistoryEntry,
  media: { bytes: number; count: number },
  schema: 2 | 3 | 5 = 5,
): { narrow: NarrowRow; data: DataRow } {
  const {
    id, kind: kindField, conversationId, serverId, callName, status, decidedBy, rule: ruleField, receivedAt, endedAt, model, providerId,
    edited, error, preview, original, sent, modelChoice, generated, delivered, errorDetail, usage, timings, events, decider, requestedBy, ...rest
  } = entry;
  // Schema 2 has no columns for `kind` and `rule`: they stay in extra_json (migration 3 moves them).
  // Nor have schemas before 5 columns for the people: they stay in extra_json there.
  const people = schema === 5 ? {} : { decider, requestedBy };
  const extra: Record<string, unknown> = schema === 2 ? { ...rest, kind: kindField, rule: ruleField, ...people } : { ...rest, ...people };
  for (const k of ['kind', 'rule', 'decider', 'requestedBy']) if (extra[k] === undefined) delete extra[k];
  const kind = schema === 2 ? undefined : kindField;
  const rule = schema === 2 ? undefined : ruleField;
  const originalJson = json(original);
  const sentJson = json(sent);
  const generatedJson = json(generated);
  const deliveredJson = json(delivered);
  const narrow: NarrowRow = {
    seq: 0,
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
    has_error: error === undefined ? 0 : 1,
    input_tokens: tokenCount(usage?.inputTokens),
    output_tokens: tokenCount(usage?.outputTokens),
    media_bytes: media.bytes,
    media_count: media.count,
    kind: kind ?? null,
    rule_id: rule?.ruleId ?? null,
    rule_json: json(rule),
    decider_subject: (schema === 5 && decider?.subject) || null,
    decider_name: (schema === 5 && decider?.name) || null,
    requested_by_subject: (schema === 5 && requestedBy?.subject) || null,
    requested_by_name: (schema === 5 && requestedBy?.name) || null,
  };
  const data: DataRow = {
    seq: 0,
    preview,
    error: error ?? null,
    original_json: originalJson,
    sent_json: sentJson !== null && sentJson === originalJson ? SAME : sentJson,
    model_choice_json: json(modelChoice),
    generated_json: generatedJson,
    delivered_json: deliveredJson !== null && deliveredJson === generatedJson ? SAME : deliveredJson,
    error_detail_json: json(errorDetail),
    usage_json: json(usage),
    timings_json: JSON.stringify(timings),
    events_json: JSON.stringify(events),
    extra_json: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
  };
  return { narrow, data };
}

/** The summary of a row. Optional fields are absent (not `undefined`) when the column is NULL. */
export function rowToSummary(row: NarrowRow & Pick<DataRow, 'preview' | 'error'>): HistorySummary {
  const s: HistorySummary = {
    id: row.id,
    conversationId: row.conversation_id,
    serverId: row.server_id,
    status: row.status as ItemStatus,
    receivedAt: row.received_at,
    edited: row.edited === 1,
    preview: row.preview,
  };
  if (row.kind !== null) s.kind = row.kind as NonNullable<HistorySummary['kind']>;
  if (row.rule_json !== null) s.rule = JSON.parse(row.rule_json) as NonNullable<HistorySummary['rule']>;
  if (row.call_name !== null) s.callName = row.call_name;
  if (row.decided_by !== null) s.decidedBy = row.decided_by as NonNullable<HistorySummary['decidedBy']>;
  if (row.ended_at !== null) s.endedAt = row.ended_at;
  if (row.model !== null) s.model = row.model;
  if (row.provider_id !== null) s.providerId = row.provider_id;
  if (row.error !== null) s.error = row.error;
  if (row.decider_subject) s.decider = { subject: row.decider_subject, name: row.decider_name ?? row.decider_subject };
  if (row.requested_by_subject) s.requestedBy = { subject: row.requested_by_subject, name: row.requested_by_name ?? row.requested_by_subject };
  return s;
}

/** The list item of a list row. */
export function rowToListItem(row: ListRow): HistoryListItem {
  const notDelivered = row.not_delivered_json === null ? undefined : (JSON.parse(row.not_delivered_json) as HistorySummary['notDelivered']);
  return {
    ...rowToSummary(row),
    ...(notDelivered && { notDelivered }),
    ...(typeof row.call_args === 'string' && { callArgs: row.call_args }),
    ...(typeof row.error_ui_json === 'string' && { errorUi: JSON.parse(row.error_ui_json) as UiText }),
    sessionSize: row.session_size,
    sessionIndex: row.session_index,
    mediaBytes: row.media_bytes,
    mediaCount: row.media_count,
  };
}

/** The full entry of a joined row; the inverse of {@link entryToRows}. @throws SyntaxError on corrupt JSON. */
export function rowToEntry(row: EntryRow): HistoryEntry {
  const extra = row.extra_json === null ? {} : (JSON.parse(row.extra_json) as Record<string, unknown>);
  const entry: HistoryEntry = {
    ...extra,
    ...rowToSummary(row),
    original: row.original_json === null ? undefined : (JSON.parse(row.original_json) as unknown),
    timings: JSON.parse(row.timings_json) as HistoryEntry['timings'],
    events: JSON.parse(row.events_json) as HistoryEntry['events'],
  };
  const sent = row.sent_json === SAME ? row.original_json : row.sent_json;
  const delivered = row.delivered_json === SAME ? row.generated_json : row.delivered_json;
  if (sent !== null) entry.sent = JSON.parse(sent) as NonNullable<HistoryEntry['sent']>;
  if (row.model_choice_json !== null) entry.modelChoice = JSON.parse(row.model_choice_json) as NonNullable<HistoryEntry['modelChoice']>;
  if (row.generated_json !== null) entry.generated = JSON.parse(row.generated_json) as NonNullable<HistoryEntry['generated']>;
  if (delivered !== null) entry.delivered = JSON.parse(delivered) as NonNullable<HistoryEntry['delivered']>;
  if (row.error_detail_json !== null) entry.errorDetail = JSON.parse(row.error_detail_json) as NonNullable<HistoryEntry['errorDetail']>;
  if (row.usage_json !== null) entry.usage = JSON.parse(row.usage_json) as NonNullable<HistoryEntry['usage']>;
  return entry;
}

/** JSON text of a value, or null when it is undefined (an absent optional part). */
function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** A token count for the counters: finite numbers only (a malformed usage is not counted). */
function tokenCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The SQL (both stores) of the people named in History, each with the name of their newest entry. */
export const PEOPLE_SQL =
  'SELECT subject, name FROM (SELECT decider_subject AS subject, decider_name AS name, seq FROM history WHERE decider_subject IS NOT NULL ' +
  'UNION ALL SELECT requested_by_subject, requested_by_name, seq FROM history WHERE requested_by_subject IS NOT NULL) AS p ORDER BY seq';

/** The people of {@link PEOPLE_SQL}'s rows (oldest first): one each, by their newest name, sorted by name. */
export function peopleOf(rows: ReadonlyArray<{ subject: string; name: string | null }>): Array<{ subject: string; name: string }> {
  const named = new Map<string, string>();
  for (const r of rows) named.set(r.subject, r.name ?? r.subject);
  return [...named].map(([subject, name]) => ({ subject, name })).sort((a, b) => a.name.localeCompare(b.name) || a.subject.localeCompare(b.subject));
}

/** A row of the per-person counters (both stores' SQL yields this shape). */
export interface PersonStatsRow {
  subject: string;
  name: string;
  decided: number | string;
  approved: number | string;
  rejected: number | string;
  requested: number | string;
}

/** History's per-person counters from their rows, sorted by name (then subject). */
export function personStats(rows: readonly PersonStatsRow[]): HistoryPersonStats[] {
  return rows
    .map((r) => ({ subject: r.subject, name: r.name, decided: Number(r.decided), approved: Number(r.approved), rejected: Number(r.rejected), requested: Number(r.requested) }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.subject.localeCompare(b.subject));
}
