/**
 * Debounced saving of drafts to main (`saveDraft`), per item: a save goes out
 * {@link DraftTiming.debounceMs} after the last change, and at the latest
 * {@link DraftTiming.maxWaitMs} after the first unsaved one, so what a person types is in main (and
 * in history) within a second of the last keystroke even while they keep typing. Parts queued for
 * one item merge (the newest of each part wins). `flush` sends at once (the item is leaving the
 * review, or the page is closing). A save that fails for a reason other than a gone item
 * (`not_found`) is tried again later, unless newer text was queued meanwhile.
 * No DOM and no store: timers and the send function are injected, so tests drive it with fake timers.
 */
import type { DraftInput } from '../../../shared/contract/drafts.js';

/** When saves go out, in ms. */
export interface DraftTiming {
  /** Quiet time after the last change before saving. */
  debounceMs: number;
  /** Longest an unsaved change waits while changes keep coming. */
  maxWaitMs: number;
  /** Wait before trying a failed save again. */
  retryMs: number;
}

/** The default timing: 300 ms quiet, at most 1 s, retry after 2 s. */
export const DRAFT_TIMING: DraftTiming = { debounceMs: 300, maxWaitMs: 1000, retryMs: 2000 };

/** Tries after a failure, at most (then the draft stays in the renderer only). */
const MAX_RETRIES = 5;

/** The saver of one page. */
export interface DraftSaver {
  /** Queues `part` of `itemId`'s draft for saving. */
  queue(itemId: string, part: DraftInput): void;
  /** Sends `itemId`'s queued draft now, if any. */
  flush(itemId: string): void;
  /** Sends every queued draft now. */
  flushAll(): void;
  /** Whether `itemId` has a draft not yet sent. */
  pending(itemId: string): boolean;
}

interface Pending {
  input: DraftInput;
  /** When the oldest unsent change was queued (ms). */
  since: number;
  timer: unknown;
  retries: number;
}

/** Time for the saver: `now` in ms, and one-shot timers. */
export interface SaverClock {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

const REAL_CLOCK: SaverClock = {
  now: () => Date.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (timer) => clearTimeout(timer as Parameters<typeof clearTimeout>[0]),
};

/** Creates a saver over `send` (the API's `saveDraft`). */
export function createDraftSaver(
  send: (input: { itemId: string; draft: DraftInput }) => Promise<unknown>,
  timing: DraftTiming = DRAFT_TIMING,
  clock: SaverClock = REAL_CLOCK,
): DraftSaver {
  const queued = new Map<string, Pending>();

  const schedule = (itemId: string, input: DraftInput, since: number, retries: number, delay: number) => {
    const before = queued.get(itemId);
    if (before) clock.clearTimer(before.timer);
    queued.set(itemId, { input, since, retries, timer: clock.setTimer(() => flush(itemId), delay) });
  };

  const flush = (itemId: string) => {
    const p = queued.get(itemId);
    if (!p) return;
    clock.clearTimer(p.timer);
    queued.delete(itemId);
    Promise.resolve()
      .then(() => send({ itemId, draft: p.input }))
      .catch((err: unknown) => {
        const code = (err as { code?: unknown } | null)?.code;
        if (code === 'not_found' || code === 'invalid_input' || p.retries >= MAX_RETRIES || queued.has(itemId)) return;
        schedule(itemId, p.input, p.since, p.retries + 1, timing.retryMs);
      });
  };

  return {
    queue(itemId, part) {
      const before = queued.get(itemId);
      const now = clock.now();
      const since = before?.since ?? now;
      const delay = Math.max(0, Math.min(timing.debounceMs, since + timing.maxWaitMs - now));
      schedule(itemId, { ...before?.input, ...part }, since, 0, delay);
    },
    flush,
    flushAll: () => [...queued.keys()].forEach(flush),
    pending: (itemId) => queued.has(itemId),
  };
}
