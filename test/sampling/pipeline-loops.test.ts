/**
 * Pipeline behaviour added for the full sampling spec: tool loops grouped into one conversation
 * with a round counter and a cap (S-LOOP-1, S-RES-1), progress while a person reviews, the intake
 * gate that records refusals before the SDK answers, and drafts re-opened from history.
 */
import { describe, expect, it } from 'vitest';
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { HistoryEntry, SamplingItemView } from '../../shared/contract/state.js';
import type { LlmProvider } from '../../main/llm/provider.js';
import { createSamplingPipeline } from '../../main/sampling/pipeline.js';
import { createStateHub } from '../../main/state-hub.js';
import { silentLogger } from '../../main/ports.js';

const manual: LlmProvider = { view: { id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false } };
const weatherTool = { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object' as const, properties: { city: { type: 'string' } } } };

function setup(maxToolRounds = 10, limits?: (serverId: string) => { maxMediaBytes?: number } | undefined) {
  const saved: HistoryEntry[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const pipeline = createSamplingPipeline({
    hub,
    history: { save: (e) => saved.push(structuredClone(e)) },
    providers: { list: () => [manual], get: (id) => (id === 'manual' ? manual : undefined), defaultModel: () => ({ providerId: 'manual', modelId: 'manual' }) },
    logger: silentLogger,
    now: Date.now,
    inFlightCalls: () => [{ callId: 'c1', kind: 'tools/call', name: 'tool-loop' }],
    onRefused: () => undefined,
    maxToolRounds: () => maxToolRounds,
    limits,
  });
  const last = (): SamplingItemView => hub.items().at(-1) as SamplingItemView;
  /** Approves the newest request unchanged with the manual provider and delivers `result`. */
  const answer = async (result: CreateMessageResult) => {
    const item = last();
    await pipeline.approveRequest(item.id, item.contentVersion!, item.original, { providerId: 'manual', modelId: 'manual' });
    pipeline.approveResponse(item.id, hub.getItem(item.id)!.contentVersion!, result);
  };
  return { hub, pipeline, saved, last, answer };
}

const round1: CreateMessageParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris and Oslo?' } }],
  maxTokens: 200,
  tools: [weatherTool],
  toolChoice: { mode: 'auto' },
};
const toolUses: CreateMessageResult = {
  role: 'assistant',
  model: 'manual',
  stopReason: 'toolUse',
  content: [
    { type: 'tool_use', id: 'tu-paris', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'tool_use', id: 'tu-oslo', name: 'get_weather', input: { city: 'Oslo' } },
  ],
};
const round2: CreateMessageParams = {
  ...round1,
  messages: [
    ...round1.messages,
    { role: 'assistant', content: toolUses.content },
    {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 'tu-paris', content: [{ type: 'text', text: '18C' }] },
        { type: 'tool_result', toolUseId: 'tu-oslo', content: [{ type: 'text', text: '4C' }] },
      ],
    },
  ],
};
const incoming = (params: unknown, extra: Partial<{ progress: (m: string) => void; signal: AbortSignal }> = {}) => ({
  kind: 'sampling' as const,
  serverId: 'fixture',
  era: 'legacy' as const,
  params,
  signal: extra.signal ?? new AbortController().signal,
  progress: extra.progress,
});

