/**
 * Which review the Queue opens by itself, so the person does not have to pick the obvious one: when
 * nothing is shown, the first request waiting (the only one, often); after the person's own
 * decision ended the item shown, the next one waiting (as mail clients open the next message). It
 * never replaces a review the person chose and is still in, nor a held one (review-hold.ts). Pure:
 * the Queue screen (OpenedForYou.tsx) supplies the moment and opens what this returns.
 */
import { isTerminalStatus, waitsOnPerson, type ItemStatus } from '../../../shared/contract/status.js';

/** Why a review was opened for the person: the only one waiting, the first of several, the next after their decision. */
export type OpenReason = 'only' | 'first' | 'next';

/** A review the Queue opened for the person. */
export interface OpenedForYou {
  itemId: string;
  /** Its status when opened: once it moves on (the person decided that phase), the review is theirs. */
  status: ItemStatus;
  why: OpenReason;
  /** How many items waited on the person then (the one opened included). */
  waiting: number;
}

/**
 * When the Queue may open a review by itself: `nothing-shown` (no item selected, or the selected
 * one left the queue and no review of it is held), `decided` (the item shown ended right after a
 * decision made in this window).
 */
export type OpenMoment = 'nothing-shown' | 'decided';

/** An item as the Queue lists it (list order is arrival order). */
export interface Listed {
  id: string;
  status: ItemStatus;
}

/**
 * The review to open at `moment`, or null when none waits: when nothing is shown, the first item
 * waiting on the person in list order; after a decision, the first waiting below the item decided
 * (`selectedId`), else the first waiting above it.
 */
export function reviewToOpen(items: readonly Listed[], selectedId: string | null, moment: OpenMoment | null): OpenedForYou | null {
  if (!moment) return null;
  const waiting = items.filter((i) => waitsOnPerson(i.status) && i.id !== selectedId);
  const first = waiting[0];
  if (!first) return null;
  if (moment === 'nothing-shown') return { itemId: first.id, status: first.status, why: waiting.length === 1 ? 'only' : 'first', waiting: waiting.length };
  const at = items.findIndex((i) => i.id === selectedId);
  const below = at === -1 ? undefined : items.slice(at + 1).find((i) => waitsOnPerson(i.status));
  const next = below ?? first;
  return { itemId: next.id, status: next.status, why: 'next', waiting: waiting.length };
}

/** The item a review showed, live (not held), as the Queue last saw it. */
export interface ShownPhase {
  id: string;
  status: ItemStatus;
}

/**
 * The moment the Queue is at, from what it showed before (`before`) and shows now (`now`, with
 * `held` when its review ended under the person): `nothing-shown` when no item is selected or the
 * selected one left the queue unheld; `decided` when the same item went from waiting on the person
 * to an end without being held (a change that ends a shown review is held unless this window
 * decided it); else null.
 */
export function openMoment(args: { selectedId: string | null; listed: boolean; held: boolean; before: ShownPhase | null; now: ShownPhase | null }): OpenMoment | null {
  const { selectedId, listed, held, before, now } = args;
  if (!selectedId || (!listed && !held)) return 'nothing-shown';
  if (held || !before || !now || before.id !== now.id) return null;
  return waitsOnPerson(before.status) && isTerminalStatus(now.status) ? 'decided' : null;
}
