/**
 * The console's own added time on a gateway call, as every answer reports it: from the moment the
 * request reached the listener to the moment its answer is written, less the time spent waiting
 * on others — the provider's call (its whole generation, streamed or not) and a person's review.
 * What is left is the console's: reading and checking the request, translating it, the rules,
 * the queue, History's commit and sync, writing the answer.
 *
 * A plain answer carries it as the header {@link OVERHEAD_HEADER} (ms, e.g. `0.412`); a streamed
 * one as its last line, the SSE comment `: x-mcp-console-overhead-ms: 0.412` (clients skip
 * comments). Every answer of the gateway carries it, errors included.
 */
import type { ServerResponse } from 'node:http';

/** The header (and SSE comment name) of the console's added time, in ms. */
export const OVERHEAD_HEADER = 'x-mcp-console-overhead-ms';

/** When the request arrived (`performance.now()`) and the ms spent waiting on the provider or a person since. */
interface Clock {
  start: number;
  outsideMs: number;
}

const clocks = new WeakMap<ServerResponse, Clock>();

/** Starts the clock of the request `res` answers (call it when the request arrives). */
export function startOverhead(res: ServerResponse, at = performance.now()): void {
  clocks.set(res, { start: at, outsideMs: 0 });
}

/** Counts `ms` (provider time, a person's review) as not the console's own. */
export function addOutside(res: ServerResponse, ms: number): void {
  const clock = clocks.get(res);
  if (clock && ms > 0) clock.outsideMs += ms;
}

/** The console's added time on `res` so far, in ms (3 decimals; never below 0); undefined when no clock runs for it. */
export function overheadMs(res: ServerResponse): number | undefined {
  const clock = clocks.get(res);
  if (!clock) return undefined;
  return Math.max(0, Math.round((performance.now() - clock.start - clock.outsideMs) * 1000) / 1000);
}

/** The last line of a streamed answer: the added time as an SSE comment ('' when no clock runs). */
export function overheadComment(res: ServerResponse): string {
  const ms = overheadMs(res);
  return ms === undefined ? '' : `: ${OVERHEAD_HEADER}: ${ms}\n\n`;
}
