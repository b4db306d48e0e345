/**
 * The history store's contract (main/store/history-api.ts) as one test suite every
 * implementation passes: `describeHistoryStore(name, open)` registers it for a store that `open`
 * makes fresh for each test (SQLite in test/store/history-store.test.ts, PostgreSQL in
 * test/store/pg/history-store.test.ts). What only one implementation does (files, pragmas, query
 * plans, reconnecting) is tested beside it, not here.
 */
import { afterEach, beforeEach, describe } from 'vitest';
import type { HistoryStore } from '../../../main/store/history-api.js';
import { describeEntries } from './entries.js';
import { describeMaintenance } from './maintenance.js';
import { describeSearch } from './search.js';
import { describeWrites } from './writes.js';

/** A fresh store for one test, and what the contract needs around it. */
export interface StoreUnderTest {
  store: HistoryStore;
  /** Another store on the same database (another process, or another instance of a team server). */
  another(): Promise<HistoryStore>;
  /** Closes `store` and opens the same database again (a restart). */
  reopen(): Promise<HistoryStore>;
  /** Closes every store it opened and removes the database. */
  cleanup(): Promise<void>;
}

/** Makes a fresh, empty store for one test. */
export type OpenStore = () => Promise<StoreUnderTest>;

/** What each part of the suite gets: the store of the current test, and its test bed. */
export interface Bed {
  store: HistoryStore;
  t: StoreUnderTest;
}

/**
 * Registers the contract suite for one implementation: each test gets a fresh store from `open`,
 * cleaned up after it.
 */
export function describeHistoryStore(name: string, open: OpenStore): void {
  describe(`history store contract: ${name}`, () => {
    const bed = {} as Bed;
    beforeEach(async () => {
      bed.t = await open();
      bed.store = bed.t.store;
    });
    afterEach(async () => {
      await bed.t.cleanup();
    });
    describeEntries(bed);
    describeSearch(bed);
    describeMaintenance(bed);
    describeWrites(bed);
  });
}

/** Ids of a list page and its total. */
export async function page(store: HistoryStore, opts: Parameters<HistoryStore['list']>[0]): Promise<{ ids: string[]; total: number }> {
  const p = await store.list(opts);
  return { ids: p.entries.map((e) => e.id), total: p.total };
}

/** Ids of the entries a search returns, and the total it reports. */
export function search(store: HistoryStore, query: string, limit = 50, offset = 0): Promise<{ ids: string[]; total: number }> {
  return page(store, { query, limit, offset });
}
