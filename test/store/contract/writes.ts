/**
 * Contract: the write path. Saves are seen by the same store's next read, by another store once
 * `durable()` resolved; `saveSoon` keeps the latest state and the first save's place; a failed
 * write rejects the next `durable()` and loses nothing else; two stores writing at once on one
 * database lose nothing; the index follows an entry through its states.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../main/store/history-api.js';
import type { HistoryEntry } from '../../../shared/contract/state.js';
import { fullEntry, minimalEntry } from '../fixtures/entries.js';
import { page, type Bed } from './history-store-contract.js';

export function describeWrites(bed: Bed): void {
  const ids = async (store: HistoryStore, query: string) => (await page(store, { query, limit: 10, offset: 0 })).ids;
  const statusIn = async (s: HistoryStore, id: string) => (await s.get(id))?.status;

  describe('saveSoon and durable()', () => {
    it('shows pending entries to every read on the same store at once', async () => {
      bed.store.saveSoon({ ...minimalEntry('a', 1000), status: 'generating' });
      expect(await statusIn(bed.store, 'a')).toBe('generating');
      expect((await bed.store.list({ limit: 10, offset: 0 })).total).toBe(1);
    });

    it('another store sees what was saved once durable() resolved', async () => {
      const other = await bed.t.another();
      bed.store.saveSoon({ ...minimalEntry('p', 1000, 'walrus'), status: 'generating' }); // a passing state
      bed.store.saveSoon(minimalEntry('w', 2000, 'walrus')); // one a person waits on
      bed.store.save(fullEntry('s', 3000));
      await bed.store.durable();
      expect(await statusIn(other, 'p')).toBe('generating');
      expect(await statusIn(other, 'w')).toBe('awaiting_request_review');
      expect(await other.get('s')).toStrictEqual(fullEntry('s', 3000));
      expect((await other.list({ query: 'walrus', limit: 10, offset: 0 })).total).toBe(2);
    });

    it('orders entries of one millisecond by their first save, however often they are saved again', async () => {
      bed.store.saveSoon(minimalEntry('first', 1000));
      bed.store.saveSoon(minimalEntry('second', 1000));
      bed.store.saveSoon({ ...minimalEntry('first', 1000), status: 'generating' });
      expect((await page(bed.store, { limit: 10, offset: 0 })).ids).toEqual(['second', 'first']);
    });

    it('a later save() of the same id is not overwritten by the pending state', async () => {
      const other = await bed.t.another();
      bed.store.saveSoon({ ...minimalEntry('x', 1000), status: 'generating' });
      bed.store.save({ ...minimalEntry('x', 1000), status: 'delivered' });
      await bed.store.durable();
      await new Promise((r) => setTimeout(r, 50)); // past any window a pending state could still be committed in
      expect(await statusIn(other, 'x')).toBe('delivered');
      expect(await statusIn(bed.store, 'x')).toBe('delivered');
    });

    it('a failed write rejects the next durable() once, and keeps the others', async () => {
      const other = await bed.t.another();
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      bed.store.saveSoon(minimalEntry('ok', 1000));
      bed.store.saveSoon({ ...minimalEntry('bad', 2000), original: cyclic });
      bed.store.saveSoon(minimalEntry('ok2', 3000));
      await expect(bed.store.durable()).rejects.toThrow(TypeError);
      expect(await statusIn(other, 'ok')).toBe('awaiting_request_review');
      expect(await statusIn(other, 'ok2')).toBe('awaiting_request_review');
      expect(await other.get('bad')).toBeNull();
      await expect(bed.store.durable()).resolves.toBeUndefined();
      bed.store.save(minimalEntry('later', 4000));
      await expect(bed.store.durable()).resolves.toBeUndefined();
    });

    it('close() commits what is pending; saveSoon throws after close', async () => {
      const other = await bed.t.another();
      bed.store.saveSoon({ ...minimalEntry('late', 1000), status: 'generating' });
      await bed.store.close();
      expect(await statusIn(other, 'late')).toBe('generating');
      expect(() => bed.store.saveSoon(minimalEntry('later', 1000))).toThrow(/closed/);
    });
  });

  describe('the index through an entry’s states', () => {
    it('keeps an unfinished entry searchable across saves with the same text, and re-indexes changed text', async () => {
      const queued = minimalEntry('r', 1000, 'walrus ledger');
      bed.store.save(queued);
      bed.store.save({ ...queued, status: 'generating', events: [...queued.events, { at: 1001, kind: 'generation_started' }] });
      expect(await ids(bed.store, 'walrus')).toEqual(['r']);
      const otter = { messages: [{ role: 'user', content: { type: 'text', text: 'otter ledger' } }], maxTokens: 10 };
      bed.store.save({ ...queued, status: 'generating', original: otter });
      expect(await ids(bed.store, 'walrus')).toEqual([]);
      expect(await ids(bed.store, 'otter')).toEqual(['r']);
      bed.store.save({ ...queued, status: 'delivered', endedAt: 1500, original: otter, delivered: { role: 'assistant', content: { type: 'text', text: 'a heron' }, model: 'm' } });
      expect(await ids(bed.store, 'otter heron')).toEqual(['r']);
    });

    it('indexes an entry again when it was deleted between two saves with the same text', async () => {
      const queued = minimalEntry('gone', 1000, 'pelican');
      bed.store.save(queued);
      expect(await bed.store.deleteSessions(['gone'])).toBe(1);
      expect(await ids(bed.store, 'pelican')).toEqual([]);
      bed.store.save({ ...queued, status: 'generating' });
      expect(await ids(bed.store, 'pelican')).toEqual(['gone']);
    });

    it('indexes an entry again when another store rewrote it meanwhile', async () => {
      const other = await bed.t.another();
      const queued = minimalEntry('x', 1000, 'kestrel');
      bed.store.save(queued);
      await bed.store.durable();
      other.save({ ...queued, original: { messages: [{ role: 'user', content: { type: 'text', text: 'puffin' } }], maxTokens: 10 } });
      await other.durable();
      bed.store.save({ ...queued, status: 'generating' }); // this store last indexed "kestrel"
      expect(await ids(bed.store, 'kestrel')).toEqual(['x']);
      expect(await ids(bed.store, 'puffin')).toEqual([]);
    });
  });

  describe('two stores on one database', () => {
    it('each sees the other’s committed saves and can write too', async () => {
      const second = await bed.t.another();
      bed.store.save(fullEntry('one', 1));
      await bed.store.durable();
      expect(await second.get('one')).toStrictEqual(fullEntry('one', 1));
      second.save(minimalEntry('two', 2));
      await second.durable();
      expect((await page(bed.store, { limit: 10, offset: 0 })).ids).toEqual(['two', 'one']);
    });

    it('writing at once — new entries, the same sessions, the same ids — loses nothing and duplicates nothing', async () => {
      const second = await bed.t.another();
      const N = 60;
      const round = (store: HistoryStore, who: string) => {
        for (let i = 0; i < N; i++) {
          const base = { ...minimalEntry(`${who}-${i}`, 10_000 + i, `${who} otter ${i}`), conversationId: `session-${i % 5}` };
          store.saveSoon(base);
          store.saveSoon({ ...base, status: 'generating' });
          store.save({ ...base, status: 'delivered', endedAt: 20_000 + i });
          // Both write the same shared entry: one of the two states wins, whole.
          store.save({ ...minimalEntry(`shared-${i}`, 30_000 + i, `shared ${who}`), status: 'delivered', endedAt: 40_000 });
        }
      };
      round(bed.store, 'a');
      round(second, 'b');
      await Promise.all([bed.store.durable(), second.durable()]);
      for (const store of [bed.store, second]) {
        expect((await store.list({ limit: 0, offset: 0 })).total).toBe(3 * N);
        expect((await store.list({ status: ['delivered'], limit: 0, offset: 0 })).total).toBe(3 * N);
        expect((await store.list({ query: 'otter', limit: 0, offset: 0 })).total).toBe(2 * N);
        expect((await store.list({ query: 'shared', limit: 0, offset: 0 })).total).toBe(N);
        expect((await store.list({ conversationId: 'session-3', limit: 0, offset: 0 })).total).toBe((2 * N) / 5);
      }
      const shared = (await bed.store.get('shared-7')) as HistoryEntry;
      expect([`shared a`, `shared b`]).toContain(shared.preview);
      expect((await page(bed.store, { query: shared.preview, limit: 100, offset: 0 })).ids).toContain('shared-7');
    });
  });
}
