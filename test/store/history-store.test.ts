/**
 * The SQLite history store (the desktop's): the contract every store passes
 * (test/store/contract/), then what only SQLite does — the file's settings, query plans, payloads
 * stored once in rows, `:memory:`.
 */
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryStore, type HistoryStore } from '../../main/store/history-store.js';
import { listSql, whereOf } from '../../main/store/query.js';
import { SQL } from '../../main/store/rows.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { describeHistoryStore, type StoreUnderTest } from './contract/history-store-contract.js';
import { PNG, mediaEntry } from './contract/maintenance.js';
import { WORDS, fullEntry, minimalEntry, tempDir } from './fixtures/entries.js';

/** A fresh SQLite store in a temp folder (in a folder that does not exist yet). */
async function openSqliteUnderTest(): Promise<StoreUnderTest> {
  const tmp = tempDir();
  const path = join(tmp.dir, 'nested', 'history.db');
  const opened: HistoryStore[] = [];
  const open = () => {
    const s = openHistoryStore(path);
    opened.push(s);
    return s;
  };
  const t: StoreUnderTest = {
    store: open(),
    another: async () => open(),
    async reopen() {
      await t.store.close();
      t.store = open();
      return t.store;
    },
    async cleanup() {
      for (const s of opened) await s.close();
      tmp.cleanup();
    },
  };
  return t;
}

describeHistoryStore('SQLite', openSqliteUnderTest);

describe('SQLite history store', () => {
  let tmp: ReturnType<typeof tempDir>;
  let dbPath: string;
  let store: HistoryStore;
  beforeEach(() => {
    tmp = tempDir();
    dbPath = join(tmp.dir, 'history.db');
    store = openHistoryStore(dbPath);
  });
  afterEach(async () => {
    await store.close();
    tmp.cleanup();
  });

  /** Row counts of the store's tables, read on a second connection. */
  function counts(): Record<string, number> {
    const db = new Database(dbPath);
    try {
      const n = (sql: string) => (db.prepare(sql).raw().get() as [number])[0];
      return {
        history: n('SELECT count(*) FROM history'),
        data: n('SELECT count(*) FROM history_data'),
        blobs: n('SELECT count(*) FROM blobs'),
        links: n('SELECT count(*) FROM history_blobs'),
        fts: n(`SELECT count(*) FROM history_fts WHERE history_fts MATCH '"zanzibar"'`),
      };
    } finally {
      db.close();
    }
  }

  it('puts the database file in WAL mode (a persistent setting, seen by any connection)', () => {
    store.save(minimalEntry('w', 1));
    const db = new Database(dbPath);
    try {
      expect(db.prepare('PRAGMA journal_mode').raw().get()).toEqual(['wal']);
    } finally {
      db.close();
    }
  });

  it('commits a save before it returns: another connection sees it at once', () => {
    store.save(fullEntry('now', 1));
    const db = new Database(dbPath);
    try {
      expect(db.prepare('SELECT id FROM history').raw().all()).toEqual([['now']]);
    } finally {
      db.close();
    }
  });

  it('stores each distinct payload once, as rows without inline copies, and drops those no entry uses any more', async () => {
    store.save(mediaEntry('m1', 1000));
    store.save(mediaEntry('m2', 2000)); // same payloads again
    expect(counts()).toMatchObject({ blobs: 2, links: 4 });
    const db = new Database(dbPath);
    try {
      const raw = db.prepare('SELECT original_json, sent_json, generated_json, delivered_json FROM history_data').raw().all() as string[][];
      expect(raw.flat().join('')).not.toContain(PNG.slice(0, 200)); // no inline copies in the rows
      expect(raw.flat().join('')).toContain('"blobRef"');
    } finally {
      db.close();
    }
    store.save(mediaEntry('m3', 3000, Buffer.alloc(500, 1).toString('base64')));
    expect(counts().blobs).toBe(3);
    store.save(minimalEntry('m3', 3000)); // m3 no longer has media: its own image goes, the shared audio stays
    expect(counts()).toMatchObject({ blobs: 2, links: 4 });
    await store.deleteSessions(['conv-m1', 'conv-m2']);
    expect(counts()).toMatchObject({ blobs: 0, links: 0 });
  });

  it('deletes the FTS rows and data rows of deleted sessions', async () => {
    store.saveMany([fullEntry('a', 1), fullEntry('b', 2)]);
    expect(counts()).toMatchObject({ history: 2, data: 2, fts: 2 });
    await store.deleteSessions(['conv-a']);
    expect(counts()).toMatchObject({ history: 1, data: 1, fts: 1 });
  });

  it('stores a sent request equal to the original, and a delivered response equal to the generated one, once', () => {
    const base = fullEntry('same', 1000);
    const entry: HistoryEntry = { ...base, sent: base.original as HistoryEntry['sent'], delivered: base.generated };
    store.save(entry);
    const db = new Database(dbPath);
    try {
      expect(db.prepare('SELECT sent_json, delivered_json FROM history_data').raw().get()).toEqual(['=', '=']);
    } finally {
      db.close();
    }
  });

  it('lists newest first without sorting, and lets FTS5 produce search matches newest first', () => {
    const db = new Database(dbPath);
    try {
      const plan = (where: ReturnType<typeof whereOf>, sql: string): string =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ ...where.params, limit: 1, offset: 0 }) as { detail: string }[])
          .map((r) => r.detail)
          .join(' | ');
      const pageOf = (p: string) => p.slice(0, p.indexOf('SCAN page'));
      // No filter: walk the table backwards by seq; no sort, no JSON read for the page choice.
      const all = whereOf({});
      const list = plan(all, listSql(all));
      expect(pageOf(list)).toMatch(/SCAN h/);
      expect(pageOf(list)).not.toMatch(/TEMP B-TREE/);
      expect(list).toMatch(/SEARCH d USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      // Full text: FTS5 is the outer loop (descending rowid = seq), rows are fetched by seq.
      const text = whereOf({ query: 'x', serverId: 's' });
      const search = pageOf(plan(text, listSql(text)));
      expect(search).toMatch(/SCAN history_fts VIRTUAL TABLE INDEX \d+:M\d*D?/);
      expect(search).toMatch(/SEARCH h USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(search).not.toMatch(/TEMP B-TREE/);
      // A server filter walks its index, which is ordered by seq within a server.
      const server = whereOf({ serverId: 's' });
      expect(pageOf(plan(server, listSql(server)))).toMatch(/SEARCH h USING (COVERING )?INDEX history_server \(server_id=\?\)/);
      expect(pageOf(plan(server, listSql(server)))).not.toMatch(/TEMP B-TREE/);
      expect(plan(all, SQL.get)).toMatch(/SEARCH h USING INDEX sqlite_autoindex_history_1 \(id=\?\)/);
    } finally {
      db.close();
    }
  });

  it('works in memory', async () => {
    const mem = openHistoryStore(':memory:');
    try {
      mem.save(fullEntry('m'));
      expect(await mem.get('m')).toStrictEqual(fullEntry('m'));
      expect((await mem.list({ query: WORDS.delivered, limit: 5, offset: 0 })).total).toBe(1);
    } finally {
      await mem.close();
    }
  });
});
