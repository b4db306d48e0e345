/**
 * Throughput (scenario 2): 10 bench fixture servers, one tool call on each sending sampling
 * requests one after another for 10 s; requests/s through the console (approve_all rule, loopback
 * provider in its own process, history persisted, limits raised) vs the floor: 10 bare SDK
 * clients, one per server, each calling the same provider (sampling-rig.ts). Goal: ≥ 2,000
 * requests/s with history, on a 2-core machine.
 * Sanity: no request fails, and history holds one delivered entry per answered request.
 */
import { benchServerConfig, type BenchReport } from '../../test/fixtures/bench-sampling-server.js';
import type { Figure, Scenario } from '../figures.js';
import { checkReport, consoleCall, loadNote, startBenchConsole, startFloorClient, startLoopbackLlm } from '../sampling-rig.js';

const SERVERS = Number(process.env.BENCH_THROUGHPUT_SERVERS ?? 10);
const DURATION_MS = Number(process.env.BENCH_THROUGHPUT_MS ?? 10_000);

/** Runs one loop per server at once (`call(i, args)` on server i) and returns requests/s and the total answered. */
async function measure(who: string, call: (server: number, args: Record<string, unknown>) => Promise<BenchReport>): Promise<{ perSecond: number; answered: number; cpuMs: number }> {
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const reports = await Promise.all(Array.from({ length: SERVERS }, (_, i) => call(i, { durationMs: DURATION_MS })));
  const seconds = (performance.now() - t) / 1000;
  reports.forEach((r, i) => checkReport(`${who} loop ${i}`, r));
  const answered = reports.reduce((a, r) => a + r.answered, 0);
  const cpu = process.cpuUsage(cpu0);
  // The loops stop sending at DURATION_MS; the wall time also holds the calls' own start and end.
  return { perSecond: answered / Math.max(seconds, DURATION_MS / 1000), answered, cpuMs: (cpu.user + cpu.system) / 1000 / Math.max(1, answered) };
}

const scenario: Scenario = {
  name: 'throughput',
  description: `${SERVERS} servers, one tool call each looping sampling requests for ${DURATION_MS / 1000} s, console vs bare SDK clients calling the same provider`,
  async run() {
    const llm = await startLoopbackLlm();
    let f: { perSecond: number; answered: number; cpuMs: number };
    let k: { perSecond: number; answered: number; cpuMs: number };
    try {
      const floors = await Promise.all(Array.from({ length: SERVERS }, () => startFloorClient(benchServerConfig(), llm.baseURL)));
      try {
        f = await measure('floor', (i, a) => floors[i]!.call('loop', a));
      } finally {
        await Promise.all(floors.map((x) => x.close()));
      }
    } catch (err) {
      await llm.close();
      throw err;
    }
    const ids = Array.from({ length: SERVERS }, (_, i) => `bench${i}`);
    const c = await startBenchConsole(Object.fromEntries(ids.map((id) => [id, benchServerConfig()])), llm.baseURL);
    try {
      await c.ready;
      k = await measure('console', (i, a) => consoleCall(c, ids[i]!, 'loop', a, DURATION_MS + 300_000));
      let total = 0;
      for (let i = 0; i < 100; i++) {
        total = (await c.service.listHistory({ limit: 1, offset: 0, status: ['delivered'] })).total;
        if (total >= k.answered) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (total !== k.answered) throw new Error(`history holds ${total} delivered entries for ${k.answered} answered requests`);
    } finally {
      await c.close();
      await llm.close();
    }
    const figures: Figure[] = [
      { id: 'p2.floor_requests_per_s', name: 'floor', value: f.perSecond, unit: 'req/s', note: `bare SDK clients calling the same provider, ${f.answered} requests` },
      { id: 'p2.requests_per_s', name: 'console', value: k.perSecond, unit: 'req/s', peer: 'p2.floor_requests_per_s', target: { op: '>=', value: 2_000 }, note: `${SERVERS} servers, history persisted, ${k.answered} requests` },
      { id: 'p2.ratio_to_floor', name: 'console / floor', value: k.perSecond / f.perSecond, unit: 'ratio', note: loadNote() },
      { id: 'p2.cpu_ms_per_request', name: 'console CPU per request', value: k.cpuMs, unit: 'ms', note: `this process; the floor client: ${f.cpuMs.toFixed(2)} ms` },
    ];
    return figures;
  },
};

export default scenario;
