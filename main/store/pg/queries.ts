/**
 * The PostgreSQL history's reads: filters as SQL (values always bound as parameters, never
 * spliced), the list page, counts, sessions, counters and facets. Rows come back in the shapes of
 * ../rows.ts, so entries and list items are built by the same code as SQLite's.
 *
 * Newest first is `(received_at, seq)` descending, served by the `history_order` index (and by
 * `history_server` / `history_session` under those filters), so a page never sorts the world:
 * PostgreSQL walks the index and stops after the page. A search chooses between that walk
 * (checking each row's tsvector: cheap while the words are common) and the GIN index
 * `history_text` followed by a sort of the matches (cheap while they are rare): the store first
 * checks a window of the newest entries ({@link windowSql}) and picks from how often the words
 * occur there (listing.ts `searchPage`); a page deeper than that window is left to the planner.
 */
import { ITEM_STATUSES, STATUS_OUTCOME } from '../../../shared/contract/status.js';
import type { HistoryFilter } from '../../../shared/contract/history.js';
import { TERMINAL_STATUSES } from '../../../shared/contract/state.js';
import { toTsQuery } from './search.js';

/** A statement's WHERE clause over `history AS h` and its parameters (positional, `$1`…). */
export interface Where {
  sql: string;
  params: unknown[];
}

/** Adds a parameter and returns its placeholder. */
const bind = (params: unknown[], value: unknown): string => `$${params.push(value)}`;

/**
 * The WHERE clause of `filter`, appending to `params`. A query with nothing searchable in it
 * (see toTsQuery) does not filter. `from`/`to` are [from, to) of whole milliseconds, as SQLite's.
 */
export function whereOf(filter: HistoryFilter, params: unknown[] = []): Where {
  const parts: string[] = [];
  const eq = (column: string, value: string | undefined) => {
    if (value !== undefined) parts.push(`h.${column} = ${bind(params, value)}`);
  };
  const query = filter.query === undefined ? null : toTsQuery(filter.query);
  if (query !== null) parts.push(`h.search @@ to_tsquery('history_search', ${bind(params, query)})`);
  eq('server_id', filter.serverId);
  eq('model', filter.model);
  eq('provider_id', filter.providerId);
  eq('decided_by', filter.decidedBy);
  eq('conversation_id', filter.conversationId);
  eq('id', filter.id);
  eq('rule_id', filter.rule);
  eq('decider_subject', filter.decider);
  eq('requested_by_subject', filter.requestedBy);
  if (filter.tool !== undefined) {
    const more = `${filter.tool.replace(/[\\%_]/g, (c) => `\\${c}`)} (+%`;
    parts.push(`(h.call_name = ${bind(params, filter.tool)} OR h.call_name LIKE ${bind(params, more)})`);
  }
  if (filter.status !== undefined) parts.push(`h.status = ANY(${bind(params, filter.status)}::text[])`);
  if (filter.from !== undefined) parts.push(`h.received_at >= ${bind(params, Math.floor(filter.from))}`);
  if (filter.to !== undefined) parts.push(`h.received_at < ${bind(params, Math.floor(filter.to))}`);
  if (filter.edited !== undefined) parts.push(`h.edited = ${filter.edited}`);
  if (filter.errors !== undefined) parts.push(`h.has_error = ${filter.errors}`);
  return { sql: parts.length === 0 ? 'TRUE' : parts.join(' AND '), params };
}

/** Narrow columns in the shape of ../rows.ts NarrowRow. */
const NARROW =
  'h.seq, h.id, h.conversation_id, h.server_id, h.call_name, h.status, h.decided_by, h.received_at, h.ended_at, h.model, ' +
  'h.provider_id, h.edited::int AS edited, h.has_error::int AS has_error, h.input_tokens, h.output_tokens, h.media_bytes, ' +
  'h.media_count, h.kind, h.rule_id, h.rule_json, h.decider_subject, h.decider_name, h.requested_by_subject, h.requested_by_name';

