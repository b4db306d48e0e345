/**
 * The policy service's budget decisions (main/policy/policy.ts) with its limits in memory (the
 * desktop) and in a team's database (main/team/policy-limits.ts, the rule book there too): the same
 * script gets the same answers — an auto approval that could pass today's token or spend limit
 * asks with used / estimate / limit, a settlement gives the estimate back and counts the actual
 * usage, console-wide limits count every server. Then the team's own case: two instances deciding
 * at once against one budget auto-approve exactly what fits, and each other request asks a person.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelPrice } from '../../shared/domain/model-prices.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { createPolicyService, type PolicyService } from '../../main/policy/policy.js';
import { silentLogger } from '../../main/ports.js';
import { createStateHub } from '../../main/state-hub.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { openTeamLimits, type TeamLimits } from '../../main/team/policy-limits.js';
import { openTeamRuleBook } from '../../main/team/policy-rules.js';
import { adminQuery, testDatabase } from '../support/postgres.js';

const NOW = Date.UTC(2026, 0, 5, 12, 0);
const FAST = { heartbeatMs: 100, leaseMs: 600, sweepMs: 100 };
const params = (text: string, maxTokens = 100): CreateMessageParams => ({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });
const item = (p: CreateMessageParams, id: string, serverId = 's'): SamplingItemView => ({
  id,
  origin: 'server',
  conversationId: id,
  round: 1,
  serverId,
  era: 'legacy',
  association: { exact: true, calls: [{ callId: 'c', kind: 'tools/call', name: 'summarise' }] },
  status: 'awaiting_request_review',
  receivedAt: NOW,
  updatedAt: NOW,
  original: p,
  model: { providerId: 'llm', modelId: 'm', reason: 'test' },
});
const approveAll = (limits?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  version: 1,
  servers: { s: { ...(limits ? { limits } : {}), rules: [{ id: 'ok', name: 'All', action: { kind: 'approve_all' } }] } },
  ...extra,
});

let db: Awaited<ReturnType<typeof testDatabase>>;
const teams: TeamDatabase[] = [];
const services: PolicyService[] = [];
const limits: TeamLimits[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  limits.splice(0);
  const opened = teams.length > 0; // the tables exist once an instance migrated the database
  await Promise.all(teams.splice(0).map((t) => t.close()));
  if (opened) await adminQuery(db.url, 'TRUNCATE team_rule_book, team_limit_rates, team_limit_days, team_limit_holds');
});
afterAll(async () => db?.drop());

/** A policy service, with its rule book and limits in memory or in the team's database. */
async function service(where: 'memory' | 'team', price: ModelPrice | null = { inputPerMTok: 1, outputPerMTok: 2 }) {
  const dir = mkdtempSync(join(tmpdir(), 'policy-'));
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: dir, serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  let team: { ruleBook: ReturnType<typeof openTeamRuleBook>; sharedLimits: TeamLimits } | undefined;
  if (where === 'team') {
    const t = await openTeamDatabase({ url: db.url, timings: FAST });
    teams.push(t);
    const shared = openTeamLimits({ db: t, now: () => NOW });
    limits.push(shared);
    team = { ruleBook: openTeamRuleBook({ db: t }), sharedLimits: shared };
  }
  const svc = createPolicyService({ dir, hub, logger: silentLogger, now: () => NOW, watch: false, priceOf: () => price ?? undefined, ...team });
  services.push(svc);
  await svc.ready;
  const decide = async (p: CreateMessageParams, id: string, serverId = 's') => svc.policy.decide({ serverId, item: item(p, id, serverId), params: p, model: item(p, id).model, now: NOW });
  const settle = async (id: string, usage: { inputTokens: number; outputTokens: number }, serverId = 's') => {
    svc.policy.settled!(serverId, { ...item(params('x'), id, serverId), status: 'delivered', auto: { rule: { serverId, ruleId: 'ok', version: 1, name: 'All' }, action: 'approve_all' }, response: { draft: { role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }, manual: false, usage, generatedAt: NOW } });
    await team?.sharedLimits.flushed();
  };
  return { svc, hub, decide, settle };
}

