/** Derived, display-only facts about a sampling item (nothing here is stored). */
import { contentBlocks, type CreateMessageParams } from '../../../shared/sampling';
import { TERMINAL_STATUSES, type SamplingItemView } from '../../../shared/state';
import { firstLine } from '../../format';
import { i18n } from '../../i18n';

/** Previews by params object (items keep theirs across state patches; a row renders it often). */
const previews = new WeakMap<CreateMessageParams, string>();

/** First line of the prompt: the last user message that has text, else any text, else a kind. */
export function promptPreview(params: CreateMessageParams): string {
  const cached = previews.get(params);
  if (cached !== undefined) return cached;
  const texts = (role?: string) =>
    params.messages
      .filter((m) => !role || m.role === role)
      .map((m) =>
        contentBlocks(m.content)
          .map((b) => (b.type === 'text' ? b.text : ''))
          .join(' ')
          .trim(),
      )
      .filter((t) => t !== '');
  const text = texts('user').at(-1) ?? texts().at(-1);
  if (text) {
    const line = firstLine(text);
    previews.set(params, line);
    return line;
  }
  const kinds = params.messages.flatMap((m) => contentBlocks(m.content).map((b) => b.type));
  return kinds.length ? `(${[...new Set(kinds)].join(', ')})` : i18n.t('queue:list.noMessages');
}

/** "tools/call trigger-sampling-request", or "one of 3 calls in flight" when not exact. */
export function associationLabel(item: Pick<SamplingItemView, 'association'>): string {
  const calls = item.association.calls;
  if (calls.length === 0) return i18n.t('queue:list.noClientRequest');
  if (item.association.exact || calls.length === 1) return `${calls[0]!.kind} ${calls[0]!.name}`;
  return i18n.t('queue:list.oneOfCalls', { n: calls.length });
}

/** Whether an item has finished. */
export const isTerminal = (item: SamplingItemView): boolean => TERMINAL_STATUSES.includes(item.status);
