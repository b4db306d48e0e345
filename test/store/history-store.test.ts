import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryStore, type HistoryStore } from '../../main/store/history-store.js';
import { listSql, whereOf } from '../../main/store/query.js';
import { SQL } from '../../main/store/rows.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { WORDS, fullEntry, minimalEntry, tempDir } from './fixtures/entries.js';
import { english, ui } from '../../shared/contract/ui-text.js';

let tmp: ReturnType<typeof tempDir>;
let dbPath: string;
let store: HistoryStore;

beforeEach(() => {
  tmp = tempDir();
  dbPath = join(tmp.dir, 'nested', 'history.db');
  store = openHistoryStore(dbPath);
});

afterEach(() => {
  store.close();
  tmp.cleanup();
});

/** Ids of the entries a search returns, and the total it reports. */
function search(query: string, limit = 50, offset = 0): { ids: string[]; total: number } {
  const page = store.list({ query, limit, offset });
  return { ids: page.entries.map((e) => e.id), total: page.total };
}

describe('save and get', () => {
  it('round-trips a fully populated entry exactly', () => {
    const entry = fullEntry('a');
    store.save(entry);
    expect(store.get('a')).toStrictEqual(entry);
  });

  it('round-trips an entry with only the required fields, without inventing optional ones', () => {
    const entry = minimalEntry('m', 1000);
    store.save(entry);
    const got = store.get('m');
    expect(got).toStrictEqual(entry);
    expect(Object.keys(got!).sort()).toEqual(Object.keys(entry).sort());
  });

  it('keeps raw params that failed validation and fields the schema has no column for', () => {
    const entry = { ...minimalEntry('raw', 1), original: 'not even an object', association: { exact: false } };
    store.save(entry as HistoryEntry);
    expect(store.get('raw')).toStrictEqual(entry);
  });

  it('returns null for an unknown id', () => {
    expect(store.get('nope')).toBeNull();
  });

  it('survives close and re-open', () => {
    store.save(fullEntry('a'));
    store.close();
    store = openHistoryStore(dbPath);
    expect(store.get('a')).toStrictEqual(fullEntry('a'));
  });

  it('upserts: a later save replaces the entry and its list row, without duplicating it', () => {
    store.save(minimalEntry('x', 5000, 'first draft'));
    const later: HistoryEntry = {
      ...fullEntry('x', 5000),
      status: 'rejected',
      decidedBy: 'console',
      endedAt: 9000,
      edited: false,
      error: 'timed out waiting',
      preview: 'updated preview',
    };
    store.save(later);
    expect(store.get('x')).toStrictEqual(later);
    const page = store.list({ limit: 10, offset: 0 });
    expect(page.total).toBe(1);
    expect(page.entries).toEqual([
      {
        id: 'x',
        conversationId: 'conv-x',
        serverId: 'everything',
        callName: 'tools/call trigger-sampling-request',
        status: 'rejected',
        decidedBy: 'console',
        receivedAt: 5000,
        endedAt: 9000,
        model: 'gpt-4o-mini',
        providerId: 'openai',
        edited: false,
        error: 'timed out waiting',
        preview: 'updated preview',
        sessionSize: 1,
        sessionIndex: 1,
        mediaBytes: 8, // the 12-character base64 image in fullEntry
        mediaCount: 1,
      },
    ]);
  });

  it('clears optional fields that a later save no longer has', () => {
    store.save(fullEntry('x'));
    const bare = minimalEntry('x', 7);
    store.save(bare);
    expect(store.get('x')).toStrictEqual(bare);
  });

  it('rejects malformed entries with a TypeError and stores nothing', () => {
    const bad = { ...minimalEntry('b', 1), receivedAt: Number.NaN };
    expect(() => store.save(bad)).toThrow(TypeError);
    expect(() => store.save({ ...minimalEntry('', 1) })).toThrow(/id/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => store.save({ ...minimalEntry('c', 1), original: cyclic })).toThrow(TypeError);
    expect(store.list({ limit: 10, offset: 0 }).total).toBe(0);
  });

  it('throws after close, and close is idempotent', () => {
    store.close();
    expect(() => store.get('a')).toThrow(/closed/);
    expect(() => store.save(minimalEntry('a', 1))).toThrow(/closed/);
    expect(() => store.close()).not.toThrow();
  });
});

