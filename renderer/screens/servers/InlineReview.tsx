/**
 * The request a person's own tool call caused, reviewed where the call was made: when a sampling
 * request or an elicitation arrives for a call this server page shows as running, its review
 * opens above the tools (same review screens as the Queue), focused when it arrives while
 * nothing else has the person's attention (not when it was already waiting as the page opened).
 * Requests of other servers and calls stay in the Queue and take no focus.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallView, ItemSummary } from '../../../shared/contract/state';
import { needsPerson, useConsole, useItemDetail, useItems } from '../../store';
import { ItemReview } from '../queue/QueueScreen';

/** Whether `item` belongs to one of `callIds` (exactly, or as the only call it could belong to). */
function belongsTo(item: Pick<ItemSummary, 'call'>, callIds: ReadonlySet<string>): boolean {
  return item.call !== undefined && callIds.has(item.call.callId);
}

/** The requests (of either kind) waiting on the person that the running `calls` caused, oldest first. */
export function waitingFor(calls: readonly CallView[], items: readonly ItemSummary[]): ItemSummary[] {
  const running = new Set(calls.filter((c) => c.status === 'running').map((c) => c.id));
  if (running.size === 0) return [];
  return items.filter((i) => needsPerson(i) && belongsTo(i, running)).sort((a, b) => a.receivedAt - b.receivedAt);
}

/** Whether the person is typing or working in some control (then a new review takes no focus). */
function personBusyElsewhere(): boolean {
  const el = document.activeElement;
  if (!el || el === document.body) return false;
  return el.matches('input, textarea, select, [contenteditable="true"]');
}

/** The inline review of the oldest request `calls` caused, with a count of the others. */
export function InlineReview({ calls }: { calls: readonly CallView[] }) {
  const { t } = useTranslation('servers');
  const items = useItems();
  const openItem = useConsole((s) => s.openItem);
  const waiting = waitingFor(calls, items);
  const firstId = waiting[0]?.id;
  const first = useItemDetail(firstId);
  const ref = useRef<HTMLElement>(null);
  // Focus a request that arrives while the page is open; one already waiting when the page opens
  // is shown, not focused (the person came here for something else, maybe).
  const shown = useRef(firstId);
  useEffect(() => {
    if (firstId && firstId !== shown.current && !personBusyElsewhere()) ref.current?.focus();
    shown.current = firstId;
  }, [firstId]);
  if (!firstId) return null;
  return (
    <section className="section inline-review" data-testid="inline-review" data-item-id={firstId} ref={ref} tabIndex={-1} aria-label={t('inline.title')}>
      <header className="section-head">
        <h3>{t('inline.title')}</h3>
        {waiting.length > 1 && (
          <button type="button" className="btn-link small" data-testid="inline-review-more" onClick={() => openItem(waiting[1]!.id)}>
            {t('inline.more', { count: waiting.length - 1 })}
          </button>
        )}
      </header>
      {first && <ItemReview item={first} />}
    </section>
  );
}
