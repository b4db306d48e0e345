/**
 * UI state of the History screen (zustand), kept apart from the console mirror (renderer/store.ts)
 * because it is the person's own view: the filters, the period of the counters and the rows
 * they ticked. It survives switching screens. Nothing here is main's state.
 */
import { create } from 'zustand';
import type { DECIDERS, HistoryFilter } from '../../../shared/contract/history';
import type { SamplingStatus } from '../../../shared/contract/state';

/** Filter inputs as the controls hold them ('' = any). Dates are `YYYY-MM-DD` in local time. */
export interface FilterInputs {
  query: string;
  serverId: string;
  tool: string;
  status: '' | SamplingStatus;
  decidedBy: '' | (typeof DECIDERS)[number];
  rule: string;
  model: string;
  providerId: string;
  from: string;
  to: string;
  edited: '' | 'yes' | 'no';
  errors: '' | 'yes' | 'no';
  /** A person's subject (a team server's). */
  decider: string;
  requestedBy: string;
}

/** No filter. */
export const NO_FILTERS: FilterInputs = {
  query: '',
  serverId: '',
  tool: '',
  status: '',
  decidedBy: '',
  rule: '',
  model: '',
  providerId: '',
  from: '',
  to: '',
  edited: '',
  errors: '',
  decider: '',
  requestedBy: '',
};

/** Periods of the per-server counters (`ms` back from now; null = all time). Named by `history:stats.periods.<id>`. */
export const PERIODS = [
  { id: '24h', ms: 86_400_000 },
  { id: '7d', ms: 7 * 86_400_000 },
  { id: '30d', ms: 30 * 86_400_000 },
  { id: 'all', ms: null },
] as const;

/** One of {@link PERIODS}' ids. */
export type PeriodId = (typeof PERIODS)[number]['id'];

/** The History screen's own state. */
export interface HistoryUi {
  filters: FilterInputs;
  /** Entry ids the person ticked (their whole sessions are exported / deleted). */
  selected: Record<string, true>;
  period: PeriodId;
  /** Bumped to make the list and counters fetch again (after a delete or a prune). */
  reloads: number;
  setFilter<K extends keyof FilterInputs>(key: K, value: FilterInputs[K]): void;
  clearFilters(): void;
  toggle(id: string): void;
  clearSelection(): void;
  setPeriod(period: PeriodId): void;
  reload(): void;
}

/** The hook. */
export const useHistoryUi = create<HistoryUi>()((set) => ({
  filters: NO_FILTERS,
  selected: {},
  period: '7d',
  reloads: 0,
  setFilter: (key, value) => set((s) => ({ filters: { ...s.filters, [key]: value } })),
  clearFilters: () => set({ filters: NO_FILTERS }),
  toggle: (id) =>
    set((s) => {
      const selected = { ...s.selected };
      if (selected[id]) delete selected[id];
      else selected[id] = true;
      return { selected };
    }),
  clearSelection: () => set({ selected: {} }),
  setPeriod: (period) => set({ period }),
  reload: () => set((s) => ({ reloads: s.reloads + 1 })),
}));

/** Epoch ms of local midnight starting `YYYY-MM-DD`, or undefined for '' or an invalid date. */
export function dayStart(date: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const ms = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The API filter of the inputs. `query` is the debounced search text (trimmed, '' = none). The
 * date range covers whole local days: `to` is inclusive of its day.
 */
export function toApiFilter(f: FilterInputs, query: string): HistoryFilter {
  const out: HistoryFilter = {};
  if (query) out.query = query;
  if (f.serverId) out.serverId = f.serverId;
  if (f.tool) out.tool = f.tool;
  if (f.status) out.status = [f.status];
  if (f.decidedBy) out.decidedBy = f.decidedBy;
  if (f.rule) out.rule = f.rule;
  if (f.model) out.model = f.model;
  if (f.providerId) out.providerId = f.providerId;
  const from = dayStart(f.from);
  const to = dayStart(f.to);
  if (from !== undefined) out.from = from;
  if (to !== undefined) out.to = to + 86_400_000;
  if (f.edited) out.edited = f.edited === 'yes';
  if (f.errors) out.errors = f.errors === 'yes';
  if (f.decider) out.decider = f.decider;
  if (f.requestedBy) out.requestedBy = f.requestedBy;
  return out;
}

/** How many filters (besides the search text) are set. */
export function activeFilterCount(f: FilterInputs): number {
  return (Object.keys(f) as (keyof FilterInputs)[]).filter((k) => k !== 'query' && f[k] !== '').length;
}
