/** The History screen: a debounced search, the list (newest first) and the selected entry. */
import { useEffect, useMemo, useState } from 'react';
import type { HistorySummary } from '../../../shared/state';
import { getApi } from '../../api';
import { ActionError, Empty, StatusBadge } from '../../components/common';
import { dateTime, shortDateTime } from '../../format';
import { useConsole, useItems, useNotices } from '../../store';
import { HistoryDetail } from './HistoryDetail';

const PAGE = 50;

function HistoryRow({ entry, selected, onSelect }: { entry: HistorySummary; selected: boolean; onSelect: () => void }) {
  return (
    <li>
      <button
        type="button"
        className={`history-row${selected ? ' is-selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        data-testid="history-item"
        data-history-id={entry.id}
        onClick={onSelect}
      >
        <span className="queue-row-top">
          <span className="small row-time" title={dateTime(entry.receivedAt)}>
            {shortDateTime(entry.receivedAt)}
          </span>
          <StatusBadge status={entry.status} />
        </span>
        <span className="queue-preview" title={entry.preview}>
          {entry.preview || <span className="muted">(no text)</span>}
        </span>
        <span className="queue-row-bottom">
          <span className="queue-call">
            {entry.serverId}
            {entry.callName ? ` · ${entry.callName}` : ''}
          </span>
          <span className="history-meta">
            {entry.model && <span className="mono">{entry.model}</span>}
            {entry.edited && <span className="badge tone-warn">edited</span>}
          </span>
        </span>
      </button>
    </li>
  );
}

/** What the list shows: the result of the request identified by `key`. */
interface Loaded {
  key: string;
  entries: HistorySummary[];
  total: number;
  error: string | null;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The History screen. */
export function HistoryScreen() {
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const [loaded, setLoaded] = useState<Loaded>({ key: '', entries: [], total: 0, error: null });
  const [moreError, setMoreError] = useState<string | null>(null);
  const selectedId = useConsole((s) => s.selectedHistoryId);
  const selectHistory = useConsole((s) => s.selectHistory);
  const items = useItems();
  const notices = useNotices();
  // Refresh when an item finishes (history gains or updates an entry then) and when a notice
  // arrives (a request refused at intake goes straight to history and shows as a notice).
  const finishedKey = useMemo(
    () =>
      items
        .filter((i) => i.outcome)
        .map((i) => `${i.id}:${i.status}`)
        .concat(notices.map((n) => n.id))
        .join(','),
    [items, notices],
  );
  const requestKey = JSON.stringify([debounced, finishedKey]);
  const loading = loaded.key !== requestKey;
  const { entries, total } = loaded;
  const error = loaded.error ?? moreError;

  useEffect(() => {
    const t = setTimeout(() => setDebounced(query.trim()), 250);
    return () => clearTimeout(t);
  }, [query]);

  useEffect(() => {
    let live = true;
    const [q] = JSON.parse(requestKey) as [string, string];
    getApi()
      .listHistory({ query: q || undefined, limit: PAGE, offset: 0 })
      .then(
        (page) => live && setLoaded({ key: requestKey, entries: page.entries, total: page.total, error: null }),
        (err: unknown) => live && setLoaded({ key: requestKey, entries: [], total: 0, error: message(err) }),
      );
    return () => {
      live = false;
    };
  }, [requestKey]);

  const loadMore = () => {
    const key = loaded.key;
    getApi()
      .listHistory({ query: debounced || undefined, limit: PAGE, offset: entries.length })
      .then(
        (page) => {
          setMoreError(null);
          setLoaded((l) => (l.key === key ? { ...l, entries: [...l.entries, ...page.entries], total: page.total } : l));
        },
        (err: unknown) => setMoreError(message(err)),
      );
  };

  return (
    <div className="split" data-testid="history-screen">
      <div className="split-list">
        <div className="pane-title">
          <h2>History</h2>
          <span className="muted small" data-testid="history-total">
            {loading ? 'loading…' : `${total} ${debounced ? 'found' : 'total'}`}
          </span>
        </div>
        <div className="search">
          <input
            type="search"
            aria-label="Search prompts and responses"
            placeholder="Search prompts and responses"
            data-testid="history-search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <ActionError error={error} />
        {entries.length === 0 && !loading ? (
          <Empty>{debounced ? 'Nothing matches.' : 'No history yet.'}</Empty>
        ) : (
          <ul className="history-list" data-testid="history-list" aria-label="History">
            {entries.map((e) => (
              <HistoryRow key={e.id} entry={e} selected={e.id === selectedId} onSelect={() => selectHistory(e.id)} />
            ))}
            {entries.length < total && (
              <li className="load-more">
                <button type="button" onClick={loadMore} disabled={loading}>
                  Load more ({total - entries.length} more)
                </button>
              </li>
            )}
          </ul>
        )}
      </div>
      <div className="split-detail">
        {selectedId ? <HistoryDetail key={selectedId} id={selectedId} /> : <Empty>Select an entry to see what was asked, changed and sent.</Empty>}
      </div>
    </div>
  );
}
