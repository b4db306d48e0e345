/**
 * The banners a review shows when it can no longer decide anything: it ended under the person (a
 * held review, review-hold.ts: what happened, when, that nothing typed here was sent and that it
 * is kept in History, and Dismiss), or the console cannot be reached (what is typed is kept in this
 * browser until it is back).
 */
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { ItemSummary } from '../../../shared/contract/state';
import { getConnection } from '../../api';
import { Banner, StatusBadge } from '../../components/common';
import { clockTime } from '../../format';
import { useSay } from '../../i18n/say';
import { flushDraft } from './autosave';
import { releaseReview, useConsole, type HeldReview } from '../../store';

/** Statuses a person's decision leads to (another window's, when the review here is held). */
const DECIDED = new Set(['delivered', 'rejected', 'accepted', 'declined', 'cancelled']);

/** The banner's title: what ended the review and when, from the item as it is now (`now`; undefined: gone). */
function useHeldTitle(held: HeldReview, now: ItemSummary | undefined): string {
  const { t } = useTranslation(['queue', 'common']);
  const say = useSay();
  const outcome = now?.outcome;
  if (!now) return t('queue:held.gone', { time: clockTime(held.at) });
  if (outcome?.stopped) return t(`common:drafts.notDelivered.${outcome.stopped}`, { time: clockTime(outcome.at) });
  if (outcome && DECIDED.has(now.status)) return t('queue:held.decided', { time: clockTime(outcome.at), how: say(outcome.ui, outcome.message) });
  if (outcome) return t('queue:held.ended', { time: clockTime(outcome.at), how: say(outcome.ui, outcome.message) });
  return t('queue:held.movedOn', { time: clockTime(held.at) });
}

/** "Not delivered: the server stopped waiting at 14:02:31 — nothing you typed here was sent; it is kept in History", and Dismiss. */
export function HeldBanner({ held }: { held: HeldReview }) {
  const { t } = useTranslation('queue');
  const say = useSay();
  const now = useConsole((s) => s.mirror?.items.find((i) => i.id === held.item.id));
  const title = useHeldTitle(held, now);
  const dismiss = () => {
    const frame = document.querySelector<HTMLElement>(`[data-review-item="${CSS.escape(held.item.id)}"]`);
    flushDraft(held.item.id);
    releaseReview(held.item.id);
    // Focus stays in the review area, on what it shows next (never falls to the page).
    requestAnimationFrame(() => (frame?.isConnected ? frame : document.querySelector<HTMLElement>('[data-testid="queue-detail"], #main'))?.focus({ preventScroll: true }));
  };
  return (
    <Banner tone="warn" title={title} testId="review-ended">
      {now?.outcome?.stopped && <span data-testid="review-ended-how">{say(now.outcome.ui, now.outcome.message)}. </span>}
      {now && !now.outcome && (
        <span>
          {t('held.nowIs')} <StatusBadge status={now.status} />.{' '}
        </span>
      )}
      {!now && <span>{t('held.goneWhy')} </span>}
      <span>{t('held.kept')}</span>{' '}
      <button type="button" className="btn-small" data-testid="dismiss-ended-review" onClick={dismiss}>
        {t('held.dismiss')}
      </button>
    </Banner>
  );
}

/** Since when the console cannot be reached (epoch ms; null while connected), and who wants to know. */
const offline = { since: null as number | null, listeners: new Set<() => void>(), tracking: false };

/** Follows the connection (once per page, from the first view that asks). */
function trackConnection(): void {
  if (offline.tracking) return;
  offline.tracking = true;
  const connection = getConnection();
  const update = (status: string) => {
    const since = status === 'open' ? null : (offline.since ?? Date.now());
    if (since === offline.since) return;
    offline.since = since;
    for (const l of offline.listeners) l();
  };
  update(connection.status());
  connection.onStatus(update);
}

function subscribeOffline(listener: () => void): () => void {
  offline.listeners.add(listener);
  trackConnection();
  return () => offline.listeners.delete(listener);
}

/** Since when the console cannot be reached (epoch ms), or null while connected. */
export function useOfflineSince(): number | null {
  return useSyncExternalStore(subscribeOffline, () => offline.since);
}

/** "No connection to the console since 14:02:31": what is typed is kept in this browser until it is back. */
export function OfflineBanner({ since }: { since: number }) {
  const { t } = useTranslation('queue');
  return (
    <Banner tone="warn" title={t('held.offline', { time: clockTime(since) })} testId="review-offline">
      {t('held.offlineBody')}
    </Banner>
  );
}
