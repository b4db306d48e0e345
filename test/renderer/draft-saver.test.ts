/**
 * The renderer's draft saver (renderer/screens/queue/draft-saver.ts) on a fake clock: what a person
 * types reaches main within a second of the last keystroke, even while they keep typing, parts
 * merge, a flush sends at once, and a failed save is tried again unless the item is gone. Each save
 * names the version of the review it was typed in; while main cannot take a save (the connection
 * is down, the console restarts) it is tried again for as long as the page lives and waits in the
 * page's storage, which the next page sends.
 */
import { describe, expect, it } from 'vitest';
import type { DraftInput } from '../../shared/contract/drafts.js';
import { createDraftSaver, DRAFT_TIMING, storageDrafts, type SaverClock, type UnsavedDrafts } from '../../renderer/screens/queue/draft-saver.js';

/** Lets pending promise callbacks run. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** A manual clock: `advance` runs the timers that fall due, in order. */
function fakeClock(): SaverClock & { advance(ms: number): Promise<void> } {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer: (fn, ms) => {
      const id = next++;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimer: (id) => void timers.delete(id as number),
    async advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
        await settle(); // the send, and a failed one's retry
      }
      now = until;
    },
  };
}

const typed = (text: string): DraftInput => ({ response: { draft: { texts: { '0:0': text }, editing: {} }, extras: { toolInputs: {}, added: [] } } });

function setup(fail: (n: number) => Error | null = () => null, kept?: UnsavedDrafts) {
  const clock = fakeClock();
  const sent: Array<{ at: number; itemId: string; draft: DraftInput; version?: string }> = [];
  let n = 0;
  const saver = createDraftSaver(
    async (input) => {
      sent.push({ at: clock.now(), ...input });
      const err = fail(n++);
      if (err) throw err;
    },
    DRAFT_TIMING,
    clock,
    kept,
  );
  return { clock, sent, saver };
}

