/**
 * The gateway's endpoints beyond Chat Completions and Messages, called through the real console by
 * the official `openai` and `@anthropic-ai/sdk` clients (base URL + a gateway token); the console's
 * providers are the loopback OpenAI fake (answering through the Responses API) and the Anthropic
 * fake:
 *
 * - the Responses API, reviewed (an edited answer) and auto-approved (an approve_all rule), plain
 *   and streamed, with function tools, `previous_response_id` and `item_reference` resolved from
 *   History, `GET /responses/{id}`, and the two 404s (never answered; no longer in History);
 * - embeddings: one item however many inputs, reviewed or approved by a rule, vectors unreviewed;
 * - the model lists, count_tokens, Anthropic paths with and without `/v1`, `system` messages after
 *   the first turn, what is not carried over (cache_control, thinking, metadata, betas);
 * - an unknown path's 404 lists the endpoints served.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RulesFile } from '../../shared/contract/rules.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { startAnthropicServer, type AnthropicServer } from '../fixtures/anthropic-server.js';
import { fixtureVector } from '../fixtures/openai-compatible-server.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import { seenVersion, startHarness, type Harness, type WholeState } from '../support/console-harness.js';

let oa: OpenAIServer;
let claude: AnthropicServer;
let h: Harness;
let url: string;
const tokens = { person: '', auto: '' };

const openai = (who: keyof typeof tokens = 'person') => new OpenAI({ baseURL: `${url}/openai/v1`, apiKey: tokens[who], maxRetries: 0 });
const anthropic = (who: keyof typeof tokens = 'person') => new Anthropic({ baseURL: `${url}/anthropic`, apiKey: tokens[who], maxRetries: 0 });
const waiting = (s: WholeState) => s.items.find((i) => i.serverId === 'gateway:person' && i.status === 'awaiting_request_review');

/** The next call of the `person` token waiting for review. */
async function nextCall(): Promise<SamplingItemView> {
  return waiting(await h.waitFor((s) => waiting(s) !== undefined, 'a call waiting for review'))!;
}

/** Approves the request as it is, then the response with its text replaced by `text`. */
async function approveWithText(item: SamplingItemView, text: string): Promise<void> {
  await h.service.approveRequest({ itemId: item.id, version: await seenVersion(h, item.id), params: item.original, model: item.model });
  const s = await h.waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'the response to review');
  const draft = s.items.find((i) => i.id === item.id)!.response!.draft;
  await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { ...draft, content: { type: 'text', text } } });
}

