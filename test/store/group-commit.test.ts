/**
 * The SQLite history store's group commit (group-sync.ts: one background fsync of the WAL for
 * every commit made meanwhile, awaited through `durable()`), and when `saveSoon` commits. What
 * every store does with `saveSoon` and `durable()`: test/store/contract/writes.ts.
 */
import { readFileSync } from 'node:fs';
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

/**
 * The transactions committed in a WAL file since it was last restarted: its frames that end a
 * commit (a non-zero database size in the frame header) among those carrying the header's salts.
 */
function walCommits(file: string): number {
  const b = readFileSync(file);
  if (b.length < 32) return 0;
  const raw = b.readUInt32BE(8);
  const frame = 24 + (raw === 1 ? 65_536 : raw);
  const salts = [b.readUInt32BE(16), b.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + frame <= b.length; at += frame) {
    if (b.readUInt32BE(at + 8) !== salts[0] || b.readUInt32BE(at + 12) !== salts[1]) break;
    if (b.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}

/** The final state of an answered request, as the pipeline saves it (`saveSoon`, then `durable()` before answering). */
function answered(id: string, at: number) {
  return { ...minimalEntry(id, at), status: 'delivered' as const, endedAt: at + 1, delivered: { role: 'assistant' as const, content: { type: 'text' as const, text: `answer ${id}` }, model: 'm' } };
}

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

  it('idle() resolves at once with no round running, else once the running round ends', async () => {
    const m = manualSync();
    const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
    let idle = false;
    void g.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(true);
    g.committed();
    const synced = g.durable();
    idle = false;
    const waiting = g.idle().then(() => (idle = true));
    await tick();
    expect(idle).toBe(false); // the fsync still runs
    g.committed(); // a commit meanwhile keeps the round going: one more fsync before it is idle
    void g.durable();
    m.calls[0]!.done();
    await synced;
    await tick();
    expect(idle).toBe(false);
    expect(m.calls).toHaveLength(2);
    m.calls[1]!.done();
    await waiting;
    expect(idle).toBe(true);
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

  it('the durable() calls of one turn of the event loop share one transaction', async () => {
    const wal = join(tmp.dir, 'history.db-wal');
    store.save(minimalEntry('first', 1000)); // the WAL exists
    await store.durable();
    const before = walCommits(wal);
    const answers: Promise<void>[] = [];
    for (let i = 0; i < 8; i++) {
      store.saveSoon(answered(`t${i}`, 2000 + i));
      answers.push(store.durable());
    }
    await Promise.all(answers);
    expect(walCommits(wal) - before).toBe(1);
    expect((await other.list({ limit: 20, offset: 0, status: ['delivered'] })).total).toBe(8);
  });

  it('durable() asked while an fsync runs waits for it, then shares one transaction and one fsync with every other asked meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] }); // the saveSoon window never commits on its own here
    const m = manualSync();
    const synced = openHistoryStore(join(tmp.dir, 'synced.db'), { sync: m.sync });
    try {
      const wal = join(tmp.dir, 'synced.db-wal');
      synced.save(minimalEntry('a', 1000));
      const first = synced.durable();
      expect(m.calls).toHaveLength(1);
      const before = walCommits(wal);
      synced.saveSoon(answered('b', 2000));
      const b = synced.durable();
      await tick(); // a later turn, the fsync still running
      synced.saveSoon(answered('c', 3000));
      const c = synced.durable();
      let settled = 0;
      for (const p of [b, c]) void p.then(() => settled++);
      await tick();
      await tick();
      expect(walCommits(wal)).toBe(before); // nothing committed while the fsync runs
      m.calls[0]!.done();
      await first;
      for (let i = 0; i < 5 && m.calls.length < 2; i++) await tick();
      expect(walCommits(wal) - before).toBe(1); // b and c in one transaction
      expect(m.calls).toHaveLength(2); // and one fsync for both
      expect(settled).toBe(0); // neither answered before its fsync
      m.calls[1]!.done();
      await Promise.all([b, c]);
      expect(m.calls).toHaveLength(2);
      const reader = openHistoryStore(join(tmp.dir, 'synced.db'));
      expect((await reader.list({ limit: 10, offset: 0, status: ['delivered'] })).total).toBe(2);
      await reader.close();
    } finally {
      vi.useRealTimers();
      await synced.close();
    }
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