describe('tool loops (S-RES-1, S-LOOP-1)', () => {
  it('S-RES-1: parallel tool_use delivered with stopReason toolUse; the follow-up joins the same conversation as round 2', async () => {
    const t = setup();
    const first = t.pipeline.handle(incoming(round1));
    const r1 = t.last();
    expect(r1.round).toBe(1);
    await t.answer(toolUses);
    await expect(first).resolves.toMatchObject({ stopReason: 'toolUse', content: [{ id: 'tu-paris' }, { id: 'tu-oslo' }] });
    void t.pipeline.handle(incoming(round2));
    const r2 = t.last();
    expect(r2).toMatchObject({ round: 2, conversationId: r1.conversationId });
    expect(r2.id).not.toBe(r1.id);
  });

  it('an unrelated request starts its own conversation', async () => {
    const t = setup();
    void t.pipeline.handle(incoming(round1));
    const a = t.last();
    void t.pipeline.handle(incoming({ ...round1, messages: [{ role: 'user', content: { type: 'text', text: 'other' } }] }));
    expect(t.last()).toMatchObject({ round: 1 });
    expect(t.last().conversationId).not.toBe(a.conversationId);
  });

  it('S-LOOP-1: past the per-server round cap the loop ends with -32050 and a history entry', async () => {
    const t = setup(1);
    const first = t.pipeline.handle(incoming(round1));
    await t.answer(toolUses);
    await first;
    await expect(t.pipeline.handle(incoming(round2))).rejects.toMatchObject({ code: -32050, message: expect.stringContaining('Tool loop limit reached') });
    expect(t.saved.at(-1)).toMatchObject({ status: 'failed', errorDetail: { rule: 'S-LOOP-1', code: -32050 } });
  });
});

describe('configurable size caps (S-SIZE-1)', () => {
  it('a per-server media cap refuses a larger image from that server only', async () => {
    const t = setup(10, (serverId) => (serverId === 'fixture' ? { maxMediaBytes: 1024 } : undefined));
    const image = { messages: [{ role: 'user', content: { type: 'image', data: 'A'.repeat(4096), mimeType: 'image/png' } }], maxTokens: 5 };
    await expect(t.pipeline.handle(incoming(image))).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('the limit is 1.0 KB') });
    expect(t.saved.at(-1)).toMatchObject({ errorDetail: { rule: 'S-SIZE-1' } });
    void t.pipeline.handle({ ...incoming(image), serverId: 'other' });
    expect(t.last()).toMatchObject({ serverId: 'other', status: 'awaiting_request_review' });
  });
});

describe('progress, intake gate, drafts', () => {
  it('sends progress while the person reviews and while it generates, only when the server asked', async () => {
    const t = setup();
    const messages: string[] = [];
    void t.pipeline.handle(incoming(round1, { progress: (m) => messages.push(m) }));
    await t.answer({ role: 'assistant', model: 'manual', content: { type: 'text', text: 'ok' } });
    expect(messages).toEqual(['awaiting review of the request', 'awaiting review of the response']);
  });

  it('a malformed request is recorded and answered -32602 with the rule and a readable message; a valid one is queued', async () => {
    const t = setup();
    await expect(t.pipeline.handle(incoming({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }))).rejects.toMatchObject({
      code: -32602,
      message: 'maxTokens is required',
    });
    expect(t.saved.at(-1)).toMatchObject({ status: 'failed', serverId: 'fixture', errorDetail: { code: -32602, rule: 'S-MAX-1' } });
    void t.pipeline.handle(incoming(round1));
    expect(t.last().status).toBe('awaiting_request_review');
  });

  it('re-opens a past request as a draft that no server waits for', async () => {
    const t = setup();
    const first = t.pipeline.handle(incoming(round1));
    await t.answer({ role: 'assistant', model: 'manual', content: { type: 'text', text: 'done' } });
    await first;
    const entry = t.saved.at(-1)!;
    const id = t.pipeline.reopenDraft(entry);
    expect(t.last()).toMatchObject({ id, origin: 'draft', status: 'awaiting_request_review', original: round1 });
    await t.answer({ role: 'assistant', model: 'manual', content: { type: 'text', text: 'again' } });
    expect(t.last().status).toBe('delivered');
  });

  it('a refused entry cannot be re-opened', () => {
    const t = setup();
    expect(() => t.pipeline.reopenDraft({ ...({} as HistoryEntry), id: 'x', original: { nope: 1 } })).toThrow(/no valid request/);
  });
});
