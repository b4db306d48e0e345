/**
 * Profiling helper (not a scenario): runs the latency or throughput workload of the sampling rig
 * once in this process, so `node --cpu-prof --import tsx bench/profile-sampling.ts` profiles the
 * console alone (the bench server and the loopback provider run in their own processes).
 * Args: `sequence N` (default 2000) or `loop MS` (8 concurrent loops for MS ms). Prints the
 * console's CPU per request (ms) and requests/s.
 */
import { benchServerConfig } from '../test/fixtures/bench-sampling-server.js';
import { checkReport, consoleCall, loadNote, startBenchConsole, startLoopbackLlm } from './sampling-rig.js';

const mode = process.argv[2] === 'loop' ? 'loop' : 'sequence';
const knob = Number(process.argv[3] ?? (mode === 'loop' ? 5_000 : 2_000));

const llm = await startLoopbackLlm();
const c = await startBenchConsole({ bench: benchServerConfig() }, llm.baseURL);
try {
  await c.ready;
  checkReport('warm-up', await consoleCall(c, 'bench', 'sequence', { count: 100 }), 100);
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const reports = mode === 'sequence'
    ? [await consoleCall(c, 'bench', 'sequence', { count: knob })]
    : await Promise.all(Array.from({ length: 8 }, () => consoleCall(c, 'bench', 'loop', { durationMs: knob })));
  const cpu = process.cpuUsage(cpu0);
  const answered = reports.reduce((n, r) => n + r.answered, 0);
  reports.forEach((r) => checkReport(mode, r));
  const lat = reports[0]!.latenciesMs?.slice().sort((a, b) => a - b);
  const seconds = (performance.now() - t) / 1000;
  console.log(JSON.stringify({
    mode, answered, perSecond: Math.round(answered / seconds),
    cpuMsPerRequest: +((cpu.user + cpu.system) / 1000 / answered).toFixed(3),
    ...(lat && { p50: +lat[Math.floor(lat.length / 2)]!.toFixed(2), p99: +lat[Math.floor(lat.length * 0.99)]!.toFixed(2) }),
    load: loadNote(),
  }));
} finally {
  await c.close();
  await llm.close();
}