const weather = { type: 'function' as const, name: 'weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true };

beforeAll(async () => {
  oa = await startOpenAIServer({ models: ['gpt-4o-mini'] });
  claude = await startAnthropicServer();
  h = await startHarness({
    servers: {},
    providers: {
      providers: [
        { id: 'oa', kind: 'openai', baseURL: oa.baseURL, models: ['gpt-4o-mini', 'text-embedding-3-small'] },
        { id: 'claude', kind: 'anthropic', baseURL: claude.baseURL, models: ['claude-sonnet-4-5'] },
      ],
      defaultProvider: 'oa',
      defaultModel: 'gpt-4o-mini',
    },
  });
  url = (await h.state()).gateway!.url!;
  tokens.person = (await h.service.createGatewayToken({ name: 'person' })).token;
  tokens.auto = (await h.service.createGatewayToken({ name: 'auto' })).token;
  const rules = { version: 1, servers: { 'gateway:auto': { rules: [{ id: 'all', name: 'Bulk jobs', when: {}, action: { kind: 'approve_all' } }] } } } as unknown as RulesFile;
  await h.service.saveRules({ rules });
}, 60_000);

afterAll(async () => {
  await h?.dispose();
  await oa?.close();
  await claude?.close();
});

describe('the Responses API', () => {
  it('reviewed: waits as a Responses call; the edited answer reaches the caller; GET answers it again; previous_response_id continues it', async () => {
    const answer = openai().responses.create({ model: 'gpt-4o-mini', instructions: 'Be brief.', input: 'Summarize the meeting', top_p: 0.5 });
    const item = await nextCall();
    expect(item.gateway).toMatchObject({ api: 'openai', endpoint: 'responses', requestedModel: 'gpt-4o-mini', stream: false, ignored: ['top_p'] });
    expect(item.original).toMatchObject({ systemPrompt: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarize the meeting' }] }] });
    await approveWithText(item, 'Budgets.');
    const first = await answer;
    expect(first).toMatchObject({ object: 'response', status: 'completed', instructions: 'Be brief.', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Budgets.' }] }] });
    expect(first.output_text).toBe('Budgets.');
    expect(first.id).toMatch(/^resp_[\da-f]{40}$/);
    expect(first.usage?.input_tokens).toBeGreaterThan(0);
    expect(oa.requests.at(-1)!.path).toBe('/v1/responses');

    const again = await openai().responses.retrieve(first.id);
    expect(again).toMatchObject({ id: first.id, status: 'completed', output: [{ type: 'message', content: [{ text: 'Budgets.' }] }] });

    const next = openai().responses.create({ model: 'gpt-4o-mini', previous_response_id: first.id, input: 'And the decisions?' });
    const follow = await nextCall();
    expect(follow.gateway).toMatchObject({ endpoint: 'responses', previousResponseId: first.id });
    expect(follow.original.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Summarize the meeting' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Budgets.' }] },
      { role: 'user', content: [{ type: 'text', text: 'And the decisions?' }] },
    ]);
    expect(follow.original.systemPrompt).toBeUndefined(); // instructions are not carried over, as OpenAI does
    await approveWithText(follow, 'None.');
    expect((await next).output_text).toBe('None.');
  }, 60_000);

  it('an id it never gave, and one History no longer holds: 404s in OpenAI’s shape saying which', async () => {
    const never = await openai().responses.create({ model: 'gpt-4o-mini', previous_response_id: 'resp_0123456789abcdef', input: 'hi' }).catch((e: unknown) => e);
    expect(never).toBeInstanceOf(OpenAI.NotFoundError);
    expect((never as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({ type: 'not_found_error', param: 'previous_response_id', message: expect.stringContaining('No response or item') });
    expect((await h.state()).items.filter((i) => i.status === 'awaiting_request_review')).toHaveLength(0);

    const first = await openai('auto').responses.create({ model: 'gpt-4o-mini', input: 'to be deleted' });
    const page = await h.service.listHistory({ limit: 1, offset: 0 });
    await h.service.deleteHistory({ ids: [page.entries[0]!.id] });
    const gone = await openai('auto').responses.create({ model: 'gpt-4o-mini', previous_response_id: first.id, input: 'hi' }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError);
    expect((gone as Error).message).toContain('History no longer holds it');
    await expect(openai('auto').responses.retrieve(first.id)).rejects.toThrow(/History no longer holds it/);
    // Another caller's response is one it never saw.
    const mine = await openai('auto').responses.create({ model: 'gpt-4o-mini', input: 'mine' });
    await expect(openai('person').responses.retrieve(mine.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  }, 60_000);

  it('auto-approved and streamed: the event sequence, the provider’s deltas one by one, usage', async () => {
    oa.script({ chunks: ['One ', 'two ', 'three.'], delayMs: 20 });
    const stream = await openai('auto').responses.create({ model: 'gpt-4o-mini', input: 'count', stream: true });
    const types: string[] = [];
    const deltas: string[] = [];
    let done: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') deltas.push(event.delta);
      if (event.type === 'response.completed') done = event.response;
    }
    expect(deltas).toEqual(['One ', 'two ', 'three.']);
    expect(types.filter((t, i) => t !== types[i - 1])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(done).toMatchObject({ status: 'completed', output: [{ type: 'message', content: [{ text: 'One two three.' }] }], usage: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) } });
  }, 30_000);

  it('function tools: a function_call answered with function_call_output, continued by previous_response_id or by item_reference', async () => {
    oa.script({ toolCalls: [{ id: 'call_w1', name: 'weather', arguments: { city: 'Paris' } }] });
    const stream = openai('auto').responses.stream({ model: 'gpt-4o-mini', input: 'Weather in Paris?', tools: [weather] });
    const args: string[] = [];
    stream.on('response.function_call_arguments.delta', (e) => args.push(e.delta));
    const first = await stream.finalResponse();
    const call = first.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call).toMatchObject({ type: 'function_call', call_id: 'call_w1', name: 'weather', status: 'completed' });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    expect(JSON.parse(args.join(''))).toEqual({ city: 'Paris' });

    oa.script({ text: 'Sunny in Paris.' });
    const second = await openai('auto').responses.create({ model: 'gpt-4o-mini', previous_response_id: first.id, tools: [weather], input: [{ type: 'function_call_output', call_id: 'call_w1', output: '21°C, sunny' }] });
    expect(second.output_text).toBe('Sunny in Paris.');
    const sent = oa.requests.at(-1)!.body as { input: Array<Record<string, unknown>> };
    expect(sent.input).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'function_call', call_id: 'call_w1' }), expect.objectContaining({ type: 'function_call_output', call_id: 'call_w1' })]));

    oa.script({ text: 'Still sunny.' });
    const third = await openai('auto').responses.create({
      model: 'gpt-4o-mini',
      tools: [weather],
      input: [{ role: 'user', content: 'Weather in Paris?' }, { type: 'item_reference', id: call.id! }, { type: 'function_call_output', call_id: 'call_w1', output: '22°C' }],
    });
    expect(third.output_text).toBe('Still sunny.');
    await expect(openai('auto').responses.create({ model: 'gpt-4o-mini', input: [{ type: 'item_reference', id: 'msg_abc' }] })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  }, 30_000);

  it('refuses what it cannot carry with a 400 naming the field: a built-in tool, a file', async () => {
    const err = await openai('auto').responses.create({ model: 'gpt-4o-mini', input: 'x', tools: [{ type: 'web_search' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'tools[0].type' });
    const file = await openai('auto').responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] }).catch((e: unknown) => e);
    expect((file as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'input[0].content[0]' });
  });
});

