/**
 * Reconnect policy after a crash or a dropped connection: exponential backoff from 500 ms, doubling
 * to a 60 s cap, at most {@link MAX_RECONNECT_ATTEMPTS} attempts before the console gives up and
 * waits for the person ("Retry now", Restart).
 */

/** Automatic attempts before giving up. */
export const MAX_RECONNECT_ATTEMPTS = 8;

/** First delay in ms. */
export const FIRST_RECONNECT_DELAY_MS = 500;

/** Longest delay in ms. */
export const MAX_RECONNECT_DELAY_MS = 60_000;

/**
 * Delay before automatic attempt `attempt` (1-based), in ms: 500, 1000, 2000 … capped at 60 s.
 * @throws RangeError for attempt < 1
 */
export function reconnectDelay(attempt: number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError('attempt is 1-based');
  return Math.min(MAX_RECONNECT_DELAY_MS, FIRST_RECONNECT_DELAY_MS * 2 ** (attempt - 1));
}
