/**
 * Shutting down in time, leaving no server waiting: every request a server is waiting on (its
 * sampling and elicitation requests) is answered before its connection closes, and the
 * connections close within a bound — a stdio server that ignores its stdin closing is signalled
 * (SIGTERM, then SIGKILL) instead of waiting out the SDK's grace periods (2 s + 2 s).
 */

/** How long closing may take before stdio servers still running get SIGTERM, in ms. */
export const CLOSE_GRACE_MS = 600;
/** After SIGTERM, how long until SIGKILL, in ms. */
export const KILL_GRACE_MS = 400;
/** At most this long is spent waiting for answers to be handed to the transports, in ms. */
export const ANSWER_WAIT_MS = 500;

/** The server requests being handled, so shutdown can wait until each was answered. */
export interface ServerRequestTracker {
  /** Tracks the handler's promise (its settling is the answer); returns it unchanged. */
  track<T>(handling: Promise<T>): Promise<T>;
  /** Resolves once every tracked request settled (at most {@link ANSWER_WAIT_MS}) and the answers were handed to their transports. */
  answered(): Promise<void>;
}

/** Creates the tracker. */
export function createServerRequestTracker(): ServerRequestTracker {
  const pending = new Set<Promise<unknown>>();
  return {
    track(handling) {
      pending.add(handling);
      const forget = () => pending.delete(handling);
      handling.then(forget, forget);
      return handling;
    },
    async answered() {
      if (pending.size > 0) await settlesWithin(Promise.allSettled([...pending]), ANSWER_WAIT_MS);
      // The SDK writes an answer a few microtasks after its handler settles.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
}

/** Whether `work` settles within `ms` (it keeps running either way). */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true as const, () => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `signal` to each pid that still runs (a pid that is gone is skipped). */
function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Waits for `closing` (every connection closing); when it takes longer than
 * {@link CLOSE_GRACE_MS}, the stdio servers `pids` get SIGTERM, and {@link KILL_GRACE_MS} later
 * SIGKILL. Resolves when `closing` settles (never rejects).
 */
export async function closeWithin(closing: Promise<unknown>, pids: readonly number[]): Promise<void> {
  if (await settlesWithin(closing, CLOSE_GRACE_MS)) return;
  signalAll(pids, 'SIGTERM');
  if (await settlesWithin(closing, KILL_GRACE_MS)) return;
  signalAll(pids, 'SIGKILL');
  await closing.catch(() => undefined);
}
