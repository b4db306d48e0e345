/**
 * What only the PostgreSQL history store does: its migrations, how it stores words, payloads and
 * texts, the query plans that keep a page cheap, a statement the server refuses, and — on a
 * cluster of its own — PostgreSQL stopping, restarting and crashing under it.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HistoryUnavailableError, type HistoryStore } from '../../../main/store/history-api.js';
import { HistorySchemaTooNewError } from '../../../main/store/migrations.js';
import { BIG_TEXT_CHARS } from '../../../main/store/media.js';
import { knownMigrations } from '../../../main/store/pg/migrate.js';
import { whereOf, listSql } from '../../../main/store/pg/queries.js';
import { openPgHistoryStore } from '../../../main/store/pg/store.js';
import type { HistoryEntry } from '../../../shared/contract/state.js';
import { adminQuery, startPostgres, testDatabase, type PostgresCluster } from '../../support/postgres.js';
import { mediaEntry } from '../contract/maintenance.js';
import { fullEntry, minimalEntry } from '../fixtures/entries.js';
import { HISTORY_TABLES } from './tables.js';

let db: Awaited<ReturnType<typeof testDatabase>>;
beforeAll(async () => {
  db = await testDatabase();
  await (await openPgHistoryStore({ connection: db.url })).close(); // migrated
});
afterAll(async () => db?.drop());

const sql = async <R = Record<string, unknown>>(text: string, values: unknown[] = []) => (await adminQuery(db.url, text, values)).rows as R[];

describe('PostgreSQL history: migrations', () => {
  it('migrates a new database once, even when instances start together, and refuses one a newer console migrated', async () => {
    const fresh = await testDatabase();
    try {
      const stores = await Promise.all([1, 2, 3].map(() => openPgHistoryStore({ connection: fresh.url })));
      await Promise.all(stores.map((s) => s.close()));
      expect((await adminQuery(fresh.url, 'SELECT name FROM pgmigrations ORDER BY id')).rows.map((r) => r.name)).toEqual(knownMigrations());
      await adminQuery(fresh.url, "INSERT INTO pgmigrations (name, run_on) VALUES ('9999_from_the_future', now())");
      await expect(openPgHistoryStore({ connection: fresh.url })).rejects.toThrow(HistorySchemaTooNewError);
      expect((await adminQuery(fresh.url, 'SELECT count(*)::int AS n FROM pgmigrations')).rows[0].n).toBe(knownMigrations().length + 1); // untouched
    } finally {
      await fresh.drop();
    }
  }, 60_000);
});

describe('PostgreSQL history: what is stored', () => {
  let store: HistoryStore;
  beforeEach(async () => {
    await sql(`TRUNCATE ${HISTORY_TABLES} RESTART IDENTITY`);
    store = await openPgHistoryStore({ connection: db.url, blobGraceMs: 0 });
  });
  afterEach(async () => store.close());

  it('indexes words lowercased and without accents, the parts of addresses apart', async () => {
    store.save(minimalEntry('w', 1, 'Crème BRÛLÉE for ops@example.com'));
    await store.durable();
    const [row] = await sql<{ words: string[] }>('SELECT tsvector_to_array(search) AS words FROM history');
    expect(row!.words).toEqual(expect.arrayContaining(['creme', 'brulee', 'for', 'ops', 'example', 'com', 'srv']));
    expect(row!.words).not.toContain('ops@example.com');
  });

  it('keeps media decoded as bytes, odd strings exactly, and a prepared big text once, the row holding its reference', async () => {
    const odd = mediaEntry('odd', 2000, 'aGk=\u0000\udc00'); // U+0000 and a lone surrogate: not base64, kept exactly
    store.save(mediaEntry('m', 1000));
    store.save(odd);
    const big = `${'a long prompt '.repeat(BIG_TEXT_CHARS / 10)}end`;
    const entry = minimalEntry('big', 3000, big);
    await store.prepareEntry(entry);
    store.save(entry);
    store.save({ ...entry, status: 'rejected', endedAt: 3500 });
    await store.durable();
    expect(await store.get('odd')).toStrictEqual(odd);
    const blobs = await sql<{ encoding: string; n: number; size: number }>('SELECT encoding, count(*)::int AS n, sum(length(data))::int AS size FROM blobs GROUP BY encoding ORDER BY encoding');
    expect(blobs).toEqual([
      { encoding: 'base64', n: 2, size: 30_000 + 12_345 },
      { encoding: 'json', n: 1, size: expect.any(Number) },
      { encoding: 'utf8', n: 1, size: big.length },
    ]);
    const [row] = await sql<{ n: number }>("SELECT length(d.original_json)::int AS n FROM history_data d JOIN history h USING (seq) WHERE h.id = 'big'");
    expect(row!.n).toBeLessThan(1000);
  });

  it('stores U+0000 in a list column as U+FFFD (PostgreSQL text cannot hold it), the entry’s parts exactly', async () => {
    const entry = { ...minimalEntry('nul', 1, 'a\u0000b'), callName: 'tools/call x\u0000' };
    store.save(entry);
    const got = (await store.get('nul'))!;
    expect(got.original).toStrictEqual(entry.original);
    expect(got.preview).toBe('a\uFFFDb');
    expect(got.callName).toBe('tools/call x\uFFFD');
  });

  it('removes payloads no entry links to once past the grace period, and not before', async () => {
    const patient = await openPgHistoryStore({ connection: db.url }); // the default grace: 10 minutes
    try {
      patient.save(mediaEntry('p', 1000));
      await patient.deleteSessions(['conv-p']);
      expect((await sql('SELECT sha256 FROM blobs')).length).toBe(2);
    } finally {
      await patient.close();
    }
    await store.deleteSessions(['nothing']); // grace 0: collects
    expect(await sql('SELECT sha256 FROM blobs')).toEqual([]);
    store.save(mediaEntry('q', 1000));
    store.save(minimalEntry('q', 1000)); // its payloads dropped by an update
    await store.durable();
    expect(await sql('SELECT sha256 FROM blobs')).toEqual([]);
  });

  it('a statement PostgreSQL refuses rejects the next durable() once, and the entries saved with it are kept', async () => {
    await sql("ALTER TABLE history_data ADD CONSTRAINT no_poison CHECK (preview <> 'poison')");
    try {
      store.saveSoon(minimalEntry('before', 1, 'fine'));
      store.saveSoon(minimalEntry('bad', 2, 'poison'));
      store.saveSoon(minimalEntry('after', 3, 'fine too'));
      await expect(store.durable()).rejects.toMatchObject({ code: '23514' });
      await expect(store.durable()).resolves.toBeUndefined();
      expect((await store.list({ limit: 10, offset: 0 })).entries.map((e) => e.id)).toEqual(['after', 'before']);
    } finally {
      await sql('ALTER TABLE history_data DROP CONSTRAINT no_poison');
    }
  });

  it('counts a full-text search up to its cap and then says "at least"; other filters exactly', async () => {
    const capped = await openPgHistoryStore({ connection: db.url, countCap: 5 });
    try {
      capped.saveMany(Array.from({ length: 9 }, (_, i) => minimalEntry(`c${i}`, i, i < 3 ? 'rare heron' : 'common sparrow'))); // 6 common
      expect(await capped.list({ query: 'common', limit: 2, offset: 0 })).toMatchObject({ total: 5, totalCapped: true });
      expect((await capped.list({ query: 'common', limit: 10, offset: 4 })).entries.map((e) => e.id)).toEqual(['c4', 'c3']); // pages past the count still come
      const rare = await capped.list({ query: 'heron', limit: 10, offset: 0 });
      expect(rare.total).toBe(3);
      expect(rare).not.toHaveProperty('totalCapped');
      expect(await capped.list({ limit: 0, offset: 0 })).toEqual({ entries: [], total: 9 });
    } finally {
      await capped.close();
    }
  });

  it('a search finds the same page and count whether the newest entries hold it, the GIN index must find it, or the filters leave fewer', async () => {
    const ids = (page: { entries: Array<{ id: string }> }) => page.entries.map((e) => e.id);
    const entries = Array.from({ length: 12 }, (_, i) => ({ ...minimalEntry(`w${i}`, i, i % 3 === 0 ? 'heron sparrow' : 'sparrow'), ...(i < 2 && { serverId: 'other' }) }));
    entries[0] = { ...minimalEntry('w0', 0, 'heron sparrow kestrel'), serverId: 'other' };
    const open = (searchWindow: number) => openPgHistoryStore({ connection: db.url, countCap: 5, searchWindow });
    const writer = await open(4);
    const stores = [writer, await open(1_000)];
    try {
      writer.saveMany(entries);
      await writer.durable();
      for (const s of stores) {
        // In the newest four: the page; the count (more than four match) from the index, capped.
        expect(await s.list({ query: 'sparr', limit: 2, offset: 1 })).toMatchObject({ total: 5, totalCapped: true });
        expect(ids(await s.list({ query: 'sparr', limit: 2, offset: 1 }))).toEqual(['w10', 'w9']);
        // One match in the newest four: the index finds the page, newest first, and counts.
        expect(await s.list({ query: 'heron', limit: 3, offset: 0 })).toMatchObject({ total: 4 });
        expect(ids(await s.list({ query: 'heron', limit: 3, offset: 0 }))).toEqual(['w9', 'w6', 'w3']);
        expect(await s.list({ query: 'kestrel', limit: 3, offset: 0 })).toMatchObject({ total: 1, entries: [{ id: 'w0' }] });
        expect(await s.list({ query: 'nowhere', limit: 3, offset: 0 })).toEqual({ entries: [], total: 0 });
        // The other filters leave two entries: the window holds them all, the count is exact.
        expect(await s.list({ query: 'sparrow', serverId: 'other', limit: 1, offset: 0 })).toMatchObject({ total: 2, entries: [{ id: 'w1' }] });
        expect(await s.list({ query: 'sparrow', limit: 0, offset: 0 })).toEqual({ entries: [], total: 5, totalCapped: true });
      }
      // More matches in the newest entries than the cap: counted there.
      const small = await openPgHistoryStore({ connection: db.url, countCap: 3, searchWindow: 6 });
      stores.push(small);
      expect(await small.list({ query: 'sparrow', limit: 2, offset: 0 })).toMatchObject({ total: 3, totalCapped: true, entries: [{ id: 'w11' }, { id: 'w10' }] });
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('indexes a text of very many distinct words up to what one tsvector holds, and saves it', async () => {
    const words = Array.from({ length: 150_000 }, (_, i) => `w${i.toString(36)}x`);
    store.save(minimalEntry('many', 1, words.join(' ')));
    await expect(store.durable()).resolves.toBeUndefined();
    expect((await store.list({ query: words[0]!, limit: 1, offset: 0 })).total).toBe(1);
    expect((await store.get('many'))?.preview).toBe(words.join(' '));
  });

  it('chooses a page by walking an index in order, never sorting the whole table', async () => {
    const servers = ['github', 'slack', 'files', 'kitchen'];
    const entries: HistoryEntry[] = [];
    for (let i = 0; i < 4000; i++) {
      // Common words, a varied vocabulary (PostgreSQL estimates prefix searches from its most common words), one rare word.
      const text = `the common words ${i % 7 === 0 ? 'invoice' : 'order'} topic${i % 200} theme${(i * 7) % 200}${i === 77 ? ' zenkaka' : ''}`;
      entries.push({ ...minimalEntry(`e${i}`, 1_000_000 + i * 1000, text), serverId: i % 400 === 0 ? 'rare' : servers[i % 4]!, conversationId: `c${i % 1500}` });
    }
    store.saveMany(entries);
    await store.durable();
    await sql('ANALYZE');
    // A table this small may be read whole more cheaply than through any index: the planner is told
    // not to, to see which index it would use on a large one.
    const plan = async (filter: Parameters<typeof whereOf>[0]) => {
      const where = whereOf(filter);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        await client.query('SET enable_seqscan = off');
        return (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${listSql(where, 50, 0)}`, where.params)).rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await client.end();
      }
    };
    /** The plan of the page's choice (the CTE), and of the rest (the page's rows and counts). */
    const parts = async (filter: Parameters<typeof whereOf>[0]) => {
      const p = await plan(filter);
      const rest = p.indexOf('->  Nested Loop');
      return { page: p.slice(p.indexOf('CTE page'), rest), rest: p.slice(rest) };
    };
    const all = await parts({});
    expect(all.page).toMatch(/Index (Only )?Scan Backward using history_order/);
    expect(all.page).not.toMatch(/Sort/);
    expect(all.rest).toMatch(/Index Scan using history_pkey on history h/); // the page's rows, by seq
    expect(all.rest).not.toMatch(/Seq Scan/);
    // A filter walks its index (or the order, checking each row); only a few matches are ever sorted.
    for (const filter of [{ serverId: 'github' }, { serverId: 'rare' }, { conversationId: 'c7' }]) {
      const { page } = await parts(filter);
      expect(page).not.toMatch(/Seq Scan/);
      expect(page).toMatch(filter.serverId === 'rare' ? /history_server/ : filter.conversationId ? /history_session/ : /history_(server|order)/);
    }
    // A word in every entry: walk in order and stop after the page. A rare word: its index, then a sort of its few matches.
    expect((await parts({ query: 'common' })).page).toMatch(/Index Scan Backward using history_order/);
    expect((await parts({ query: 'common' })).page).not.toMatch(/Sort/);
    expect((await parts({ query: 'zenkaka' })).page).toMatch(/Bitmap Index Scan on history_text/);
    expect((await store.list({ query: 'zenkaka', limit: 5, offset: 0 })).entries.map((e) => e.id)).toEqual(['e77']);
  });
});