/** Data columns in the shape of ../rows.ts DataRow (without seq). */
const DATA =
  'd.preview, d.error, d.original_json, d.sent_json, d.model_choice_json, d.generated_json, d.delivered_json, ' +
  'd.error_detail_json, d.usage_json, d.timings_json, d.events_json, d.extra_json';

/** Newest first. */
const NEWEST = 'ORDER BY h.received_at DESC, h.seq DESC';

/**
 * A page of list rows (../rows.ts ListRow). Its rows are chosen first (index walk, LIMIT), then
 * fetched one by one by `seq` with their session counts and data, so those run for the page only.
 * Appends limit and offset.
 */
export function listSql(where: Where, limit: number, offset: number): string {
  const l = bind(where.params, limit);
  const o = bind(where.params, offset);
  return pageRowsSql(`SELECT h.seq, h.received_at FROM history AS h WHERE ${where.sql} ${NEWEST} LIMIT ${l} OFFSET ${o}`);
}

/**
 * A page of list rows of a search from a walk of the newest `window` entries passing the other
 * filters (`rest`), newest first: their tsvectors are checked in that order and the walk stops
 * once the page is found (PostgreSQL knows the subquery's order, so the outer ORDER BY sorts nothing). Appends tsquery, window, limit and offset.
 */
export function walkListSql(rest: Where, tsquery: string, window: number, limit: number, offset: number): string {
  const t = bind(rest.params, tsquery);
  const w = bind(rest.params, window);
  const l = bind(rest.params, limit);
  const o = bind(rest.params, offset);
  return pageRowsSql(
    `SELECT m.seq, m.received_at FROM (SELECT h.seq, h.received_at, h.search FROM history AS h WHERE ${rest.sql} ${NEWEST} LIMIT ${w}) AS m ` +
      `WHERE m.search @@ to_tsquery('history_search', ${t}) ORDER BY m.received_at DESC, m.seq DESC LIMIT ${l} OFFSET ${o}`,
  );
}

/** The list rows of the entries `seqs` (a page chosen by {@link windowSql}), newest first; `$1` is the seq array. */
export const LIST_BY_SEQ_SQL = pageRowsSql('SELECT h.seq, h.received_at FROM history AS h WHERE h.seq = ANY($1::bigint[])');

/** List rows of the page `page` selects (`seq`, `received_at`), newest first. */
function pageRowsSql(page: string): string {
  return (
    `WITH page AS MATERIALIZED (${page}) ` +
    `SELECT r.* FROM page CROSS JOIN LATERAL (SELECT ${NARROW}, d.preview, d.error, d.not_delivered_json, d.call_args, d.error_ui_json, ` +
    '(SELECT count(*) FROM history AS c WHERE c.conversation_id = h.conversation_id) AS session_size, ' +
    '(SELECT count(*) FROM history AS c WHERE c.conversation_id = h.conversation_id AND (c.received_at, c.seq) <= (h.received_at, h.seq)) AS session_index ' +
    // OFFSET 0 keeps the subquery per page row (fetched by primary key), never joined to the whole table.
    'FROM history AS h JOIN history_data AS d ON d.seq = h.seq WHERE h.seq = page.seq OFFSET 0) AS r ORDER BY page.received_at DESC, page.seq DESC'
  );
}

/**
 * A search's look at the newest `window` entries that pass the other filters (`rest`), newest
 * first: how many there were (`scanned`), how many match the words `tsquery` (`hits`), and the
 * `seq`s of the first `want` matches, newest first. It walks the order index (or the server's, or
 * the session's) and checks each row's tsvector: work bounded by the window whatever the words, and
 * enough for a page and a capped count of a common word, which the GIN index would have to list in
 * full. Appends tsquery, window and want.
 */