describe('embeddings', () => {
  it('reviewed: one item holding the input texts; the approved texts are embedded; the vectors reach the caller (the SDK’s base64) unreviewed', async () => {
    const answer = openai().embeddings.create({ model: 'text-embedding-3-small', input: ['first text', 'second text'] });
    const item = await nextCall();
    expect(item.gateway).toMatchObject({ endpoint: 'embeddings', requestedModel: 'text-embedding-3-small', embeddings: { inputs: 2 } });
    expect(item.original.messages.map((m) => m.content)).toEqual([[{ type: 'text', text: 'first text' }], [{ type: 'text', text: 'second text' }]]);
    expect(item.model).toMatchObject({ providerId: 'oa', modelId: 'text-embedding-3-small' });
    const edited = { ...item.original, messages: [item.original.messages[0]!, { role: 'user' as const, content: [{ type: 'text' as const, text: 'second text, redacted' }] }] };
    await h.service.approveRequest({ itemId: item.id, version: await seenVersion(h, item.id), params: edited, model: item.model });
    const out = await answer;
    expect(out.data.map((d) => d.embedding.map((x) => Math.round(x * 100) / 100))).toEqual([fixtureVector('first text'), fixtureVector('second text, redacted')].map((v) => v.map((x) => Math.round(x * 100) / 100)));
    expect(oa.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { input: ['first text', 'second text, redacted'] } });
    const entry = await h.service.getHistoryEntry({ id: item.id });
    expect(entry).toMatchObject({ kind: 'provider_call', status: 'delivered', gateway: { endpoint: 'embeddings' }, edited: true });
    expect(entry!.events.map((e) => e.kind)).toContain('embedded');
  }, 30_000);

  it('a rule approves a bulk job: floats, dimensions carried', async () => {
    const out = await openai('auto').embeddings.create({ model: 'text-embedding-3-small', input: Array.from({ length: 50 }, (_, i) => `row ${i}`), encoding_format: 'float', dimensions: 3 });
    expect(out.data).toHaveLength(50);
    expect(out.data[7]!.embedding).toEqual(fixtureVector('row 7', 3));
    expect(out.usage.prompt_tokens).toBeGreaterThan(0);
    const page = await h.service.listHistory({ limit: 1, offset: 0 });
    expect(page.entries[0]).toMatchObject({ kind: 'provider_call', serverId: 'gateway:auto', status: 'delivered', decidedBy: 'rule' });
  }, 30_000);
});

