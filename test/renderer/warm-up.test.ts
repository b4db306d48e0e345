/**
 * renderer/warm-up.ts: the cold-code warm-up starts once the connection to main is open (the
 * state request is then on its way, not delayed by it) and runs one step per task, so a message
 * arriving meanwhile waits for one step at most; once the state has arrived, the steps left wait
 * for idle time.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

const calls: string[] = [];
vi.mock('../../renderer/faces.js', () => ({ layOutFaces: () => calls.push('faces') }));
vi.mock('../../renderer/format.js', () => ({ clockTime: () => calls.push('clock'), formatNumber: () => calls.push('number') }));
vi.mock('../../renderer/markdown.js', () => ({ renderMarkdown: () => calls.push('markdown') }));
vi.mock('../../renderer/screens/queue/draft-check.js', () => ({ checkDraftParams: () => calls.push('check') }));
vi.mock('../../shared/domain/sensitive-data.js', () => ({ detectSensitive: () => calls.push('sensitive') }));

const { warmUpOnceOpen } = await import('../../renderer/warm-up.js');
const renderReview = () => void calls.push('review');

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

it('waits for the connection to open, then runs one step per task, the list’s fonts and clock first', () => {
  const conn = fakeConnection('connecting');
  warmUpOnceOpen(conn, { renderReview });
  vi.runAllTimers();
  expect(calls).toEqual([]);
  conn.set('reconnecting');
  vi.runAllTimers();
  expect(calls).toEqual([]);
  conn.set('open');
  expect(calls).toEqual([]); // not inside the status change (the socket is still sending the queued request)
  expect(conn.listeners.size).toBe(0);
  vi.advanceTimersToNextTimer();
  expect(calls).toEqual(['faces']);
  vi.advanceTimersToNextTimer();
  expect(calls).toEqual(['faces', 'clock']);
  vi.runAllTimers();
  expect(calls).toEqual(['faces', 'clock', 'markdown', 'check', 'sensitive', 'review', 'number']);
  conn.set('reconnecting');
  conn.set('open');
  vi.runAllTimers();
  expect(calls).toHaveLength(7); // once per page
});

it('starts at once where the connection is open from the start (Electron)', () => {
  warmUpOnceOpen(fakeConnection('open'), { renderReview });
  vi.runAllTimers();
  expect(calls).toEqual(['faces', 'clock', 'markdown', 'check', 'sensitive', 'review', 'number']);
});

it('once the state has arrived, the steps left wait for idle time', () => {
  const idle: Array<() => void> = [];
  vi.stubGlobal('requestIdleCallback', (fn: () => void) => idle.push(fn));
  try {
    let arrived = false;
    warmUpOnceOpen(fakeConnection('open'), { stateArrived: () => arrived, renderReview });
    vi.advanceTimersToNextTimer();
    vi.advanceTimersToNextTimer();
    expect(calls).toEqual(['faces', 'clock']);
    arrived = true; // the list is being shown: timers alone run no more steps
    vi.runAllTimers();
    expect(calls).toEqual(['faces', 'clock', 'markdown']); // the step already scheduled
    expect(idle).toHaveLength(1);
    idle.shift()!();
    expect(calls).toEqual(['faces', 'clock', 'markdown', 'check']);
    vi.runAllTimers();
    expect(calls).toHaveLength(4);
    while (idle.length) idle.shift()!();
    expect(calls).toEqual(['faces', 'clock', 'markdown', 'check', 'sensitive', 'review', 'number']);
  } finally {
    vi.unstubAllGlobals();
  }
});

it('a step that throws does not stop the others; the returned promise says when all have run', async () => {
  let ran = false;
  const finished = warmUpOnceOpen(fakeConnection('open'), {
    renderReview: () => {
      throw new Error('boom');
    },
  }).then(() => (ran = true));
  expect(() => vi.runAllTimers()).toThrow('boom');
  vi.runAllTimers();
  await finished;
  expect(ran).toBe(true);
  expect(calls).toEqual(['faces', 'clock', 'markdown', 'check', 'sensitive', 'number']);
});
