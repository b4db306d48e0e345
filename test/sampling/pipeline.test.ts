import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/contract/api.js';
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { HistoryEntry, SamplingItemView } from '../../shared/contract/state.js';
import type { GenerateInput, LlmProvider } from '../../main/llm/provider.js';
import { createSamplingPipeline, type SamplingPipeline } from '../../main/sampling/pipeline.js';
import { createStateHub } from '../../main/state-hub.js';
import { silentLogger } from '../../main/ports.js';
import { english } from '../../shared/contract/ui-text.js';
import { ProviderError } from '../../main/llm/errors.js';
import { RequestAbort } from '../../main/requests/incoming.js';

const params: CreateMessageParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }],
  systemPrompt: 'You are terse.',
  maxTokens: 100,
  temperature: 0.7,
};

const manual: LlmProvider = { view: { id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false } };

/** A provider whose generations the test controls. */
function scriptedProvider() {
  const calls: GenerateInput[] = [];
  let next: (input: GenerateInput) => Promise<{ text: string }> = async () => ({ text: 'generated text' });
  const provider: LlmProvider = {
    view: { id: 'llm', kind: 'openai-compatible', label: 'Loopback', models: ['model-a', 'model-b'], hasApiKey: false },
    async generate(input) {
      calls.push(input);
      const { text } = await next(input);
      input.onText(text);
      return { result: { role: 'assistant', content: { type: 'text', text }, model: input.modelId, stopReason: 'endTurn' }, finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2 } };
    },
  };
  return { provider, calls, script: (fn: typeof next) => (next = fn) };
}

