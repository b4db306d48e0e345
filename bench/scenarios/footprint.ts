/**
 * Start and footprint (scenario 4): each figure comes from a fresh child process
 * (bench/footprint-probe.ts): cold start of the headless console until the default server
 * (server-everything) is ready, and main-process RSS idle with that one server and with 10
 * servers connected. Floor: a bare SDK client (bench/footprint-floor.ts: the MCP client package
 * only) connecting to server-everything in the same kind of process. Goals: ≤ 1.5 s; ≤ 200 MB.
 *
 * Two starts per data folder: the first ever (nothing remembered: no era verdict in
 * server-eras.json, main/mcp/era-cache.ts, and an empty compile cache) and the everyday one (the
 * same folder started again, as the floor does). `p5.start_overhead_ms` is the everyday start's; `p5.first_start_overhead_ms` the first's.
 *
 * Two kinds of process, both reported: the probe prebuilt into one ES module (bench/bundle.ts,
 * the way `npm start` runs the web host from out/web/cli.js) — the goal figures — and the probe
 * under the tsx loader (`node --import tsx`, how the web host ran before), whose loader costs
 * seconds. Each start is taken `BENCH_FOOTPRINT_RUNS` times (default 3); the median is reported.
 * Sanity: the probe throws unless every server reached `ready`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundleForNode } from '../bundle.js';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { loadNote } from '../sampling-rig.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

interface Probe {
  readyMs: number;
  rssReadyMB: number;
  rssIdleMB: number;
  servers: number;
}

const RUNS = Number(process.env.BENCH_FOOTPRINT_RUNS ?? 3);

const medianRun = (runs: Probe[]): Probe => {
  const mid = percentile(runs.map((r) => r.readyMs), 50);
  return runs.find((r) => r.readyMs === mid)!;
};

/** Runs the probe (`script`: the bundle, or the source under tsx) in a new process and parses its line. @throws Error when it fails */
async function probe(script: string, ...args: string[]): Promise<Probe> {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const { stdout } = await run(process.execPath, ['--expose-gc', ...loader, script, ...args], { cwd: ROOT, timeout: 120_000 });
  const line = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as Probe;
}

/** {@link RUNS} probes one after another; the run with the median start. */
async function median(script: string, ...args: string[]): Promise<Probe> {
  const runs: Probe[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await probe(script, ...args));
  return medianRun(runs);
}

/** {@link RUNS} times: a fresh data folder started twice (first ever, then everyday); the median of each kind. */
async function starts(script: string): Promise<{ first: Probe; everyday: Probe }> {
  const first: Probe[] = [];
  const everyday: Probe[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-footprint-'));
    try {
      first.push(await probe(script, 'console', '0', dir));
      everyday.push(await probe(script, 'console', '0', dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { first: medianRun(first), everyday: medianRun(everyday) };
}

const scenario: Scenario = {
  name: 'footprint',
  description: 'cold start until the default server is ready; main-process RSS with 1 and 10 servers; vs a bare SDK client',
  async run() {
    const bundle = await bundleForNode('bench/footprint-probe.ts', 'footprint-probe');
    const floorBundle = await bundleForNode('bench/footprint-floor.ts', 'footprint-floor');
    const source = path.join(ROOT, 'bench/footprint-probe.ts');
    const floor = await median(floorBundle);
    const { first, everyday: one } = await starts(bundle);
    const ten = await probe(bundle, 'console', '10');
    const floorTsx = await median(path.join(ROOT, 'bench/footprint-floor.ts'));
    const oneTsx = await median(source, 'console', '0');
    if (ten.servers !== 10) throw new Error(`the 10-server probe connected ${ten.servers}`);
    const figures: Figure[] = [
      { id: 'p5.floor_start_ms', name: 'floor cold start', value: floor.readyMs, unit: 'ms', note: `bare SDK client + server-everything, bundled, median of ${RUNS}` },
      { id: 'p5.start_ms', name: 'console cold start', value: one.readyMs, unit: 'ms', peer: 'p5.floor_start_ms', target: { op: '<=', value: 1_500 }, note: `everyday start (era remembered), bundled like npm start; ${(one.readyMs - floor.readyMs).toFixed(0)} ms over the floor, ${loadNote()}` },
      { id: 'p5.start_overhead_ms', name: 'console start overhead', value: one.readyMs - floor.readyMs, unit: 'ms', peer: 'p5.floor_start_ms', target: { op: '<=', value: 150 }, note: 'everyday start: console ready (server connected, its tools, prompts and resources listed) minus the bare client connecting the same server' },
      { id: 'p5.first_start_ms', name: 'console first start', value: first.readyMs, unit: 'ms', peer: 'p5.floor_start_ms', target: { op: '<=', value: 1_500 }, note: 'a fresh data folder: no era remembered, empty compile cache' },
      { id: 'p5.first_start_overhead_ms', name: 'console first start overhead', value: first.readyMs - floor.readyMs, unit: 'ms', peer: 'p5.floor_start_ms', note: 'first start: console ready minus the bare client' },
      { id: 'p5.floor_start_tsx_ms', name: 'floor cold start, tsx loader', value: floorTsx.readyMs, unit: 'ms' },
      { id: 'p5.start_tsx_ms', name: 'console cold start, tsx loader', value: oneTsx.readyMs, unit: 'ms', peer: 'p5.floor_start_tsx_ms', note: `fresh data folder; ${(oneTsx.readyMs - first.readyMs).toFixed(0)} ms more than bundled` },
      { id: 'p5.floor_rss_mb', name: 'floor RSS idle', value: floor.rssIdleMB, unit: 'MB' },
      { id: 'p5.rss_mb_1_server', name: 'console RSS idle, 1 server', value: one.rssIdleMB, unit: 'MB', peer: 'p5.floor_rss_mb', target: { op: '<=', value: 200 }, note: `${(one.rssIdleMB - floor.rssIdleMB).toFixed(0)} MB vs the floor; tsx loader: ${oneTsx.rssIdleMB.toFixed(0)} MB` },
      { id: 'p5.rss_mb_10_servers', name: 'console RSS idle, 10 servers', value: ten.rssIdleMB, unit: 'MB', peer: 'p5.floor_rss_mb', target: { op: '<=', value: 200 }, note: `ready in ${ten.readyMs.toFixed(0)} ms` },
    ];
    return figures;
  },
};

export default scenario;
