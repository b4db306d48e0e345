/**
 * History search on a team server: {@link ENTRIES} entries (default 1,000,000) in a throw-away
 * PostgreSQL cluster (test/support/postgres.ts), seeded set-based (bench/pg-history-seed.ts: the
 * seeding time is reported, not part of the figure), then the same searches as the desktop's
 * `history` scenario (bench/history-search.ts) through the store's public API
 * (`openPgHistoryStore`, a page of 50 with its total). Goal: p95 over all queries ≤ 50 ms
 * (`team.search_p95_ms_1m`), read against the desktop's `p4.search_p95_ms_100k` of the same run.
 */
import { adminQuery, startPostgres } from '../../test/support/postgres.js';
import { openPgHistoryStore } from '../../main/store/pg/store.js';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { searchNote, searchSamples } from '../history-search.js';
import { seedPgHistory } from '../pg-history-seed.js';
import { loadNote } from '../sampling-rig.js';

const ENTRIES = Number(process.env.BENCH_TEAM_SEARCH_ENTRIES ?? 1_000_000);

const scenario: Scenario = {
  name: 'team-search',
  description: `team server History search over ${ENTRIES.toLocaleString('en-US')} entries in PostgreSQL, the desktop's queries`,
  async run(): Promise<Figure[]> {
    const cluster = await startPostgres();
    try {
      await adminQuery(cluster.url(), 'CREATE DATABASE bench_search');
      const url = cluster.url('bench_search');
      // Opening migrates the empty database; the rows then arrive set-based, past the store.
      await (await openPgHistoryStore({ connection: url })).close();
      const seeded = await seedPgHistory(url, ENTRIES);
      const store = await openPgHistoryStore({ connection: url });
      try {
        const total = (await store.list({ limit: 0, offset: 0 })).total;
        if (total !== ENTRIES) throw new Error(`seeded ${ENTRIES} entries but the store counts ${total}`);
        const measured = await searchSamples(store);
        const all = measured.flatMap((m) => m.samples);
        const seedNote = `seeded in ${((seeded.insertMs + seeded.vacuumMs) / 1000).toFixed(0)} s (inserts ${(seeded.insertMs / 1000).toFixed(0)} s, vacuum and statistics ${(seeded.vacuumMs / 1000).toFixed(0)} s)`;
        return [
          { id: 'team.search_seed_s', name: 'seeding (set-based inserts, vacuum, statistics)', value: (seeded.insertMs + seeded.vacuumMs) / 1000, unit: 's', note: `${ENTRIES.toLocaleString('en-US')} entries` },
          ...measured.map((m) => ({ id: `team.search_p95_ms_${m.query.id}`, name: `PostgreSQL search "${m.query.query}" p95`, value: percentile(m.samples, 95), unit: 'ms', note: searchNote(m) })),
          { id: 'team.search_p50_ms_1m', name: 'PostgreSQL full-text search p50 (all queries)', value: percentile(all, 50), unit: 'ms' },
          { id: 'team.search_p95_ms_1m', name: 'PostgreSQL full-text search p95 (all queries)', value: percentile(all, 95), unit: 'ms', peer: 'p4.search_p95_ms_100k', target: { op: '<=', value: 50 }, note: `${ENTRIES.toLocaleString('en-US')} entries; ${seedNote}; ${loadNote()}` },
        ];
      } finally {
        await store.close();
      }
    } finally {
      await cluster.destroy();
    }
  },
};

export default scenario;