describe('models, token counts, paths', () => {
  it('lists the models a caller may ask for, in each API’s shape', async () => {
    const list = await openai().models.list();
    expect(list.data.map((m) => m.id)).toEqual(['gpt-4o-mini', 'text-embedding-3-small', 'claude-sonnet-4-5']);
    expect(await openai().models.retrieve('claude-sonnet-4-5')).toMatchObject({ id: 'claude-sonnet-4-5', object: 'model', owned_by: 'claude' });
    await expect(openai().models.retrieve('gpt-9')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const anthropicList = await anthropic().models.list();
    expect(anthropicList.data.map((m) => m.id)).toEqual(['gpt-4o-mini', 'text-embedding-3-small', 'claude-sonnet-4-5']);
    expect(anthropicList.data[0]).toMatchObject({ type: 'model', display_name: 'gpt-4o-mini' });
  });

  it('count_tokens estimates the input tokens without calling a provider', async () => {
    const before = claude.requests.length;
    const counted = await anthropic().messages.countTokens({ model: 'claude-sonnet-4-5', system: 'Be brief.', messages: [{ role: 'user', content: 'x'.repeat(400) }] });
    expect(counted.input_tokens).toBe(Math.ceil((400 + 'Be brief.'.length) / 4));
    expect(claude.requests.length).toBe(before);
  });

  it('Anthropic: /anthropic/messages as /anthropic/v1/messages; system messages after the first turn carried into the system prompt; what is not carried listed', async () => {
    const answer = fetch(`${url}/anthropic/messages`, {
      method: 'POST',
      headers: { 'x-api-key': tokens.person, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-2024-07-31', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        system: 'Be brief.',
        thinking: { type: 'enabled', budget_tokens: 1024 },
        metadata: { user_id: 'u1' },
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hello', cache_control: { type: 'ephemeral' } }] },
          { role: 'assistant', content: 'Hi.' },
          { role: 'system', content: 'The working directory is /tmp.' },
          { role: 'user', content: 'List it.' },
        ],
      }),
    });
    const item = await nextCall();
    expect(item.gateway).toMatchObject({ api: 'anthropic', endpoint: 'messages', movedToSystem: ['messages[2]'] });
    expect(item.gateway!.ignored).toEqual(['thinking', 'metadata', 'messages[0].content[0].cache_control', 'anthropic-beta (prompt-caching-2024-07-31)']);
    expect(item.original.systemPrompt).toBe('Be brief.\n\nThe working directory is /tmp.');
    expect(item.original.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    await approveWithText(item, 'tmp is empty.');
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'tmp is empty.' }] });
  }, 30_000);

  it('an unknown path is a 404 in the provider’s shape naming the endpoints served; a served path with another method a 405', async () => {
    const res = await fetch(`${url}/openai/v1/assistants`, { method: 'POST', headers: { authorization: `Bearer ${tokens.person}` }, body: '{}' });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { type: string; message: string }; endpoints: string[] };
    expect(body.error.type).toBe('not_found_error');
    expect(body.endpoints).toEqual(expect.arrayContaining(['POST /openai/v1/responses', 'POST /openai/v1/embeddings', 'GET /anthropic/v1/models', 'POST /anthropic/v1/messages/count_tokens']));
    expect(body.error.message).toContain('POST /openai/v1/chat/completions');
    const anth = await fetch(`${url}/anthropic/v1/complete`, { method: 'POST', headers: { 'x-api-key': tokens.person }, body: '{}' });
    expect(await anth.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' }, endpoints: expect.any(Array) });
    const wrong = await fetch(`${url}/openai/v1/responses`, { headers: { authorization: `Bearer ${tokens.person}` } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });
});

describe('retention', () => {
  it('a response the retention settings pruned from History answers the 404 that says so', async () => {
    const old = await openai('auto').responses.create({ model: 'gpt-4o-mini', input: 'an old conversation' });
    await openai('auto').responses.create({ model: 'gpt-4o-mini', input: 'the newest conversation' });
    const { pruned } = await h.service.setHistorySettings({ retentionSessions: 1 });
    expect(pruned).toBeGreaterThan(0);
    try {
      const err = await openai('auto').responses.create({ model: 'gpt-4o-mini', previous_response_id: old.id, input: 'go on' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({ type: 'not_found_error', param: 'previous_response_id', message: expect.stringContaining('History no longer holds it') });
    } finally {
      await h.service.setHistorySettings({ retentionSessions: null });
    }
  }, 30_000);
});
