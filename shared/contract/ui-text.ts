/**
 * Texts for people that main and shared produce (model-selection reasons, outcomes, validation
 * reasons, notices, errors): sent to the renderer as a message code with parameters, translated
 * there (the renderer's `messages` namespace, whose English is {@link UI_TEXTS}), and written in
 * English with {@link english} for logs, history and exports.
 *
 * A parameter may itself be a {@link UiText}, so a sentence can be built from translated parts
 * (`{{none}}; using {{what}}`). Parameters that are not UiTexts are data (model ids, hints, server
 * names, numbers) and are shown as they are.
 */
import { UI_TEXTS } from './ui-text-catalog.js';

export { UI_TEXTS } from './ui-text-catalog.js';

/** A message code: a key of {@link UI_TEXTS}. */
export type UiTextCode = keyof typeof UI_TEXTS;

/** A parameter value: data (shown as is) or a nested text (translated too). */
export type UiTextParam = string | number | UiText;

/** A text for people as a code and its parameters. */
export interface UiText {
  code: UiTextCode;
  params?: Record<string, UiTextParam>;
}

/** Builds a {@link UiText}. */
export function ui(code: UiTextCode, params?: Record<string, UiTextParam>): UiText {
  return params ? { code, params } : { code };
}

/** True for a {@link UiText} (as opposed to a data parameter). */
export function isUiText(v: unknown): v is UiText {
  return typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'string';
}

/**
 * Fills `{{name}}` placeholders of `template` from `params`, each value passed through `each`.
 * Unknown placeholders are left as they are. Linear in the template's length.
 */
export function fillTemplate(template: string, params: Record<string, UiTextParam> | undefined, each: (v: UiTextParam) => string): string {
  if (!params) return template;
  let out = '';
  let i = 0;
  for (;;) {
    const open = template.indexOf('{{', i);
    if (open < 0) return out + template.slice(i);
    const close = template.indexOf('}}', open + 2);
    if (close < 0) return out + template.slice(i);
    const name = template.slice(open + 2, close).trim();
    const value = params[name];
    out += template.slice(i, open) + (value === undefined ? template.slice(open, close + 2) : each(value));
    i = close + 2;
  }
}

/** The English text of `t` (nested texts in English too): for logs, history and exports. */
export function english(t: UiText): string {
  return fillTemplate(UI_TEXTS[t.code] ?? t.code, t.params, (v) => (isUiText(v) ? english(v) : String(v)));
}

/** `{ "model.fastest": … }` → `{ model: { fastest: … } }` (i18next's key separator is the dot). */
export function nestOnFirstDot(flat: Record<string, string>): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [code, text] of Object.entries(flat)) {
    const dot = code.indexOf('.');
    (out[code.slice(0, dot)] ??= {})[code.slice(dot + 1)] = text;
  }
  return out;
}

let byEnglish: Map<string, UiTextCode> | undefined;

/**
 * The code whose English is exactly `text` and takes no parameters, if any. For fixed English a
 * library carries where no code fits (zod schema messages, the detectors' labels): the catalog
 * holds the same sentence, so the renderer can still translate it.
 */
export function codeOfEnglish(text: string): UiTextCode | undefined {
  byEnglish ??= new Map(
    (Object.entries(UI_TEXTS) as Array<[UiTextCode, string]>).filter(([, en]) => !en.includes('{{')).map(([code, en]) => [en, code]),
  );
  return byEnglish.get(text);
}

/** `{ reason, reasonUi }`: the English beside its message code (model choices, import decisions). */
export function because(why: UiText): { reason: string; reasonUi: UiText } {
  return { reason: english(why), reasonUi: why };
}

/** `{ message, ui }`: the English beside its message code (outcomes, notices). */
export function said(t: UiText): { message: string; ui: UiText } {
  return { message: english(t), ui: t };
}
