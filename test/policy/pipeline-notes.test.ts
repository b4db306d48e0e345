/**
 * What the pipeline (main/sampling) does with the policy's notes, changed params and estimates:
 * they reach the queued item (the review screen shows them) and history's events; the review starts
 * from the changed request; the generation's cost is recorded in history; drafts are marked.
 */
import { describe, expect, it } from 'vitest';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { HistoryEntry, RuleRef, SamplingItemView } from '../../shared/contract/state.js';
import type { LlmProvider } from '../../main/llm/provider.js';
import { createSamplingPipeline } from '../../main/sampling/pipeline.js';
import type { PolicyAction, SamplingPolicy } from '../../main/sampling/types.js';
import { createStateHub } from '../../main/state-hub.js';
import { silentLogger } from '../../main/ports.js';
import { english } from '../../shared/contract/ui-text.js';

const rule: RuleRef = { serverId: 'srv', ruleId: 'r', version: 2, name: 'Redact' };
const params: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'mail jane@example.com' } }], maxTokens: 50 };
const redacted: CreateMessageParams = { ...params, messages: [{ role: 'user', content: { type: 'text', text: 'mail [REDACTED:email]' } }] };
const llm: LlmProvider = {
  view: { id: 'llm', kind: 'openai-compatible', label: 'L', models: ['m'], hasApiKey: false },
  async generate() {
    return { result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm', stopReason: 'endTurn' }, usage: { inputTokens: 1000, outputTokens: 10 }, finishReason: 'stop' };
  },
};

function setup(action: PolicyAction) {
  const saved: HistoryEntry[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const policy: SamplingPolicy = { decide: () => action, costOf: (_m, u) => ((u.inputTokens ?? 0) * 3 + (u.outputTokens ?? 0) * 15) / 1e6 };
  const pipeline = createSamplingPipeline({
    hub,
    history: { save: (e) => saved.push(structuredClone(e)) },
    providers: { list: () => [llm], get: (id) => (id === 'llm' ? llm : undefined), defaultModel: () => ({ providerId: 'llm', modelId: 'm' }) },
    logger: silentLogger,
    now: Date.now,
    inFlightCalls: () => [{ callId: 'c', kind: 'tools/call', name: 't' }],
    onRefused: () => undefined,
    policy,
  });
  const item = (): SamplingItemView => hub.items().at(-1) as SamplingItemView;
  const handle = () => pipeline.handle({ kind: 'sampling', serverId: 'srv', era: 'legacy', params, signal: new AbortController().signal });
  return { pipeline, saved, item, handle };
}

describe('ask with notes and a changed request', () => {
  it('the item carries the notes and estimate; the review starts from the redacted request; history has the notes as events', async () => {
    const t = setup({ kind: 'ask', rule, params: redacted, notes: [{ kind: 'paused', rule }, { kind: 'redacted', count: 1, rule }], estimate: { tokens: 56, costUsd: 0.0008 } });
    void t.handle();
    const item = t.item();
    expect(item).toMatchObject({ status: 'awaiting_request_review', sent: redacted, original: params, policy: { notes: [{ kind: 'paused' }, { kind: 'redacted', count: 1 }], estimatedTokens: 56, estimatedCostUsd: 0.0008 } });
    expect(item.auto).toBeUndefined();
    const last = t.saved.at(-1)!;
    expect(last.events.filter((e) => e.kind === 'policy_note').map((e) => e.detail)).toEqual([
      'auto-approval is paused: rule "Redact" (v2) would have approved this request',
      'rule "Redact" (v2) auto-redacted 1 item(s) before review',
    ]);
    // The person approves what the review shows: the redacted request is what the LLM gets.
    await t.pipeline.approveRequest(item.id, item.contentVersion!, redacted, { providerId: 'llm', modelId: 'm' });
    await new Promise((r) => setTimeout(r, 10));
    expect(t.item()).toMatchObject({ status: 'awaiting_response_review', sent: redacted });
    expect(t.saved.at(-1)).toMatchObject({ decidedBy: 'person', edited: true, costUsd: (1000 * 3 + 10 * 15) / 1e6 });
  });

  it('a plain ask (no rule) shows only the estimate and adds no event', () => {
    const t = setup({ kind: 'ask', estimate: { tokens: 56 } });
    void t.handle();
    expect(t.item().policy).toEqual({ notes: [], estimatedTokens: 56 });
    expect(t.item().sent).toBeUndefined();
    expect(t.saved.at(-1)!.events.map((e) => e.kind)).toEqual(['received']);
  });

  it('auto-approved: the estimate is on the item and the cost of the generation in history', async () => {
    const t = setup({ kind: 'approve_all', rule, estimate: { tokens: 56, costUsd: 0.001 } });
    await t.handle();
    expect(t.item()).toMatchObject({ status: 'delivered', policy: { estimatedCostUsd: 0.001 } });
    expect(t.saved.at(-1)).toMatchObject({ decidedBy: 'rule', rule, usage: { inputTokens: 1000, outputTokens: 10 }, costUsd: 0.00315 });
    expect(t.saved.at(-1)).not.toHaveProperty('origin');
  });
});

describe('drafts', () => {
  it('a request re-opened from history is marked as a draft in history', () => {
    const t = setup({ kind: 'ask' });
    t.pipeline.reopenDraft({ id: 'old', conversationId: 'old', serverId: 'srv', status: 'delivered', receivedAt: 0, edited: false, preview: '', original: params, sent: params, timings: {}, events: [] });
    expect(t.saved.at(-1)).toMatchObject({ origin: 'draft', serverId: 'srv' });
  });
});

describe('refusals carry a typed kind (no message parsing to tell a limit from the rest)', () => {
  it('a limit refusal is rate_limited; an invalid request is invalid', async () => {
    const refused: Array<{ line: string; message: string; kind: string; rule: string; code: number }> = [];
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
    let admit = false;
    const pipeline = createSamplingPipeline({
      hub,
      history: { save: () => undefined },
      providers: { list: () => [llm], get: () => llm, defaultModel: () => ({ providerId: 'llm', modelId: 'm' }) },
      logger: silentLogger,
      now: Date.now,
      inFlightCalls: () => [{ callId: 'c', kind: 'tools/call', name: 't' }],
      onRefused: (_s, why, r) => refused.push({ line: english(why), ...r }),
      policy: { decide: () => (admit ? { kind: 'ask' } : { kind: 'refuse', code: -32051, message: 'Rate limited: too many. Try again later.', rule: 'limit.rpm' }) },
    });
    await expect(pipeline.handle({ kind: 'sampling', serverId: 'srv', era: 'legacy', params, signal: new AbortController().signal })).rejects.toMatchObject({ code: -32051 });
    admit = true;
    await expect(pipeline.handle({ kind: 'sampling', serverId: 'srv', era: 'legacy', params: { messages: [] }, signal: new AbortController().signal })).rejects.toMatchObject({ code: -32602 });
    expect(refused.map((r) => [r.kind, r.code, r.rule])).toEqual([
      ['rate_limited', -32051, 'limit.rpm'],
      ['invalid', -32602, refused[1]!.rule],
    ]);
    expect(refused[0]).toMatchObject({ line: 'limit.rpm: Rate limited: too many. Try again later.', message: 'Rate limited: too many. Try again later.' });
  });
});
