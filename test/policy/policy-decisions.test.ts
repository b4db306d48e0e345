/**
 * The policy service's decisions beyond the engine (main/policy/decide.ts, policy.ts): notes the
 * person sees when auto-approval is held back (paused, redacted, budget, no price), estimates,
 * reservations against the day's limits, the elicitation policy, today's totals seeded from
 * history rows, and the history scrubber running the detectors once per entry.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSensitive, type DetectOptions } from '../../shared/domain/sensitive-data.js';
import type { ModelPrice } from '../../shared/domain/model-prices.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { HistoryEntry, SamplingItemView } from '../../shared/contract/state.js';
import { createDetectCache } from '../../main/policy/detect-cache.js';
import { createHistoryScrubber } from '../../main/policy/history-scrub.js';
import { createPolicyService, dayUsageOf } from '../../main/policy/policy.js';
import { silentLogger } from '../../main/ports.js';
import { createStateHub } from '../../main/state-hub.js';
import type { UsageRow } from '../../main/store/usage.js';

const NOW = Date.UTC(2026, 0, 5, 12, 0);
const params = (text: string, maxTokens = 100): CreateMessageParams => ({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });
const item = (p: CreateMessageParams, id = 'i1'): SamplingItemView => ({
  id,
  origin: 'server',
  conversationId: id,
  round: 1,
  serverId: 's',
  era: 'legacy',
  association: { exact: true, calls: [{ callId: 'c', kind: 'tools/call', name: 'summarise' }] },
  status: 'awaiting_request_review',
  receivedAt: NOW,
  updatedAt: NOW,
  original: p,
  model: { providerId: 'llm', modelId: 'm', reason: 'test' },
});

/** $1 per million input and $2 per million output tokens unless told otherwise. */
function setup(opts: { price?: ModelPrice | null; usage?: UsageRow[] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'policy-'));
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: dir, serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const price = opts.price === null ? undefined : (opts.price ?? { inputPerMTok: 1, outputPerMTok: 2 });
  const svc = createPolicyService({ dir, hub, logger: silentLogger, now: () => NOW, watch: false, priceOf: () => price, ...(opts.usage ? { usageSince: () => opts.usage! } : {}) });
  const decide = (p: CreateMessageParams, id = 'i1') => svc.policy.decide({ serverId: 's', item: item(p, id), params: p, model: item(p).model, now: NOW });
  const settle = (id: string, usage: { inputTokens: number; outputTokens: number }, auto = true) =>
    svc.policy.settled!('s', { ...item(params('x'), id), status: 'delivered', ...(auto ? { auto: { rule: { serverId: 's', ruleId: 'ok', version: 1, name: 'All' }, action: 'approve_all' as const } } : {}), response: { draft: { role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }, manual: false, usage, generatedAt: NOW } });
  return { svc, hub, decide, settle };
}
const tick = () => new Promise((r) => setTimeout(r, 0));
const approveAll = (limits?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  version: 1,
  servers: { s: { ...(limits ? { limits } : {}), rules: [{ id: 'ok', name: 'All', action: { kind: 'approve_all' } }] } },
  ...extra,
});

describe('estimates and the cost condition', () => {
  it('every decision carries the estimate: input tokens from the size, output = maxTokens, USD at the price', () => {
    const t = setup();
    t.svc.saveRules(approveAll());
    // 'hello' = 5 characters → 2 input tokens; 1,000 output tokens
    expect(t.decide(params('hello', 1000))).toMatchObject({ kind: 'approve_all', estimate: { tokens: 1002, costUsd: (2 * 1 + 1000 * 2) / 1e6 } });
  });

  it('"estimated cost ≤ $X" decides with the model\'s price; without a price it never holds', () => {
    const rule = { version: 1, servers: { s: { rules: [{ id: 'cheap', name: 'Cheap', when: { maxCostUsd: 0.01 }, action: { kind: 'approve_all' } }] } } };
    const t = setup();
    t.svc.saveRules(rule);
    expect(t.decide(params('short', 1000)).kind).toBe('approve_all'); // ≈ $0.002
    expect(t.decide(params('long', 10_000)).kind).toBe('ask'); // ≈ $0.02
    const free = setup({ price: { inputPerMTok: 0, outputPerMTok: 0 } });
    free.svc.saveRules(rule);
    expect(free.decide(params('long', 100_000)).kind).toBe('approve_all');
    const unknown = setup({ price: null });
    unknown.svc.saveRules(rule);
    expect(unknown.decide(params('short', 10))).toMatchObject({ kind: 'ask' });
  });
});

