/**
 * The history store's group commit (group-sync.ts: one background fsync of the WAL for every
 * commit made meanwhile, awaited through `durable()`), and the save path that leaves the FTS row
 * alone while an unfinished entry's searchable text stays the same.
 */
import { statSync } from 'node:fs';
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

  it('idle() resolves at once with no round running, else once the running round ends', async () => {
    const m = manualSync();
    const g = createGroupSync('/data/history.db', { sync: m.sync, syncFolder: false });
    await g.idle();
    g.committed();
    const synced = g.durable();
    let idle = false;
    const waiting = g.idle().then(() => (idle = true));
    await tick();
    expect(idle).toBe(false);
    m.calls[0]!.done();
    await synced;
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

describe('history store: durable() and the unchanged-text save path', () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: HistoryStore;
  beforeEach(() => {
    tmp = tempDir();
    store = openHistoryStore(join(tmp.dir, 'history.db'));
  });
  afterEach(() => {
    store.close();
    tmp.cleanup();
  });
  const ids = (query: string) => store.list({ query, limit: 10, offset: 0 }).entries.map((e) => e.id);

  it('durable() resolves after saves to a real file, and at once after close', async () => {
    store.save(minimalEntry('a', 1000));
    store.save(minimalEntry('b', 2000));
    await expect(store.durable()).resolves.toBeUndefined();
    store.close();
    await expect(store.durable()).resolves.toBeUndefined();
  });

  it('durable() asked by many answers of one turn commits their entries in one transaction', async () => {
    const wal = join(tmp.dir, 'history.db-wal');
    const walSize = () => statSync(wal).size;
    store.save(minimalEntry('first', 1000)); // the WAL exists
    await store.durable();
    const start = walSize();
    const together: Promise<void>[] = [];
    for (let i = 0; i < 8; i++) {
      store.saveSoon(minimalEntry(`t${i}`, 2000 + i));
      together.push(store.durable());
    }
    await Promise.all(together);
    const oneCommit = walSize() - start;
    for (let i = 0; i < 8; i++) {
      store.saveSoon(minimalEntry(`s${i}`, 3000 + i));
      await store.durable();
    }
    const eightCommits = walSize() - start - oneCommit;
    expect(store.list({ limit: 20, offset: 0 }).total).toBe(17);
    // Each commit appends the pages it changed to the WAL: one commit of eight entries appends far fewer.
    expect(oneCommit * 3).toBeLessThan(eightCommits);
  });

  it('keeps an unfinished entry searchable across saves with the same text, and re-indexes changed text', () => {
    const queued = minimalEntry('r', 1000, 'walrus ledger');
    store.save(queued);
    store.save({ ...queued, status: 'generating', events: [...queued.events, { at: 1001, kind: 'generation_started' }] });
    expect(ids('walrus')).toEqual(['r']);
    store.save({ ...queued, status: 'generating', original: { messages: [{ role: 'user', content: { type: 'text', text: 'otter ledger' } }], maxTokens: 10 } });
    expect(ids('walrus')).toEqual([]);
    expect(ids('otter')).toEqual(['r']);
    store.save({
      ...queued,
      status: 'delivered',
      endedAt: 1500,
      original: { messages: [{ role: 'user', content: { type: 'text', text: 'otter ledger' } }], maxTokens: 10 },
      delivered: { role: 'assistant', content: { type: 'text', text: 'a heron' }, model: 'm' },
    });
    expect(ids('otter heron')).toEqual(['r']);
  });

  it('an unfinished entry saved again keeps exactly its latest fields, set, changed or cleared', () => {
    const queued = minimalEntry('u', 1000, 'heron');
    store.save(queued);
    const approved = { ...queued, status: 'generating' as const, decidedBy: 'rule' as const, model: 'm1', providerId: 'p', rule: { serverId: 'srv', ruleId: 'r1', name: 'R', version: 2 } };
    store.save(approved);
    expect(store.get('u')).toStrictEqual(approved);
    const failed = { ...queued, status: 'awaiting_request_review' as const, error: 'provider down', model: 'm2' };
    store.save(failed); // decidedBy, providerId and rule cleared; model changed; an error set
    expect(store.get('u')).toStrictEqual(failed);
    expect(store.list({ limit: 10, offset: 0, status: ['awaiting_request_review'] }).entries.map((e) => e.id)).toEqual(['u']);
    expect(store.list({ limit: 10, offset: 0, status: ['generating'] }).total).toBe(0);
  });

  it('indexes an entry again when it was deleted between two saves with the same text', () => {
    const queued = minimalEntry('gone', 1000, 'pelican');
    store.save(queued);
    expect(store.deleteSessions(['gone'])).toBe(1);
    expect(ids('pelican')).toEqual([]);
    store.save({ ...queued, status: 'generating' });
    expect(ids('pelican')).toEqual(['gone']);
  });

  it('indexes an entry again when a second connection rewrote it meanwhile', () => {
    const other = openHistoryStore(join(tmp.dir, 'history.db'));
    try {
      const queued = minimalEntry('x', 1000, 'kestrel');
      store.save(queued);
      other.save({ ...queued, original: { messages: [{ role: 'user', content: { type: 'text', text: 'puffin' } }], maxTokens: 10 } });
      store.save({ ...queued, status: 'generating' }); // this connection last indexed "kestrel"
      expect(ids('kestrel')).toEqual(['x']);
      expect(ids('puffin')).toEqual([]);
    } finally {
      other.close();
    }
  });
});

describe('history store: saveSoon (one commit for the saves of a few milliseconds)', () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: HistoryStore;
  let other: HistoryStore;
  beforeEach(() => {
    tmp = tempDir();
    store = openHistoryStore(join(tmp.dir, 'history.db'));
    other = openHistoryStore(join(tmp.dir, 'history.db')); // another connection: sees commits only
  });
  afterEach(() => {
    other.close();
    store.close();
    tmp.cleanup();
  });
  const statusIn = (s: HistoryStore, id: string) => s.get(id)?.status;

  it('a state that waits on a person: committed once the calling code has run, before a continuation queued after it', async () => {
    const queued = minimalEntry('r', 1000, 'walrus');
    store.saveSoon({ ...queued, status: 'generating' });
    store.saveSoon(queued);
    expect(statusIn(other, 'r')).toBeUndefined(); // not committed yet
    await Promise.resolve();
    expect(statusIn(other, 'r')).toBe('awaiting_request_review');
    expect(other.list({ query: 'walrus', limit: 10, offset: 0 }).total).toBe(1);
  });

  it('a passing state (generating): committed within SAVE_SOON_WINDOW_MS, once for all the saves made meanwhile', async () => {
    const queued = minimalEntry('g', 1000, 'walrus');
    store.saveSoon({ ...queued, status: 'generating' });
    await Promise.resolve();
    expect(statusIn(other, 'g')).toBeUndefined(); // waits for the window
    store.saveSoon({ ...queued, status: 'generating', preview: 'still going' });
    await new Promise((r) => setTimeout(r, SAVE_SOON_WINDOW_MS + 20));
    expect(statusIn(other, 'g')).toBe('generating');
    expect(other.list({ query: 'walrus', limit: 10, offset: 0 }).total).toBe(1);
  });

  it('shows pending entries to every read on the same store at once', () => {
    store.saveSoon(minimalEntry('a', 1000));
    expect(statusIn(store, 'a')).toBe('awaiting_request_review');
    expect(store.list({ limit: 10, offset: 0 }).total).toBe(1);
  });

  it('orders entries of one millisecond by their first save, however often they are saved again', () => {
    store.saveSoon(minimalEntry('first', 1000));
    store.saveSoon(minimalEntry('second', 1000));
    store.saveSoon({ ...minimalEntry('first', 1000), status: 'generating' });
    expect(store.list({ limit: 10, offset: 0 }).entries.map((e) => e.id)).toEqual(['second', 'first']);
  });

  it('a later save() of the same id is not overwritten by the pending state', async () => {
    store.saveSoon(minimalEntry('x', 1000));
    store.save({ ...minimalEntry('x', 1000), status: 'delivered' });
    await new Promise((r) => setTimeout(r, SAVE_SOON_WINDOW_MS + 20));
    expect(statusIn(other, 'x')).toBe('delivered');
  });

  it('durable() commits pending entries first; a failed commit rejects it once and keeps the others', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    store.saveSoon(minimalEntry('ok', 1000));
    store.saveSoon({ ...minimalEntry('bad', 2000), original: cyclic });
    await expect(store.durable()).rejects.toThrow(TypeError);
    expect(statusIn(other, 'ok')).toBe('awaiting_request_review');
    expect(other.get('bad')).toBeNull();
    await expect(store.durable()).resolves.toBeUndefined();
  });

  it('close() commits what is pending; saveSoon throws after close', () => {
    store.saveSoon(minimalEntry('late', 1000));
    store.close();
    expect(statusIn(other, 'late')).toBe('awaiting_request_review');
    expect(() => store.saveSoon(minimalEntry('later', 1000))).toThrow(/closed/);
  });
});
