/**
 * The policy seam (the rule engine and rate limits plug in here): what the pipeline does
 * with each decision, and that history records which rule, and which version of it, decided.
 */
import { describe, expect, it } from 'vitest';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { HistoryEntry, RuleRef, SamplingItemView } from '../../shared/contract/state.js';
import type { LlmProvider } from '../../main/llm/provider.js';
import { createSamplingPipeline } from '../../main/sampling/pipeline.js';
import type { PolicyAction, SamplingPolicy } from '../../main/sampling/types.js';
import { createStateHub } from '../../main/state-hub.js';
import { silentLogger } from '../../main/ports.js';

const rule: RuleRef = { serverId: 'srv', ruleId: 'r1', version: 3, name: 'short text prompts' };
const params: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'summarise' } }], maxTokens: 50 };
const llm: LlmProvider = {
  view: { id: 'llm', kind: 'openai-compatible', label: 'L', models: ['m'], hasApiKey: false },
  async generate(input) {
    return { result: { role: 'assistant', content: { type: 'text', text: `answer to ${JSON.stringify(input.params.messages[0]!.content)}` }, model: 'm', stopReason: 'endTurn' }, finishReason: 'stop' };
  },
};
/** Answers like `llm`, after 40 ms: longer than a passing state waits before it is saved. */
const slow: LlmProvider = {
  view: { id: 'slow', kind: 'openai-compatible', label: 'S', models: ['m'], hasApiKey: false },
  async generate(input) {
    await new Promise((r) => setTimeout(r, 40));
    return llm.generate!(input);
  },
};
const manual: LlmProvider = { view: { id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false } };

function setup(policy: SamplingPolicy, defaultProvider = 'llm') {
  const saved: HistoryEntry[] = [];
  const settled: string[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const providers = [llm, slow, manual];
  const pipeline = createSamplingPipeline({
    hub,
    history: { save: (e) => saved.push(structuredClone(e)) },
    providers: { list: () => providers, get: (id) => providers.find((p) => p.view.id === id), defaultModel: () => ({ providerId: defaultProvider, modelId: defaultProvider === 'manual' ? 'manual' : 'm' }) },
    logger: silentLogger,
    now: Date.now,
    inFlightCalls: () => [{ callId: 'c', kind: 'tools/call', name: 't' }],
    onRefused: () => undefined,
    policy: { ...policy, settled: (_s, item) => settled.push(item.status) },
  });
  const item = (): SamplingItemView => hub.items().at(-1) as SamplingItemView;
  const handle = () => pipeline.handle({ kind: 'sampling', serverId: 'srv', era: 'legacy', params, signal: new AbortController().signal });
  return { pipeline, saved, settled, item, handle };
}
const deciding = (action: PolicyAction): SamplingPolicy => ({ decide: () => action });

describe('policy decisions', () => {
  it('approve_all: delivered without a person; history names the rule and its version', async () => {
    const t = setup(deciding({ kind: 'approve_all', rule }));
    await expect(t.handle()).resolves.toMatchObject({ content: { text: expect.stringContaining('summarise') } });
    expect(t.item()).toMatchObject({ status: 'delivered', auto: { rule, action: 'approve_all' } });
    expect(t.saved.at(-1)).toMatchObject({ status: 'delivered', decidedBy: 'rule', rule });
    expect(t.settled).toEqual(['delivered']);
  });

  it('approve_request: generated at once, the person still reviews the response', async () => {
    const t = setup(deciding({ kind: 'approve_request', rule }));
    void t.handle();
    await new Promise((r) => setTimeout(r, 20));
    expect(t.item()).toMatchObject({ status: 'awaiting_response_review', auto: { action: 'approve_request' } });
  });

  it('a rule may send a changed request (e.g. redacted); history keeps the original and what was sent', async () => {
    const redacted: CreateMessageParams = { ...params, messages: [{ role: 'user', content: { type: 'text', text: '[EMAIL]' } }] };
    const t = setup(deciding({ kind: 'approve_all', rule, params: redacted }));
    await expect(t.handle()).resolves.toMatchObject({ content: { text: expect.stringContaining('[EMAIL]') } });
    expect(t.saved.at(-1)).toMatchObject({ original: params, sent: redacted, edited: true });
  });

  it('reject: the server gets -1 with the rule named', async () => {
    const t = setup(deciding({ kind: 'reject', rule, reason: 'no images from this server' }));
    await expect(t.handle()).rejects.toMatchObject({ code: -1 });
    expect(t.item().outcome?.message).toContain('rule "short text prompts" (v3): no images from this server');
    expect(t.saved.at(-1)).toMatchObject({ status: 'rejected', decidedBy: 'rule', rule });
  });

  it('a rule decision is saved as its next state: the queued one, which nobody would see, is never written', async () => {
    const statuses = (t: ReturnType<typeof setup>) => t.saved.map((e) => e.status);
    // A call that ends at once is one write, its ending: nobody waited on its passing states.
    const approved = setup(deciding({ kind: 'approve_all', rule }));
    await approved.handle();
    expect(statuses(approved)).toEqual(['delivered']);
    // One that lasts has its generating state saved meanwhile (a crash then leaves it interrupted, not missing).
    const lasting = setup(deciding({ kind: 'approve_all', rule }), 'slow');
    await lasting.handle();
    expect(statuses(lasting)).toEqual(['generating', 'delivered']);
    const rejected = setup(deciding({ kind: 'reject', rule, reason: 'no' }));
    await rejected.handle().catch(() => undefined);
    expect(statuses(rejected)).toEqual(['rejected']);
    // No provider to call: the person decides after all, and that waiting state is saved at once.
    const manualOnly = setup(deciding({ kind: 'approve_all', rule }), 'manual');
    void manualOnly.handle();
    expect(statuses(manualOnly)).toEqual(['awaiting_request_review']);
    const asked = setup(deciding({ kind: 'ask' }));
    void asked.handle();
    expect(statuses(asked)).toEqual(['awaiting_request_review']);
  });

  it('ask: the request waits for the person', () => {
    const t = setup(deciding({ kind: 'ask' }));
    void t.handle();
    expect(t.item().status).toBe('awaiting_request_review');
    expect(t.item().auto).toBeUndefined();
  });

  it('an auto-approve rule never auto-sends a hand-written answer: a person must write it', () => {
    const t = setup(deciding({ kind: 'approve_all', rule }), 'manual');
    void t.handle();
    expect(t.item().status).toBe('awaiting_request_review');
    expect(t.saved.at(-1)!.events.map((e) => e.kind)).toContain('rule_skipped');
  });

  it('a limit\'s refusal (rate limit): answered with the policy\'s code and recorded, never queued', async () => {
    const t = setup({ decide: () => ({ kind: 'refuse', code: -32029, message: 'Rate limited: 10 requests per minute', rule: 'limit.rpm' }) });
    await expect(t.handle()).rejects.toMatchObject({ code: -32029, message: 'Rate limited: 10 requests per minute' });
    expect(t.item()).toBeUndefined();
    expect(t.saved.at(-1)).toMatchObject({ status: 'failed', errorDetail: { code: -32029, rule: 'limit.rpm' } });
  });
});