describe('notes: why auto-approval was held back', () => {
  it('paused: asks with the note naming the rule', () => {
    const t = setup();
    t.svc.saveRules(approveAll(undefined, { paused: true }));
    expect(t.decide(params('hi'))).toMatchObject({ kind: 'ask', notes: [{ kind: 'paused', rule: { ruleId: 'ok' } }] });
  });

  it('a redact rule while paused: the person reviews the redacted request, with both notes', () => {
    const t = setup();
    t.svc.saveRules({ version: 1, paused: true, servers: { s: { rules: [{ id: 'r', name: 'Redact', action: { kind: 'redact', then: 'approve_all' } }] } } });
    const out = t.decide(params('mail jane@example.com and bob@example.com'));
    expect(out).toMatchObject({
      kind: 'ask',
      params: { messages: [{ content: { text: 'mail [REDACTED:email] and [REDACTED:email]' } }] },
      notes: [{ kind: 'paused' }, { kind: 'redacted', count: 2, rule: { ruleId: 'r' } }],
    });
  });

  it('tokens per day: an auto-approval that could pass the limit asks, with used / estimate / limit', () => {
    const t = setup();
    t.svc.saveRules(approveAll({ tokensPerDay: 1500 }));
    expect(t.decide(params('a', 1000), 'first').kind).toBe('approve_all'); // 1,001 reserved
    const second = t.decide(params('b', 1000), 'second');
    expect(second).toMatchObject({ kind: 'ask', notes: [{ kind: 'budget', limit: 'tokens', used: 1001, estimate: 1001, max: 1500, rule: { ruleId: 'ok' } }] });
    // The first settles having used less: its reservation is freed and the actual usage counts.
    t.settle('first', { inputTokens: 1, outputTokens: 199 });
    expect(t.decide(params('c', 1000), 'third').kind).toBe('approve_all');
  });

  it('spend per day: the estimate plus what was spent and reserved is checked against the limit', () => {
    const t = setup({ price: { inputPerMTok: 1000, outputPerMTok: 1000 } }); // $0.001 per token
    t.svc.saveRules(approveAll({ spendPerDayUsd: 1 }));
    expect(t.decide(params('a', 499), 'one').kind).toBe('approve_all'); // ≈ $0.5
    const over = t.decide(params('b', 600), 'two');
    expect(over).toMatchObject({ kind: 'ask', notes: [{ kind: 'budget', limit: 'spend', max: 1 }] });
    const note = (over.notes![0] as { used: number; estimate: number });
    expect(note.used).toBeCloseTo(0.5, 6);
    expect(note.estimate).toBeCloseTo(0.601, 6);
  });

  it('console-wide daily limits: all servers count together, in the note (scope console) and at admission', () => {
    const t = setup();
    t.svc.saveRules({ version: 1, global: { tokensPerDay: 1500 }, servers: { s: { rules: [{ id: 'ok', name: 'All', action: { kind: 'approve_all' } }] } } });
    t.svc.policy.settled!('other', { ...item(params('x'), 'o1'), serverId: 'other', status: 'delivered', response: { draft: { role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }, manual: false, usage: { inputTokens: 900, outputTokens: 0 }, generatedAt: NOW } });
    expect(t.decide(params('a', 100)).kind).toBe('approve_all'); // 900 + 101 ≤ 1500 (101 now reserved)
    expect(t.decide(params('b', 1000), 'i2')).toMatchObject({ kind: 'ask', notes: [{ kind: 'budget', limit: 'tokens', used: 1001, max: 1500, scope: 'console' }] });
    t.settle('i1', { inputTokens: 300, outputTokens: 300 }); // all servers: 1,500 used
    expect(t.decide(params('x'), 'i3')).toMatchObject({ kind: 'refuse', rule: 'limit.global.tokens', message: expect.stringContaining('the console used 1500 of 1500 tokens today (UTC)') });
    expect(t.svc.policy.decide({ serverId: 'third', item: { ...item(params('x'), 'i4'), serverId: 'third' }, params: params('x'), model: item(params('x')).model, now: NOW })).toMatchObject({ kind: 'refuse', rule: 'limit.global.tokens' });
  });

  it('a spend limit and a model without a known price: the console cannot hold the limit, so it asks', () => {
    const t = setup({ price: null });
    t.svc.saveRules(approveAll({ spendPerDayUsd: 5 }));
    expect(t.decide(params('a'))).toMatchObject({ kind: 'ask', notes: [{ kind: 'no_price', max: 5, rule: { ruleId: 'ok' } }] });
    const free = setup({ price: null });
    free.svc.saveRules(approveAll());
    expect(free.decide(params('a')).kind).toBe('approve_all'); // no spend limit: nothing to hold
  });

  it('reject rules apply whatever the budget; ask rules name themselves', () => {
    const t = setup();
    t.svc.saveRules({ version: 1, servers: { s: { limits: { tokensPerDay: 1 }, rules: [{ id: 'no', name: 'No', when: { messageText: { pattern: 'drop' } }, action: { kind: 'reject', reason: 'no' } }, { id: 'q', name: 'Ask', action: { kind: 'ask' } }] } } });
    expect(t.decide(params('drop it'))).toMatchObject({ kind: 'reject' });
    expect(t.decide(params('else'))).toMatchObject({ kind: 'ask', notes: [{ kind: 'ask_rule', rule: { ruleId: 'q' } }] });
  });
});

