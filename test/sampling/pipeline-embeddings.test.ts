/**
 * An embeddings call in the pipeline (a provider call whose facts say `embeddings`): its model is
 * chosen among the providers that make embeddings; once the request is approved (by the person or
 * a rule) the texts are embedded and the vectors go to the caller through its port, and the item
 * is delivered at once — no response review, nothing of the vectors in History; a provider that
 * makes none is a failure the person sees.
 */
import { describe, expect, it } from 'vitest';
import type { GatewayFacts } from '../../shared/contract/gateway.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { HistoryEntry, ModelRef, RuleRef, SamplingItemView } from '../../shared/contract/state.js';
import type { EmbedInput, LlmProvider } from '../../main/llm/provider.js';
import { embeddingModelFor } from '../../main/sampling/embeddings.js';
import { createSamplingPipeline } from '../../main/sampling/pipeline.js';
import type { PolicyAction } from '../../main/sampling/types.js';
import { createStateHub } from '../../main/state-hub.js';
import { silentLogger } from '../../main/ports.js';

const rule: RuleRef = { serverId: 'gateway:t', ruleId: 'r1', version: 1, name: 'bulk' };
const params: CreateMessageParams = { messages: ['first', 'second'].map((text) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] })), maxTokens: 1, modelPreferences: { hints: [{ name: 'text-embedding-3-small' }] } };
const facts: GatewayFacts = { api: 'openai', endpoint: 'embeddings', requestedModel: 'text-embedding-3-small', stream: false, caller: { kind: 'token', name: 't' }, embeddings: { inputs: 2, dimensions: 3 } };

const provider = (id: string, models: string[], embed?: (input: EmbedInput) => Promise<{ embeddings: number[][] }>): LlmProvider => ({
  view: { id, kind: embed ? 'openai' : 'anthropic', label: id, models, hasApiKey: true },
  generate: () => Promise.reject(new Error('no generation here')),
  ...(embed && { embed }),
});

/** A pipeline over `providers`; the policy answers `action`. */
function setup(action: PolicyAction, providers: LlmProvider[], fallback: ModelRef) {
  const saved: HistoryEntry[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const pipeline = createSamplingPipeline({
    hub,
    history: { save: (e) => saved.push(structuredClone(e)) },
    providers: { list: () => providers, get: (id) => providers.find((p) => p.view.id === id), defaultModel: () => fallback },
    logger: silentLogger,
    now: Date.now,
    inFlightCalls: () => [],
    onRefused: () => undefined,
    policy: { decide: () => action },
  });
  const item = (): SamplingItemView => hub.items().at(-1) as SamplingItemView;
  return { pipeline, saved, item };
}

const embeddingsCall = (vectors: (v: number[][]) => void) => ({
  kind: 'provider_call' as const,
  source: 'gateway' as const,
  serverId: 'gateway:t',
  era: 'legacy' as const,
  params,
  gateway: facts,
  port: { text: () => undefined, usage: () => undefined, vectors },
  signal: new AbortController().signal,
});

describe('the model of an embeddings call', () => {
  const none = provider('claude', ['claude-x']);
  const oa = provider('oa', ['gpt-4o', 'text-embedding-3-large'], () => Promise.resolve({ embeddings: [] }));
  const local = provider('local', ['llama', 'nomic-embed-text'], () => Promise.resolve({ embeddings: [] }));
  const fallback = { providerId: 'claude', modelId: 'claude-x' };

  it('a provider that makes embeddings and lists the model asked for', () => {
    expect(embeddingModelFor('nomic-embed-text', [none, oa, local], fallback)).toMatchObject({ providerId: 'local', modelId: 'nomic-embed-text', reasonUi: { code: 'model.embeddingListed' } });
  });
  it('else the first embedding model listed; else the model asked for at the first provider that makes embeddings; else the fallback', () => {
    expect(embeddingModelFor('text-embedding-3-small', [none, oa, local], fallback)).toMatchObject({ providerId: 'oa', modelId: 'text-embedding-3-large', reasonUi: { code: 'model.embeddingOther' } });
    expect(embeddingModelFor('e5', [none, provider('p', ['gpt-4o'], () => Promise.resolve({ embeddings: [] }))], fallback)).toMatchObject({ providerId: 'p', modelId: 'e5', reasonUi: { code: 'model.embeddingAsked' } });
    expect(embeddingModelFor('e5', [none], fallback)).toMatchObject({ ...fallback, reasonUi: { code: 'model.noEmbeddings' } });
  });
});

describe('an embeddings call', () => {
  it('approved by a rule: embedded with its dimensions, the vectors to the caller, delivered without a response review; History keeps no vector', async () => {
    const asked: EmbedInput[] = [];
    const oa = provider('oa', ['text-embedding-3-small'], (input) => (asked.push(input), Promise.resolve({ embeddings: [[1, 2, 3], [4, 5, 6]], usage: { inputTokens: 4 } })));
    const t = setup({ kind: 'approve_request', rule }, [oa], { providerId: 'oa', modelId: 'text-embedding-3-small' });
    let vectors: number[][] | undefined;
    const result = await t.pipeline.handle(embeddingsCall((v) => (vectors = v)));
    expect(vectors).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect(result).toEqual({ role: 'assistant', content: [], model: 'text-embedding-3-small', stopReason: 'endTurn' });
    expect(asked).toMatchObject([{ texts: ['first', 'second'], modelId: 'text-embedding-3-small', dimensions: 3 }]);
    expect(t.item()).toMatchObject({ status: 'delivered', model: { providerId: 'oa' } });
    const entry = t.saved.at(-1)!;
    expect(entry).toMatchObject({ status: 'delivered', kind: 'provider_call', usage: { inputTokens: 4 } });
    expect(entry.events.map((e) => e.kind)).toEqual(expect.arrayContaining(['embedded', 'delivered']));
    expect(entry.events.map((e) => e.kind)).not.toContain('response_approved');
    expect(JSON.stringify(entry)).not.toContain('[1,2,3]');
  });

  it('approved by the person on a model whose provider makes none: the failure is shown and the person decides', async () => {
    const claude = provider('claude', ['claude-x']);
    const t = setup({ kind: 'ask' }, [claude], { providerId: 'claude', modelId: 'claude-x' });
    const answer = t.pipeline.handle(embeddingsCall(() => undefined));
    const item = t.item();
    await t.pipeline.approveRequest(item.id, item.contentVersion!, item.original, item.model);
    for (let i = 0; i < 100 && !t.item().error; i++) await new Promise((r) => setTimeout(r, 5));
    expect(t.item()).toMatchObject({ status: 'awaiting_request_review', error: { failure: 'unsupported', message: expect.stringContaining('makes no embeddings') } });
    t.pipeline.rejectRequest(item.id, t.item().contentVersion!);
    await expect(answer).rejects.toMatchObject({ code: -1 });
  });
});
