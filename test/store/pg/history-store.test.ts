/**
 * The PostgreSQL history store (a team's): the contract every store passes
 * (test/store/contract/), against a real PostgreSQL (test/support/postgres.ts): one database for
 * this file, its tables emptied before each test.
 */
import { afterAll } from 'vitest';
import type { HistoryStore } from '../../../main/store/history-api.js';
import { openPgHistoryStore } from '../../../main/store/pg/store.js';
import { adminQuery, testDatabase } from '../../support/postgres.js';
import { describeHistoryStore, type StoreUnderTest } from '../contract/history-store-contract.js';
import { HISTORY_TABLES } from './tables.js';

let database: ReturnType<typeof testDatabase> | undefined;
afterAll(async () => (await database)?.drop());

/** A fresh PostgreSQL store: this file's database (migrated once), emptied before the store opens. */
async function openPgUnderTest(): Promise<StoreUnderTest> {
  database ??= testDatabase().then(async (db) => (await (await openPgHistoryStore({ connection: db.url })).close(), db));
  const { url } = await database;
  await adminQuery(url, `TRUNCATE ${HISTORY_TABLES} RESTART IDENTITY`);
  const opened: HistoryStore[] = [];
  const open = async () => {
    const s = await openPgHistoryStore({ connection: url, maxConnections: 4, blobGraceMs: 0 });
    opened.push(s);
    return s;
  };
  const first = await open();
  const t: StoreUnderTest = {
    store: first,
    another: open,
    async reopen() {
      await t.store.close();
      t.store = await open();
      return t.store;
    },
    async cleanup() {
      for (const s of opened) await s.close();
    },
  };
  return t;
}

describeHistoryStore('PostgreSQL', openPgUnderTest);
