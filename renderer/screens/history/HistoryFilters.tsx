/**
 * The filter bar of the History screen: full-text search plus server, tool, status, who decided,
 * the person who decided and who requested (a team server's), rule, model, provider, date range,
 * edits and errors. Menus list the values present in history
 * (`historyFacets`). Every control is labelled.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DECIDERS, HISTORY_STATUSES, type HistoryFacets } from '../../../shared/contract/history';
import { activeFilterCount, useHistoryUi, type FilterInputs } from './history-ui';

function Field({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <label className="history-filter" htmlFor={id}>
      <span className="history-filter-label">{label}</span>
      {children}
    </label>
  );
}

function Menu<K extends keyof FilterInputs>({
  name,
  label,
  options,
}: {
  name: K;
  label: string;
  options: ReadonlyArray<readonly [string, string]>;
}) {
  const value = useHistoryUi((s) => s.filters[name]);
  const setFilter = useHistoryUi((s) => s.setFilter);
  const { t } = useTranslation('history');
  const id = `history-filter-${name}`;
  return (
    <Field label={label} id={id}>
      <select id={id} data-testid={id} value={value} onChange={(e) => setFilter(name, e.target.value as FilterInputs[K])}>
        <option value="">{t('filters.any')}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
        {value !== '' && !options.some(([v]) => v === value) && <option value={value}>{value}</option>}
      </select>
    </Field>
  );
}

const pairs = (values: readonly string[]) => values.map((v) => [v, v] as const);

/** The search box and the filter controls (children of the screen's top bar). */
export function HistoryFilters({ facets }: { facets: HistoryFacets | null }) {
  const { t } = useTranslation('history');
  const filters = useHistoryUi((s) => s.filters);
  const setFilter = useHistoryUi((s) => s.setFilter);
  const clearFilters = useHistoryUi((s) => s.clearFilters);
  const active = activeFilterCount(filters);
  // Open by the person's hand (and at first when filters are already set): never closed under them.
  const [open, setOpen] = useState(active > 0);
  return (
    <>
      <div className="search history-search">
        <input
          type="search"
          aria-label={t('filters.searchLabel')}
          placeholder={t('filters.searchPlaceholder')}
          data-testid="history-search"
          value={filters.query}
          onChange={(e) => setFilter('query', e.target.value)}
        />
      </div>
      <details className="history-filter-box" data-testid="history-filters" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary data-testid="history-filters-toggle">{active > 0 ? t('filters.toggleActive', { count: active }) : t('filters.toggle')}</summary>
        <div className="history-filter-grid">
          <Menu name="serverId" label={t('filters.server')} options={pairs(facets?.servers ?? [])} />
          <Menu name="tool" label={t('filters.tool')} options={pairs(facets?.tools ?? [])} />
          <Menu name="status" label={t('filters.status')} options={HISTORY_STATUSES.map((s) => [s, t(`status.${s}`)] as const)} />
          <Menu name="decidedBy" label={t('filters.decidedBy')} options={DECIDERS.map((d) => [d, t(`deciders.${d}`)] as const)} />
          {facets?.people && <Menu name="decider" label={t('filters.decider')} options={facets.people.map((p) => [p.subject, p.name] as const)} />}
          {facets?.people && <Menu name="requestedBy" label={t('filters.requestedBy')} options={facets.people.map((p) => [p.subject, p.name] as const)} />}
          <Menu name="rule" label={t('filters.rule')} options={(facets?.rules ?? []).map((r) => [r.ruleId, `${r.name} (${r.serverId})`] as const)} />
          <Menu name="model" label={t('filters.model')} options={pairs(facets?.models ?? [])} />
          <Menu name="providerId" label={t('filters.provider')} options={pairs(facets?.providers ?? [])} />
          <Field label={t('filters.from')} id="history-filter-from">
            <input id="history-filter-from" data-testid="history-filter-from" type="date" value={filters.from} onChange={(e) => setFilter('from', e.target.value)} />
          </Field>
          <Field label={t('filters.to')} id="history-filter-to">
            <input id="history-filter-to" data-testid="history-filter-to" type="date" value={filters.to} onChange={(e) => setFilter('to', e.target.value)} />
          </Field>
          <Menu
            name="edited"
            label={t('filters.edits')}
            options={[
              ['yes', t('filters.edited')],
              ['no', t('filters.notEdited')],
            ]}
          />
          <Menu
            name="errors"
            label={t('filters.errors')}
            options={[
              ['yes', t('filters.withError')],
              ['no', t('filters.withoutErrors')],
            ]}
          />
          <button type="button" className="btn-small" onClick={clearFilters} disabled={active === 0} data-testid="history-filters-clear">
            {t('filters.clear')}
          </button>
        </div>
      </details>
    </>
  );
}