describe('list', () => {
  beforeEach(() => {
    // Saved out of order; two share a receivedAt (tie broken by save order: the later save first).
    for (const [id, at] of [['e3', 300], ['e1', 100], ['e5', 500], ['e2', 200], ['e4', 300]] as const) {
      store.save(minimalEntry(id, at));
    }
  });

  it('lists newest first with a stable tie-break and counts everything', () => {
    const page = store.list({ limit: 10, offset: 0 });
    expect(page.entries.map((e) => e.id)).toEqual(['e5', 'e4', 'e3', 'e2', 'e1']);
    expect(page.total).toBe(5);
  });

  it('pages with limit and offset; total stays the full count', () => {
    expect(store.list({ limit: 2, offset: 0 }).entries.map((e) => e.id)).toEqual(['e5', 'e4']);
    expect(store.list({ limit: 2, offset: 2 }).entries.map((e) => e.id)).toEqual(['e3', 'e2']);
    const last = store.list({ limit: 2, offset: 4 });
    expect(last.entries.map((e) => e.id)).toEqual(['e1']);
    expect(last.total).toBe(5);
    expect(store.list({ limit: 2, offset: 10 }).entries).toEqual([]);
    expect(store.list({ limit: 0, offset: 0 })).toEqual({ entries: [], total: 5 });
  });

  it('rejects negative or fractional paging', () => {
    expect(() => store.list({ limit: -1, offset: 0 })).toThrow(RangeError);
    expect(() => store.list({ limit: 1.5, offset: 0 })).toThrow(RangeError);
    expect(() => store.list({ limit: 1, offset: -3 })).toThrow(RangeError);
  });

  it('treats an empty or punctuation-only query as no filter', () => {
    for (const query of ['', '   ', '"', '-', '*', '()']) expect(search(query).total).toBe(5);
  });
});

describe('full-text search', () => {
  beforeEach(() => {
    store.save(fullEntry('full', 2000));
    store.save(minimalEntry('other', 3000, 'an unrelated question about the weather'));
    store.save({ ...minimalEntry('gh', 1000, 'list my issues'), serverId: 'github', callName: 'tools/call search_issues' });
  });

  it.each(Object.entries(WORDS))('finds the word from the %s only in its entry', (_where, word) => {
    expect(search(word)).toEqual({ ids: ['full'], total: 1 });
  });

  it('finds entries by server id and by tool name', () => {
    expect(search('github').ids).toEqual(['gh']);
    expect(search('search_issues').ids).toEqual(['gh']);
    expect(search('trigger-sampling-request').ids).toEqual(['full']);
  });

  it('ignores case and diacritics, and matches the last word as a prefix', () => {
    expect(search('ZANZIBAR').ids).toEqual(['full']);
    expect(search('zänzibar').ids).toEqual(['full']);
    expect(search('ptero').ids).toEqual(['full']);
    expect(search('pterodactyl fl').ids).toEqual(['full']);
    expect(search('ptero fl').ids).toEqual([]); // only the last word is a prefix
  });

  it('requires every word and returns nothing for unknown words', () => {
    expect(search('weather unrelated').ids).toEqual(['other']);
    expect(search('weather zanzibar').ids).toEqual([]);
    expect(search('xylophone')).toEqual({ ids: [], total: 0 });
  });

  it('orders matches newest first and pages them, total counting all matches', () => {
    // "tell" is in 'full' (prompt) only; "the" is in 'full' and 'other'; "about" in 'full' and 'other'.
    expect(search('about')).toEqual({ ids: ['other', 'full'], total: 2 });
    expect(search('about', 1, 1)).toEqual({ ids: ['full'], total: 2 });
  });

  it('keeps the index in sync when an entry is updated', () => {
    store.save({ ...fullEntry('full', 2000), delivered: { role: 'assistant', content: { type: 'text', text: 'a gazebo' }, model: 'm' } });
    expect(search(WORDS.delivered).ids).toEqual([]);
    expect(search('gazebo').ids).toEqual(['full']);
    expect(search(WORDS.generated).ids).toEqual(['full']);
    expect(store.list({ limit: 10, offset: 0 }).total).toBe(3);
  });

  it('never throws on hostile queries and treats operators as plain words', () => {
    const hostile = [
      'foo"', 'a OR', 'OR', 'AND', 'NOT', '-x', 'x -y', '"unterminated', "it's", 'NEAR(a b)', 'a NEAR/2 b',
      'server_id:github', '{server_id}: x', '^start', 'a*b', '* OR *', '(', ')', 'a AND (b', '\\', '%_', ';DROP TABLE history;--',
      '\u0000', '😀', 'x'.repeat(500), 'a '.repeat(250),
    ];
    for (const query of hostile) expect(() => store.list({ query, limit: 10, offset: 0 }), query).not.toThrow();
    expect(search('zanzibar"').ids).toEqual(['full']);
    expect(search('-zanzibar').ids).toEqual(['full']);
    expect(search('zanzibar OR weather').ids).toEqual([]); // "OR" is a word that appears nowhere
    expect(search('github:').ids).toEqual(['gh']);
    expect(store.list({ limit: 10, offset: 0 }).total).toBe(3);
  });
});

