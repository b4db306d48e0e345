/**
 * The screens other than the Queue, each in its own chunk: the page's first paint — the Queue —
 * loads and compiles none of their code. {@link preloadScreens} fetches them once the page is idle;
 * a screen shown after that renders at once (no "Loading…" in between), one shown before waits
 * for its chunk (React.lazy, under the App's Suspense).
 */
import { createElement, lazy, useState, type ComponentType } from 'react';

/** A screen from a chunk: the component, and the load that fetches the chunk (once; later calls share it). */
function lazyScreen(load: () => Promise<ComponentType>): { Screen: ComponentType; preload: () => Promise<unknown> } {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const fetch = () =>
    (loading ??= load().then(
      (c) => (loaded = c),
      (err: unknown) => {
        loading = undefined; // the screen's own load, when it is opened, tries again
        throw err;
      },
    ));
  const Lazy = lazy(() => fetch().then((c) => ({ default: c })));
  /** The screen itself once its chunk is here; else the lazy one. Chosen once per mount, so it never remounts. */
  function Screen() {
    const [ready] = useState(() => loaded);
    return createElement(ready ?? Lazy);
  }
  return { Screen, preload: fetch };
}

const servers = lazyScreen(() => import('./servers/ServersScreen').then((m) => m.ServersScreen));
const providers = lazyScreen(() => import('./providers/ProvidersScreen').then((m) => m.ProvidersScreen));
const history = lazyScreen(() => import('./history/HistoryScreen').then((m) => m.HistoryScreen));
const rules = lazyScreen(() => import('./rules/RulesScreen').then((m) => m.RulesScreen));
const settings = lazyScreen(() => import('./settings/SettingsScreen').then((m) => m.SettingsScreen));

export const ServersScreen = servers.Screen;
export const ProvidersScreen = providers.Screen;
export const HistoryScreen = history.Screen;
export const RulesScreen = rules.Screen;
export const SettingsScreen = settings.Screen;

/**
 * Fetches every lazy screen's chunk (each once). Resolves when all have loaded or failed; a chunk
 * that failed is fetched again when its screen is first opened.
 */
export function preloadScreens(): Promise<void> {
  return Promise.allSettled([servers, providers, history, rules, settings].map((s) => s.preload())).then(() => undefined);
}
