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
import { fullEntry, tempDir } from './fixtures/entries.js';

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
  it('numbers migrations 1, 2, 3, … with the last as the latest version', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_m, i) => i + 1));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('records every applied migration when a new database is created', () => {
    const before = Date.now();
    openHistoryStore(dbPath).close();
    const rows = versionRows();
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    for (const r of rows) {
      expect(r.applied_at).toBeGreaterThanOrEqual(before);
      expect(r.description).not.toBe('');
    }
  });

  it('re-opening is idempotent: nothing re-applied, data kept', () => {
    const store = openHistoryStore(dbPath);
    store.save(fullEntry('a'));
    store.close();
    const rows = versionRows();
    for (let i = 0; i < 3; i++) openHistoryStore(dbPath).close();
    expect(versionRows()).toEqual(rows);
    const again = openHistoryStore(dbPath);
    try {
      expect(again.get('a')).toStrictEqual(fullEntry('a'));
      expect(again.list({ limit: 10, offset: 0 }).total).toBe(1);
    } finally {
      again.close();
    }
  });

  it('refuses a database from a newer schema with a clear error and leaves it untouched', () => {
    // Built on a raw connection (rollback journal, not WAL) so we can tell whether open touched it.
    const future = LATEST_SCHEMA_VERSION + 1;
    withDb((db) => {
      migrate(db, dbPath);
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

  it('migrate() also refuses a newer database inside its transaction (two processes racing)', () => {
    withDb((db) => {
      migrate(db, dbPath);
      db.prepare('INSERT INTO schema_version (version, applied_at, description) VALUES (?, ?, ?)').run(LATEST_SCHEMA_VERSION + 5, 1, 'x');
      expect(() => migrate(db, dbPath)).toThrow(HistorySchemaTooNewError);
      expect(db.inTransaction).toBe(false);
    });
  });

  it('rolls back every migration of an open when one fails', () => {
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

  it('refuses a file that is not a database without changing it', () => {
    const junk = 'this is not a sqlite file, '.repeat(200);
    writeFileSync(dbPath, junk);
    expect(() => openHistoryStore(dbPath)).toThrow(/not a database/i);
    expect(readFileSync(dbPath, 'utf8')).toBe(junk);
  });

  it('rejects a migration list with gaps', () => {
    withDb((db) => {
      expect(() => migrate(db, dbPath, [{ version: 2, description: 'gap', up: () => {} }])).toThrow(/expected 1/);
    });
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
  it('a database left by version 1 opens with the current code, data intact and searchable', () => {
    withDb((db) => {
      migrate(db, dbPath, MIGRATIONS.filter((m) => m.version <= 1));
      expect(readSchemaVersion(db)).toBe(1);
      writeV1Data(db);
    });

    const store = openHistoryStore(dbPath); // applies migrations 2..LATEST, if any
    try {
      expect(store.get('v1-entry')).toStrictEqual(fullEntry('v1-entry', 1_700_000_000_000));
      const page = store.list({ limit: 10, offset: 0 });
      expect(page.total).toBe(1);
      expect(page.entries[0]).toMatchObject({ id: 'v1-entry', status: 'delivered', edited: true });
      expect(store.list({ query: 'marzipan', limit: 10, offset: 0 }).total).toBe(1);
      // The upgraded database takes new writes next to the old rows.
      store.save(fullEntry('new', 1_800_000_000_000));
      expect(store.list({ limit: 10, offset: 0 }).entries.map((e) => e.id)).toEqual(['new', 'v1-entry']);
    } finally {
      store.close();
    }
    expect(versionRows().map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });
});