describe('database settings and query plans', () => {
  it('puts the database file in WAL mode (a persistent setting, seen by any connection)', () => {
    store.save(minimalEntry('w', 1));
    const db = new Database(dbPath);
    try {
      expect(db.prepare('PRAGMA journal_mode').raw().get()).toEqual(['wal']);
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

  it('works in memory', () => {
    const mem = openHistoryStore(':memory:');
    try {
      mem.save(fullEntry('m'));
      expect(mem.get('m')).toStrictEqual(fullEntry('m'));
      expect(mem.list({ query: WORDS.delivered, limit: 5, offset: 0 }).total).toBe(1);
    } finally {
      mem.close();
    }
  });
});

describe('several connections', () => {
  it('a second store on the same file sees the first one’s saves and can write too', () => {
    const second = openHistoryStore(dbPath);
    try {
      store.save(fullEntry('one', 1));
      expect(second.get('one')).toStrictEqual(fullEntry('one', 1));
      second.save(minimalEntry('two', 2));
      expect(store.list({ limit: 10, offset: 0 }).entries.map((e) => e.id)).toEqual(['two', 'one']);
    } finally {
      second.close();
    }
  });
});

describe("history list: the call's arguments", () => {
  it('an entry saved with callArgs lists with them; one without lists without', () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = openHistoryStore(join(dir, 'h.db'));
      store.save({ ...minimalEntry('with', 2000), callName: 'tools/call ask', callArgs: 'prompt: "hi", maxTokens: 5' });
      store.save(minimalEntry('without', 1000));
      const { entries } = store.list({ limit: 10, offset: 0 });
      expect(entries.map((e) => [e.id, e.callArgs])).toEqual([
        ['with', 'prompt: "hi", maxTokens: 5'],
        ['without', undefined],
      ]);
      store.close();
    } finally {
      cleanup();
    }
  });
});

describe('history list: why an entry failed, as a message code', () => {
  it("a refused entry lists with its reason's code (translated in the renderer); one without lists without", () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = openHistoryStore(join(dir, 'h.db'));
      const why = ui('validate.maxTokensPositive', { got: '0' });
      store.save({ ...minimalEntry('refused', 2000), status: 'failed', error: english(why), errorUi: why });
      store.save({ ...minimalEntry('plain', 1000), status: 'failed', error: 'provider error: 502' });
      const { entries } = store.list({ limit: 10, offset: 0 });
      expect(entries.map((e) => [e.id, e.error, e.errorUi])).toEqual([
        ['refused', 'maxTokens must be a positive integer (got 0)', why],
        ['plain', 'provider error: 502', undefined],
      ]);
      expect(store.get('refused')?.errorUi).toEqual(why);
      store.close();
    } finally {
      cleanup();
    }
  });
});
