/**
 * What a history row shows as its preview: the request's text, else why it failed (a refused
 * request has no text to show — a malformed one may have none at all — and its reason is what
 * the person needs), else nothing.
 */
import type { HistorySummary } from '../../../shared/contract/state';
import type { UiText } from '../../../shared/contract/ui-text';

/** A row's preview: the request's text, the reason it ended in error, or none. */
export type RowPreview = { kind: 'text'; text: string } | { kind: 'reason'; text: string; ui?: UiText } | { kind: 'none' };

/** The preview of one history row (see {@link RowPreview}). */
export function rowPreview(entry: Pick<HistorySummary, 'preview' | 'error' | 'errorUi'>): RowPreview {
  if (entry.preview) return { kind: 'text', text: entry.preview };
  const reason = entry.error?.replace(/\s+/g, ' ').trim();
  if (reason) return { kind: 'reason', text: reason.slice(0, 200), ...(entry.errorUi && { ui: entry.errorUi }) };
  return { kind: 'none' };
}
