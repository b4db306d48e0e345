/**
 * The history list as pages fetched on demand: the virtualised list asks for the rows it is about
 * to show (`ensure(first, last)`), and pages of {@link PAGE_SIZE} entries are fetched once each.
 * Changing the filter (or `reloadKey`) starts over. Only the rows near the viewport are ever
 * fetched, so a history of 100,000 entries scrolls without loading them all.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { HistoryFilter, HistoryListItem } from '../../../shared/contract/history';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';

/** Entries per request. */
export const PAGE_SIZE = 100;

/** What the list knows. `total` is null until the first page arrived. */
export interface HistoryPages {
  total: number | null;
  /** The entry at `index` (newest first), or undefined while its page loads. */
  at(index: number): HistoryListItem | undefined;
  /** Fetches the pages covering rows first..last (inclusive) that are not loaded yet. */
  ensure(first: number, last: number): void;
  error: string | null;
  loading: boolean;
}

interface Loaded {
  key: string;
  total: number | null;
  pages: Map<number, HistoryListItem[]>;
  error: string | null;
}

/** Pages of the list for `filter`; refetched from scratch whenever `filter` or `reloadKey` change. */
export function useHistoryPages(filter: HistoryFilter, reloadKey: string): HistoryPages {
  const key = JSON.stringify([filter, reloadKey]);
  const [loaded, setLoaded] = useState<Loaded>({ key: '', total: null, pages: new Map(), error: null });
  const pending = useRef<{ key: string; pages: Set<number> }>({ key: '', pages: new Set() });

  const fetchPage = useCallback((forKey: string, page: number) => {
    if (pending.current.key !== forKey) pending.current = { key: forKey, pages: new Set() };
    if (pending.current.pages.has(page)) return;
    pending.current.pages.add(page);
    const [f] = JSON.parse(forKey) as [HistoryFilter, string];
    getApi()
      .listHistory({ ...f, limit: PAGE_SIZE, offset: page * PAGE_SIZE })
      .then(
        (result) =>
          setLoaded((l) => {
            const base = l.key === forKey ? l : { key: forKey, total: null, pages: new Map<number, HistoryListItem[]>(), error: null };
            const pages = new Map(base.pages);
            pages.set(page, result.entries);
            return { key: forKey, total: result.total, pages, error: null };
          }),
        (err: unknown) => {
          pending.current.pages.delete(page);
          setLoaded((l) => ({ ...(l.key === forKey ? l : { pages: new Map(), total: null }), key: forKey, error: errorText(err) }));
        },
      );
  }, []);

  useEffect(() => {
    fetchPage(key, 0);
  }, [key, fetchPage]);

  // While a new filter loads, the previous rows stay on screen (no flash of an empty list).
  const fresh = loaded.key === key;
  const ensure = useCallback(
    (first: number, last: number) => {
      for (let p = Math.floor(Math.max(0, first) / PAGE_SIZE); p <= Math.floor(Math.max(0, last) / PAGE_SIZE); p++) {
        if (!fresh || !loaded.pages.has(p)) fetchPage(key, p);
      }
    },
    [fresh, loaded, key, fetchPage],
  );
  const at = useCallback((index: number) => loaded.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE], [loaded]);
  return { total: loaded.total, at, ensure, error: loaded.error, loading: !fresh };
}
