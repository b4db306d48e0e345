/**
 * A provider failure in the pipeline: with nobody reviewing (an approve_all rule) the item ends
 * `failed`, History has the provider's error (committed before the answer), and the caller gets
 * -32052 with the provider's words and what it did; with a person reviewing the item goes back to
 * request review and waits for them. Text already streamed to a gateway caller never leaves the
 * item half-ended.
 */
import { describe, expect, it } from 'vitest';
import { ErrorCodes, type CreateMessageParams } from '../../shared/contract/sampling.js';
import type { HistoryEntry, RuleRef, SamplingItemView } from '../../shared/contract/state.js';
import { ProviderError } from '../../main/llm/provider-error.js';
import type { GenerateInput, LlmProvider } from '../../main/llm/provider.js';
import { createSamplingPipeline } from '../../main/sampling/pipeline.js';
import type { PolicyAction } from '../../main/sampling/types.js';
import type { ProviderCallPort } from '../../main/requests/incoming.js';
import { createStateHub } from '../../main/state-hub.js';
import { silentLogger } from '../../main/ports.js';

const rule: RuleRef = { serverId: 'srv', ruleId: 'r1', version: 1, name: 'everything' };
const params: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }], maxTokens: 50 };
const rateLimited = () => new ProviderError('LLM (http://127.0.0.1:9/v1): 429 Too Many Requests — rate limited by the provider; retry after 7 s', 'rate-limit', true, 429, 7, { detail: '429 Too Many Requests — rate limited by the provider; retry after 7 s' });

/** A pipeline whose one provider runs `generate`; the policy answers `action`. */
function setup(action: PolicyAction, generate: (input: GenerateInput) => Promise<never>) {
  const saved: HistoryEntry[] = [];
  const settled: string[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const llm: LlmProvider = { view: { id: 'llm', kind: 'openai-compatible', label: 'LLM', models: ['m'], hasApiKey: false }, generate };
  const pipeline = createSamplingPipeline({
    hub,
    history: { save: (e) => saved.push(structuredClone(e)) },
    providers: { list: () => [llm], get: (id) => (id === 'llm' ? llm : undefined), defaultModel: () => ({ providerId: 'llm', modelId: 'm' }) },
    logger: silentLogger,
    now: Date.now,
    inFlightCalls: () => [{ callId: 'c', kind: 'tools/call', name: 't' }],
    onRefused: () => undefined,
    policy: { decide: () => action, settled: (_s, item) => settled.push(item.status) },
  });
  const item = (): SamplingItemView => hub.items().at(-1) as SamplingItemView;
  return { pipeline, saved, settled, item };
}

const sampling = () => ({ kind: 'sampling' as const, serverId: 'srv', era: 'legacy' as const, params, signal: new AbortController().signal });
const waitUntil = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
};

