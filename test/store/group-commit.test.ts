/**
 * The SQLite history store's group commit: `durable()` resolves once the commit is in the WAL,
 * never waiting for an fsync; group-sync.ts syncs the WAL in the background (one fsync for every
 * commit of a window); and when `saveSoon` commits. What
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
  it('synced() starts a round at once and shares the next among every commit made meanwhile', async () => {
    const m = manualSync();
    const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
    g.committed();
    expect(m.calls).toHaveLength(0); // nobody waits: a background round comes later
    const first = g.synced();
    expect(m.calls.map((c) => c.file)).toEqual(['/data/history.db-wal']);
    g.committed(); // while the first fsync runs
    g.committed();
    const second = g.synced();
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
    await g.synced(); // nothing pending: no new fsync
    expect(m.calls).toHaveLength(2);
  });

  it('syncs commits nobody waits for in the background within BACKGROUND_SYNC_MS: one fsync per window, not one after another', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const m = manualSync();
      const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
      g.committed();
      g.committed();
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS - 1);
      expect(m.calls).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(m.calls).toHaveLength(1); // one round for both
      g.committed(); // while that fsync runs
      m.calls[0]!.done();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      expect(m.calls).toHaveLength(1); // the later commit waits for its own window
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS);
      expect(m.calls).toHaveLength(2);
      m.calls[1]!.done();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      vi.advanceTimersByTime(10 * BACKGROUND_SYNC_MS);
      expect(m.calls).toHaveLength(2); // everything synced: no more rounds
    } finally {
      vi.useRealTimers();
    }
  });

  it('a commit whose window ends while a slow fsync runs is synced as soon as that fsync ends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const m = manualSync();
      const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
      g.committed();
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS);
      g.committed(); // while that fsync runs
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS); // its window ends; the disk is still busy
      expect(m.calls).toHaveLength(1);
      m.calls[0]!.done();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      expect(m.calls).toHaveLength(2); // at once, not one more window later
      m.calls[1]!.done();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a failed background round for takeFailure(), once, and tries again within BACKGROUND_SYNC_MS', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const m = manualSync();
      const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
      g.committed();
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS);
      m.calls[0]!.done(new Error('EIO'));
      for (let i = 0; i < 5; i++) await Promise.resolve();
      expect((g.takeFailure() as Error).message).toBe('EIO');
      expect(g.takeFailure()).toBeUndefined();
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS);
      expect(m.calls).toHaveLength(2); // the same commit, again
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects the waiters when the fsync fails, and the next synced() tries again', async () => {
    const m = manualSync();
    const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
    g.committed();
    const failing = g.synced();
    m.calls[0]!.done(new Error('EIO'));
    await expect(failing).rejects.toThrow('EIO');
    expect(g.takeFailure()).toBeUndefined(); // its waiter was told
    const retry = g.synced();
    await tick();
    expect(m.calls).toHaveLength(2);
    m.calls[1]!.done();
    await expect(retry).resolves.toBeUndefined();
  });

  it('closed() syncs what is unsynced at once and resolves every waiter; an in-memory database is never synced', async () => {
    const m = manualSync();
    const atClose: string[] = [];
    const g = createGroupSync('/data/history.db', { sync: m.sync, syncAtClose: (file) => atClose.push(file), syncFolder: false });
    g.committed();
    const waiting = g.synced();
    g.committed(); // after the running round's count
    g.closed();
    expect(atClose).toEqual(['/data/history.db-wal']);
    await expect(waiting).resolves.toBeUndefined();
    const clean = createGroupSync('/data/clean.db', { sync: m.sync, syncAtClose: (file) => atClose.push(file), syncFolder: false });
    clean.committed();
    const synced = clean.synced();
    m.calls.at(-1)!.done();
    await synced;
    clean.closed();
    expect(atClose).toHaveLength(1); // nothing left to sync
    const memory = createGroupSync(null, { sync: m.sync, syncAtClose: (file) => atClose.push(file) });
    memory.committed();
    await memory.synced();
    memory.closed();
    expect(m.calls).toHaveLength(2);
    expect(atClose).toHaveLength(1);
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
    const answers: Promise<number>[] = [];
    for (let i = 0; i < 8; i++) {
      store.saveSoon(answered(`t${i}`, 2000 + i));
      answers.push(store.durable().then(() => walCommits(wal) - before));
    }
    expect(await Promise.all(answers)).toEqual(Array(8).fill(1)); // each resolved once the one transaction was in the WAL
    expect(walCommits(wal) - before).toBe(1);
    expect((await other.list({ limit: 20, offset: 0, status: ['delivered'] })).total).toBe(8);
  });

  it('durable() resolves once the commit is in the WAL, without waiting for an fsync, and the WAL is synced in the background within BACKGROUND_SYNC_MS', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // the saveSoon window and the background round run only when the test says
    const m = manualSync();
    const synced = openHistoryStore(join(tmp.dir, 'synced.db'), { sync: m.sync, syncFolder: false });
    try {
      const wal = join(tmp.dir, 'synced.db-wal');
      synced.save(minimalEntry('a', 1000));
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS);
      expect(m.calls.map((c) => c.file)).toEqual([wal]); // a background fsync runs
      const before = walCommits(wal);
      synced.saveSoon(answered('b', 2000));
      synced.saveSoon(answered('c', 3000));
      const committedWhenResolved: number[] = [];
      const answers = [synced.durable(), synced.durable()].map((p) => p.then(() => committedWhenResolved.push(walCommits(wal) - before)));
      expect(walCommits(wal)).toBe(before); // not committed yet: at the end of this turn
      await Promise.all(answers);
      expect(committedWhenResolved).toEqual([1, 1]); // both resolved with b and c in one transaction, never before it
      const reader = openHistoryStore(join(tmp.dir, 'synced.db'));
      expect((await reader.list({ limit: 10, offset: 0, status: ['delivered'] })).total).toBe(2);
      await reader.close();
      expect(m.calls).toHaveLength(1); // the fsync still runs: the answers did not wait for it
      m.calls[0]!.done();
      for (let i = 0; i < 5; i++) await tick();
      expect(m.calls).toHaveLength(1);
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS);
      expect(m.calls).toHaveLength(2); // b and c's commit, synced in the background
      m.calls[1]!.done();
    } finally {
      vi.useRealTimers();
      await synced.close();
    }
  });

  it('a failed background sync rejects the next durable() once; the record stays committed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const m = manualSync();
    const synced = openHistoryStore(join(tmp.dir, 'synced.db'), { sync: m.sync, syncFolder: false });
    try {
      synced.save(answered('a', 1000));
      vi.advanceTimersByTime(BACKGROUND_SYNC_MS);
      m.calls[0]!.done(new Error('EIO'));
      for (let i = 0; i < 5; i++) await tick();
      await expect(synced.durable()).rejects.toThrow('EIO');
      await expect(synced.durable()).resolves.toBeUndefined();
      expect((await synced.get('a'))?.status).toBe('delivered');
    } finally {
      vi.useRealTimers();
      await synced.close();
    }
  });

  it('close() syncs the WAL of commits not yet synced', async () => {
    const atClose: string[] = [];
    const synced = openHistoryStore(join(tmp.dir, 'synced.db'), { sync: manualSync().sync, syncAtClose: (file) => atClose.push(file) });
    synced.saveSoon(answered('a', 1000));
    await synced.close();
    expect(atClose).toEqual([join(tmp.dir, 'synced.db-wal')]);
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
