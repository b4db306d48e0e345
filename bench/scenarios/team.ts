/**
 * The team server's coordination costs, on a throw-away PostgreSQL cluster (test/support/postgres.ts):
 *
 * - throughput of auto-approved gateway calls (an `approve_all` rule, limits raised, History
 *   persisted; {@link CONCURRENCY} callers at once, {@link N} calls) through one console on SQLite
 *   (the desktop), one team instance on PostgreSQL, and two instances on that database (the calls
 *   split between their gateways, total). Goals: two instances ≥ 0.8 × one on the same database;
 *   one on PostgreSQL ≥ 0.7 × one on SQLite.
 * - decision fan-out: a call held by instance A, its response reviewed on instance B; from
 *   "approve" on B until the caller at A has the answer, p50 over {@link FANOUT_N} calls. Goal ≤ 20 ms.
 *
 * Sanity: every call answered 200 with the fake's text.
 */
import { adminQuery, startPostgres } from '../../test/support/postgres.js';
import { fakeProviders, gatewayCall, itemOn, startTeamInstance, waitingCall, type TeamInstance } from '../../test/support/team.js';
import { startHarness } from '../../test/support/console-harness.js';
import { startOpenAICompatibleServer } from '../../test/fixtures/openai-compatible-server.js';
import type { RulesFile } from '../../shared/contract/rules.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { loadNote } from '../sampling-rig.js';

const N = Number(process.env.BENCH_TEAM_N ?? 400);
const CONCURRENCY = 8;
const FANOUT_N = Number(process.env.BENCH_TEAM_FANOUT_N ?? 30);

const HIGH = { requestsPerMinute: 100_000, maxWaiting: 100_000 };
/** Every call of the token named `caller` approved, no limit in the way. */
const AUTO = { version: 1, global: HIGH, servers: { 'gateway:caller': { limits: HIGH, rules: [{ id: 'team-all', name: 'all', when: {}, action: { kind: 'approve_all' } }] } } } as unknown as RulesFile;

type Gateway = Pick<TeamInstance, 'gatewayUrl' | 'token'>;

/** Calls per second of `n` calls spread over `gateways` in turn, `CONCURRENCY` at once. @throws when one is not answered 200 */
async function throughput(gateways: readonly Gateway[], n: number): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const res = await gatewayCall(gateways[next++ % gateways.length]!, 'ping');
      const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
      if (res.status !== 200 || !body.choices?.[0]?.message?.content) throw new Error(`call answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return n / ((performance.now() - t0) / 1000);
}

/** Warms the gateways, then measures. */
async function measure(gateways: readonly Gateway[]): Promise<number> {
  await throughput(gateways, 40);
  return throughput(gateways, N);
}

/** From approving the response on B to the caller at A answered, per call, in ms. */
async function fanout(a: TeamInstance, b: TeamInstance): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < FANOUT_N + 3; i++) {
    const answer = gatewayCall(a, `fan-out ${i}`);
    const held = await waitingCall(b);
    await b.service.approveRequest({ itemId: held.id, version: held.contentVersion!, params: held.original, model: { providerId: 'llm', modelId: 'test-model' } });
    const review = (await itemOn(b, held.id, (it) => it.status === 'awaiting_response_review' && it.contentVersion !== undefined, 'the response on B')) as SamplingItemView;
    const t0 = performance.now();
    await b.service.approveResponse({ itemId: held.id, version: review.contentVersion!, result: review.response!.draft });
    const res = await answer;
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`the caller at A got ${res.status}`);
    await res.arrayBuffer();
    if (i >= 3) samples.push(ms); // the first ones warm up
    await b.service.dismissItem({ itemId: held.id });
  }
  return samples;
}

const scenario: Scenario = {
  name: 'team',
  description: `team server: auto-approved gateway calls/s (${N} calls, ${CONCURRENCY} at once) on SQLite, one and two instances on PostgreSQL; approve on B → caller at A answered`,
  async run() {
    const llm = await startOpenAICompatibleServer();
    const cluster = await startPostgres();
    const started: Array<{ dispose(): Promise<void> }> = [];
    try {
      await adminQuery(cluster.url(), 'CREATE DATABASE bench_team');
      const url = cluster.url('bench_team');
      const providers = fakeProviders(llm.baseURL);

      const desk = await startHarness({ servers: {}, providers });
      started.push(desk);
      const { token } = await desk.service.createGatewayToken({ name: 'caller' });
      await desk.service.saveRules({ rules: AUTO });
      const deskUrl = (await desk.state()).gateway?.url;
      if (!deskUrl) throw new Error('the gateway is not listening');
      const sqlite = await measure([{ gatewayUrl: deskUrl, token }]);

      const a = await startTeamInstance(url, providers);
      started.push(a);
      await a.service.saveRules({ rules: AUTO });
      const one = await measure([a]);
      const b = await startTeamInstance(url, providers);
      started.push(b);
      await b.service.saveRules({ rules: AUTO });
      const two = await measure([a, b]);

      // Reviewed calls for the fan-out: no rule.
      const none = { version: 1, servers: {} } as unknown as RulesFile;
      for (const on of [a, b]) await on.service.saveRules({ rules: none });
      const fan = await fanout(a, b);

      const figures: Figure[] = [
        { id: 'team.sqlite_requests_per_s', name: 'auto-approved calls/s, one console on SQLite', value: sqlite, unit: 'req/s', note: `${N} calls, ${CONCURRENCY} at once` },
        { id: 'team.pg_one_requests_per_s', name: 'auto-approved calls/s, one instance on PostgreSQL', value: one, unit: 'req/s', peer: 'team.sqlite_requests_per_s', target: { op: '>=', value: 0.7 * sqlite } },
        { id: 'team.requests_per_s', name: 'auto-approved calls/s, two instances on one database (total)', value: two, unit: 'req/s', peer: 'team.pg_one_requests_per_s', target: { op: '>=', value: 0.8 * one } },
        { id: 'team.decision_fanout_p50_ms', name: 'approve on B → caller at A answered p50', value: percentile(fan, 50), unit: 'ms', target: { op: '<=', value: 20 }, note: `n=${fan.length}; p95 ${percentile(fan, 95).toFixed(1)} ms; ${loadNote()}` },
      ];
      return figures;
    } finally {
      for (const s of started.reverse()) await s.dispose().catch(() => undefined);
      await cluster.destroy();
      await llm.close();
    }
  },
};

export default scenario;
