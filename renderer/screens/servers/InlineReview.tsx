/**
 * The request a person's own tool call caused, reviewed where the call was made: when a sampling
 * request or an elicitation arrives for a call this server page shows as running, its review
 * opens above the tools (same review screens as the Queue), focused when it arrives while
 * nothing else has the person's attention (not when it was already waiting as the page opened).
 * Requests of other servers and calls stay in the Queue and take no focus. A review that ended
 * under the person (the server went away, another window decided) stays here, held, with a banner
 * saying so, until they dismiss it (screens/queue/review-hold.ts).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallView, ItemSummary } from '../../../shared/contract/state';
import { needsPerson, useConsole, useItemDetail, useItems } from '../../store';
import { ItemReview } from '../queue/QueueScreen';
import { useShownItem } from '../queue/review-hold';

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
  // The review shown here stays while it is held, even once its item no longer waits (and when
  // the page opens again: a held review of one of these calls comes first).
  const [pinned, setPinned] = useState<string | undefined>(undefined);
  const pinnedHeld = useConsole((s) => (pinned ? s.held[pinned] !== undefined : false));
  const heldHere = useConsole((s) => Object.values(s.held).find((h) => h.item.association.calls.some((c) => calls.some((k) => k.id === c.callId)))?.item.id);
  const firstId = pinnedHeld ? pinned : (heldHere ?? waiting[0]?.id);
  const { item: first, held } = useShownItem(firstId, useItemDetail(firstId));
  if (firstId !== pinned) setPinned(firstId); // what is shown now is what stays, should it end
  const ref = useRef<HTMLElement>(null);
  // Focus a request that arrives while the page is open; one already waiting when the page opens
  // is shown, not focused (the person came here for something else, maybe).
  // Focus goes to its review area (where its keys work) once that is on screen (the item loads first).
  const shown = useRef(firstId);
  const toFocus = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (firstId && firstId !== shown.current && !personBusyElsewhere()) toFocus.current = firstId;
    shown.current = firstId;
    const area = ref.current?.querySelector<HTMLElement>('[data-review-item]');
    if (toFocus.current === firstId && area) {
      area.focus();
      toFocus.current = undefined;
    }
  }, [firstId, first]);
  if (!firstId) return null;
  const others = waiting.filter((w) => w.id !== firstId);
  return (
    <section className="section inline-review" data-testid="inline-review" data-item-id={firstId} ref={ref} aria-label={held ? t('inline.titleEnded') : t('inline.title')}>
      <header className="section-head">
        <h3>{held ? t('inline.titleEnded') : t('inline.title')}</h3>
        {others.length > 0 && (
          <button type="button" className="btn-link small" data-testid="inline-review-more" onClick={() => openItem(others[0]!.id)}>
            {t('inline.more', { count: others.length })}
          </button>
        )}
      </header>
      {first && <ItemReview item={first} held={held} />}
    </section>
  );
}
