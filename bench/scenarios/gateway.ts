/**
 * What the provider gateway adds to an auto-approved call, against the gateway a team would
 * install instead. Three targets, each its own process, the same loopback OpenAI-compatible fake
 * behind them, called with the official `openai` SDK from this process:
 *
 * - direct: the fake itself (the floor);
 * - the console as `npm start` runs it (the prebuilt web host, out/web/cli.js): a named gateway
 *   token with an `approve_all` rule, limits raised, history on, a window connected
 *   (bench/gateway-rig.ts);
 * - Portkey's open-source gateway (`@portkey-ai/gateway`), pointed at the fake with its
 *   `x-portkey-provider: openai` and `x-portkey-custom-host` headers (the peer).
 *
 * Interleaved, so load on the shared machine falls on all three alike: N sequential Chat
 * Completions calls taking turns (direct, console, Portkey, the order rotating); M streamed calls
 * likewise (time to the first chunk carrying text); then 32 concurrent callers for 10 s per
 * target, in slices taking turns, with each gateway process's CPU time per call. The console's
 * own figure of its added time (`x-mcp-console-overhead-ms`) is reported too.
 * Sanity: every call answered with the fake's text; History holds one delivered entry per call
 * the console answered.
 */
import OpenAI from 'openai';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { BENCH_TOKEN_NAME, portkeyVersion, processCpuMs, startConsoleProcess, startPortkey, type GatewayUnderTest } from '../gateway-rig.js';
import { loadNote, startLoopbackLlm } from '../sampling-rig.js';

const N = Number(process.env.BENCH_GATEWAY_N ?? 500);
const STREAM_N = Number(process.env.BENCH_GATEWAY_STREAM_N ?? 200);
const CONCURRENCY = Number(process.env.BENCH_GATEWAY_CONCURRENCY ?? 32);
const DURATION_MS = Number(process.env.BENCH_GATEWAY_MS ?? 10_000);
const SLICES = 5;
const WARMUP = 50;
const FAKE_TEXT = 'Hello from the loopback server.';
const OVERHEAD_HEADER = 'x-mcp-console-overhead-ms';

type Name = 'direct' | 'console' | 'portkey';

/** One target: its client and, for a gateway, its process id. */
interface Target {
  name: Name;
  client: OpenAI;
  pid?: number;
}

const BODY = { model: 'test-model', messages: [{ role: 'user' as const, content: 'ping' }], max_tokens: 16 };

/** One plain call: its round trip (ms) and the console's overhead header, if any. @throws Error on a wrong answer */
async function plainCall(t: Target): Promise<{ ms: number; overhead?: number }> {
  const t0 = performance.now();
  const { data, response } = await t.client.chat.completions.create(BODY).withResponse();
  const ms = performance.now() - t0;
  if (data.choices[0]?.message.content !== FAKE_TEXT) throw new Error(`${t.name}: unexpected answer ${JSON.stringify(data).slice(0, 300)}`);
  const header = response.headers.get(OVERHEAD_HEADER);
  return { ms, ...(header !== null && { overhead: Number(header) }) };
}

/** One streamed call: ms to the first chunk carrying text. @throws Error when the text is not the fake's */
async function streamedCall(t: Target): Promise<number> {
  const t0 = performance.now();
  const stream = await t.client.chat.completions.create({ ...BODY, stream: true });
  let first: number | undefined;
  let text = '';
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta.content;
    if (delta) {
      first ??= performance.now() - t0;
      text += delta;
    }
  }
  if (text !== FAKE_TEXT || first === undefined) throw new Error(`${t.name}: unexpected streamed text ${JSON.stringify(text)}`);
  return first;
}

/** The targets in the order of turn `i` (rotating, so none is always first after a pause). */
const turn = <T>(targets: readonly T[], i: number): T[] => targets.map((_, k) => targets[(i + k) % targets.length]!);

/** Runs `call` `count` times per target, the targets taking turns, after a warm-up; samples per target. */
async function interleaved<R>(targets: readonly Target[], count: number, call: (t: Target) => Promise<R>): Promise<Record<Name, R[]>> {
  for (let i = 0; i < WARMUP; i++) for (const t of turn(targets, i)) await call(t);
  const out = Object.fromEntries(targets.map((t) => [t.name, [] as R[]])) as Record<Name, R[]>; // only the names of `targets`
  for (let i = 0; i < count; i++) for (const t of turn(targets, i)) out[t.name].push(await call(t));
  return out;
}

/** Calls answered, wall ms and the target's process CPU ms under {@link CONCURRENCY} callers. */
interface Load {
  calls: number;
  ms: number;
  cpuMs: number;
}