export function windowSql(rest: Where, tsquery: string, window: number, want: number): string {
  const t = bind(rest.params, tsquery);
  const w = bind(rest.params, window);
  const n = bind(rest.params, want);
  return (
    `SELECT count(*) AS scanned, count(*) FILTER (WHERE m.hit) AS hits, ` +
    `coalesce((array_agg(m.seq ORDER BY m.received_at DESC, m.seq DESC) FILTER (WHERE m.hit))[1:${n}::int], '{}') AS seqs ` +
    `FROM (SELECT h.seq, h.received_at, h.search @@ to_tsquery('history_search', ${t}) AS hit FROM history AS h WHERE ${rest.sql} ${NEWEST} LIMIT ${w}) AS m`
  );
}

/**
 * How many of the newest `window` entries passing the other filters (`rest`) match the words
 * `tsquery`, counting at most `cap` + 1: walks the order index and stops at the cap, so a word in
 * a tenth of the entries is counted from about ten times the cap rows, never from its whole GIN
 * posting list. Appends tsquery, window and the limit.
 */
export function windowCountSql(rest: Where, tsquery: string, window: number, cap: number): string {
  const t = bind(rest.params, tsquery);
  const w = bind(rest.params, window);
  const n = bind(rest.params, cap + 1);
  return (
    `SELECT count(*) AS n FROM (SELECT 1 FROM (SELECT h.search FROM history AS h WHERE ${rest.sql} ${NEWEST} LIMIT ${w}) AS m ` +
    `WHERE m.search @@ to_tsquery('history_search', ${t}) LIMIT ${n}) AS c`
  );
}

/** How many entries match. */
export const countSql = (where: Where): string => `SELECT count(*) AS n FROM history AS h WHERE ${where.sql}`;

/** How many entries match, counting at most `cap` + 1 (more than `cap`: the count stopped). Appends the limit. */
export const cappedCountSql = (where: Where, cap: number): string =>
  `SELECT count(*) AS n FROM (SELECT 1 FROM history AS h WHERE ${where.sql} LIMIT ${bind(where.params, cap + 1)}) AS m`;

/** The sessions with at least one matching entry, newest session first (by its newest match). Appends max. */
export function sessionsSql(where: Where, max: number): string {
  return (
    `SELECT h.conversation_id AS c FROM history AS h WHERE ${where.sql} GROUP BY h.conversation_id ` +
    `ORDER BY max(h.received_at) DESC, max(h.seq) DESC LIMIT ${bind(where.params, max)}`
  );
}

/** Whole entries (../rows.ts EntryRow) by id ($1). */
export const GET_SQL = `SELECT ${NARROW}, ${DATA} FROM history AS h JOIN history_data AS d ON d.seq = h.seq WHERE h.id = $1`;

/** Every entry of a session ($1), oldest first. */
export const CONVERSATION_SQL = `SELECT ${NARROW}, ${DATA} FROM history AS h JOIN history_data AS d ON d.seq = h.seq WHERE h.conversation_id = $1 ORDER BY h.received_at, h.seq`;

/** The payloads linked to entries ($1: seq[]): `sha256`, `encoding`, `data`. */
export const BLOBS_SQL = 'SELECT DISTINCT b.sha256, b.encoding, b.data FROM history_blobs AS l JOIN blobs AS b ON b.sha256 = l.sha256 WHERE l.seq = ANY($1::bigint[])';

/** Terminal statuses as an SQL list (constants of the contract, not input). */
const TERMINAL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');

/** Ids of the entries not in a terminal status. */
export const UNFINISHED_SQL = `SELECT id FROM history WHERE status NOT IN (${TERMINAL})`;

/** Ids of unfinished entries last written by the team instances $1 (text[]), and with $2 (bool) by consoles without a team. */
export const UNFINISHED_OF_SQL = `SELECT id FROM history WHERE status NOT IN (${TERMINAL}) AND (instance_id = ANY($1::text[]) OR ($2 AND instance_id IS NULL))`;

/** Sessions whose newest entry was received before $1, all finished, oldest first. */
export const PRUNE_OLDER_SQL =
  `SELECT conversation_id AS c FROM history GROUP BY conversation_id ` +
  `HAVING max(received_at) < $1 AND count(*) FILTER (WHERE status NOT IN (${TERMINAL})) = 0 ORDER BY max(received_at)`;