describe('a provider failure with nobody reviewing (approve_all)', () => {
  it('ends the item failed; History is committed first; the caller gets -32052 with the provider status and words', async () => {
    const t = setup({ kind: 'approve_all', rule }, () => Promise.reject(rateLimited()));
    let atAnswer: HistoryEntry | undefined;
    const err = await t.pipeline.handle(sampling()).then(
      () => undefined,
      (e: unknown) => ((atAnswer = t.saved.at(-1)), e),
    );
    expect(err).toMatchObject({ code: ErrorCodes.PROVIDER_FAILED, data: { provider: { kind: 'rate-limit', status: 429, retryAfterSeconds: 7 } } });
    expect((err as Error).message).toContain('The LLM provider failed: 429 Too Many Requests');
    expect((err as Error).message).not.toContain('127.0.0.1:9'); // the provider's URL stays in the console
    expect(atAnswer).toMatchObject({ status: 'failed', decidedBy: 'rule', error: expect.stringContaining('429 Too Many Requests'), errorDetail: { code: ErrorCodes.PROVIDER_FAILED } });
    expect(atAnswer!.events.map((e) => e.kind)).toEqual(expect.arrayContaining(['generation_failed', 'failed']));
    expect(t.item()).toMatchObject({ status: 'failed', error: { failure: 'rate-limit' }, outcome: { code: ErrorCodes.PROVIDER_FAILED } });
    expect(t.settled).toEqual(['failed']);
  });

  it('a failure after text streamed to a gateway caller ends the item failed (no half-ended item)', async () => {
    const t = setup({ kind: 'approve_all', rule }, async (input) => {
      input.onText('Hel');
      throw new ProviderError('LLM: the connection was lost while the response was streaming', 'network', true, undefined, undefined, { detail: 'the connection was lost while the response was streaming' });
    });
    const deltas: string[] = [];
    const port: ProviderCallPort = { text: (d) => deltas.push(d), usage: () => undefined };
    const call = { kind: 'provider_call' as const, source: 'gateway' as const, serverId: 'gateway:t', era: 'legacy' as const, params, port, signal: new AbortController().signal, gateway: { api: 'openai' as const, requestedModel: 'gpt', stream: true, caller: { kind: 'token' as const, name: 't' } } };
    await expect(t.pipeline.handle(call)).rejects.toMatchObject({ code: ErrorCodes.PROVIDER_FAILED, data: { provider: { kind: 'network' } } });
    expect(deltas).toEqual(['Hel']);
    expect(t.item().status).toBe('failed');
    expect(t.saved.at(-1)).toMatchObject({ status: 'failed', kind: 'provider_call' });
  });

  it('the person cancelling a generation whose text already reached the caller ends the item; the caller gets -1', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const t = setup({ kind: 'approve_all', rule }, (input) => {
      input.onText('partial');
      started();
      return new Promise((_, reject) => input.signal.addEventListener('abort', () => reject(Object.assign(new Error('Generation cancelled'), { name: 'AbortError' }))));
    });
    const port: ProviderCallPort = { text: () => undefined, usage: () => undefined };
    const answer = t.pipeline.handle({ kind: 'provider_call', source: 'gateway', serverId: 'gateway:t', era: 'legacy', params, port, signal: new AbortController().signal, gateway: { api: 'openai', requestedModel: 'gpt', stream: true, caller: { kind: 'token', name: 't' } } });
    await running;
    t.pipeline.cancelGeneration(t.item().id);
    await expect(answer).rejects.toMatchObject({ code: ErrorCodes.USER_REJECTED });
    expect(t.item()).toMatchObject({ status: 'cancelled', outcome: { ui: { code: 'outcome.cancelledMidStream' } } });
  });
});

describe('a provider failure with a person reviewing', () => {
  it('goes back to request review with the failure shown; the caller is answered when the person decides', async () => {
    const t = setup({ kind: 'ask' }, () => Promise.reject(rateLimited()));
    let settledWith: unknown = 'pending';
    const answer = t.pipeline.handle(sampling()).then(
      (r) => (settledWith = r),
      (e: unknown) => (settledWith = e),
    );
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'llm', modelId: 'm' });
    await waitUntil(() => t.item().status === 'awaiting_request_review' && t.item().error !== undefined);
    expect(t.item().error).toMatchObject({ failure: 'rate-limit', message: expect.stringContaining('429') });
    expect(t.saved.at(-1)!.events.map((e) => e.kind)).toContain('generation_failed');
    expect(settledWith).toBe('pending');
    t.pipeline.rejectRequest(t.item().id, t.item().contentVersion!);
    await answer;
    expect(settledWith).toMatchObject({ code: ErrorCodes.USER_REJECTED });
  });

  it('approve_request (the person reviews the response): a failure waits for the person too', async () => {
    const t = setup({ kind: 'approve_request', rule }, () => Promise.reject(rateLimited()));
    void t.pipeline.handle(sampling()).catch(() => undefined);
    await waitUntil(() => t.item().status === 'awaiting_request_review' && t.item().error !== undefined);
    expect(t.item().outcome).toBeUndefined();
    t.pipeline.rejectRequest(t.item().id, t.item().contentVersion!);
  });
});