/** {@link CONCURRENCY} callers looping plain calls on `t` for `ms`. */
async function loadSlice(t: Target, ms: number): Promise<Load> {
  const cpu0 = t.pid ? processCpuMs(t.pid) : 0;
  const t0 = performance.now();
  const until = t0 + ms;
  let calls = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await plainCall(t);
        calls++;
      }
    }),
  );
  return { calls, ms: performance.now() - t0, cpuMs: t.pid ? processCpuMs(t.pid) - cpu0 : 0 };
}

/** {@link DURATION_MS} of load per target, in {@link SLICES} slices taking turns, after a warm-up (its calls in `warmup`); totals per target. */
async function concurrent(targets: readonly Target[]): Promise<Record<Name, Load & { warmup: number }>> {
  const total = Object.fromEntries(targets.map((t) => [t.name, { calls: 0, ms: 0, cpuMs: 0, warmup: 0 }])) as Record<Name, Load & { warmup: number }>;
  for (const t of targets) total[t.name].warmup = (await loadSlice(t, 500)).calls; // connections open, code hot
  for (let s = 0; s < SLICES; s++) {
    for (const t of turn(targets, s)) {
      const r = await loadSlice(t, DURATION_MS / SLICES);
      total[t.name].calls += r.calls;
      total[t.name].ms += r.ms;
      total[t.name].cpuMs += r.cpuMs;
    }
  }
  return total;
}

/**
 * The targets that answer a streamed call: Portkey 1.15.2 answers 500 to one whose host is a
 * custom OpenAI-compatible one (a TypeError on the upstream response's immutable headers), and
 * is then left out of the streamed figures.
 */
async function streams(targets: readonly Target[]): Promise<Target[]> {
  const out: Target[] = [];
  for (const t of targets) {
    try {
      await streamedCall(t);
      out.push(t);
    } catch (err) {
      if (t.name !== 'portkey') throw err;
      console.log(`  Portkey fails streamed calls (${err instanceof Error ? err.message : String(err)}): left out of the streamed figures`);
    }
  }
  return out;
}

const perSecond = (l: Load): number => (l.calls * 1000) / l.ms;

/** The figures of one run. */
function figures(plain: Record<Name, { ms: number; overhead?: number }[]>, firstChunk: Partial<Record<Name, number[]>>, load: Record<Name, Load>): Figure[] {
  const ms = (n: Name) => plain[n].map((s) => s.ms);
  const p = (n: Name, q: number) => percentile(ms(n), q);
  const f = (n: Name) => percentile(firstChunk[n] ?? [], 50);
  const overhead = plain.console.flatMap((s) => (s.overhead === undefined ? [] : [s.overhead]));
  const direct = perSecond(load.direct);
  const version = portkeyVersion();
  const load1 = loadNote();
  return [
    { id: 'gateway.direct_p50_ms', name: 'openai SDK → fake p50', value: p('direct', 50), unit: 'ms', note: `n=${N}, interleaved with the gateways` },
    { id: 'gateway.through_p50_ms', name: 'openai SDK → console → fake p50', value: p('console', 50), unit: 'ms', peer: 'gateway.direct_p50_ms', note: 'out/web/cli.js, approve_all rule, history on, a window open' },
    { id: 'gateway.portkey_p50_ms', name: `openai SDK → Portkey ${version} → fake p50`, value: p('portkey', 50), unit: 'ms', peer: 'gateway.direct_p50_ms' },
    { id: 'gateway.added_p50_ms', name: 'console added p50', value: p('console', 50) - p('direct', 50), unit: 'ms', peer: 'gateway.portkey_added_p50_ms', target: { op: '<=', value: 1 } },
    { id: 'gateway.portkey_added_p50_ms', name: 'Portkey added p50', value: p('portkey', 50) - p('direct', 50), unit: 'ms' },
    { id: 'gateway.added_p95_ms', name: 'console added p95', value: p('console', 95) - p('direct', 95), unit: 'ms', peer: 'gateway.portkey_added_p95_ms' },
    { id: 'gateway.portkey_added_p95_ms', name: 'Portkey added p95', value: p('portkey', 95) - p('direct', 95), unit: 'ms' },
    { id: 'gateway.added_p99_ms', name: 'console added p99', value: p('console', 99) - p('direct', 99), unit: 'ms', peer: 'gateway.portkey_added_p99_ms', target: { op: '<=', value: 3 }, note: load1 },
    { id: 'gateway.portkey_added_p99_ms', name: 'Portkey added p99', value: p('portkey', 99) - p('direct', 99), unit: 'ms' },
    { id: 'gateway.overhead_header_p50_ms', name: `console's own added time p50 (${OVERHEAD_HEADER})`, value: percentile(overhead, 50), unit: 'ms', note: `${overhead.length} of ${plain.console.length} answers carried it` },
    { id: 'gateway.first_chunk_direct_p50_ms', name: 'streamed: first text chunk, direct p50', value: f('direct'), unit: 'ms', note: `n=${STREAM_N}` },
    { id: 'gateway.first_chunk_added_p50_ms', name: 'streamed: first text chunk, console added p50', value: f('console') - f('direct'), unit: 'ms', peer: 'gateway.portkey_first_chunk_added_p50_ms', target: { op: '<=', value: 1 } },
    { id: 'gateway.portkey_first_chunk_added_p50_ms', name: 'streamed: first text chunk, Portkey added p50', value: f('portkey') - f('direct'), unit: 'ms', ...(!firstChunk.portkey && { note: 'Portkey answered streamed calls 500' }) },
    { id: 'gateway.direct_requests_per_s_32', name: `direct at ${CONCURRENCY} concurrent`, value: direct, unit: 'req/s', note: `${load.direct.calls} calls` },
    { id: 'gateway.requests_per_s_32', name: `console at ${CONCURRENCY} concurrent`, value: perSecond(load.console), unit: 'req/s', peer: 'gateway.portkey_requests_per_s_32', target: { op: '>=', value: 1_500 }, note: `${load.console.calls} calls` },
    { id: 'gateway.portkey_requests_per_s_32', name: `Portkey at ${CONCURRENCY} concurrent`, value: perSecond(load.portkey), unit: 'req/s', note: `${load.portkey.calls} calls` },
    { id: 'gateway.ratio_to_direct_32', name: 'console / direct', value: perSecond(load.console) / direct, unit: 'ratio', peer: 'gateway.portkey_ratio_to_direct_32', target: { op: '>=', value: 0.6 } },
    { id: 'gateway.portkey_ratio_to_direct_32', name: 'Portkey / direct', value: perSecond(load.portkey) / direct, unit: 'ratio' },
    { id: 'gateway.cpu_ms_per_call', name: `console process CPU per call at ${CONCURRENCY} concurrent`, value: load.console.cpuMs / load.console.calls, unit: 'ms', peer: 'gateway.portkey_cpu_ms_per_call', target: { op: '<=', value: 0.8 }, note: 'all its threads' },
    { id: 'gateway.portkey_cpu_ms_per_call', name: `Portkey process CPU per call at ${CONCURRENCY} concurrent`, value: load.portkey.cpuMs / load.portkey.calls, unit: 'ms', note: load1 },
  ];
}

