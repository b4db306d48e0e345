/** Per-server counters for a chosen period (`historyStats`), and on a team server per person, in a collapsible panel. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryStats as Stats } from '../../../shared/contract/history';
import { getApi } from '../../api';
import { errorText } from '../../api/error-text';
import { ActionError } from '../../components/common';
import { PERIODS, useHistoryUi, type PeriodId } from './history-ui';

/** The reply for one period: its counters, or why they could not be fetched. */
interface StatsResult {
  period: PeriodId;
  stats: Stats | null;
  error: string | null;
}

/**
 * The counters of `period` (refetched when `reloadKey` changes), or why they could not be fetched;
 * `null` until a reply for `period` came. A reply for the period chosen before is not returned as
 * this one's; after a history change the period's last reply stays until the new one comes.
 */
function useStats(period: PeriodId, reloadKey: string): StatsResult | null {
  const [result, setResult] = useState<StatsResult | null>(null);

  useEffect(() => {
    let live = true;
    const ms = PERIODS.find((p) => p.id === period)?.ms ?? null;
    getApi()
      .historyStats(ms === null ? {} : { from: Date.now() - ms })
      .then(
        (stats) => live && setResult({ period, stats, error: null }),
        (err: unknown) => live && setResult({ period, stats: null, error: errorText(err) }),
      );
    return () => {
      live = false;
    };
  }, [period, reloadKey]);
  return result?.period === period ? result : null;
}

/** One server's counters. */
type ServerStats = Stats['servers'][number];

/** The period select. */
function PeriodSelect() {
  const { t } = useTranslation('history');
  const period = useHistoryUi((s) => s.period);
  const setPeriod = useHistoryUi((s) => s.setPeriod);
  return (
    <label className="history-filter" htmlFor="history-period">
      <span className="history-filter-label">{t('stats.period')}</span>
      <select id="history-period" data-testid="history-period" value={period} onChange={(e) => setPeriod(e.target.value as PeriodId)}>
        {PERIODS.map((p) => (
          <option key={p.id} value={p.id}>
            {t(`stats.periods.${p.id}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The table: a row per server (requests, approved, rejected, auto, tokens, cost) and, for more than one, their sum. */
function StatsTable({ servers }: { servers: ServerStats[] }) {
  const { t, i18n } = useTranslation('history');
  /** Counts with the active language's digit grouping. */
  const number = (n: number) => n.toLocaleString(i18n.language);
  const total = servers.reduce(
    (t, s) => ({ requests: t.requests + s.requests, approved: t.approved + s.approved, rejected: t.rejected + s.rejected, auto: t.auto + s.auto, tokens: t.tokens + s.tokens }),
    { requests: 0, approved: 0, rejected: 0, auto: 0, tokens: 0 },
  );
  return (
    <table className="field-changes history-stats-table">
      <thead>
        <tr>
          <th scope="col">{t('stats.server')}</th>
          <th scope="col">{t('stats.requests')}</th>
          <th scope="col">{t('stats.approved')}</th>
          <th scope="col">{t('stats.rejected')}</th>
          <th scope="col">{t('stats.auto')}</th>
          <th scope="col">{t('stats.tokens')}</th>
          <th scope="col">{t('stats.cost')}</th>
        </tr>
      </thead>
      <tbody>
        {servers.map((s) => (
          <tr key={s.serverId} data-testid="history-stats-row" data-server-id={s.serverId}>
            <th scope="row">{s.serverId}</th>
            <td>{number(s.requests)}</td>
            <td>{number(s.approved)}</td>
            <td>{number(s.rejected)}</td>
            <td>{number(s.auto)}</td>
            <td>{number(s.tokens)}</td>
            <td>{s.cost === null ? '—' : `$${s.cost.toFixed(4)}`}</td>
          </tr>
        ))}
        {servers.length > 1 && (
          <tr className="history-stats-total">
            <th scope="row">{t('stats.allServers')}</th>
            <td>{number(total.requests)}</td>
            <td>{number(total.approved)}</td>
            <td>{number(total.rejected)}</td>
            <td>{number(total.auto)}</td>
            <td>{number(total.tokens)}</td>
            <td>—</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** The table per person (a team server's): decided (approved, rejected) and requested with their tokens. */
function PeopleTable({ people }: { people: NonNullable<Stats['people']> }) {
  const { t, i18n } = useTranslation('history');
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <table className="field-changes history-stats-table" data-testid="history-stats-people">
      <caption className="history-filter-label">{t('stats.people')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('stats.person')}</th>
          <th scope="col">{t('stats.decided')}</th>
          <th scope="col">{t('stats.approved')}</th>
          <th scope="col">{t('stats.rejected')}</th>
          <th scope="col">{t('stats.requested')}</th>
        </tr>
      </thead>
      <tbody>
        {people.map((p) => (
          <tr key={p.subject} data-testid="history-stats-person" data-subject={p.subject}>
            <th scope="row">{p.name}</th>
            <td>{number(p.decided)}</td>
            <td>{number(p.approved)}</td>
            <td>{number(p.rejected)}</td>
            <td>{number(p.requested)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The counters panel. `reloadKey` changes when history changed (new entries, deletes). */
export function HistoryStats({ reloadKey }: { reloadKey: string }) {
  const { t } = useTranslation('history');
  const period = useHistoryUi((s) => s.period);
  const result = useStats(period, reloadKey);
  const servers = result?.stats?.servers ?? [];
  return (
    <details className="history-panel" data-testid="history-stats">
      <summary>{t('stats.title')}</summary>
      <div className="history-panel-body history-stats-body">
        <PeriodSelect />
        <ActionError error={result?.error ?? null} />
        {!result ? (
          <p className="muted small" data-testid="history-stats-loading">
            {t('list.loading')}
          </p>
        ) : servers.length === 0 ? (
          <p className="muted small">{t('stats.none')}</p>
        ) : (
          <StatsTable servers={servers} />
        )}
        {result?.stats?.people && <PeopleTable people={result.stats.people} />}
      </div>
    </details>
  );
}
