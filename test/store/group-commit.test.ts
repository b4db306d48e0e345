/**
 * The SQLite history store's group commit (group-sync.ts: one background fsync of the WAL for
 * every commit made meanwhile, awaited through `durable()`), and when `saveSoon` commits. What
 * every store does with `saveSoon` and `durable()`: test/store/contract/writes.ts.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_SYNC_MS, createGroupSync } from '../../main/store/group-sync.js';
import { openHistoryStore, SAVE_SOON_WINDOW_MS, whenDurable, type HistoryStore } from '../../main/store/history-store.js';
import { minimalEntry, tempDir } from './fixtures/entries.js';

/** A controllable fsync: records each call and lets the test finish (or fail) it. */
function manualSync() {
  const calls: Array<{ file: string; done(err?: Error): void }> = [];
  const sync = (file: string) => new Promise<void>((resolve, reject) => calls.push({ file, done: (err) => (err ? reject(err) : resolve()) }));
  return { calls, sync };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('group sync', () => {
  it('syncs when asked and shares the next round among every commit made meanwhile', async () => {
    const m = manualSync();
    const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
    g.committed();
    expect(m.calls).toHaveLength(0); // nobody waits: a background round comes later
    const first = g.durable();
    expect(m.calls.map((c) => c.file)).toEqual(['/data/history.db-wal']);
    g.committed(); // while the first fsync runs
    g.committed();
    const second = g.durable();
    let secondDone = false;
    void second.then(() => (secondDone = true));
    m.calls[0]!.done();
    await first;
    await tick();
    expect(secondDone).toBe(false); // its commits came after the first fsync started
    expect(m.calls).toHaveLength(2); // one more round for both later commits
    m.calls[1]!.done();
    await second;
    expect(m.calls).toHaveLength(2);
    await g.durable(); // nothing pending: no new fsync
    expect(m.calls).toHaveLength(2);
  });

  it('syncs an unawaited commit in the background within BACKGROUND_SYNC_MS', async () => {
    vi.useFakeTimers();
    try {
      const m = manualSync();
      const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
      g.committed();
      g.committed();
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS - 1);
      expect(m.calls).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(m.calls).toHaveLength(1); // one round for both
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects the waiters when the fsync fails, and the next durable() tries again', async () => {
    const m = manualSync();
    const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
    g.committed();
    const failing = g.durable();
    m.calls[0]!.done(new Error('EIO'));
    await expect(failing).rejects.toThrow('EIO');
    const retry = g.durable();
    await tick();
    expect(m.calls).toHaveLength(2);
    m.calls[1]!.done();
    await expect(retry).resolves.toBeUndefined();
  });

  it('resolves every waiter on close and never syncs an in-memory database', async () => {
    const m = manualSync();
    const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
    g.committed();
    const waiting = g.durable();
    g.closed();
    await expect(waiting).resolves.toBeUndefined();
    const memory = createGroupSync(null, { sync: m.sync });
    memory.committed();
    await memory.durable();
    expect(m.calls).toHaveLength(1);
  });
});

describe('whenDurable', () => {
  it('hands the answer over only after history is durable, and passes errors through', async () => {
    let release!: () => void;
    const store = { durable: () => new Promise<void>((r) => (release = r)) };
    let answered = false;
    const answer = whenDurable(store, Promise.resolve('result')).then((v) => ((answered = true), v));
    await tick();
    expect(answered).toBe(false);
    release();
    await expect(answer).resolves.toBe('result');
    const refused = whenDurable({ durable: async () => undefined }, Promise.reject(new Error('rejected by rule')));
    await expect(refused).rejects.toThrow('rejected by rule');
    const lost = whenDurable({ durable: async () => Promise.reject(new Error('EIO')) }, Promise.resolve('result'));
    await expect(lost).rejects.toThrow('EIO');
  });
});

describe('SQLite history store: durable() and when saveSoon commits', () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: HistoryStore;
  let other: HistoryStore;
  beforeEach(() => {
    tmp = tempDir();
    store = openHistoryStore(join(tmp.dir, 'history.db'));
    other = openHistoryStore(join(tmp.dir, 'history.db')); // another connection: sees commits only
  });
  afterEach(async () => {
    await other.close();
    await store.close();
    tmp.cleanup();
  });
  const statusIn = async (s: HistoryStore, id: string) => (await s.get(id))?.status;

  it('durable() resolves after saves to a real file, and at once after close', async () => {
    store.save(minimalEntry('a', 1000));
    store.save(minimalEntry('b', 2000));
    await expect(store.durable()).resolves.toBeUndefined();
    await store.close();
    await expect(store.durable()).resolves.toBeUndefined();
  });

  it('a state that waits on a person: committed once the calling code has run, before a continuation queued after it', async () => {
    const queued = minimalEntry('r', 1000, 'walrus');
    store.saveSoon({ ...queued, status: 'generating' });
    store.saveSoon(queued);
    expect(await statusIn(other, 'r')).toBeUndefined(); // not committed yet
    await Promise.resolve();
    expect(await statusIn(other, 'r')).toBe('awaiting_request_review');
    expect((await other.list({ query: 'walrus', limit: 10, offset: 0 })).total).toBe(1);
  });

  it('a passing state (generating): committed within SAVE_SOON_WINDOW_MS, once for all the saves made meanwhile', async () => {
    const queued = minimalEntry('g', 1000, 'walrus');
    store.saveSoon({ ...queued, status: 'generating' });
    await Promise.resolve();
    expect(await statusIn(other, 'g')).toBeUndefined(); // waits for the window
    store.saveSoon({ ...queued, status: 'generating', preview: 'still going' });
    await new Promise((r) => setTimeout(r, SAVE_SOON_WINDOW_MS + 20));
    expect(await statusIn(other, 'g')).toBe('generating');
    expect((await other.list({ query: 'walrus', limit: 10, offset: 0 })).total).toBe(1);
  });
});