/** Throws unless History holds `expected` delivered entries of the bench token (waits up to 10 s for the last commits). */
async function checkHistory(api: Awaited<ReturnType<typeof startConsoleProcess>>['api'], expected: number): Promise<void> {
  let total = 0;
  for (let i = 0; i < 100; i++) {
    total = (await api.listHistory({ limit: 1, offset: 0, status: ['delivered'], serverId: `gateway:${BENCH_TOKEN_NAME}` })).total;
    if (total >= expected) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (total !== expected) throw new Error(`history holds ${total} delivered entries for ${expected} calls the console answered`);
}

const clientOf = (g: { baseURL: string; apiKey: string; headers?: Record<string, string> }) =>
  new OpenAI({ baseURL: g.baseURL, apiKey: g.apiKey, maxRetries: 0, timeout: 60_000, ...(g.headers && { defaultHeaders: g.headers }) });

const scenario: Scenario = {
  name: 'gateway',
  description: `the provider gateway vs Portkey's, same fake provider, openai SDK: ${N} sequential calls and ${STREAM_N} streamed ones interleaved, then ${CONCURRENCY} concurrent callers for ${DURATION_MS / 1000} s each`,
  async run() {
    const llm = await startLoopbackLlm();
    const started: GatewayUnderTest[] = [];
    try {
      const console = await startConsoleProcess(llm.baseURL);
      started.push(console);
      const portkey = await startPortkey(llm.baseURL);
      started.push(portkey);
      const targets: Target[] = [
        { name: 'direct', client: clientOf({ baseURL: llm.baseURL, apiKey: 'k' }) },
        { name: 'console', client: clientOf(console), pid: console.pid },
        { name: 'portkey', client: clientOf(portkey), pid: portkey.pid },
      ];
      const plain = await interleaved(targets, N, plainCall);
      const streaming = await streams(targets);
      const firstChunk = await interleaved(streaming, STREAM_N, streamedCall);
      const load = await concurrent(targets);
      await checkHistory(console.api, 2 * WARMUP + 1 + N + STREAM_N + load.console.calls + load.console.warmup);
      return figures(plain, firstChunk, load);
    } finally {
      for (const s of started.reverse()) await s.stop();
      await llm.close();
    }
  },
};

export default scenario;
