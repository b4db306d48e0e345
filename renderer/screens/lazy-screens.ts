/**
 * The screens other than the Queue, each in its own chunk (React.lazy): the page's first paint —
 * the Queue — loads and compiles none of their code. {@link preloadScreens} fetches them once the
 * page is idle, so switching to one later shows it at once.
 */
import { lazy } from 'react';

const load = {
  servers: () => import('./servers/ServersScreen').then((m) => ({ default: m.ServersScreen })),
  providers: () => import('./providers/ProvidersScreen').then((m) => ({ default: m.ProvidersScreen })),
  history: () => import('./history/HistoryScreen').then((m) => ({ default: m.HistoryScreen })),
  rules: () => import('./rules/RulesScreen').then((m) => ({ default: m.RulesScreen })),
  settings: () => import('./settings/SettingsScreen').then((m) => ({ default: m.SettingsScreen })),
};

export const ServersScreen = lazy(load.servers);
export const ProvidersScreen = lazy(load.providers);
export const HistoryScreen = lazy(load.history);
export const RulesScreen = lazy(load.rules);
export const SettingsScreen = lazy(load.settings);

/**
 * Fetches every lazy screen's chunk (each once: the module loader keeps it). Resolves when all have
 * loaded; a chunk that fails to load is left to the screen's own lazy load to report when shown.
 */
export function preloadScreens(): Promise<void> {
  return Promise.allSettled(Object.values(load).map((f) => f())).then(() => undefined);
}
