/** Time made visible: the server's wait per era and config, and the expiry levels. */
import { describe, expect, it } from 'vitest';
import { SDK_DEFAULT_REQUEST_TIMEOUT_MS, serverWaitFor, waitLevel, withServerWait } from '../../shared/domain/wait.js';

describe('serverWaitFor', () => {
  it('a legacy push request: the SDK default (60 s) unless the server is configured', () => {
    expect(serverWaitFor('legacy', 1000, undefined)).toEqual({ until: 1000 + SDK_DEFAULT_REQUEST_TIMEOUT_MS, ms: 60_000, source: 'sdk-default' });
    expect(serverWaitFor('legacy', 1000, 5000)).toEqual({ until: 6000, ms: 5000, source: 'configured' });
  });
  it('no timer for 2026-07-28 (MRTR) requests, nor for a server configured to wait forever (0)', () => {
    expect(serverWaitFor('modern', 1000, undefined)).toBeUndefined();
    expect(serverWaitFor('modern', 1000, 5000)).toBeUndefined();
    expect(serverWaitFor('legacy', 1000, 0)).toBeUndefined();
  });
  it('withServerWait adds no key when there is no wait', () => {
    expect(withServerWait(undefined)).toEqual({});
    expect(Object.keys(withServerWait(undefined))).toEqual([]);
    expect(withServerWait({ until: 2, ms: 1, source: 'configured' })).toEqual({ serverWait: { until: 2, ms: 1, source: 'configured' } });
  });
});

describe('waitLevel', () => {
  const sixty = { until: 60_000, ms: 60_000, source: 'sdk-default' as const };
  const tenMinutes = { until: 600_000, ms: 600_000, source: 'configured' as const };
  it.each([
    [sixty, 0, 'ok'],
    [sixty, 44_999, 'ok'],
    [sixty, 45_000, 'soon'], // 15 s left = 25 % left
    [sixty, 59_999, 'soon'],
    [sixty, 60_000, 'expired'],
    [sixty, 90_000, 'expired'],
    [tenMinutes, 449_999, 'ok'],
    [tenMinutes, 450_000, 'soon'], // 75 % used, 150 s left
    [{ until: 10_000, ms: 10_000, source: 'configured' as const }, 0, 'soon'], // a 10 s wait is short from the start
    [undefined, 10 ** 12, 'ok'],
  ])('%j at %d ms → %s', (wait, now, level) => {
    expect(waitLevel(wait, now)).toBe(level);
  });
});
