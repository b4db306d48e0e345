/**
 * renderer/warm-up.ts: the cold-code warm-up starts once the connection to main is open (the
 * state request is then on its way, not delayed by it) and runs one step per task, so a message
 * arriving meanwhile waits for one step at most.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

const calls: string[] = [];
vi.mock('../../renderer/format.js', () => ({ clockTime: () => calls.push('clock'), formatNumber: () => calls.push('number') }));
vi.mock('../../renderer/markdown.js', () => ({ renderMarkdown: () => calls.push('markdown') }));
vi.mock('../../renderer/screens/queue/draft-check.js', () => ({ checkDraftParams: () => calls.push('check') }));
vi.mock('../../shared/domain/sensitive-data.js', () => ({ detectSensitive: () => calls.push('sensitive') }));

const { warmUpOnceOpen } = await import('../../renderer/warm-up.js');

type Status = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** A connection whose status the test sets; counts its listeners. */
function fakeConnection(initial: Status) {
  let status = initial;
  const listeners = new Set<(s: Status) => void>();
  return {
    status: () => status,
    onStatus: (l: (s: Status) => void) => (listeners.add(l), () => void listeners.delete(l)),
    set(next: Status) {
      status = next;
      [...listeners].forEach((l) => l(next));
    },
    listeners,
  };
}

beforeEach(() => {
  calls.length = 0;
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

it('waits for the connection to open, then runs one step per task, the list’s clock first', () => {
  const conn = fakeConnection('connecting');
  warmUpOnceOpen(conn);
  vi.runAllTimers();
  expect(calls).toEqual([]);
  conn.set('reconnecting');
  vi.runAllTimers();
  expect(calls).toEqual([]);
  conn.set('open');
  expect(calls).toEqual([]); // not inside the status change (the socket is still sending the queued request)
  expect(conn.listeners.size).toBe(0);
  vi.advanceTimersToNextTimer();
  expect(calls).toEqual(['clock']);
  vi.advanceTimersToNextTimer();
  expect(calls).toEqual(['clock', 'markdown']);
  vi.runAllTimers();
  expect(calls).toEqual(['clock', 'markdown', 'check', 'sensitive', 'number']);
  conn.set('reconnecting');
  conn.set('open');
  vi.runAllTimers();
  expect(calls).toHaveLength(5); // once per page
});

it('starts at once where the connection is open from the start (Electron)', () => {
  warmUpOnceOpen(fakeConnection('open'));
  vi.runAllTimers();
  expect(calls).toEqual(['clock', 'markdown', 'check', 'sensitive', 'number']);
});
