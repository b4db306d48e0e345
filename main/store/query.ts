/**
 * SQL built from a {@link HistoryFilter}: the WHERE clause (over `history AS h`) and its named
 * parameters. Values are always bound, never spliced into the SQL, so the SQL text depends only on
 * which filters are present; the store caches one prepared statement per distinct text.
 */
import type { HistoryFilter } from '../../shared/contract/history.js';
import { TERMINAL_STATUSES } from '../../shared/contract/state.js';
import { LIST_SELECT, seqBase } from './rows.js';
import { toFtsQuery } from './search-text.js';

/**
 * A filter as SQL: `sql` is the WHERE clause over `history AS h` without the full-text part (`1`
 * when nothing filters), `match` the FTS5 expression (null: no full-text filter), `params` the
 * named values both use.
 */
export interface WhereClause {
  sql: string;
  params: Record<string, string | number>;
  match: string | null;
  /** Extra conditions on `history_fts.rowid` (the `seq` range of from/to), `''` when none. */
  ftsRange?: string;
}

/** SQL list of the terminal statuses, for "is this session still open?" checks. */
export const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * The WHERE clause of `filter`. A query with nothing searchable in it (see toFtsQuery) does not
 * filter. `from`/`to` become `seq` ranges (seq orders by receivedAt, see rows.ts).
 */
export function whereOf(filter: HistoryFilter): WhereClause {
  const parts: string[] = [];
  const params: Record<string, string | number> = {};
  const eq = (column: string, key: string, value: string | undefined) => {
    if (value === undefined) return;
    parts.push(`h.${column} = @${key}`);
    params[key] = value;
  };
  const match = filter.query === undefined ? null : toFtsQuery(filter.query);
  if (match !== null) params.match = match;
  eq('server_id', 'serverId', filter.serverId);
  eq('model', 'model', filter.model);
  eq('provider_id', 'providerId', filter.providerId);
  eq('decided_by', 'decidedBy', filter.decidedBy);
  eq('conversation_id', 'conversationId', filter.conversationId);
  eq('id', 'id', filter.id);
  eq('rule_id', 'rule', filter.rule);
  eq('decider_subject', 'decider', filter.decider);
  eq('requested_by_subject', 'requestedBy', filter.requestedBy);
  if (filter.tool !== undefined) {
    parts.push(`(h.call_name = @tool OR h.call_name LIKE @toolMore ESCAPE '\\')`);
    params.tool = filter.tool;
    params.toolMore = `${filter.tool.replace(/[\\%_]/g, (c) => `\\${c}`)} (+%`;
  }
  if (filter.status !== undefined) {
    parts.push(`h.status IN (SELECT value FROM json_each(@status))`);
    params.status = JSON.stringify(filter.status);
  }
  // The same bounds on the FTS rowid let FTS5 skip the rest of its doclists.
  let ftsRange = '';
  if (filter.from !== undefined) {
    parts.push('h.seq >= @fromSeq');
    ftsRange += ' AND history_fts.rowid >= @fromSeq';
    params.fromSeq = seqBase(filter.from);
  }
  if (filter.to !== undefined) {
    parts.push('h.seq < @toSeq');
    ftsRange += ' AND history_fts.rowid < @toSeq';
    params.toSeq = seqBase(filter.to);
  }
  if (filter.edited !== undefined) parts.push(`h.edited = ${filter.edited ? 1 : 0}`);
  if (filter.errors !== undefined) parts.push(`h.has_error = ${filter.errors ? 1 : 0}`);
  return { sql: parts.length === 0 ? '1' : parts.join(' AND '), params, match, ftsRange };
}

/**
 * The matching entries' `seq` as `r`, newest first, without LIMIT. With a full-text part, FTS5 is
 * the outer loop and yields rowids (= seq) in descending order, so a LIMIT stops it after a page
 * however many entries match; the other filters are checked per row.
 */
function matchingSql(where: WhereClause): string {
  if (where.match === null) return `SELECT h.seq AS r FROM history AS h WHERE ${where.sql} ORDER BY h.seq DESC`;
  return (
    'SELECT history_fts.rowid AS r FROM history_fts CROSS JOIN history AS h ON h.seq = history_fts.rowid ' +
    `WHERE history_fts MATCH @match${where.ftsRange ?? ''} AND ${where.sql} ORDER BY history_fts.rowid DESC`
  );
}

/**
 * A page of list rows, newest first (`seq` desc: `receivedAt` desc, then the later-saved first).
 * Binds @limit, @offset. The page's rows are chosen first, so the per-row session counts and the
 * `history_data` lookups run for the page only.
 */
export function listSql(where: WhereClause): string {
  return (
    `WITH page AS (${matchingSql(where)} LIMIT @limit OFFSET @offset) ` +
    `SELECT ${LIST_SELECT} FROM page CROSS JOIN history AS h ON h.seq = page.r ` +
    'JOIN history_data AS d ON d.seq = h.seq ORDER BY h.seq DESC'
  );
}

/** How many entries match. */
export function countSql(where: WhereClause): string {
  if (where.match === null) return `SELECT count(*) AS n FROM history AS h WHERE ${where.sql}`;
  if (where.sql === '1') return 'SELECT count(*) AS n FROM history_fts WHERE history_fts MATCH @match';
  return `SELECT count(*) AS n FROM (${matchingSql(where)})`;
}

/**
 * The sessions (conversation ids) with at least one matching entry, newest session first (by its
 * newest matching entry). Binds @max (at most this many rows).
 */
export function sessionsSql(where: WhereClause): string {
  return (
    `SELECT h.conversation_id AS c FROM (${matchingSql(where)}) AS m JOIN history AS h ON h.seq = m.r ` +
    'GROUP BY h.conversation_id ORDER BY max(h.seq) DESC LIMIT @max'
  );
}