describe('settled usage and counters', () => {
  it('tokens and spend of settled requests count for today; the slice shows them', async () => {
    const t = setup();
    t.svc.saveRules(approveAll());
    t.decide(params('a'), 'x');
    t.settle('x', { inputTokens: 1000, outputTokens: 500 });
    await tick();
    const c = t.hub.get('policy')!.counters.s!;
    expect(c).toMatchObject({ tokensToday: 1500, autoApproved: 1, day: '2026-01-05' });
    expect(c.spendTodayUsd).toBeCloseTo((1000 * 1 + 500 * 2) / 1e6, 9);
    expect(t.svc.policy.costOf!({ providerId: 'llm', modelId: 'm' }, { inputTokens: 1000, outputTokens: 500 })).toBeCloseTo(0.002, 9);
  });

  it("today's totals start from history rows: recorded costs, unrecorded usage priced now, unknown prices apart", async () => {
    const rows: UsageRow[] = [
      { serverId: 's', providerId: 'llm', model: 'm', inputTokens: 1000, outputTokens: 1000, costUsd: 0.5, unpricedInputTokens: 0, unpricedOutputTokens: 0 },
      { serverId: 's', providerId: 'llm', model: 'old', inputTokens: 1_000_000, outputTokens: 0, costUsd: 0, unpricedInputTokens: 1_000_000, unpricedOutputTokens: 0 },
      { serverId: 'other', providerId: 'remote', model: 'x', inputTokens: 10, outputTokens: 5, costUsd: 0, unpricedInputTokens: 10, unpricedOutputTokens: 5 },
    ];
    const usage = dayUsageOf(rows, (m) => (m.providerId === 'llm' ? { inputPerMTok: 1, outputPerMTok: 2 } : undefined));
    expect(usage.s).toEqual({ tokens: 1_002_000, costUsd: 1.5, unpricedTokens: 0 });
    expect(usage.other).toEqual({ tokens: 15, costUsd: 0, unpricedTokens: 15 });
    const t = setup({ usage: rows });
    await tick();
    expect(t.hub.get('policy')!.counters.s).toMatchObject({ tokensToday: 1_002_000, spendTodayUsd: 1.5 });
    t.svc.saveRules(approveAll({ spendPerDayUsd: 1.5 }));
    expect(t.decide(params('x'))).toMatchObject({ kind: 'refuse', rule: 'limit.spend' });
  });
});

