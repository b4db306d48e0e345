import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../main/store/history-store.js';
import {
  HistorySchemaTooNewError,
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  migrate,
  readSchemaVersion,
  type Db,
} from '../../main/store/migrations.js';
import { statementCache } from '../../main/store/maintenance.js';
import { writeEntry } from '../../main/store/write.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { fullEntry, minimalEntry, tempDir } from './fixtures/entries.js';

let tmp: ReturnType<typeof tempDir>;
let dbPath: string;
beforeEach(() => {
  tmp = tempDir();
  dbPath = join(tmp.dir, 'history.db');
});
afterEach(() => tmp.cleanup());

/** Runs `fn` on a raw connection to the test database and closes it. */
function withDb<T>(fn: (db: Db) => T): T {
  const db = new Database(dbPath);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function versionRows(): { version: number; applied_at: number; description: string }[] {
  return withDb((db) =>
    (db.prepare('SELECT version, applied_at, description FROM schema_version ORDER BY version').all() as {
      version: number;
      applied_at: number;
      description: string;
    }[]).map(({ version, applied_at, description }) => ({ version, applied_at, description })),
  );
}

describe('schema_version', () => {
  it('numbers migrations 1, 2, 3, … with the last as the latest version', async () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_m, i) => i + 1));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('records every applied migration when a new database is created', async () => {
    const before = Date.now();
    await openHistoryStore(dbPath).close();
    const rows = versionRows();
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    for (const r of rows) {
      expect(r.applied_at).toBeGreaterThanOrEqual(before);
      expect(r.description).not.toBe('');
    }
  });

  it('re-opening is idempotent: nothing re-applied, data kept', async () => {
    const store = openHistoryStore(dbPath);
    store.save(fullEntry('a'));
    await store.close();
    const rows = versionRows();
    for (let i = 0; i < 3; i++) await openHistoryStore(dbPath).close();
    expect(versionRows()).toEqual(rows);
    const again = openHistoryStore(dbPath);
    try {
      expect(await again.get('a')).toStrictEqual(fullEntry('a'));
      expect((await again.list({ limit: 10, offset: 0 })).total).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('refuses a database from a newer schema with a clear error and leaves it untouched', async () => {
    // Built on a raw connection (rollback journal, not WAL) so we can tell whether open touched it.
    const future = LATEST_SCHEMA_VERSION + 1;
    withDb((db) => {
      migrate(db, dbPath, MIGRATIONS.filter((m) => m.version === 1));
      db.prepare(`INSERT INTO history (id, conversation_id, server_id, status, received_at, edited, preview,
        timings_json, events_json) VALUES ('a', 'a', 's', 'delivered', 1, 0, 'p', '{}', '[]')`).run();
      db.prepare('INSERT INTO schema_version (version, applied_at, description) VALUES (?, ?, ?)').run(future, 1, 'from the future');
    });
    const rows = versionRows();

    let error: unknown;
    try {
      openHistoryStore(dbPath);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HistorySchemaTooNewError);
    expect((error as HistorySchemaTooNewError).found).toBe(future);
    expect((error as HistorySchemaTooNewError).supported).toBe(LATEST_SCHEMA_VERSION);
    expect((error as Error).message).toMatch(new RegExp(`schema version ${future}.*only understands up to ${LATEST_SCHEMA_VERSION}`));

    expect(versionRows()).toEqual(rows);
    withDb((db) => {
      expect(db.prepare('PRAGMA journal_mode').raw().get()).toEqual(['delete']); // not even switched to WAL
      expect(db.prepare('SELECT count(*) AS n FROM history').raw().get()).toEqual([1]);
    });
  });

  it('migrate() also refuses a newer database inside its transaction (two processes racing)', async () => {
    withDb((db) => {
      migrate(db, dbPath);
      db.prepare('INSERT INTO schema_version (version, applied_at, description) VALUES (?, ?, ?)').run(LATEST_SCHEMA_VERSION + 5, 1, 'x');
      expect(() => migrate(db, dbPath)).toThrow(HistorySchemaTooNewError);
      expect(db.inTransaction).toBe(false);
    });
  });

  it('rolls back every migration of an open when one fails', async () => {
    withDb((db) => {
      const broken = [
        ...MIGRATIONS,
        {
          version: LATEST_SCHEMA_VERSION + 1,
          description: 'broken',
          up: (d: Db) => d.exec('CREATE TABLE half_done (x); SELECT * FROM no_such_table'),
        },
      ];
      expect(() => migrate(db, dbPath, broken)).toThrow(/no_such_table/);
      expect(db.inTransaction).toBe(false);
      expect(readSchemaVersion(db)).toBe(0);
      expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('history', 'half_done')`).all()).toEqual([]);
    });
  });

  it('refuses a file that is not a database without changing it', async () => {
    const junk = 'this is not a sqlite file, '.repeat(200);
    writeFileSync(dbPath, junk);
    expect(() => openHistoryStore(dbPath)).toThrow(/not a database/i);
    expect(readFileSync(dbPath, 'utf8')).toBe(junk);
  });

  it('rejects a migration list with gaps', async () => {
    withDb((db) => {
      expect(() => migrate(db, dbPath, [{ version: 2, description: 'gap', up: () => {} }])).toThrow(/expected 1/);
    });
  });
});

describe('upgrade from version 3', () => {
  it('elicitation entries get their own statuses back (from their ending event, else the reverse mapping); sampling entries are untouched', async () => {
    const elicitation = (id: string, status: HistoryEntry['status'], ending?: string): HistoryEntry =>
      ({ ...minimalEntry(id, 1_000), kind: 'elicitation', status, events: [{ at: 1_000, kind: 'received' }, ...(ending ? [{ at: 2_000, kind: ending }] : [])] }) as HistoryEntry;
    const rows = [
      elicitation('cancelled-by-person', 'rejected', 'cancelled'),
      elicitation('declined', 'rejected', 'declined'),
      elicitation('completed', 'delivered', 'completed'),
      elicitation('withdrawn', 'cancelled', 'withdrawn'),
      elicitation('no-ending-event', 'delivered'),
      elicitation('crashed', 'interrupted'),
      { ...minimalEntry('sampling', 3_000), status: 'rejected' } as HistoryEntry,
    ];
    withDb((db) => {
      migrate(db, dbPath, MIGRATIONS.filter((m) => m.version <= 3));
      const prepare = statementCache(db);
      rows.forEach((r, i) => writeEntry(prepare, { ...r, receivedAt: 1_000 + i }, 3));
    });
    const store = openHistoryStore(dbPath);
    try {
      const status = Object.fromEntries((await store.list({ limit: 20, offset: 0 })).entries.map((e) => [e.id, e.status]));
      expect(status).toEqual({
        'cancelled-by-person': 'cancelled',
        declined: 'declined',
        completed: 'completed',
        withdrawn: 'withdrawn',
        'no-ending-event': 'accepted',
        crashed: 'interrupted',
        sampling: 'rejected',
      });
      expect((await store.list({ status: ['declined'], limit: 20, offset: 0 })).entries.map((e) => e.id)).toEqual(['declined']);
    } finally {
      await store.close();
    }
  });
});

/**
 * Rows exactly as schema version 1 wrote them. Frozen on purpose: never update this to a newer
 * schema — it stands for databases already on people's disks.
 */
function writeV1Data(db: Db): void {
  const entry = fullEntry('v1-entry', 1_700_000_000_000);
  db.prepare(
    `INSERT INTO history (id, conversation_id, server_id, call_name, status, decided_by, received_at, ended_at,
       model, provider_id, edited, error, preview, original_json, sent_json, model_choice_json, generated_json,
       delivered_json, error_detail_json, usage_json, timings_json, events_json, extra_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    entry.id, entry.conversationId, entry.serverId, entry.callName, entry.status, entry.decidedBy, entry.receivedAt,
    entry.endedAt, entry.model, entry.providerId, 1, entry.error, entry.preview, JSON.stringify(entry.original),
    JSON.stringify(entry.sent), JSON.stringify(entry.modelChoice), JSON.stringify(entry.generated),
    JSON.stringify(entry.delivered), JSON.stringify(entry.errorDetail), JSON.stringify(entry.usage),
    JSON.stringify(entry.timings), JSON.stringify(entry.events), null,
  );
  db.prepare(
    `INSERT INTO history_fts (rowid, server_id, call_name, system_prompt, prompt, response)
     VALUES ((SELECT rowid FROM history WHERE id = ?), ?, ?, ?, ?, ?)`,
  ).run(entry.id, entry.serverId, entry.callName, 'Be obsequious and brief', 'Tell me about zanzibar', 'A pterodactyl flew by\nA marzipan flew by');
}

describe('upgrade from version 1', () => {
  it('a database left by version 1 opens with the current code, data intact and searchable', async () => {
    withDb((db) => {
      migrate(db, dbPath, MIGRATIONS.filter((m) => m.version <= 1));
      expect(readSchemaVersion(db)).toBe(1);
      writeV1Data(db);
    });

    const store = openHistoryStore(dbPath); // applies migrations 2..LATEST, if any
    try {
      expect(await store.get('v1-entry')).toStrictEqual(fullEntry('v1-entry', 1_700_000_000_000));
      const page = await store.list({ limit: 10, offset: 0 });
      expect(page.total).toBe(1);
      expect(page.entries[0]).toMatchObject({ id: 'v1-entry', status: 'delivered', edited: true });
      expect((await store.list({ query: 'marzipan', limit: 10, offset: 0 })).total).toBe(1);
      // The upgraded database takes new writes next to the old rows.
      store.save(fullEntry('new', 1_800_000_000_000));
      expect((await store.list({ limit: 10, offset: 0 })).entries.map((e) => e.id)).toEqual(['new', 'v1-entry']);
    } finally {
      await store.close();
    }
    expect(versionRows().map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });
});

/** One entry as a version-1 row (and its FTS row), with v1's column mapping. Frozen like writeV1Data. */
function writeV1Row(db: Db, entry: HistoryEntry, fts: { prompt: string; response?: string }): void {
  const { id, conversationId, serverId, callName, status, decidedBy, receivedAt, endedAt, model, providerId, edited, error, preview,
    original, sent, modelChoice, generated, delivered, errorDetail, usage, timings, events, ...extra } = entry;
  const j = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  db.prepare(
    `INSERT INTO history (id, conversation_id, server_id, call_name, status, decided_by, received_at, ended_at,
       model, provider_id, edited, error, preview, original_json, sent_json, model_choice_json, generated_json,
       delivered_json, error_detail_json, usage_json, timings_json, events_json, extra_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, conversationId, serverId, callName ?? null, status, decidedBy ?? null, receivedAt, endedAt ?? null, model ?? null,
    providerId ?? null, edited ? 1 : 0, error ?? null, preview, j(original), j(sent), j(modelChoice), j(generated), j(delivered),
    j(errorDetail), j(usage), JSON.stringify(timings), JSON.stringify(events), Object.keys(extra).length > 0 ? JSON.stringify(extra) : null);
  db.prepare(
    `INSERT INTO history_fts (rowid, server_id, call_name, system_prompt, prompt, response)
     VALUES ((SELECT rowid FROM history WHERE id = ?), ?, ?, '', ?, ?)`,
  ).run(id, serverId, callName ?? '', fts.prompt, fts.response ?? '');
}

describe('upgrade from version 1: many rows', () => {
  it('keeps every row, orders them by receivedAt whatever order v1 saved them in, moves media out and rebuilds the index', async () => {
    const image = Buffer.alloc(20_000, 9).toString('base64');
    const withImage: HistoryEntry = {
      ...minimalEntry('img', 3_000, 'describe the lighthouse'),
      original: { messages: [{ role: 'user', content: [{ type: 'text', text: 'describe the lighthouse' }, { type: 'image', data: image, mimeType: 'image/png' }] }], maxTokens: 9 },
      status: 'delivered',
    };
    const raw = { ...minimalEntry('raw', 1_000, 'broken'), original: 'not params', association: { exact: false }, status: 'failed' as const };
    const later = { ...minimalEntry('later', 5_000, 'a question about otters'), conversationId: 'img', status: 'rejected' as const };
    withDb((db) => {
      migrate(db, dbPath, MIGRATIONS.filter((m) => m.version <= 1));
      writeV1Row(db, later, { prompt: 'a question about otters' });
      writeV1Row(db, withImage, { prompt: 'describe the lighthouse' });
      writeV1Row(db, raw as HistoryEntry, { prompt: '' });
    });

    const store = openHistoryStore(dbPath);
    try {
      expect((await store.list({ limit: 10, offset: 0 })).entries.map((e) => e.id)).toEqual(['later', 'img', 'raw']);
      expect(await store.get('img')).toStrictEqual(withImage);
      expect(await store.get('raw')).toStrictEqual(raw);
      expect(await store.get('later')).toStrictEqual(later);
      expect((await store.list({ query: 'lighthouse', limit: 10, offset: 0 })).entries.map((e) => e.id)).toEqual(['img']);
      expect((await store.list({ query: 'otters', limit: 10, offset: 0 })).entries.map((e) => e.id)).toEqual(['later']);
      expect((await store.list({ conversationId: 'img', limit: 10, offset: 0 })).entries.map((e) => [e.id, e.sessionIndex, e.sessionSize, e.mediaBytes])).toEqual([
        ['later', 2, 2, 0],
        ['img', 1, 2, 20_000],
      ]);
    } finally {
      await store.close();
    }
    withDb((db) => {
      const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
      expect(names).toEqual(expect.arrayContaining(['blobs', 'history', 'history_blobs', 'history_data', 'history_fts', 'schema_version']));
      expect(names).not.toContain('history_v1');
      expect(db.prepare('SELECT count(*) FROM blobs').raw().get()).toEqual([1]);
      expect(String((db.prepare(`SELECT original_json FROM history_data JOIN history USING (seq) WHERE id = 'img'`).raw().get() as [string])[0])).not.toContain(image.slice(0, 100));
      expect(db.prepare('PRAGMA integrity_check').raw().get()).toEqual(['ok']);
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    });
  });
});


describe('upgrade from version 2', () => {
  it('moves kind and the deciding rule from extra_json to columns, so lists show them and filter by rule', async () => {
    const ruled: HistoryEntry = {
      ...fullEntry('ruled', 1_000),
      kind: 'sampling',
      decidedBy: 'rule',
      rule: { serverId: 'everything', ruleId: 'r-1', version: 4, name: 'Summaries are fine' },
      association: { exact: true },
    } as HistoryEntry;
    const plain = minimalEntry('plain', 2_000);
    withDb((db) => {
      migrate(db, dbPath, MIGRATIONS.filter((m) => m.version <= 2));
      const prepare = statementCache(db);
      writeEntry(prepare, ruled, 2);
      writeEntry(prepare, plain, 2);
      expect(String((db.prepare(`SELECT extra_json FROM history_data JOIN history USING (seq) WHERE id = 'ruled'`).raw().get() as [string])[0])).toContain('"ruleId":"r-1"');
    });
    const store = openHistoryStore(dbPath);
    try {
      expect(await store.get('ruled')).toStrictEqual(ruled);
      expect(await store.get('plain')).toStrictEqual(plain);
      expect((await store.list({ rule: 'r-1', limit: 10, offset: 0 })).entries).toMatchObject([{ id: 'ruled', kind: 'sampling', rule: ruled.rule }]);
    } finally {
      await store.close();
    }
    withDb((db) => {
      expect(db.prepare(`SELECT extra_json FROM history_data JOIN history USING (seq) WHERE id = 'ruled'`).raw().get()).toEqual(['{"association":{"exact":true}}']);
      expect(db.prepare(`SELECT extra_json FROM history_data JOIN history USING (seq) WHERE id = 'plain'`).raw().get()).toEqual([null]);
    });
  });
});
