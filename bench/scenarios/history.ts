/**
 * History at scale: seeds 100,000 sessions (≈ 140,000 entries) into a fresh store on disk, in
 * transactions of 1,000 entries, then measures what a person waits for: a full-text search page
 * (list + total, as the History screen asks) for several kinds of query, and opening a detail view
 * (the entry plus its session's timeline). Targets: search p95 ≤ 50 ms, detail ≤ 20 ms.
 * Also reports single-entry saves (one transaction each, as the pipeline saves) and the file size.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHistoryStore, type HistoryStore } from '../../main/store/history-store.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { historyCorpus, rng } from '../history-corpus.js';
import { searchNote, searchSamples } from '../history-search.js';

const SESSIONS = Number(process.env.BENCH_HISTORY_SESSIONS ?? 100_000);
const BATCH = 1_000;
const DETAIL_RUNS = 400;

function time<T>(fn: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

/** {@link time} for a read: until its promise settles. */
async function timeRead<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

function seed(store: HistoryStore): { entries: number; ms: number; ids: string[] } {
  const corpus = historyCorpus(7);
  const ids: string[] = [];
  let batch: HistoryEntry[] = [];
  let ms = 0;
  let entries = 0;
  const flush = () => {
    ms += time(() => store.saveMany(batch)).ms;
    entries += batch.length;
    batch = [];
  };
  for (let s = 0; s < SESSIONS; s++) {
    for (const e of corpus.session()) {
      batch.push(e);
      if (ids.length < 50_000 || s % 7 === 0) ids.push(e.id);
    }
    if (batch.length >= BATCH) flush();
  }
  if (batch.length > 0) flush();
  return { entries, ms, ids };
}

/** Single saves as the pipeline makes them: committed on return, then durable. */
async function saveFigures(store: HistoryStore): Promise<Figure[]> {
  // As the pipeline saves: one transaction, committed on return; `durable()` then resolves at
  // once (the WAL's fsync follows in the background, unawaited).
  const singles: number[] = [];
  const durables: number[] = [];
  for (let i = 0; i < 100; i++) {
    const e = historyCorpus(99 + i).session()[0]!;
    const t0 = performance.now();
    store.save({ ...e, id: `single-${i}`, conversationId: `single-${i}` });
    singles.push(performance.now() - t0);
    await store.durable();
    durables.push(performance.now() - t0);
  }
  return [
    { id: 'p4.save_p50_ms', name: 'single save p50 (1 transaction, committed)', value: percentile(singles, 50), unit: 'ms' },
    { id: 'p4.save_durable_p50_ms', name: 'single save until durable p50 (committed; its fsync follows in the background)', value: percentile(durables, 50), unit: 'ms' },
  ];
}

/** A search page for each of bench/history-search.ts's queries (p95 each), then p50 and p95 over all of them. */
async function searchFigures(store: HistoryStore): Promise<Figure[]> {
  const measured = await searchSamples(store);
  const all = measured.flatMap((m) => m.samples);
  return [
    ...measured.map((m) => ({ id: `p4.search_p95_ms_${m.query.id}`, name: `search "${m.query.query}" p95`, value: percentile(m.samples, 95), unit: 'ms', note: searchNote(m) })),
    { id: 'p4.search_p50_ms_100k', name: 'full-text search p50 (all queries)', value: percentile(all, 50), unit: 'ms' },
    { id: 'p4.search_p95_ms_100k', name: 'full-text search p95 (all queries)', value: percentile(all, 95), unit: 'ms', target: { op: '<=', value: 50 } },
  ];
}

/** The worst of five unfiltered list pages, from the first to deep offsets. */
async function pageFigure(store: HistoryStore): Promise<Figure> {
  const pageSamples: number[] = [];
  for (const offset of [0, 50, 5_000, 70_000, 130_000]) pageSamples.push((await timeRead(() => store.list({ limit: 50, offset }))).ms);
  return { id: 'p4.list_page_max_ms', name: 'list page, no filter, worst of 5 offsets', value: Math.max(...pageSamples), unit: 'ms', note: 'offsets 0…130,000' };
}

/** Opening entries drawn from `ids`: the entry alone, and the entry plus its session's timeline. */
async function detailFigures(store: HistoryStore, ids: string[]): Promise<Figure[]> {
  const pick = rng(3);
  const gets: number[] = [];
  const details: number[] = [];
  for (let i = 0; i < DETAIL_RUNS; i++) {
    const id = ids[Math.floor(pick() * ids.length)]!;
    const got = await timeRead(() => store.get(id));
    if (!got.value) throw new Error(`entry ${id} is missing`);
    gets.push(got.ms);
    const conv = got.value.conversationId;
    details.push(got.ms + (await timeRead(() => store.list({ conversationId: conv, limit: 50, offset: 0 }))).ms);
  }
  return [
    { id: 'p4.get_p50_ms', name: 'get entry p50', value: percentile(gets, 50), unit: 'ms' },
    { id: 'p4.get_p95_ms', name: 'get entry p95', value: percentile(gets, 95), unit: 'ms' },
    { id: 'p4.detail_p50_ms', name: 'detail open p50 (entry + session timeline)', value: percentile(details, 50), unit: 'ms' },
    { id: 'p4.detail_p95_ms', name: 'detail open p95 (entry + session timeline)', value: percentile(details, 95), unit: 'ms', target: { op: '<=', value: 20 } },
  ];
}

const scenario: Scenario = {
  name: 'history',
  description: `history store with ${SESSIONS.toLocaleString('en-US')} sessions: insert, full-text search, detail open`,
  async run(): Promise<Figure[]> {
    const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
    const path = join(dir, 'history.db');
    let store = openHistoryStore(path);
    try {
      const seeded = seed(store);
      const total = (await store.list({ limit: 0, offset: 0 })).total;
      if (total !== seeded.entries) throw new Error(`seeded ${seeded.entries} entries but the store counts ${total}`);
      // Re-open, as a person would after a restart: statistics from `optimize`, cold statement cache.
      await store.close();
      store = openHistoryStore(path);
      const figures: Figure[] = [
        { id: 'p4.insert_per_s', name: 'insert throughput', value: (seeded.entries / seeded.ms) * 1000, unit: 'entries/s', note: `${seeded.entries.toLocaleString('en-US')} entries, ${BATCH} per transaction` },
      ];
      figures.push(...(await saveFigures(store)));
      figures.push(...(await searchFigures(store)));
      figures.push(await pageFigure(store));
      figures.push(...(await detailFigures(store, seeded.ids)));

      const statsMs = (await timeRead(() => store.stats({}))).ms;
      figures.push({ id: 'p4.counters_ms', name: 'per-server counters, all time', value: statsMs, unit: 'ms' });
      await store.close();
      const size = statSync(path).size + (statSafe(`${path}-wal`) ?? 0);
      figures.push({ id: 'p4.db_mb', name: 'database size', value: size / 2 ** 20, unit: 'MB' });
      return figures;
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

function statSafe(p: string): number | undefined {
  try {
    return statSync(p).size;
  } catch {
    return undefined;
  }
}

export default scenario;
