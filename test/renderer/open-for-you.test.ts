/**
 * Which review the Queue opens by itself (renderer/screens/queue/open-for-you.ts): the first one
 * waiting when nothing is shown, the next one after the person's decision, and none while the
 * person is in a review they chose or one that is held.
 */
import { describe, expect, it } from 'vitest';
import { openMoment, reviewToOpen, type Listed } from '../../renderer/screens/queue/open-for-you.js';

const items: Listed[] = [
  { id: 'a', status: 'delivered' },
  { id: 'b', status: 'awaiting_request_review' },
  { id: 'c', status: 'generating' },
  { id: 'd', status: 'awaiting_input' },
  { id: 'e', status: 'awaiting_response_review' },
];

describe('reviewToOpen', () => {
  it('opens the first waiting item when nothing is shown, saying whether it is the only one', () => {
    expect(reviewToOpen(items, null, 'nothing-shown')).toEqual({ itemId: 'b', status: 'awaiting_request_review', why: 'first', waiting: 3 });
    expect(reviewToOpen([items[0]!, items[1]!, items[2]!], 'gone', 'nothing-shown')).toEqual({ itemId: 'b', status: 'awaiting_request_review', why: 'only', waiting: 1 });
  });

  it('after a decision, opens the next waiting item below, else the first above', () => {
    expect(reviewToOpen(items, 'c', 'decided')).toEqual({ itemId: 'd', status: 'awaiting_input', why: 'next', waiting: 3 });
    expect(reviewToOpen([...items, { id: 'f', status: 'rejected' }], 'f', 'decided')).toEqual({ itemId: 'b', status: 'awaiting_request_review', why: 'next', waiting: 3 });
  });

  it('opens nothing when nothing waits, or at no such moment', () => {
    expect(reviewToOpen([items[0]!, items[2]!], null, 'nothing-shown')).toBeNull();
    expect(reviewToOpen(items, 'b', null)).toBeNull();
  });
});

describe('openMoment', () => {
  const shown = (id: string, status: Listed['status']) => ({ id, status });

  it('nothing is shown: no selection, or the selected item left the queue and is not held', () => {
    expect(openMoment({ selectedId: null, listed: false, held: false, before: null, now: null })).toBe('nothing-shown');
    expect(openMoment({ selectedId: 'x', listed: false, held: false, before: shown('x', 'delivered'), now: null })).toBe('nothing-shown');
    expect(openMoment({ selectedId: 'x', listed: false, held: true, before: null, now: null })).toBeNull();
  });

  it('decided: the item shown went from waiting on the person to an end, unheld', () => {
    expect(openMoment({ selectedId: 'b', listed: true, held: false, before: shown('b', 'awaiting_response_review'), now: shown('b', 'delivered') })).toBe('decided');
    expect(openMoment({ selectedId: 'd', listed: true, held: false, before: shown('d', 'awaiting_input'), now: shown('d', 'accepted') })).toBe('decided');
  });

  it('no moment while the person is in a review, after approving a request, when a generation ends, or when held', () => {
    expect(openMoment({ selectedId: 'b', listed: true, held: false, before: shown('b', 'awaiting_request_review'), now: shown('b', 'awaiting_request_review') })).toBeNull();
    expect(openMoment({ selectedId: 'b', listed: true, held: false, before: shown('b', 'awaiting_request_review'), now: shown('b', 'generating') })).toBeNull();
    expect(openMoment({ selectedId: 'c', listed: true, held: false, before: shown('c', 'generating'), now: shown('c', 'cancelled') })).toBeNull();
    expect(openMoment({ selectedId: 'b', listed: true, held: true, before: shown('b', 'awaiting_request_review'), now: null })).toBeNull();
    // The person chose another item: not a decision.
    expect(openMoment({ selectedId: 'a', listed: true, held: false, before: shown('b', 'awaiting_request_review'), now: shown('a', 'delivered') })).toBeNull();
  });
});
