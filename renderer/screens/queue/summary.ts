/** Derived, display-only facts about a sampling item (nothing here is stored). */
import type { CreateMessageParams } from '../../../shared/contract/sampling';
import { promptPreview as previewOf } from '../../../shared/domain/item-summary';
import { TERMINAL_STATUSES, type ItemSummary, type RequestVia, type SamplingItemView, type SamplingStatus } from '../../../shared/contract/state';
import { i18n } from '../../i18n';

/** A summary's preview as shown: the line, or "No messages" in the person's language when it has none. */
export const shownPreview = (preview: string): string => preview || i18n.t('queue:list.noMessages');

/** First line of the prompt: the last user message that has text, else any text, else a kind (shared/domain/item-summary.ts). */
export function promptPreview(params: CreateMessageParams): string {
  return shownPreview(previewOf(params));
}

/** "tools/call trigger-sampling-request", or "one of 3 calls in flight" when not exact. */
export function associationLabel(item: Pick<SamplingItemView, 'association'>): string {
  const calls = item.association.calls;
  if (calls.length === 0) return i18n.t('queue:list.noClientRequest');
  if (item.association.exact || calls.length === 1) return `${calls[0]!.kind} ${calls[0]!.name}`;
  return i18n.t('queue:list.oneOfCalls', { n: calls.length });
}

/** {@link associationLabel} of a summary: its call, "one of 3 calls in flight", or no client request. */
export function summaryCallLabel(item: Pick<ItemSummary, 'call' | 'candidates'>): string {
  if (item.call) return `${item.call.kind} ${item.call.name}`;
  if (item.candidates) return i18n.t('queue:list.oneOfCalls', { n: item.candidates });
  return i18n.t('queue:list.noClientRequest');
}

/** Whether an item has finished. */
export const isTerminal = (item: { status: SamplingStatus }): boolean => TERMINAL_STATUSES.includes(item.status);

/** A row's server line in full ("everything via claude-ai"), for the title of a line cut with "…". */
export function rowServerTitle(who: string, via: RequestVia | undefined): string {
  return via ? `${who} ${i18n.t('common:via.label', { host: via.host })}` : who;
}
