/**
 * Time made visible: how long a server will wait for the answer to its sampling or
 * elicitation request, and how close a waiting item is to that limit. Pure; main stamps the
 * limit on each item when it arrives, the renderer shows the countdown.
 */

/** The MCP SDKs' default request timeout (ms): what a server waits unless it chose otherwise. */
export const SDK_DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** An item is "about to expire" from this much time left (ms)… */
export const EXPIRING_SOON_MS = 15_000;
/** …or from this share of its wait used up, whichever comes first. */
export const EXPIRING_SOON_SHARE = 0.75;

/**
 * How long the server waits for the answer: it has likely given up at `until` (epoch ms).
 * `source`: `configured` — the server's `serverTimeoutMs` in mcp-servers.json; `sdk-default` —
 * {@link SDK_DEFAULT_REQUEST_TIMEOUT_MS}, which most servers keep (a server that resets its timer
 * on progress may wait longer: the console reports progress to servers that ask for it).
 */
export interface ServerWait {
  until: number;
  /** The wait in ms (`until` minus the time the request arrived). */
  ms: number;
  source: 'configured' | 'sdk-default';
}

/**
 * The server's wait for a request that arrived at `receivedAt` (epoch ms), or undefined when no
 * server timer runs: 2026-07-28 requests (`era` `modern`, MRTR) come back in a call result and
 * nothing on the server waits; `configuredMs` 0 says the server never gives up.
 * @param configuredMs the server's `serverTimeoutMs` (ms) when set in mcp-servers.json.
 */
export function serverWaitFor(era: 'legacy' | 'modern', receivedAt: number, configuredMs: number | undefined): ServerWait | undefined {
  if (era === 'modern' || configuredMs === 0) return undefined;
  const ms = configuredMs ?? SDK_DEFAULT_REQUEST_TIMEOUT_MS;
  return { until: receivedAt + ms, ms, source: configuredMs === undefined ? 'sdk-default' : 'configured' };
}

/** Where a waiting item stands against its server's wait: plenty of time, about to expire, or past it. */
export type WaitLevel = 'ok' | 'soon' | 'expired';

/**
 * The level at `now` (epoch ms): `expired` at or after `until`; `soon` within
 * {@link EXPIRING_SOON_MS} of it or past {@link EXPIRING_SOON_SHARE} of the wait; else `ok`.
 * Undefined `wait` (no timer) is always `ok`.
 */
export function waitLevel(wait: ServerWait | undefined, now: number): WaitLevel {
  if (!wait) return 'ok';
  const left = wait.until - now;
  if (left <= 0) return 'expired';
  if (left <= EXPIRING_SOON_MS || left <= wait.ms * (1 - EXPIRING_SOON_SHARE)) return 'soon';
  return 'ok';
}

/** `{ serverWait }` when there is one, else `{}` (spread into an item so no `undefined` key appears). */
export function withServerWait(wait: ServerWait | undefined): { serverWait?: ServerWait } {
  return wait ? { serverWait: wait } : {};
}
