/**
 * A History page of a full-text search and the count of matches, on PostgreSQL: where each
 * plan is cheap (a walk of the newest entries for common words, the GIN index for rare ones),
 * for the store's `list` (store.ts).
 */
import type { HistoryFilter, HistoryListPage } from '../../../shared/contract/history.js';
import { rowToListItem, type ListRow } from '../rows.js';
import type { Connection } from './connection.js';
import * as q from './queries.js';
import { toTsQuery } from './search.js';

/** Most matches a full-text search counts: past it, the list says "at least" (`totalCapped`). */
export const SEARCH_COUNT_CAP = 1_000;

/**
 * Newest entries (passing a search's other filters) whose words a search checks one by one before
 * it asks the GIN index: a few ms of work; enough for a page of a word in 2.5 % of entries, and
 * an estimate of how common the words are for the count.
 */
export const SEARCH_WINDOW = 2_000;

/** Most entries a search's count walks, newest first, before it turns to the GIN index (see {@link searchPage}). */
const COUNT_WINDOW = 20_000;

/** How far a search looks before choosing its plan: `window` newest entries, counting up to `cap` matches. */
export interface SearchLimits {
  window: number;
  cap: number;
}

/** What a search page asks: the filters, their words as a tsquery (search.ts `toTsQuery`), the page. */
export interface SearchAsk {
  filter: HistoryFilter;
  words: string;
  limit: number;
  offset: number;
}

/** Matches counted, capped at `cap` (`totalCapped` then). */
const capped = (n: number, cap: number): Pick<HistoryListPage, 'total' | 'totalCapped'> => (n > cap ? { total: cap, totalCapped: true } : { total: n });

/**
 * A search page (`limit + offset` within `limits.window`): the newest `limits.window` entries
 * passing the other filters are checked first (q.windowSql). When they hold the page it is
 * fetched by `seq`, else (the words are rare there) the GIN index finds the matches, sorted newest
 * first. When they hold more than the count cap, or are all there is, the count is known; when
 * the words are common there, walking on counts up to the cap ({@link COUNT_WINDOW} rows at most);
 * else, or when that walk ends short of the cap, the GIN index counts. The GIN index's work grows
 * with how many entries hold the words, a walk's with how few do: each is used where it is cheap.
 * @throws (rejects) HistoryUnavailableError while the database cannot be reached
 */
export async function searchPage(conn: Connection, limits: SearchLimits, ask: SearchAsk): Promise<HistoryListPage> {
  const { filter, words, limit, offset } = ask;
  const rest = q.whereOf({ ...filter, query: undefined });
  const want = limit + offset;
  type Window = { scanned: number; hits: number; seqs: Array<string | number> };
  const [w] = await conn.query<Window>(q.windowSql(rest, words, limits.window, want), rest.params);
  const whole = w!.scanned < limits.window;
  // Common enough in the window that walking on finds `n` matches well within COUNT_WINDOW rows.
  const walkFinds = (n: number) => (w!.hits / w!.scanned) * COUNT_WINDOW >= 1.5 * n;
  const page = async (): Promise<ListRow[]> => {
    if (limit === 0) return [];
    if (whole || w!.hits >= want) return conn.query<ListRow>(q.LIST_BY_SEQ_SQL, [w!.seqs.slice(offset, want).map(Number)]);
    if (walkFinds(want)) {
      const walked = q.whereOf({ ...filter, query: undefined });
      const rows = await conn.query<ListRow>(q.walkListSql(walked, words, COUNT_WINDOW, limit, offset), walked.params);
      if (rows.length === limit) return rows;
    }
    const where = q.whereOf(filter);
    return conn.transaction(async (query) => {
      // Rare words: the GIN index lists the matches, then a sort (walking the order index would read most of the table).
      await query('SET LOCAL enable_indexscan = off');
      await query('SET LOCAL enable_seqscan = off');
      return query<ListRow>(q.listSql(where, limit, offset), where.params);
    });
  };
  const total = async (): Promise<Pick<HistoryListPage, 'total' | 'totalCapped'>> => {
    if (whole || w!.hits > limits.cap) return capped(w!.hits, limits.cap);
    // Cheaper than listing the word's whole posting list from the GIN index.
    if (walkFinds(limits.cap + 1)) {
      const counted = q.whereOf({ ...filter, query: undefined });
      const [row] = await conn.query<{ n: number }>(q.windowCountSql(counted, words, COUNT_WINDOW, limits.cap), counted.params);
      if (row!.n > limits.cap) return capped(row!.n, limits.cap);
    }
    return countMatches(conn, filter, limits.cap);
  };
  const [rows, counted] = await Promise.all([page(), total()]);
  return { entries: rows.map(rowToListItem), ...counted };
}

/**
 * How many entries match `filter`. A full-text search is counted through its GIN index (told not
 * to read the whole table: matching every row's tsvector costs far more than the planner assumes)
 * and only up to `cap`; other filters exactly.
 * @throws (rejects) HistoryUnavailableError while the database cannot be reached
 */
export async function countMatches(conn: Connection, filter: HistoryFilter, cap: number): Promise<Pick<HistoryListPage, 'total' | 'totalCapped'>> {
  const where = q.whereOf(filter);
  if (filter.query === undefined || toTsQuery(filter.query) === null) return { total: (await conn.query<{ n: number }>(q.countSql(where), where.params))[0]!.n };
  const [row] = await conn.transaction(async (query) => {
    await query('SET LOCAL enable_seqscan = off');
    return query<{ n: number }>(q.cappedCountSql(where, cap), where.params);
  });
  return capped(row!.n, cap);
}
