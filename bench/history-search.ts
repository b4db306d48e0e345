/**
 * The History screen's search as the bench measures it, on any {@link HistoryStore} (SQLite on the
 * desktop, PostgreSQL on a team server): the same queries, typed as a person types them, each asked
 * as the screen asks (a page of 50 with its total) {@link SEARCH_RUNS} times.
 */
import type { HistoryStore } from '../main/store/history-api.js';
import type { HistoryFilter } from '../shared/contract/history.js';

/** Times each query is asked. */
export const SEARCH_RUNS = 40;

/** A query of the bench: its figure suffix, what it stands for, the search box text and other filters. */
export interface SearchQuery {
  id: string;
  label: string;
  query: string;
  filter?: Omit<HistoryFilter, 'query'>;
}

/** Queries of different selectivity over bench/history-corpus.ts's words, as typed in the search box (the last word is a prefix). */
export const SEARCH_QUERIES: readonly SearchQuery[] = [
  { id: 'common', label: 'very common word', query: 'the' },
  { id: 'domain', label: 'domain word', query: 'invoice' },
  { id: 'two_words', label: 'two words', query: 'customer refund' },
  { id: 'prefix', label: 'prefix while typing', query: 'migr' },
  { id: 'rare', label: 'rare word', query: 'zenkaka' },
  { id: 'no_match', label: 'no match', query: 'xylophone' },
  { id: 'server_filter', label: 'word + server filter', query: 'deploy', filter: { serverId: 'github' } },
  { id: 'status_range', label: 'word + status + 30 days', query: 'order', filter: { status: ['rejected'], from: Date.UTC(2026, 1, 1), to: Date.UTC(2026, 2, 3) } },
];

/** One query's latencies (ms, from the call until its promise settles) and its total of matches. */
export interface SearchSamples {
  query: SearchQuery;
  samples: number[];
  found: number;
  /** The store counted only up to `found` (PostgreSQL caps a search's count). */
  capped: boolean;
}

/** Asks `store` each of {@link SEARCH_QUERIES} {@link SEARCH_RUNS} times, one after another. */
export async function searchSamples(store: HistoryStore): Promise<SearchSamples[]> {
  const out: SearchSamples[] = [];
  for (const query of SEARCH_QUERIES) {
    const samples: number[] = [];
    let found = 0;
    let capped = false;
    for (let i = 0; i < SEARCH_RUNS; i++) {
      const t = performance.now();
      const page = await store.list({ query: query.query, ...query.filter, limit: 50, offset: 0 });
      samples.push(performance.now() - t);
      found = page.total;
      capped = page.totalCapped === true;
    }
    out.push({ query, samples, found, capped });
  }
  return out;
}

/** The note of a query's figure: what it stands for and how many entries it matched. */
export const searchNote = (s: SearchSamples): string => `${s.query.label}, ${s.capped ? 'at least ' : ''}${s.found.toLocaleString('en-US')} hits`;