describe.each(['memory', 'team'] as const)('budgets with the limits in %s', (where) => {
  it('tokens per day: an auto approval that could pass the limit asks with used / estimate / limit; a settlement frees the estimate and counts the usage', async () => {
    const t = await service(where);
    await t.svc.saveRules(approveAll({ tokensPerDay: 1500 }));
    expect((await t.decide(params('a', 1000), 'first')).kind).toBe('approve_all'); // 1,001 held
    expect(await t.decide(params('b', 1000), 'second')).toMatchObject({ kind: 'ask', notes: [{ kind: 'budget', limit: 'tokens', used: 1001, estimate: 1001, max: 1500, rule: { ruleId: 'ok' } }] });
    await t.settle('first', { inputTokens: 1, outputTokens: 199 });
    expect((await t.decide(params('c', 1000), 'third')).kind).toBe('approve_all'); // 200 used + 1,001 ≤ 1,500
  });

  it('spend per day: what was spent and held plus the estimate is checked against the limit', async () => {
    const t = await service(where, { inputPerMTok: 1000, outputPerMTok: 1000 }); // $0.001 per token
    await t.svc.saveRules(approveAll({ spendPerDayUsd: 1 }));
    expect((await t.decide(params('a', 499), 'one')).kind).toBe('approve_all'); // ≈ $0.5
    const over = await t.decide(params('b', 600), 'two');
    expect(over).toMatchObject({ kind: 'ask', notes: [{ kind: 'budget', limit: 'spend', max: 1 }] });
    const note = over.notes![0] as { used: number; estimate: number };
    expect(note.used).toBeCloseTo(0.5, 6);
    expect(note.estimate).toBeCloseTo(0.601, 6);
  });

  it('console-wide tokens per day: every server counts, in the note and at admission', async () => {
    const t = await service(where);
    await t.svc.saveRules(approveAll(undefined, { global: { tokensPerDay: 1500 } }));
    expect((await t.decide(params('x'), 'o1', 'other')).kind).toBe('ask'); // no rule for it: a person decides
    await t.settle('o1', { inputTokens: 900, outputTokens: 0 }, 'other');
    expect((await t.decide(params('a', 100), 'i1')).kind).toBe('approve_all'); // 900 + 101 ≤ 1,500
    expect(await t.decide(params('b', 1000), 'i2')).toMatchObject({ kind: 'ask', notes: [{ kind: 'budget', limit: 'tokens', used: 1001, max: 1500, scope: 'console' }] });
    await t.settle('i1', { inputTokens: 300, outputTokens: 300 });
    expect(await t.decide(params('x'), 'i3')).toMatchObject({ kind: 'refuse', rule: 'limit.global.tokens', message: expect.stringContaining('the console used 1500 of 1500 tokens today (UTC)') });
    expect(await t.decide(params('x'), 'i4', 'third')).toMatchObject({ kind: 'refuse', rule: 'limit.global.tokens' });
  });

  it('the slice says where the rule book lives and its revision; counters show the day', async () => {
    const t = await service(where);
    const before = t.hub.get('policy')!;
    expect(before.source).toBe(where === 'memory' ? 'file' : 'database');
    expect(before.path).toMatch(where === 'memory' ? /rules\.json$/ : /^127\.0\.0\.1:\d+\//);
    await t.svc.saveRules(approveAll({ requestsPerMinute: 1 }), before.revision);
    await t.decide(params('a'), 'r1');
    await t.decide(params('b'), 'r2');
    await new Promise((r) => setTimeout(r, 0));
    const after = t.hub.get('policy')!;
    expect(after.revision).toBeGreaterThan(before.revision!);
    expect(after.counters.s).toMatchObject({ rateLimited: 1, waiting: 1, lastLimited: { at: NOW, message: expect.stringMatching(/^Rate limited: more than 1 requests per minute from "s"/) } });
    await expect(t.svc.saveRules(approveAll(), before.revision)).rejects.toMatchObject({ code: 'invalid_state', ui: { code: 'error.rulesChanged' } });
  });
});

describe('two instances deciding at once against one budget', () => {
  it('auto-approve exactly what fits (estimates of 101 tokens against 1,000): every other request asks a person, with the note', async () => {
    const [a, b] = [await service('team'), await service('team')];
    await a.svc.saveRules(approveAll({ tokensPerDay: 1000, maxWaiting: 100 }));
    const until = Date.now() + 10_000;
    while (b.hub.get('policy')?.rules.servers.s?.limits?.tokensPerDay !== 1000) {
      if (Date.now() > until) throw new Error('b never saw the rules');
      await new Promise((r) => setTimeout(r, 20));
    }
    const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).decide(params('x', 100), `race-${i}`)));
    expect(decisions.filter((d) => d.kind === 'approve_all')).toHaveLength(9); // 9 × 101 = 909; a tenth would make 1,010
    const asked = decisions.filter((d) => d.kind === 'ask');
    expect(asked).toHaveLength(21);
    for (const d of asked) expect(d.notes).toEqual([expect.objectContaining({ kind: 'budget', limit: 'tokens', estimate: 101, max: 1000 })]);
  });
});
