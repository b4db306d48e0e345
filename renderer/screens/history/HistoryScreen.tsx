/**
 * The History screen: search and filters on top (with the per-server counters, retention and
 * audit trail panels), the virtualised list with export / delete actions on the left, the selected entry's
 * detail on the right.
 */
import { useMay } from '../../viewer';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistoryFacets, HistoryFilter } from '../../../shared/contract/history';
import { getApi } from '../../api';
import { ActionError, Empty } from '../../components/common';
import { AuditPanel } from './AuditPanel';
import { useConsole, useItems, useNotices } from '../../store';
import { HistoryActions } from './HistoryActions';
import { HistoryDetail } from './HistoryDetail';
import { HistoryFilters } from './HistoryFilters';
import { HistoryList } from './HistoryList';
import { HistoryStats } from './HistoryStats';
import { RetentionPanel } from './RetentionPanel';
import { activeFilterCount, toApiFilter, useHistoryUi } from './history-ui';
import { useHistoryPages } from './useHistoryPages';
import './history.css';

/** A key that changes whenever history may have changed: an item finished, a notice arrived, a delete. */
function useHistoryChanges(): string {
  const items = useItems();
  const notices = useNotices();
  const reloads = useHistoryUi((s) => s.reloads);
  return useMemo(
    () =>
      items
        .filter((i) => i.outcome)
        .map((i) => `${i.id}:${i.status}`)
        .concat(notices.map((n) => n.id), String(reloads))
        .join(','),
    [items, notices, reloads],
  );
}

/**
 * The detail pane follows the list: when the search or a filter changes, an entry on screen that
 * no longer matches is closed (one `listHistory` of that id under the new filter).
 */
function useSelectionFollowsFilter(filter: HistoryFilter, selectedId: string | null, select: (id: string | null) => void): void {
  useEffect(() => {
    if (!selectedId) return;
    let live = true;
    getApi()
      .listHistory({ ...filter, id: selectedId, limit: 1 })
      .then(
        (page) => live && page.total === 0 && select(null),
        () => undefined, // the list reports errors
      );
    return () => {
      live = false;
    };
  }, [filter, selectedId, select]);
}

/** The History screen. */
export function HistoryScreen() {
  const { t } = useTranslation('history');
  const filters = useHistoryUi((s) => s.filters);
  const checked = useHistoryUi((s) => s.selected);
  const toggle = useHistoryUi((s) => s.toggle);
  const selectedId = useConsole((s) => s.selectedHistoryId);
  const selectHistory = useConsole((s) => s.selectHistory);
  const changes = useHistoryChanges();
  const [query, setQuery] = useState(filters.query.trim());
  const [facets, setFacets] = useState<HistoryFacets | null>(null);

  useEffect(() => {
    const t = setTimeout(() => setQuery(filters.query.trim()), 250);
    return () => clearTimeout(t);
  }, [filters.query]);

  useEffect(() => {
    let live = true;
    getApi()
      .historyFacets({})
      .then(
        (f) => live && setFacets(f),
        () => undefined, // the menus then only offer "Any"; the list reports errors
      );
    return () => {
      live = false;
    };
  }, [changes]);

  const apiFilter = useMemo(() => toApiFilter(filters, query), [filters, query]);
  const pages = useHistoryPages(apiFilter, changes);
  const filtered = query !== '' || activeFilterCount(filters) > 0;
  const mayAdmin = useMay('admin');
  const mayAudit = useMay('audit');
  useSelectionFollowsFilter(apiFilter, selectedId, selectHistory);

  return (
    <div className="history-screen" data-testid="history-screen">
      <div className="history-top">
        <HistoryFilters facets={facets} />
        <HistoryStats reloadKey={changes} />
        {mayAdmin && <RetentionPanel />}
        {mayAudit && <AuditPanel />}
      </div>
      <div className="split">
        <div className="split-list history-pane">
          <div className="pane-title">
            <h2>{t('screen.title')}</h2>
            <span className="muted small" data-testid="history-total">
              {pages.loading && pages.total === null ? t('screen.loading') : t(filtered ? 'screen.found' : 'screen.total', { n: pages.total ?? 0 })}
            </span>
          </div>
          <ActionError error={pages.error} />
          {pages.total === 0 ? (
            <Empty>{filtered ? t('screen.nothingMatches') : t('screen.noHistory')}</Empty>
          ) : (
            <HistoryList pages={pages} selectedId={selectedId} checked={checked} onSelect={selectHistory} onToggle={toggle} />
          )}
          <HistoryActions filter={apiFilter} total={pages.total} />
        </div>
        <div className="split-detail">
          {selectedId ? <HistoryDetail key={selectedId} id={selectedId} /> : <Empty>{t('screen.selectEntry')}</Empty>}
        </div>
      </div>
    </div>
  );
}
