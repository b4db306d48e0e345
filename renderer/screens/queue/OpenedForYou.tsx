/**
 * The Queue opening a review by itself (open-for-you.ts decides which): the first request waiting
 * when nothing is shown, the next one after the person's own decision. It opens once the item has
 * loaded, so the review area stays in place and focus in it does not fall to the page; focus left
 * in the area from the review before takes none of the new review's deciding keys until the person
 * puts it there on purpose (QueueScreen.tsx `useKeepFocus`). A note in the review says it was
 * opened for them and why.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ItemSummary, ItemView } from '../../../shared/contract/state';
import { waitsOnPerson } from '../../../shared/contract/status';
import { isTypingTarget } from '../../keyboard/shortcuts';
import { cachedItem, openItemDetail, useConsole } from '../../store';
import { openMoment, reviewToOpen, type OpenedForYou, type ShownPhase } from './open-for-you';
import { useViewer } from './claims';

/** Whether the person is typing in a field or has a dialog open: then nothing opens under them. */
function personBusy(): boolean {
  return isTypingTarget(document.activeElement as HTMLElement | null) || document.querySelector('dialog[open], [aria-modal="true"]') !== null;
}

/**
 * Calls `open` with item `id` once its whole item is loaded (fetching it meanwhile), at once when
 * it is cached; returns the function that gives up waiting.
 */
function whenLoaded(id: string, open: (item: ItemView) => void): () => void {
  const close = openItemDetail(id);
  const loaded = cachedItem(id);
  if (loaded) {
    open(loaded);
    close();
    return () => {};
  }
  const stop = useConsole.subscribe((s) => {
    const item = s.details[id]?.item;
    if (!item) return;
    stop();
    close();
    open(item);
  });
  return () => {
    stop();
    close();
  };
}

/**
 * Opens a review for the person when the Queue is at such a moment (open-for-you.ts `openMoment`):
 * `items` in list order, the selected id, the item its review shows (`shown`) and whether that
 * review is held (on a team server, items someone else holds are passed over). Returns the review opened for the person while it is the one selected, else null.
 */
export function useOpenForYou(items: readonly ItemSummary[], selectedId: string | null, shown: ItemView | undefined, held: boolean): OpenedForYou | null {
  const openForYou = useConsole((s) => s.openForYou);
  const opened = useConsole((s) => s.openedForYou);
  const listed = items.some((i) => i.id === selectedId);
  const nowId = shown && !held ? shown.id : null;
  const nowStatus = shown && !held ? shown.status : null;
  const before = useRef<ShownPhase | null>(null);
  // On a team server, a review someone else is in is not opened for the person.
  const claims = useConsole((s) => s.mirror?.team?.claims);
  const me = useViewer()?.subject;
  const pending = useRef<{ itemId: string; cancel: () => void } | null>(null);
  useEffect(() => {
    const now = nowId && nowStatus ? { id: nowId, status: nowStatus } : null;
    const moment = openMoment({ selectedId, listed, held, before: before.current, now });
    before.current = now;
    const free = claims ? items.filter((i) => i.id === selectedId || (claims[i.id]?.subject ?? me) === me) : items;
    const target = moment && !personBusy() ? reviewToOpen(free, selectedId, moment) : null;
    if (!target || pending.current?.itemId === target.itemId) return;
    pending.current?.cancel();
    pending.current = null;
    const from = selectedId;
    let done = false;
    const cancel = whenLoaded(target.itemId, (item) => {
      done = true;
      if (pending.current?.itemId === target.itemId) pending.current = null;
      // Meanwhile the person chose another item, or began typing; or it stopped waiting.
      if (useConsole.getState().selectedItemId !== from || !waitsOnPerson(item.status) || personBusy()) return;
      openForYou({ ...target, status: item.status });
    });
    if (!done) pending.current = { itemId: target.itemId, cancel };
  }, [items, selectedId, listed, held, nowId, nowStatus, openForYou, claims, me]);
  useEffect(
    () => () => {
      pending.current?.cancel();
      pending.current = null;
    },
    [],
  );
  return opened && opened.itemId === selectedId && nowStatus === opened.status ? opened : null;
}

/** "Opened for you: the next request waiting. Its keys work once you click in it…" */
export function OpenedNote({ opened }: { opened: OpenedForYou }) {
  const { t } = useTranslation('queue');
  return (
    <p className="opened-note small muted" data-testid="opened-for-you" data-why={opened.why}>
      {t('opened.note', { opened: t(`opened.${opened.why}`, { count: opened.waiting }), keys: t('opened.keys') })}
    </p>
  );
}
