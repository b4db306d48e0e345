/** The Queue screen: the list of sampling items and the review screen of the selected one. */
import { useEffect, useLayoutEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { ItemView, SamplingItemView } from '../../../shared/contract/state';
import { waitsOnPerson } from '../../../shared/contract/status';
import { Empty } from '../../components/common';
import { needsPerson, useConsole, useItemDetail, useItems, type HeldReview } from '../../store';
import { ElicitationReview } from './ElicitationReview';
import { GeneratingView } from './GeneratingView';
import { HeldBanner, OfflineBanner, useOfflineSince } from './HeldBanner';
import { OpenedNote, useOpenForYou } from './OpenedForYou';
import { OutcomeView } from './OutcomeView';
import { QueueList } from './QueueList';
import { RequestReview } from './RequestReview';
import { ResponseReview } from './ResponseReview';
import { ReviewContext, useShownItem, type ReviewPlace } from './review-hold';
import { ApprovedBanner, TakenOverBanner, useReviewClaim, WatchingBanner } from './claims';
import { useQueueShortcuts } from '../../keyboard/review-actions';

/** The review (or outcome) screen of one sampling item (or provider call), by its status; each sits in the one ReviewFrame. */
export function Detail({ item }: { item: SamplingItemView }) {
  switch (item.status) {
    case 'awaiting_request_review':
      return <RequestReview item={item} />;
    case 'generating':
      return <GeneratingView item={item} />;
    case 'awaiting_response_review':
      return <ResponseReview item={item} />;
    default:
      return <OutcomeView item={item} />;
  }
}

/**
 * Keeps focus inside the review area `ref`: when the focused element inside it leaves the page
 * (its screen changed after this window's own decision, an editor closed), focus goes to the area
 * itself instead of falling to the page, where the next keys would be global shortcuts. Focus
 * that fell there is marked `data-rescued`: the review's deciding keys wait until the person moves
 * focus on purpose (a click, Tab, Esc from a field, Enter from the list). So is focus left on the
 * area when it shows another item (`itemId`: the Queue opened the next one by itself): it was put
 * there for the review before.
 */
function useKeepFocus(ref: RefObject<HTMLElement | null>, itemId: string): void {
  const shownId = useRef(itemId);
  useLayoutEffect(() => {
    if (shownId.current === itemId) return;
    shownId.current = itemId;
    const area = ref.current;
    if (area && document.activeElement === area) area.dataset.rescued = 'true';
  }, [ref, itemId]);
  useEffect(() => {
    const area = ref.current;
    if (!area) return;
    let inside: Element | null = null; // what had focus inside the area, last
    const onFocusIn = (e: FocusEvent) => {
      inside = e.target === area ? null : (e.target as Element);
      if (inside) delete area.dataset.rescued; // moved on purpose
    };
    const onPointerDown = () => delete area.dataset.rescued;
    // A focused element that leaves the page fires no event: watch the area's content instead.
    const observer = new MutationObserver(() => {
      const fell = document.activeElement === null || document.activeElement === document.body;
      if (!inside || inside.isConnected || !fell) return;
      inside = null;
      area.dataset.rescued = 'true';
      area.focus({ preventScroll: true });
    });
    observer.observe(area, { childList: true, subtree: true });
    area.addEventListener('focusin', onFocusIn);
    area.addEventListener('pointerdown', onPointerDown);
    return () => {
      observer.disconnect();
      area.removeEventListener('focusin', onFocusIn);
      area.removeEventListener('pointerdown', onPointerDown);
    };
  }, [ref]);
}

/**
 * The review of a whole item of either kind, in its review area (`data-review-item`: the keys of
 * a review act only while focus is inside it): one frame (ReviewFrame: the item's header), the
 * body by kind and status, keyed by id and status so per-screen local state (reject reason) starts
 * fresh. A review that ended under the person (`held`) is the item as it was shown, under a
 * banner saying what happened; while the console cannot be reached a banner says so. On a team
 * server the review claims its item (claims.tsx); one someone else holds is watched, read-only.
 * `note` goes above it all (the Queue's "opened for you").
 */
export function ItemReview({ item, held, note }: { item: ItemView; held?: HeldReview; note?: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const offlineSince = useOfflineSince();
  const waiting = waitsOnPerson(item.status);
  const offline = offlineSince !== null && waiting && !held;
  const claim = useReviewClaim(item, !!held);
  const watching = claim.watching || !!claim.takenOver || claim.approved;
  const place = useMemo<ReviewPlace>(() => ({ itemId: item.id, held: !!held, offline, watching }), [item.id, held, offline, watching]);
  useKeepFocus(ref, item.id);
  const body = item.kind === 'elicitation' ? <ElicitationReview key={`${item.id}:${item.status}`} item={item} /> : <Detail key={`${item.id}:${item.status}`} item={item} />;
  return (
    <ReviewContext.Provider value={place}>
      <div className="review-area" data-review-item={item.id} data-held={held ? 'true' : undefined} tabIndex={-1} ref={ref} data-testid="review-area">
        {note}
        {held && <HeldBanner held={held} />}
        {offline && <OfflineBanner since={offlineSince} />}
        <TakenOverBanner claim={claim} />
        <WatchingBanner itemId={item.id} claim={claim} />
        <ApprovedBanner itemId={item.id} claim={claim} />
        {/* Watching: every control off, the holder's draft shown as main sends it. */}
        {watching && waiting ? (
          <fieldset disabled className="watch-only" data-testid="review-watch-only">
            {body}
          </fieldset>
        ) : (
          body
        )}
      </div>
    </ReviewContext.Provider>
  );
}

/** The Queue screen: the list, and the review of the item selected (or opened for the person: OpenedForYou.tsx). */
export function QueueScreen() {
  const { t } = useTranslation('queue');
  const items = useItems();
  const selectedId = useConsole((s) => s.selectedItemId);
  const selectItem = useConsole((s) => s.selectItem);
  useQueueShortcuts(items.map((i) => i.id), selectedId, selectItem);
  const listed = items.some((i) => i.id === selectedId);
  const { item: selected, held } = useShownItem(selectedId, useItemDetail(listed ? selectedId : null));
  const opened = useOpenForYou(items, selectedId, selected, !!held);
  const waiting = items.filter(needsPerson).length;
  return (
    <div className="split" data-testid="queue-screen">
      <div className="split-list">
        <div className="pane-title">
          <h2>{t('screen.title')}</h2>
          <span className="muted small">{t('screen.counts', { waiting, total: items.length })}</span>
        </div>
        {items.length === 0 ? (
          <Empty>{t('screen.empty')}</Empty>
        ) : (
          <QueueList items={items} selectedId={selectedId} onSelect={selectItem} />
        )}
      </div>
      <div className="split-detail" data-testid="queue-detail" tabIndex={-1}>
        {selected ? (
          <ItemReview item={selected} held={held} note={opened && <OpenedNote opened={opened} />} />
        ) : listed ? null : (
          <Empty>{items.length ? t('screen.selectOne') : t('screen.nothingToReview')}</Empty>
        )}
      </div>
    </div>
  );
}