describe('draft saver', () => {
  it('saves 300 ms after the last keystroke, once', async () => {
    const { clock, sent, saver } = setup();
    saver.queue('a', typed('H'));
    await clock.advance(100);
    saver.queue('a', typed('He'));
    await clock.advance(299);
    expect(sent).toHaveLength(0);
    await clock.advance(1);
    expect(sent).toEqual([{ at: 400, itemId: 'a', draft: typed('He') }]);
    await clock.advance(5000);
    expect(sent).toHaveLength(1);
  });

  it('while typing goes on, the oldest unsaved keystroke waits at most 1 s', async () => {
    const { clock, sent, saver } = setup();
    for (let t = 0; t < 3000; t += 100) {
      saver.queue('a', typed(`text at ${t}`));
      await clock.advance(100);
    }
    expect(sent.length).toBeGreaterThanOrEqual(3);
    let last = 0;
    for (const s of sent) {
      expect(s.at - last).toBeLessThanOrEqual(1000);
      last = s.at;
    }
  });

  it('merges parts of one item and keeps items apart; flush sends at once', async () => {
    const { clock, sent, saver } = setup();
    const request: DraftInput = { request: { draft: { texts: {}, editing: {}, systemPrompt: 'S', maxTokens: '5', temperature: '', model: 'm' }, extras: { removedBlocks: {}, removedTools: {} } } };
    saver.queue('a', request);
    saver.queue('a', typed('x'));
    saver.queue('b', { form: { name: 'Ada' } });
    expect(saver.pending('a')).toBe(true);
    saver.flush('a');
    await settle();
    expect(sent).toEqual([{ at: 0, itemId: 'a', draft: { ...request, ...typed('x') } }]);
    expect(saver.pending('a')).toBe(false);
    saver.flushAll();
    await settle();
    expect(sent.map((s) => s.itemId)).toEqual(['a', 'b']);
    await clock.advance(2000);
    expect(sent).toHaveLength(2);
  });

  it('a failed save is tried again; a gone item (not_found) is not', async () => {
    const lost = Object.assign(new Error('connection lost'), { code: 'internal' });
    const gone = Object.assign(new Error('no sampling request'), { code: 'not_found' });
    const { clock, sent, saver } = setup((n) => (n === 0 ? lost : n === 2 ? gone : null));
    saver.queue('a', typed('kept'));
    await clock.advance(300);
    expect(sent).toHaveLength(1);
    await clock.advance(DRAFT_TIMING.retryMs);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.draft).toEqual(typed('kept'));
    saver.queue('b', typed('for a dismissed item'));
    await clock.advance(300);
    await clock.advance(10_000);
    expect(sent).toHaveLength(3);
  });

  it('names the version typed against; a part typed in another review goes out on its own, first', async () => {
    const { clock, sent, saver } = setup();
    saver.queue('a', typed('on the first response'), 'v1');
    saver.queue('a', typed('on the regenerated one'), 'v2');
    await clock.advance(300);
    expect(sent.map((s) => [s.version, (s.draft.response!.draft.texts['0:0'])])).toEqual([
      ['v1', 'on the first response'],
      ['v2', 'on the regenerated one'],
    ]);
  });

  it('while main cannot be reached the save is tried again as long as the page lives, and waits in storage until main took it', async () => {
    const lost = Object.assign(new Error('connection lost'), { code: 'internal' });
    const storage = new Map<string, string>();
    const kept = storageDrafts({ getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) });
    const { clock, sent, saver } = setup((n) => (n < 9 ? lost : null), kept);
    saver.queue('a', typed('typed while the console restarts'), 'v1');
    await clock.advance(300);
    expect(kept.all()).toEqual([{ itemId: 'a', draft: typed('typed while the console restarts'), version: 'v1' }]);
    await clock.advance(10 * DRAFT_TIMING.maxRetryMs);
    expect(sent).toHaveLength(10); // nine failures, then taken
    expect(kept.all()).toEqual([]);
  });

  it('a page sends what an earlier one left in storage; a refusal (not_found) drops it', async () => {
    const storage = new Map<string, string>();
    const kept = storageDrafts({ getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) });
    kept.put('a|v1', { itemId: 'a', draft: typed('left by the last page'), version: 'v1', seq: 7 });
    kept.remove('a|v1', 3); // an older save's answer does not remove a newer one
    expect(kept.all()).toHaveLength(1);
    const gone = Object.assign(new Error('no history entry'), { code: 'not_found' });
    const { clock, sent, saver } = setup(() => gone, kept);
    for (const left of kept.all()) saver.queue(left.itemId, left.draft, left.version);
    await clock.advance(300);
    expect(sent).toEqual([{ at: 300, itemId: 'a', draft: typed('left by the last page'), version: 'v1' }]);
    expect(kept.all()).toEqual([]);
  });

  it('saves still in flight when the connection drops: the newest text (with every part) is what is tried again and kept, never an older one', async () => {
    const clock = fakeClock();
    const storage = new Map<string, string>();
    const kept = storageDrafts({ getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v) });
    const inFlight: Array<{ draft: DraftInput; fail(): void; ok(): void }> = [];
    const saver = createDraftSaver(
      (input) => new Promise((resolve, reject) => inFlight.push({ draft: input.draft, fail: () => reject(Object.assign(new Error('connection lost'), { code: 'internal' })), ok: () => resolve(undefined) })),
      DRAFT_TIMING,
      clock,
      kept,
    );
    const request: DraftInput = { request: { draft: { texts: { '0:0': 'edited prompt' }, editing: {}, systemPrompt: '', maxTokens: '5', temperature: '', model: 'm' }, extras: { removedBlocks: {}, removedTools: {} } } };
    saver.queue('a', request, 'v1');
    await clock.advance(300); // sent; no answer yet (the socket is reconnecting)
    saver.queue('a', typed('typed on'), 'v1');
    await clock.advance(300);
    saver.queue('a', typed('typed on and on'), 'v1');
    await clock.advance(300);
    expect(inFlight).toHaveLength(3);
    for (const f of inFlight) f.fail(); // the socket closes: every pending save fails at once
    await settle();
    const newest = { ...request, ...typed('typed on and on') };
    expect(kept.all()).toEqual([{ itemId: 'a', draft: newest, version: 'v1' }]);
    await clock.advance(DRAFT_TIMING.retryMs);
    expect(inFlight).toHaveLength(4); // one retry, of the newest
    expect(inFlight[3]!.draft).toEqual(newest);
    inFlight[3]!.ok();
    await settle();
    expect(kept.all()).toEqual([]);
    await clock.advance(10 * DRAFT_TIMING.maxRetryMs);
    expect(inFlight).toHaveLength(4);
  });
});
