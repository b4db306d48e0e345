/**
 * The renderer's i18n (i18next + react-i18next). Languages: English (source, fallback) and
 * Simplified Chinese. The preference is main's (desktop settings `language`: `system` | `en` |
 * `zh-CN`); `system` resolves from the OS locale as the renderer sees it (`navigator.languages`,
 * which Electron fills from the OS). Components use `useTranslation('<namespace>')` and never
 * hard-code UI text (lint: `i18next/no-literal-string`).
 *
 * Keys asked for but missing in the active language are recorded (see {@link missingKeys}); the
 * Playwright language spec fails when any screen asks for one.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useEffect } from 'react';
import { resolveLanguage, UI_LANGUAGES } from '../../shared/contract/desktop';
import { useConsole } from '../store';
import { NAMESPACES, resources } from './resources';
import { PSEUDO_LANGUAGE, pseudoTree } from './pseudo';
import { reportMissingWith } from './say';
import { applyZodLanguage } from './zod-language';

export { resolveLanguage } from '../../shared/contract/desktop';

const missing = new Set<string>();

/** `"<lang>:<ns>:<key>"` for every key asked for and not found since start (test hook). */
export function missingKeys(): string[] {
  return [...missing];
}

function osLocales(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
}

void i18next.use(initReactI18next).init({
  resources,
  lng: resolveLanguage('system', osLocales()),
  fallbackLng: 'en',
  supportedLngs: [...UI_LANGUAGES, PSEUDO_LANGUAGE],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false }, // React escapes.
  returnNull: false,
  initAsync: false,
  saveMissing: true,
  missingKeyHandler: (lngs, ns, key) => {
    for (const lng of lngs) missing.add(`${lng}:${ns}:${key}`);
  },
});
reportMissingWith((key) => missing.add(key));

let pseudo = false;
/**
 * Shows the pseudo-locale (./pseudo) instead of the preferred language, or goes back to it. For
 * finding untranslated text; not a setting (test hook and DevTools: `__i18nPseudo(true)`).
 */
export function setPseudoLocale(on: boolean): void {
  pseudo = on;
  if (on && !i18next.hasResourceBundle(PSEUDO_LANGUAGE, 'common')) {
    for (const ns of NAMESPACES) i18next.addResourceBundle(PSEUDO_LANGUAGE, ns, pseudoTree(resources.en[ns]));
  }
  void i18next.changeLanguage(on ? PSEUDO_LANGUAGE : resolveLanguage(preferred, osLocales()));
}
let preferred: Parameters<typeof resolveLanguage>[0];

if (typeof window !== 'undefined') Object.assign(window, { __i18nMissing: missingKeys, __i18nPseudo: setPseudoLocale });

/** The i18next instance (for code outside React: `i18n.t(...)`, `i18n.language`). */
export const i18n = i18next;

/**
 * Keeps i18next's language and `<html lang>` in step with the mirrored preference. Call once, in
 * App (like useThemePreference).
 */
export function useLanguagePreference(): void {
  const preference = useConsole((s) => s.mirror?.desktop?.settings.language);
  useEffect(() => {
    preferred = preference;
    if (pseudo) return;
    const lang = resolveLanguage(preference, osLocales());
    if (i18next.language !== lang) void i18next.changeLanguage(lang);
    applyZodLanguage(lang); // zod's own messages (a form's built-in checks) in the same language
    document.documentElement.lang = lang;
  }, [preference]);
}
