/**
 * Translating texts main and shared send as message codes ({@link UiText}, shared/contract/ui-text.ts):
 * the code is a key of the `messages` namespace; nested texts among the parameters are translated
 * too, data parameters shown as they are.
 */
import { useTranslation } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { codeOfEnglish, english, fillTemplate, isUiText, type UiText } from '../../shared/contract/ui-text.js';

/** Called with `"<lang>:messages:<code>"` when the language lacks a code (see missingKeys in ./index). */
let onMissing: (key: string) => void = () => {};
/** Sets the missing-code reporter (the i18n module does, once). */
export function reportMissingWith(fn: (key: string) => void): void {
  onMissing = fn;
}

/**
 * `text` in `i18n`'s language; the English `fallback` when there is no code (older history
 * entries) or when the language lacks the code (reported as missing; a code a later version
 * renamed is read from history this way), else the English of the code.
 */
export function sayWith(i18n: I18n, text: UiText | undefined, fallback = ''): string {
  if (!text) return fallback;
  const template = i18n.getResource(i18n.language, 'messages', text.code) as unknown;
  if (typeof template !== 'string') {
    onMissing(`${i18n.language}:messages:${text.code}`);
    return fallback || english(text);
  }
  // Placeholders are filled here (not by i18next) so a nested text is translated as a whole.
  return fillTemplate(template, text.params, (v) => (isUiText(v) ? sayWith(i18n, v) : String(v)));
}

/**
 * Fixed English a library carries (a zod schema message, a detector's label) in `i18n`'s
 * language when the catalog has it (see `codeOfEnglish`); other text (a person's label) as it is.
 */
export function sayEnglish(i18n: I18n, text: string): string {
  const code = codeOfEnglish(text);
  return code ? sayWith(i18n, { code }) : text;
}

/** `say(text, fallback?)`: {@link sayWith} in the current language (re-renders when it changes). */
export function useSay(): (text: UiText | undefined, fallback?: string) => string {
  const { i18n } = useTranslation('messages');
  return (text, fallback) => sayWith(i18n, text, fallback);
}