function setup(opts: { inFlight?: number; maxToolRounds?: number } = {}) {
  const saved: HistoryEntry[] = [];
  const order: string[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const llm = scriptedProvider();
  const providers = [manual, llm.provider];
  const refused: string[] = [];
  const pipeline: SamplingPipeline = createSamplingPipeline({
    hub,
    history: { save: (e) => (saved.push(structuredClone(e)), order.push(`save:${e.status}`)) },
    providers: { list: () => providers, get: (id) => providers.find((p) => p.view.id === id), defaultModel: () => ({ providerId: 'manual', modelId: 'manual' }) },
    logger: silentLogger,
    now: Date.now,
    inFlightCalls: () => Array.from({ length: opts.inFlight ?? 1 }, (_, i) => ({ callId: `c${i}`, kind: 'tools/call' as const, name: 'trigger-sampling-request' })),
    onRefused: (_s, m) => refused.push(english(m)),
    streamUpdateMs: 0,
    maxToolRounds: () => opts.maxToolRounds ?? 10,
  });
  const item = (): SamplingItemView => hub.items().at(-1) as SamplingItemView;
  const waitFor = async (pred: () => boolean) => {
    for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(pred()).toBe(true);
  };
  return { hub, pipeline, saved, order, llm, refused, item, waitFor };
}

const incoming = (p: unknown = params, signal = new AbortController().signal) => ({ kind: 'sampling' as const, serverId: 'everything', era: 'legacy' as const, params: p, signal });

describe('sampling pipeline', () => {
  it('queues a valid request for review, linked to the call in flight, and records it', () => {
    const t = setup();
    void t.pipeline.handle(incoming());
    expect(t.item()).toMatchObject({ status: 'awaiting_request_review', serverId: 'everything', association: { exact: true, calls: [{ name: 'trigger-sampling-request' }] } });
    expect(t.saved.at(-1)).toMatchObject({ status: 'awaiting_request_review', preview: 'Write a haiku' });
    // Its "received" event says what came in as a message code (History shows it in the person's language).
    expect(t.saved.at(-1)!.events).toEqual([
      { at: expect.any(Number), kind: 'received', detail: '1 message, maxTokens 100, round 1', detailUi: { code: 'event.receivedOne', params: { count: 1, maxTokens: 100, round: 1 } } },
    ]);
  });

  it('approve with edits → generate → edit response → deliver: the server gets the edited response, history first', async () => {
    const t = setup();
    const result = t.pipeline.handle(incoming());
    const edited = { ...params, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Write a limerick' } }], maxTokens: 50 };
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, edited, { providerId: 'llm', modelId: 'model-b' });
    await t.waitFor(() => t.item().status === 'awaiting_response_review');
    expect(t.llm.calls[0]!.params.messages[0]!.content).toEqual({ type: 'text', text: 'Write a limerick' });
    expect(t.llm.calls[0]!.params.maxTokens).toBe(50);
    expect(t.llm.calls[0]!.modelId).toBe('model-b');
    expect(t.item().model).toMatchObject({ modelId: 'model-b', overridden: true });
    const final: CreateMessageResult = { role: 'assistant', content: { type: 'text', text: 'edited answer' }, model: 'model-b', stopReason: 'endTurn' };
    let settledAfter = -1;
    void result.then(() => (settledAfter = t.order.length));
    t.pipeline.approveResponse(t.item().id, t.item().contentVersion!, final);
    await expect(result).resolves.toEqual(final);
    expect(t.order[settledAfter - 1]).toBe('save:delivered');
    const entry = t.saved.at(-1)!;
    expect(entry).toMatchObject({ status: 'delivered', edited: true, decidedBy: 'person', delivered: final, sent: edited, usage: { inputTokens: 3, outputTokens: 2 } });
    expect((entry.generated!.content as { text: string }).text).toBe('generated text');
    expect(entry.original).toEqual(params);
  });

  it('reject answers the server with -1 "User rejected sampling request"', async () => {
    const t = setup();
    const result = t.pipeline.handle(incoming());
    t.pipeline.rejectRequest(t.item().id, t.item().contentVersion!, 'not today');
    await expect(result).rejects.toMatchObject({ code: -1, message: expect.stringContaining('User rejected sampling request') });
    expect(t.item()).toMatchObject({ status: 'rejected', outcome: { code: -1 } });
    expect(t.saved.at(-1)).toMatchObject({ status: 'rejected', decidedBy: 'person' });
  });

  it('rejecting the response also answers -1', async () => {
    const t = setup();
    const result = t.pipeline.handle(incoming());
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'llm', modelId: 'model-a' });
    await t.waitFor(() => t.item().status === 'awaiting_response_review');
    t.pipeline.rejectResponse(t.item().id, t.item().contentVersion!);
    await expect(result).rejects.toMatchObject({ code: -1 });
  });

  it('manual provider: approval opens an empty response for the person to write; empty text is refused', async () => {
    const t = setup();
    const result = t.pipeline.handle(incoming());
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'manual', modelId: 'manual' });
    expect(t.item()).toMatchObject({ status: 'awaiting_response_review', response: { manual: true } });
    expect(() => t.pipeline.approveResponse(t.item().id, t.item().contentVersion!, { role: 'assistant', content: { type: 'text', text: '  ' }, model: 'manual' })).toThrow(/Write a response/);
    t.pipeline.approveResponse(t.item().id, t.item().contentVersion!, { role: 'assistant', content: { type: 'text', text: 'by hand' }, model: 'manual', stopReason: 'endTurn' });
    await expect(result).resolves.toMatchObject({ content: { text: 'by hand' } });
  });

  it('a provider failure returns the item to request review with the error, and it can be retried', async () => {
    const t = setup();
    void t.pipeline.handle(incoming());
    t.llm.script(async () => {
      throw new ProviderError('llm: 401 Unauthorized — check the API key', 'auth', false, 401);
    });
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'llm', modelId: 'model-a' });
    await t.waitFor(() => t.item().status === 'awaiting_request_review');
    expect(t.item().error?.message).toContain('401');
    expect(t.item().error?.failure).toBe('auth'); // the kind the review's headline is worded from
    t.llm.script(async () => ({ text: 'second try' }));
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'llm', modelId: 'model-a' });
    await t.waitFor(() => t.item().status === 'awaiting_response_review');
    expect(t.item().error).toBeUndefined();
  });

  it('cancelGeneration aborts the provider call and returns to request review', async () => {
    const t = setup();
    void t.pipeline.handle(incoming());
    t.llm.script((input) => new Promise((_r, reject) => input.signal.addEventListener('abort', () => reject(new Error('aborted')))));
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'llm', modelId: 'model-a' });
    expect(t.item().status).toBe('generating');
    t.pipeline.cancelGeneration(t.item().id);
    await t.waitFor(() => t.item().status === 'awaiting_request_review');
    expect(t.llm.calls[0]!.signal.aborted).toBe(true);
    expect(t.item().error).toBeUndefined();
  });

  it('server cancellation ends the item; a late decision is refused and sends nothing', async () => {
    const t = setup();
    const ac = new AbortController();
    const result = t.pipeline.handle(incoming(params, ac.signal));
    result.catch(() => undefined);
    ac.abort(new Error('Request cancelled by server'));
    expect(t.item()).toMatchObject({ status: 'cancelled', outcome: { message: 'The server cancelled the request' } });
    await expect(t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'manual', modelId: 'manual' })).rejects.toThrow(/already ended.*Nothing was sent/);
    expect(t.saved.at(-1)).toMatchObject({ status: 'cancelled', decidedBy: 'console' });
  });

  it("the typed abort cause decides the ending, and the server's own reason is recorded as its words", async () => {
    const t = setup();
    const ac = new AbortController();
    t.pipeline.handle(incoming(params, ac.signal)).catch(() => undefined);
    ac.abort(new RequestAbort('server_timeout', 'Request timed out after 600 ms'));
    expect(t.item()).toMatchObject({ status: 'timed_out', outcome: { ui: { code: 'outcome.serverTimeout' }, stopped: 'server_stopped_waiting' } });
    expect(t.saved.at(-1)?.events).toContainEqual(expect.objectContaining({ kind: 'server_reason', detail: 'Request timed out after 600 ms' }));
  });

  it('an invalid request is answered -32602 before anyone sees it, and recorded with its rule', async () => {
    const t = setup();
    await expect(t.pipeline.handle(incoming({ messages: [{ role: 'system', content: { type: 'text', text: 'x' } }], maxTokens: 5 }))).rejects.toMatchObject({ code: -32602 });
    expect(t.hub.snapshot().items).toHaveLength(0);
    expect(t.saved.at(-1)).toMatchObject({ status: 'failed', decidedBy: 'console', errorDetail: { rule: 'S-MSG-1', code: -32602 } });
    expect(t.refused[0]).toContain('S-MSG-1');
  });

  it('S-ASSOC-1: a request with no call of ours in flight is refused with -32602', async () => {
    const t = setup({ inFlight: 0 });
    await expect(t.pipeline.handle(incoming())).rejects.toMatchObject({ code: -32602 });
    expect(t.saved.at(-1)!.errorDetail?.rule).toBe('S-ASSOC-1');
  });

  it('an edit that breaks the request is refused with a clear error and the item stays reviewable', async () => {
    const t = setup();
    void t.pipeline.handle(incoming());
    const bad = { ...params, maxTokens: -1 } as CreateMessageParams;
    await expect(t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, bad, { providerId: 'manual', modelId: 'manual' })).rejects.toBeInstanceOf(ApiError);
    expect(t.item().status).toBe('awaiting_request_review');
  });

  it('with several calls in flight the association lists all of them and is not exact', () => {
    const t = setup({ inFlight: 2 });
    void t.pipeline.handle(incoming());
    expect(t.item().association).toMatchObject({ exact: false });
    expect(t.item().association.calls).toHaveLength(2);
  });
});
