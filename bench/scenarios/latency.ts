/**
 * Added latency per auto-approved request (scenario 1): the bench fixture server sends N
 * sampling requests one after another from one tool call and times each round trip at its side.
 * Console: createConsole, a rule that approves request and response (`approve_all`), a loopback
 * OpenAI-compatible provider that answers at once (own process), history on. Floor: a bare SDK
 * client calling the same provider (one AI SDK `generateText` per request, sampling-rig.ts); also
 * timed: the MCP round trip alone (a client answering a canned result). Goals: ≤ +1 ms p50,
 * ≤ +5 ms p99. The console has a window (sampling-rig.ts): the state events it is sent per request
 * are `p1.window_bytes_per_request`.
 * Sanity: every request answered, no errors, and history holds one delivered entry per request.
 */
import { benchServerConfig, type BenchReport } from '../../test/fixtures/bench-sampling-server.js';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { checkReport, consoleCall, loadNote, startBenchConsole, startFloorClient, startLoopbackLlm } from '../sampling-rig.js';

const N = Number(process.env.BENCH_LATENCY_N ?? 1_000);
const WARMUP = 50;

/** Runs warm-up + N requests and returns the N timed round trips. */
async function measure(who: string, call: (args: Record<string, unknown>) => Promise<BenchReport>): Promise<number[]> {
  checkReport(`${who} warm-up`, await call({ count: WARMUP }), WARMUP);
  const r = await call({ count: N });
  checkReport(who, r, N);
  if (r.latenciesMs?.length !== N) throw new Error(`${who}: ${r.latenciesMs?.length} latencies for ${N} requests`);
  return r.latenciesMs;
}

/** Round trips (ms) and this process's CPU per request (ms) of one timed run; the console's window's state bytes per request. */
interface Timed {
  ms: number[];
  cpuMs: number;
  windowBytes?: number;
}

/** Runs {@link measure} and the CPU this process spent meanwhile, per request. */
async function timed(who: string, call: (args: Record<string, unknown>) => Promise<BenchReport>): Promise<Timed> {
  const cpu0 = process.cpuUsage();
  const ms = await measure(who, call);
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 / (N + WARMUP) };
}

/** A bare client on a fresh bench server: answering a canned result, or (with `baseURL`) calling that provider. */
async function floorRun(who: string, baseURL?: string): Promise<Timed> {
  const floor = await startFloorClient(benchServerConfig(), baseURL);
  try {
    return await timed(who, (a) => floor.call('sequence', a));
  } finally {
    await floor.close();
  }
}

/** The console with an approve_all rule and `baseURL` as its provider; checks history holds every request. */
async function consoleRun(baseURL: string): Promise<Timed> {
  const c = await startBenchConsole({ bench: benchServerConfig() }, baseURL);
  try {
    await c.ready;
    const bytes0 = c.windowBytes();
    const run = await timed('console', (a) => consoleCall(c, 'bench', 'sequence', a));
    run.windowBytes = (c.windowBytes() - bytes0) / (N + WARMUP);
    let total = 0;
    for (let i = 0; i < 50; i++) {
      total = (await c.service.listHistory({ limit: 1, offset: 0, status: ['delivered'] })).total;
      if (total >= N + WARMUP) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (total !== N + WARMUP) throw new Error(`history holds ${total} delivered entries for ${N + WARMUP} requests`);
    return run;
  } finally {
    await c.close();
  }
}

/** The figures of the three runs. */
function figures(canned: Timed, floor: Timed, console: Timed): Figure[] {
  const load = loadNote();
  const [f50, f99, c50, c99] = [percentile(floor.ms, 50), percentile(floor.ms, 99), percentile(console.ms, 50), percentile(console.ms, 99)];
  return [
    { id: 'p1.floor_p50_ms', name: 'floor p50', value: f50, unit: 'ms', note: `bare SDK client calling the same provider, n=${N}` },
    { id: 'p1.floor_p99_ms', name: 'floor p99', value: f99, unit: 'ms' },
    { id: 'p1.console_p50_ms', name: 'console p50', value: c50, unit: 'ms', peer: 'p1.floor_p50_ms', note: 'approve_all rule, loopback provider, history on' },
    { id: 'p1.console_p99_ms', name: 'console p99', value: c99, unit: 'ms', peer: 'p1.floor_p99_ms' },
    { id: 'p1.added_p50_ms', name: 'added p50', value: c50 - f50, unit: 'ms', peer: 'p1.floor_p50_ms', target: { op: '<=', value: 1 }, note: `×${(c50 / f50).toFixed(1)} the floor` },
    { id: 'p1.added_p99_ms', name: 'added p99', value: c99 - f99, unit: 'ms', peer: 'p1.floor_p99_ms', target: { op: '<=', value: 5 }, note: load },
    { id: 'p1.cpu_ms_per_request', name: 'console CPU per request', value: console.cpuMs, unit: 'ms', peer: 'p1.floor_cpu_ms_per_request', target: { op: '<=', value: 1 }, note: 'this process (console, its threads, its window\'s events serialised), not the server or provider' },
    { id: 'p1.window_bytes_per_request', name: 'state events to a window per request', value: console.windowBytes ?? 0, unit: 'B', note: `JSON, ${N + WARMUP} requests of one tool call` },
    { id: 'p1.floor_cpu_ms_per_request', name: 'floor CPU per request', value: floor.cpuMs, unit: 'ms', note: 'the bare client: MCP SDK + one AI SDK call' },
    { id: 'p1.mcp_round_trip_p50_ms', name: 'MCP round trip alone p50', value: percentile(canned.ms, 50), unit: 'ms', note: 'a bare client answering a canned result, no provider' },
  ];
}

const scenario: Scenario = {
  name: 'latency',
  description: `added latency per auto-approved request, ${N} sequential requests over stdio, console vs bare SDK client`,
  async run() {
    const canned = await floorRun('MCP round trip');
    const llm = await startLoopbackLlm();
    try {
      const floor = await floorRun('floor', llm.baseURL);
      return figures(canned, floor, await consoleRun(llm.baseURL));
    } finally {
      await llm.close();
    }
  },
};

export default scenario;
