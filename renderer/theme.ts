/**
 * Light and dark themes. The colours are CSS custom properties in styles.css: light by default,
 * dark under `prefers-color-scheme: dark`, and an explicit choice as `data-theme="light|dark"` on
 * <html> that wins over the OS. The preference is main's (desktop settings); this only applies it.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useConsole } from './store';
import { applyThemePreference } from './theme-core';

export { applyThemePreference, effectiveTheme, THEME_ATTRIBUTE } from './theme-core';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeOsTheme(listener: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

/** Whether the OS (or, in Electron, `nativeTheme`) asks for dark now; re-renders on change. */
export function useOsPrefersDark(): boolean {
  return useSyncExternalStore(subscribeOsTheme, () => window.matchMedia(DARK_QUERY).matches);
}

/** Keeps <html>'s theme attribute in step with the mirrored preference. Call once, in App. */
export function useThemePreference(): void {
  const preference = useConsole((s) => s.mirror?.desktop?.settings.theme);
  useEffect(() => applyThemePreference(preference), [preference]);
}