describe('PostgreSQL history: the server going away', () => {
  let cluster: PostgresCluster;
  let stores: HistoryStore[] = [];
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(async () => cluster?.destroy());
  afterEach(async () => {
    if (!(await reachable(cluster))) await cluster.start();
    for (const s of stores) await s.close();
    stores = [];
  });
  const open = async (): Promise<HistoryStore> => {
    const s = await openPgHistoryStore({ connection: cluster.url(), connectTimeoutMs: 2_000 });
    stores.push(s);
    return s;
  };
  /** Waits until `store` answers again (its reconnect probe succeeded). */
  const answered = async (store: HistoryStore) => {
    for (;;) {
      try {
        return await store.list({ limit: 0, offset: 0 });
      } catch (err) {
        if (!(err instanceof HistoryUnavailableError)) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };

  it('refuses to open while the server is down, saying where it tried (never the password)', async () => {
    await cluster.stop();
    const url = cluster.url().replace('postgres@', 'postgres:s3cret@');
    const err = await openPgHistoryStore({ connection: url, connectTimeoutMs: 2_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HistoryUnavailableError);
    expect((err as Error).message).toContain(`127.0.0.1:${cluster.port}`);
    expect((err as Error).message).not.toContain('s3cret');
  }, 60_000);

  it('while the server is down, calls fail at once with a clear error; what was saved meanwhile is written once it is back', async () => {
    const store = await open();
    const other = await open();
    store.save(fullEntry('before', 1));
    await store.durable();
    await cluster.stop();
    await expect(store.list({ limit: 1, offset: 0 })).rejects.toThrow(HistoryUnavailableError);
    await expect(store.get('before')).rejects.toThrow(/cannot be reached/);
    store.save(minimalEntry('during', 2));
    await expect(store.durable()).rejects.toThrow(HistoryUnavailableError);
    await expect(store.durable()).rejects.toThrow(HistoryUnavailableError); // still down: still the error, not a wait
    await cluster.start();
    await answered(store);
    await expect(store.durable()).resolves.toBeUndefined();
    await answered(other);
    expect((await other.list({ limit: 10, offset: 0 })).entries.map((e) => e.id)).toEqual(['during', 'before']);
  }, 120_000);

  for (const how of ['restart', 'kill'] as const) {
    it(`${how === 'restart' ? 'restarted' : 'killed (SIGKILL) and started again'} mid-traffic: no entry a durable() confirmed is lost, and calls meanwhile end in an error, not a wait`, async () => {
      const store = await open();
      const confirmed: string[] = [];
      const failures: unknown[] = [];
      let stop = false;
      const traffic = (async () => {
        for (let i = 0; !stop && i < 2_000; i++) {
          const id = `r${i}`;
          store.saveSoon(minimalEntry(id, 1000 + i, `request ${i}`));
          store.save({ ...minimalEntry(id, 1000 + i, `request ${i}`), status: 'delivered', endedAt: 2000 + i });
          try {
            await store.durable();
            confirmed.push(id);
          } catch (err) {
            failures.push(err);
            await new Promise((r) => setTimeout(r, 20));
          }
        }
      })();
      while (confirmed.length < 20) await new Promise((r) => setTimeout(r, 10));
      if (how === 'restart') await cluster.restart();
      else {
        await cluster.kill();
        await cluster.start();
      }
      const afterwards = confirmed.length;
      await answered(store);
      while (confirmed.length < afterwards + 20) await new Promise((r) => setTimeout(r, 10));
      stop = true;
      await traffic;
      expect(failures.every((f) => f instanceof HistoryUnavailableError)).toBe(true);
      const checker = await open();
      const stored = new Map((await checker.list({ limit: 5_000, offset: 0 })).entries.map((e) => [e.id, e.status]));
      expect(confirmed.filter((id) => stored.get(id) !== 'delivered')).toEqual([]);
    }, 120_000);
  }
});

/** Whether the cluster accepts connections now. */
async function reachable(cluster: PostgresCluster): Promise<boolean> {
  return adminQuery(cluster.url(), 'SELECT 1').then(
    () => true,
    () => false,
  );
}
