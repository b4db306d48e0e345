/**
 * Light and dark themes. The colours are CSS custom properties in styles.css: light by default,
 * dark under `prefers-color-scheme: dark`, and an explicit choice as `data-theme="light|dark"` on
 * <html> that wins over the OS. The preference is main's (desktop settings); this only applies it.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { ThemePreference } from '../shared/desktop';
import { useConsole } from './store';

/** The attribute on <html> that forces a theme. */
export const THEME_ATTRIBUTE = 'data-theme';

/** Applies a preference to `root`: `system` (or none yet) removes the override, the OS decides. */
export function applyThemePreference(preference: ThemePreference | undefined, root: HTMLElement = document.documentElement): void {
  if (!preference || preference === 'system') root.removeAttribute(THEME_ATTRIBUTE);
  else root.setAttribute(THEME_ATTRIBUTE, preference);
}

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

/** The theme in effect: the preference, or the OS's when the preference is `system`. */
export function effectiveTheme(preference: ThemePreference | undefined, osDark: boolean): 'light' | 'dark' {
  return preference && preference !== 'system' ? preference : osDark ? 'dark' : 'light';
}

/** Keeps <html>'s theme attribute in step with the mirrored preference. Call once, in App. */
export function useThemePreference(): void {
  const preference = useConsole((s) => s.mirror?.desktop?.settings.theme);
  useEffect(() => applyThemePreference(preference), [preference]);
}
