/**
 * zod's own messages (the built-in checks of a schema, e.g. "Too small: expected number to be >0")
 * in the UI language, through zod's locales. Messages a schema words itself come from the
 * catalog and are translated with the rest (see ./say).
 */
import { z } from 'zod';
import zodEn from 'zod/v4/locales/en.js';
import zodZh from 'zod/v4/locales/zh-CN.js';

/** Switches zod's messages to `lang` (anything but `zh-CN` is English). Global to the renderer. */
export function applyZodLanguage(lang: string): void {
  z.config(lang === 'zh-CN' ? zodZh() : zodEn());
}
