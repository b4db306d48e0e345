/**
 * The request a person's own tool call caused, reviewed where the call was made: when a sampling
 * request or an elicitation arrives for a call this server page shows as running, its review
 * opens above the tools (same review screens as the Queue), focused when it arrives while
 * nothing else has the person's attention (not when it was already waiting as the page opened).
 * Requests of other servers and calls stay in the Queue and take no focus.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallView, ElicitationItemView, SamplingItemView } from '../../../shared/state';
import { isAwaitingPerson, useConsole, useElicitations, useItems } from '../../store';
import { elicitationAwaiting } from '../queue/ElicitationModel';
import { ElicitationReview } from '../queue/ElicitationReview';
import { Detail } from '../queue/QueueScreen';

/** A server request waiting on the person, of either kind. */
type Waiting = { kind: 'sampling'; item: SamplingItemView } | { kind: 'elicitation'; item: ElicitationItemView };

/** Whether `item` belongs to one of `callIds` (exactly, or as the only call it could belong to). */
function belongsTo(item: Pick<SamplingItemView, 'association'>, callIds: ReadonlySet<string>): boolean {
  const { calls, exact } = item.association;
  return (exact || calls.length === 1) && calls.some((c) => callIds.has(c.callId));
}

/** The requests waiting on the person that the running `calls` caused, oldest first. */
export function waitingFor(calls: readonly CallView[], items: readonly SamplingItemView[], elicitations: readonly ElicitationItemView[]): Waiting[] {
  const running = new Set(calls.filter((c) => c.status === 'running').map((c) => c.id));
  if (running.size === 0) return [];
  const out: Waiting[] = [
    ...items.filter((i) => isAwaitingPerson(i) && belongsTo(i, running)).map((item) => ({ kind: 'sampling' as const, item })),
    ...elicitations.filter((e) => elicitationAwaiting(e) && belongsTo(e, running)).map((item) => ({ kind: 'elicitation' as const, item })),
  ];
  return out.sort((a, b) => a.item.receivedAt - b.item.receivedAt);
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
  const elicitations = useElicitations();
  const openItem = useConsole((s) => s.openItem);
  const waiting = waitingFor(calls, items, elicitations);
  const first = waiting[0];
  const ref = useRef<HTMLElement>(null);
  const firstId = first?.item.id;
  // Focus a request that arrives while the page is open; one already waiting when the page opens
  // is shown, not focused (the person came here for something else, maybe).
  const shown = useRef(firstId);
  useEffect(() => {
    if (firstId && firstId !== shown.current && !personBusyElsewhere()) ref.current?.focus();
    shown.current = firstId;
  }, [firstId]);
  if (!first) return null;
  return (
    <section className="section inline-review" data-testid="inline-review" data-item-id={first.item.id} ref={ref} tabIndex={-1} aria-label={t('inline.title')}>
      <header className="section-head">
        <h3>{t('inline.title')}</h3>
        {waiting.length > 1 && (
          <button type="button" className="btn-link small" data-testid="inline-review-more" onClick={() => openItem(waiting[1]!.item.id)}>
            {t('inline.more', { count: waiting.length - 1 })}
          </button>
        )}
      </header>
      {first.kind === 'sampling' ? (
        <Detail key={`${first.item.id}:${first.item.status}`} item={first.item} />
      ) : (
        <ElicitationReview key={`${first.item.id}:${first.item.status}`} item={first.item} />
      )}
    </section>
  );
}
