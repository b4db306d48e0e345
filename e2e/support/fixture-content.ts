/**
 * Content the fixture items carry (e2e/support/fixture-state.ts re-exports the constants): media as
 * base64, Markdown with hostile HTML the sanitiser must defuse, and short request / response makers.
 */
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';

/** A 32×32 PNG (blue/amber checkerboard). */
export const PNG_B64 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAOklEQVR42mNQCT+KFT1dyIAVkaqeYdSCUQuGgAXUMgiX+lELRi0YChaMFhWjFoxaMFofjFowagEQAQBMrYxMDiD0JQAAAABJRU5ErkJggg==';
/** A 50 ms 8-bit WAV. */
export const WAV_B64 =
  'UklGRrQBAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YZABAABYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKioWFhYWFhYWFhYWKioqKioqKioqKhYWFhYWFhYWFhYqKioqKioqKioqFhYWFhYWFhYWFioqKioqKioqKio';

/** The hostile line inside the first request; it must show as text and never run. */
export const HOSTILE_IMG = '<img src=x onerror="window.__xss = 1">';
/** A script tag inside the same request; it must show as text and never run. */
export const HOSTILE_SCRIPT = '<script>window.__xss = 2</script>';

/** Markdown the first request carries (rendered as Markdown, hostile HTML shown as text). */
export const MARKDOWN_PROMPT = [
  '# Weekly report',
  'Summarise the **three** open incidents for the on-call engineer:',
  '',
  '- INC-101 database failover took `42 s`',
  '- INC-102 elevated 5xx on /checkout',
  '- INC-103 certificate expires Friday',
  '',
  HOSTILE_IMG,
  '',
  HOSTILE_SCRIPT,
  '',
  'See the [runbook](https://example.com/runbook) before answering.',
].join('\n');

/** A one-message text request (`maxTokens` 100), with `extra` params on top. */
export const params = (text: string, extra: Partial<CreateMessageParams> = {}): CreateMessageParams => ({
  messages: [{ role: 'user', content: { type: 'text', text } }],
  maxTokens: 100,
  ...extra,
});

/** A text response by `model`. */
export const result = (text: string, model: string, stopReason = 'endTurn'): CreateMessageResult => ({
  role: 'assistant',
  content: { type: 'text', text },
  model,
  stopReason,
});
