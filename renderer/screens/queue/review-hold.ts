/**
 * A review never vanishes under the person's hands. While a review of an item waiting on the
 * person is shown (request review, response review, an elicitation's form), a change that ends
 * its phase without this window's decision — the server stopped waiting or went away, another
 * window decided, the item left the queue, the console restarted — holds it (store.ts
 * `HeldReview`): the same review stays mounted as it was, focus and editors included, with a
 * banner saying what happened, until the person dismisses it. What is typed meanwhile goes on
 * being saved (autosave.ts) and ends up in the item's kept draft in History.
 */
import { createContext, useContext, useEffect, useState } from 'react';
import type { ItemView } from '../../../shared/contract/state';
import { waitsOnPerson } from '../../../shared/contract/status';
import { reviewPhase, showReview, useConsole, type HeldReview } from '../../store';

/** What a review's parts need to know about the review they are in. */
export interface ReviewPlace {
  /** The item the review is of. */
  itemId: string;
  /** The review ended under the person: nothing can be decided here any more, typing goes on. */
  held: boolean;
  /** The console cannot be reached: decisions wait for it, typing goes on (kept in this browser). */
  offline: boolean;
  /** On a team server, someone else holds the item's claim (or took it over from this page): nothing is decided here. */
  watching?: boolean;
}

/** The review the component is in (set by ItemReview); outside any: not held. */
export const ReviewContext = createContext<ReviewPlace | null>(null);

/** Whether decisions are off in the review this component is in: it is held, the console cannot be reached, or someone else reviews it. */
export function useDecisionsOff(): boolean {
  const place = useContext(ReviewContext);
  return !!place && (place.held || place.offline || !!place.watching);
}

/** Whether the review this component is in is held (ended under the person). */
export function useReviewHeld(): boolean {
  return useContext(ReviewContext)?.held ?? false;
}

/**
 * The item the review of `id` shows: the held snapshot when its review ended under the person,
 * else `live` (the item as the mirror has it, undefined while it loads or once it is gone) — and
 * while a listed item's whole is fetched again, the one shown before (so the review does not
 * unmount under the person). A live item in a phase that waits on the person is registered as
 * shown, so a change that ends that phase holds it.
 */
export function useShownItem(id: string | null | undefined, live: ItemView | undefined): { item?: ItemView; held?: HeldReview } {
  const held = useConsole((s) => (id ? s.held[id] : undefined));
  const listed = useConsole((s) => (id ? (s.mirror?.items.some((i) => i.id === id) ?? false) : false));
  const [last, setLast] = useState<ItemView | undefined>(undefined);
  if (live && live !== last) setLast(live);
  const current = live ?? (listed && last?.id === id ? last : undefined);
  const shown = !held && live && waitsOnPerson(live.status) ? live : undefined; // the one shown before is not the mirror's now
  useEffect(() => (shown ? showReview(shown) : undefined), [shown]);
  return held ? { item: held.item, held } : { item: current };
}

/**
 * Runs a decision of this window about `item` as shown (approve, reject, regenerate, answer):
 * its phase is marked decided here first, so the phase that follows is expected rather than held;
 * if the decision fails, the mark is taken back and the error goes on to the caller.
 */
export async function decideHere<T>(item: ItemView, action: () => Promise<T>): Promise<T> {
  const { markDecided } = useConsole.getState();
  markDecided(item.id, reviewPhase(item));
  try {
    return await action();
  } catch (err) {
    markDecided(item.id, null);
    throw err;
  }
}
