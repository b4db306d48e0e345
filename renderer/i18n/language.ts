/** Which UI language to show: pure, so it runs in tests on plain Node. */
import { UI_LANGUAGES, type LanguagePreference, type UiLanguage } from '../../shared/desktop.js';

/**
 * The language to show for a preference. `system` takes the first of `locales` (BCP 47 tags, most
 * preferred first) that the console ships: any `zh*` tag → `zh-CN`, any `en*` tag → `en`;
 * English when none matches.
 */
export function resolveLanguage(preference: LanguagePreference | undefined, locales: readonly string[]): UiLanguage {
  if (preference && preference !== 'system') return preference;
  for (const tag of locales) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh-CN';
    if (lower.startsWith('en')) return 'en';
    const exact = UI_LANGUAGES.find((l) => l.toLowerCase() === lower);
    if (exact) return exact;
  }
  return 'en';
}