describe('elicitation policy', () => {
  it('declines only where the server says so, naming the policy and its version; counted', async () => {
    const t = setup();
    expect(t.svc.decideElicitation('s')).toEqual({ kind: 'ask' });
    t.svc.saveRules({ version: 1, servers: { s: { elicitation: { action: 'decline' } } } });
    expect(t.svc.decideElicitation('s')).toEqual({ kind: 'decline', rule: { serverId: 's', ruleId: 'elicitation', version: 2, name: 'always decline elicitation from s' } });
    expect(t.svc.decideElicitation('other')).toEqual({ kind: 'ask' });
    t.svc.setPaused(true); // pausing auto-approval does not turn declining into accepting or asking
    expect(t.svc.decideElicitation('s').kind).toBe('decline');
    await tick();
    expect(t.hub.get('policy')!.counters.s!.elicitationDeclined).toBe(2);
  });
});

describe('history scrubbing runs the detectors once per entry', () => {
  const entry = (status: HistoryEntry['status'], original: CreateMessageParams, sent?: CreateMessageParams): HistoryEntry => ({
    id: 'e1', conversationId: 'e1', serverId: 's', status, receivedAt: 0, edited: false, preview: 'mail jane@example.com', original, sent, timings: {}, events: [],
  });

  it('three saves of one request (received, generating, delivered): each distinct text is scanned once; results unchanged', () => {
    const scanned: string[] = [];
    const detect = (text: string, o: DetectOptions) => (scanned.push(text), detectSensitive(text, o));
    const file = { version: 1, paused: false, global: {}, redaction: { patterns: [], keepOriginals: false }, servers: {} } as const;
    const scrub = createHistoryScrubber({ file: () => file as never, keeps: () => false, detect });
    const original = params('mail jane@example.com');
    const sent = params('mail [REDACTED:email]');
    const first = scrub(entry('awaiting_request_review', original));
    expect(JSON.stringify(first.original)).toContain('[REDACTED:email]');
    scrub(entry('generating', original, sent));
    const last = scrub(entry('delivered', original, sent));
    expect(JSON.stringify(last.original)).not.toContain('jane@example.com');
    expect(last.preview).toBe('mail [REDACTED:email]');
    expect(scanned.filter((s) => s === 'mail jane@example.com')).toHaveLength(1);
    // After the terminal save the memo is gone: a new save scans again.
    scrub(entry('delivered', original, sent));
    expect(scanned.filter((s) => s === 'mail jane@example.com')).toHaveLength(2);
  });

  it('what was sent unchanged (the same object) is kept without scanning', () => {
    let calls = 0;
    const file = { version: 1, paused: false, global: {}, redaction: { patterns: [], keepOriginals: false }, servers: {} } as const;
    const scrub = createHistoryScrubber({ file: () => file as never, keeps: () => false, detect: (t, o) => (calls++, detectSensitive(t, o)) });
    const original = params('mail jane@example.com');
    const e = entry('delivered', original, original);
    expect(scrub(e)).toBe(e);
    expect(calls).toBe(0);
  });
});

describe('one scan per request text on the hot path', () => {
  it('the first history save and the decision share the detectors\' work; another options object starts afresh', () => {
    const scanned: string[] = [];
    const cache = createDetectCache((text, o) => (scanned.push(text), detectSensitive(text, o)));
    const options: DetectOptions = {};
    const p = { ...params('mail jane@example.com'), systemPrompt: 'be brief' };
    cache.detect('mail jane@example.com', options); // the history filter's first save
    const found = cache.inRequest(p, options); // the decision
    expect(found.map((f) => [f.kind, f.place])).toEqual([['email', { where: 'message', message: 0, block: 0 }]]);
    expect(scanned).toEqual(['mail jane@example.com', 'be brief']);
    cache.inRequest(p, { patterns: [] });
    expect(scanned).toHaveLength(4);
  });
});