/** Finished sessions beyond the newest $1, newest first. */
export const PRUNE_BEYOND_SQL =
  `SELECT conversation_id AS c FROM history GROUP BY conversation_id ` +
  `HAVING count(*) FILTER (WHERE status NOT IN (${TERMINAL})) = 0 ORDER BY max(received_at) DESC, conversation_id DESC OFFSET $1`;

const ANSWERED = ITEM_STATUSES.filter((s) => STATUS_OUTCOME[s] === 'answered').map((s) => `'${s}'`).join(', ');
const REFUSED = ITEM_STATUSES.filter((s) => STATUS_OUTCOME[s] === 'refused').map((s) => `'${s}'`).join(', ');

/** Counters per server for [from, to) (the range's bounds bound as parameters by the caller). */
export function statsSql(where: Where): string {
  const usage = 'input_tokens IS NOT NULL OR output_tokens IS NOT NULL';
  return (
    'SELECT server_id, count(*) AS requests, ' +
    `count(*) FILTER (WHERE status IN (${ANSWERED})) AS approved, count(*) FILTER (WHERE status IN (${REFUSED})) AS rejected, ` +
    "count(*) FILTER (WHERE decided_by = 'rule') AS auto, " +
    'coalesce(sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)), 0) AS tokens, ' +
    `coalesce(sum(cost_usd) FILTER (WHERE ${usage}), 0) AS cost, count(cost_usd) FILTER (WHERE ${usage}) AS priced ` +
    `FROM history AS h WHERE ${where.sql} GROUP BY server_id ORDER BY server_id`
  );
}

/** Counters per person (who decided, whose personal token requested) for the range of `where`, each with their newest name. */
export function personStatsSql(where: Where): string {
  return (
    "SELECT subject, (array_agg(name ORDER BY seq DESC))[1] AS name, sum(decided) AS decided, sum(approved) AS approved, sum(rejected) AS rejected, sum(requested) AS requested FROM (" +
    `SELECT decider_subject AS subject, decider_name AS name, seq, 1 AS decided, (status IN (${ANSWERED}))::int AS approved, (status IN (${REFUSED}))::int AS rejected, 0 AS requested ` +
    `FROM history AS h WHERE decider_subject IS NOT NULL AND ${where.sql} ` +
    'UNION ALL ' +
    `SELECT requested_by_subject, requested_by_name, seq, 0, 0, 0, 1 FROM history AS h WHERE requested_by_subject IS NOT NULL AND ${where.sql}` +
    ') AS p GROUP BY subject'
  );
}

/** Distinct values of a column for the filter menus. */
export const distinctSql = (column: 'server_id' | 'call_name' | 'model' | 'provider_id'): string =>
  `SELECT DISTINCT ${column} AS v FROM history WHERE ${column} IS NOT NULL`;

/** Each rule's latest reference (its name may have changed). */
export const RULES_SQL = 'SELECT DISTINCT ON (rule_id) rule_id AS id, rule_json FROM history WHERE rule_id IS NOT NULL ORDER BY rule_id, received_at DESC, seq DESC';

/** Usage per (server, provider, model) of entries received at or after $1, drafts excluded (../usage.ts). */
export const USAGE_SQL =
  'SELECT server_id AS "serverId", provider_id AS "providerId", model, ' +
  'coalesce(sum(input_tokens), 0) AS "inputTokens", coalesce(sum(output_tokens), 0) AS "outputTokens", ' +
  'coalesce(sum(cost_usd), 0) AS "costUsd", ' +
  'coalesce(sum(input_tokens) FILTER (WHERE cost_usd IS NULL), 0) AS "unpricedInputTokens", ' +
  'coalesce(sum(output_tokens) FILTER (WHERE cost_usd IS NULL), 0) AS "unpricedOutputTokens" ' +
  'FROM history WHERE received_at >= $1 AND (input_tokens IS NOT NULL OR output_tokens IS NOT NULL) AND NOT draft ' +
  'GROUP BY server_id, provider_id, model';
