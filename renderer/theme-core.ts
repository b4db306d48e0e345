/**
 * The pure part of theming (no store, no React), shared by renderer/theme.ts and unit tests: the
 * `data-theme` override on <html> and the theme in effect.
 */
import type { ThemePreference } from '../shared/contract/desktop.js';

/** The attribute on <html> that forces a theme. */
export const THEME_ATTRIBUTE = 'data-theme';

/** Applies a preference to `root`: `system` (or none yet) removes the override, the OS decides. */
export function applyThemePreference(preference: ThemePreference | undefined, root: HTMLElement = document.documentElement): void {
  if (!preference || preference === 'system') root.removeAttribute(THEME_ATTRIBUTE);
  else root.setAttribute(THEME_ATTRIBUTE, preference);
}

/** The theme in effect: the preference, or the OS's when the preference is `system`. */
export function effectiveTheme(preference: ThemePreference | undefined, osDark: boolean): 'light' | 'dark' {
  return preference && preference !== 'system' ? preference : osDark ? 'dark' : 'light';
}
