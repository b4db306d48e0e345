/**
 * A server's protocol log (direction, kind, method, id, size, time of every message; no bodies)
 * and stderr, from the bounded ring buffers in main (`getServerLog`): searchable, refreshed while
 * shown and when the server reports new entries, and copyable as text.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerLogPage } from '../../../shared/contract/servers';
import type { ServerView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError } from '../../components/common';
import { clockTimeMs } from '../../format';

const LOG_KINDS = ['protocol', 'stderr'] as const;

const time = clockTimeMs;

/** The page as plain text, one line per entry (what "Copy" puts on the clipboard). */
export function logText(page: ServerLogPage, which: 'protocol' | 'stderr'): string {
  if (which === 'stderr') return page.stderr.map((e) => `${new Date(e.at).toISOString()} ${e.text}`).join('\n');
  return page.protocol
    .map((e) =>
      [
        new Date(e.at).toISOString(),
        e.direction === 'out' ? '→' : '←',
        e.kind,
        e.method ?? '-',
        e.id !== undefined ? `#${e.id}` : '',
        `${e.size} B`,
        e.error ? `error ${e.error.code}: ${e.error.message}` : '',
      ]
        .filter(Boolean)
        .join(' '),
    )
    .join('\n');
}

/** Which log is shown. */
type LogKind = (typeof LOG_KINDS)[number];

/**
 * The server's log page matching `query` (up to 2000 entries), fetched now, every 1.5 s and whenever
 * `totals` changes; or the last error fetching it.
 */
function useServerLog(serverId: string, query: string, totals: string) {
  const [page, setPage] = useState<ServerLogPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const tick = () =>
      getApi()
        .getServerLog({ serverId, query: query || undefined, limit: 2000 })
        .then(
          (next) => {
            if (!live) return;
            setPage(next);
            setError(null);
          },
          (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
        );
    void tick();
    const timer = setInterval(() => void tick(), 1500);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [serverId, query, totals]);
  return { page, error };
}

/** "Copy": puts the shown log on the clipboard as text; `copied` for 1.5 s after. */
function useCopyLog(page: ServerLogPage | null, which: LogKind) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!page) return;
    await navigator.clipboard.writeText(logText(page, which));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return { copied, copy };
}

/** The protocol log, newest first: time, direction, kind, method (and error), id and size. */
function ProtocolTable({ entries }: { entries: ServerLogPage['protocol'] }) {
  const { t } = useTranslation('servers');
  return (
    <div className="log-scroll">
      <table className="log-table" data-testid="protocol-log">
        <thead>
          <tr>
            <th>{t('log.colTime')}</th>
            <th aria-label={t('log.colDirection')} />
            <th>{t('log.colKind')}</th>
            <th>{t('log.colMethod')}</th>
            <th>{t('log.colId')}</th>
            <th className="num">{t('log.colSize')}</th>
          </tr>
        </thead>
        <tbody>
          {entries
            .slice()
            .reverse()
            .map((e) => (
              <tr key={e.seq} className={e.kind === 'error' ? 'is-error' : ''}>
                <td className="mono">{time(e.at)}</td>
                <td title={e.direction === 'out' ? t('log.sentByConsole') : t('log.sentByServer')}>{e.direction === 'out' ? '→' : '←'}</td>
                <td>{e.kind}</td>
                <td className="mono">
                  {e.method ?? '—'}
                  {e.error && <span className="error-text"> {e.error.code}: {e.error.message}</span>}
                </td>
                <td className="mono">{e.id ?? ''}</td>
                <td className="mono num">{e.size}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The log of one server (a connection of the console's own, or a bridged server: its bridge
 * reports it); fetched again whenever `server.logTotals` or `refreshKey` changes.
 */
export function LogPanel({ server, refreshKey = '' }: { server: Pick<ServerView, 'id' | 'logTotals'>; refreshKey?: string }) {
  const { t } = useTranslation('servers');
  const [which, setWhich] = useState<LogKind>('protocol');
  const [query, setQuery] = useState('');
  const totals = `${server.logTotals?.protocol ?? 0}/${server.logTotals?.stderr ?? 0}/${refreshKey}`;
  const { page, error } = useServerLog(server.id, query, totals);
  const { copied, copy } = useCopyLog(page, which);

  const rows = which === 'protocol' ? (page?.protocol ?? []) : (page?.stderr ?? []);
  return (
    <div className="log-panel" data-testid="log-panel">
      <div className="log-toolbar">
        <div className="segmented" role="tablist" aria-label={t('log.tabsAria')}>
          {LOG_KINDS.map((w) => (
            <button key={w} type="button" role="tab" aria-selected={which === w} className={which === w ? 'is-active' : ''} data-testid={`log-tab-${w}`} onClick={() => setWhich(w)}>
              {w === 'protocol' ? t('log.protocol', { n: page?.totals.protocol ?? 0 }) : t('log.stderr', { n: page?.totals.stderr ?? 0 })}
            </button>
          ))}
        </div>
        <input type="search" className="inline-search" placeholder={which === 'protocol' ? t('log.searchProtocol') : t('log.searchStderr')} value={query} onChange={(e) => setQuery(e.target.value)} data-testid="log-search" aria-label={t('log.searchAria')} />
        <span className="spacer" />
        <span className="muted small">{t('log.keeps')}</span>
        <button type="button" className="btn-small" onClick={() => void copy()} disabled={!page || rows.length === 0} data-testid="log-copy">
          {copied ? t('log.copied') : t('log.copy')}
        </button>
      </div>
      <ActionError error={error} />
      {rows.length === 0 ? (
        <p className="muted small">{query ? t('log.noMatch') : t('log.empty')}</p>
      ) : which === 'protocol' ? (
        <ProtocolTable entries={page!.protocol} />
      ) : (
        <pre className="mono-box stderr log-scroll" data-testid="stderr-log">
          {page!.stderr.map((e) => `${time(e.at)}  ${e.text}`).join('\n')}
        </pre>
      )}
    </div>
  );
}
