/**
 * The Anthropic Messages codec: pure parse checks, and the official `@anthropic-ai/sdk` as a
 * client of a loopback server that answers with nothing but the codec (JSON, streams, errors).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Anthropic, { APIError } from '@anthropic-ai/sdk';
import { validateSamplingRequest } from '../../shared/domain/validate-sampling.js';
import {
  anthropicCodec,
  codecFor,
  IMAGE_URL_REFUSED,
  type GatewayCall,
  type GatewayReply,
} from '../../main/gateway/wire/index.js';
import { sseEvents, startWireServer, type WireServer, textReplyWith } from './wire-server.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Parses `body`, failing the test when the codec refuses it. */
function parseOk(body: unknown): GatewayCall {
  const out = anthropicCodec.parse(body);
  if (!out.ok) throw new Error(`refused: ${JSON.stringify(out.error)}`);
  return out.call;
}

describe('anthropic parse: requests as MCP sampling params', () => {
  it('translates a tool round trip, splitting tool results from the text that follows them', () => {
    const call = parseOk({
      model: 'claude-test-model',
      max_tokens: 512,
      system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use tools.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should call the tool.', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }], is_error: false },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
      tools: [{ name: 'weather', description: 'Current weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
      tool_choice: { type: 'any' },
      temperature: 0.5,
      stop_sequences: ['END'],
      top_k: 5,
      metadata: { user_id: 'u' },
    });
    expect(call).toMatchObject({ api: 'anthropic', requestedModel: 'claude-test-model', stream: false });
    expect(call.ignored).toEqual(['top_k', 'metadata', 'system[1].cache_control', 'messages[1].content[0] (thinking)']);
    expect(call.params).toEqual({
      systemPrompt: 'Be brief.\n\nUse tools.',
      maxTokens: 512,
      temperature: 0.5,
      stopSequences: ['END'],
      modelPreferences: { hints: [{ name: 'claude-test-model' }] },
      tools: [{ name: 'weather', description: 'Current weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
      toolChoice: { mode: 'required' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'toolu_1',
              content: [{ type: 'text', text: 'sunny' }, { type: 'image', data: PNG, mimeType: 'image/png' }],
              isError: false,
            },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
      ],
    });
    expect(validateSamplingRequest(call.params, { toolsDeclared: true })).toMatchObject({ ok: true });
  });

  it('turns a base64 image into an image block and refuses a url source with its param', () => {
    const image = (source: unknown) => ({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image', source }] }] });
    const call = parseOk(image({ type: 'base64', media_type: 'image/png', data: PNG }));
    expect(call.params.messages[0]?.content).toEqual([{ type: 'text', text: 'see' }, { type: 'image', data: PNG, mimeType: 'image/png' }]);
    expect(validateSamplingRequest(call.params, { toolsDeclared: true })).toMatchObject({ ok: true });
    expect(anthropicCodec.parse(image({ type: 'url', url: 'https://example.com/cat.png' }))).toEqual({
      ok: false,
      error: { status: 400, kind: 'invalid_request', message: IMAGE_URL_REFUSED, param: 'messages[0].content[1].source.url' },
    });
  });

  it.each([
    [{ type: 'auto' }, { mode: 'auto' }, ['a', 'b']],
    [{ type: 'none' }, { mode: 'none' }, ['a', 'b']],
    [{ type: 'tool', name: 'b' }, { mode: 'required' }, ['b']],
  ])('maps tool_choice %j', (choice, mode, names) => {
    const call = parseOk({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      tools: ['a', 'b'].map((name) => ({ name, input_schema: { type: 'object' } })),
      tool_choice: choice,
    });
    expect(call.params.toolChoice).toEqual(mode);
    expect(call.params.tools?.map((t) => t.name)).toEqual(names);
  });

  it.each([
    ['no max_tokens', { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 'max_tokens', 'max_tokens: Field required'],
    ['no model', { max_tokens: 5, messages: [] }, 'model', 'model: Field required'],
    ['no messages', { model: 'm', max_tokens: 5, messages: [] }, 'messages', 'messages: at least one message is required'],
    [
      'a server tool',
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'web_search_20250305', name: 'web_search' }] },
      'tools[0].type',
      'server tools',
    ],
    [
      'a document block',
      { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] },
      'messages[0].content[0].type',
      'unsupported content block type "document"',
    ],
    [
      'a tool_result in an assistant message',
      { model: 'm', max_tokens: 5, messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'x' }] }] },
      'messages[0].content[0]',
      'user messages',
    ],
    ['a temperature above 1', { model: 'm', max_tokens: 5, temperature: 1.5, messages: [{ role: 'user', content: 'hi' }] }, 'temperature', 'temperature'],
  ])('refuses %s with a 400 naming the param', (_name, body, param, message) => {
    const out = anthropicCodec.parse(body);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toMatchObject({ status: 400, kind: 'invalid_request', param });
    expect(out.error.message).toContain(message);
  });

  it('is the codec codecFor("anthropic") returns; overloaded is 529', () => {
    expect(codecFor('anthropic')).toBe(anthropicCodec);
    expect(anthropicCodec.error('overloaded', 'busy')).toEqual({ status: 529, kind: 'overloaded', message: 'busy' });
  });
});

const textReply = (text: string, extra: Partial<GatewayReply['result']> = {}): GatewayReply => textReplyWith('msg_test1', text, extra);

const toolReply: GatewayReply = {
  id: 'msg_test2',
  created: 1_700_000_001,
  result: {
    role: 'assistant',
    model: 'reviewed-model',
    stopReason: 'toolUse',
    content: [
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_a', name: 'weather', input: { city: 'Paris', days: [1, 2] } },
      { type: 'tool_use', id: 'toolu_b', name: 'clock', input: {} },
    ],
  },
  usage: { inputTokens: 30, outputTokens: 9 },
};

describe('anthropic parse: system messages, prompt caching', () => {
  it('carries messages of role system into the system prompt, in order after `system`, naming where they were', () => {
    const call = parseOk({
      model: 'claude-x',
      max_tokens: 50,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'system', content: 'Note one.' },
        { role: 'assistant', content: 'Hi.' },
        { role: 'system', content: [{ type: 'text', text: 'Note two.' }, { type: 'text', text: 'Same note.' }] },
        { role: 'user', content: 'Go on.' },
      ],
    });
    expect(call.params.systemPrompt).toBe('Be brief.\n\nNote one.\n\nNote two.\nSame note.');
    expect(call.params.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(call.movedToSystem).toEqual(['messages[1]', 'messages[3]']);
  });

  it('refuses a system message holding other blocks, and messages holding only system ones', () => {
    const image = anthropicCodec.parse({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }, { role: 'system', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }] });
    expect(!image.ok && image.error).toMatchObject({ status: 400, param: 'messages[1].content[0]' });
    const none = anthropicCodec.parse({ model: 'c', max_tokens: 5, messages: [{ role: 'system', content: 'only notes' }] });
    expect(!none.ok && none.error).toMatchObject({ status: 400, param: 'messages' });
  });

  it('lists every cache_control mark and the fields not carried (thinking, metadata)', () => {
    const call = parseOk({
      model: 'claude-x',
      max_tokens: 50,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      metadata: { user_id: 'u' },
      tools: [{ name: 't', input_schema: { type: 'object' }, cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 't', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: [{ type: 'text', text: 'r', cache_control: { type: 'ephemeral' } }] }] },
      ],
    });
    expect(call.ignored).toEqual(['thinking', 'metadata', 'tools[0].cache_control', 'messages[0].content[0].cache_control', 'messages[2].content[0].content[0].cache_control']);
  });
});

describe('anthropic SDK against the codec', () => {
  let server: WireServer;
  let client: Anthropic;
  const ask = { model: 'claude-test-model', max_tokens: 256, messages: [{ role: 'user' as const, content: 'hi' }] };

  beforeAll(async () => {
    server = await startWireServer(anthropicCodec);
    client = new Anthropic({ baseURL: server.url, apiKey: 'test-key', maxRetries: 0 });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.script = {};
  });

  it('reads a text message: content, stop reason, model, usage', async () => {
    server.script = { reply: textReply('Hello there.') };
    const out = await client.messages.create({ ...ask, metadata: { user_id: 'u1' } });
    expect(out).toMatchObject({
      id: 'msg_test1',
      type: 'message',
      role: 'assistant',
      model: 'reviewed-model',
      content: [{ type: 'text', text: 'Hello there.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 5 },
    });
    expect(server.calls.at(-1)).toMatchObject({ requestedModel: 'claude-test-model', params: { maxTokens: 256 }, ignored: ['metadata'] });
  });

  it('reads tool_use blocks and stop_reason tool_use; maxTokens is max_tokens', async () => {
    server.script = { reply: toolReply };
    const out = await client.messages.create(ask);
    expect(out.stop_reason).toBe('tool_use');
    expect(out.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_a', name: 'weather', input: { city: 'Paris', days: [1, 2] } },
      { type: 'tool_use', id: 'toolu_b', name: 'clock', input: {} },
    ]);
    server.script = { reply: textReply('cut', { stopReason: 'maxTokens' }) };
    expect((await client.messages.create(ask)).stop_reason).toBe('max_tokens');
  });

  it('messages.stream().finalMessage() assembles streamed text and tool_use (with pings)', async () => {
    server.script = { reply: toolReply, deltas: ['Let me', ' check.'], pings: true };
    const stream = client.messages.stream(ask);
    const texts: string[] = [];
    stream.on('text', (t) => texts.push(t));
    const final = await stream.finalMessage();
    expect(texts).toEqual(['Let me', ' check.']);
    expect(final.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_a', name: 'weather', input: { city: 'Paris', days: [1, 2] } },
      { type: 'tool_use', id: 'toolu_b', name: 'clock', input: {} },
    ]);
    expect(final).toMatchObject({ id: 'msg_test2', stop_reason: 'tool_use', usage: { input_tokens: 30, output_tokens: 9 } });
  });

  it('finalMessage() gets the reply text when nothing was streamed, and only the rest after a prefix', async () => {
    server.script = { reply: textReply('All at once.') };
    const whole = await client.messages.stream(ask).finalMessage();
    expect(whole.content).toEqual([{ type: 'text', text: 'All at once.' }]);
    expect(whole.model).toBe('reviewed-model');
    server.script = { reply: textReply('Hello there.'), deltas: ['Hel'] };
    const rest = await client.messages.stream(ask).finalMessage();
    expect(rest.content).toEqual([{ type: 'text', text: 'Hello there.' }]);
  });

  it('create({stream: true}) yields the events in Anthropic order', async () => {
    server.script = { reply: toolReply, deltas: ['Let me check.'] };
    const stream = await client.messages.create({ ...ask, stream: true });
    const events: string[] = [];
    for await (const event of stream) {
      events.push(event.type === 'content_block_delta' ? `${event.type}:${event.index}:${event.delta.type}` : 'index' in event ? `${event.type}:${event.index}` : event.type);
    }
    expect(events).toEqual([
      'message_start',
      'content_block_start:0',
      'content_block_delta:0:text_delta',
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_delta:1:input_json_delta',
      'content_block_stop:1',
      'content_block_start:2',
      'content_block_delta:2:input_json_delta',
      'content_block_stop:2',
      'message_delta',
      'message_stop',
    ]);
    const named = sseEvents(server.lastAnswer).map((e) => [e.event, (e.data as { type: string }).type]);
    expect(named.every(([event, type]) => event === type)).toBe(true);
  });

  it('a 403 from the reviewer is a PermissionDeniedError carrying the message', async () => {
    server.script = { error: anthropicCodec.error('permission', 'The request was rejected by the reviewer.') };
    const err = await client.messages.create(ask).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((err as APIError).status).toBe(403);
    expect((err as APIError).message).toContain('rejected by the reviewer');
    expect((err as APIError).type).toBe('permission_error');
  });

  it('a missing max_tokens is a BadRequestError; 401 an AuthenticationError; overloaded a 529', async () => {
    const bad = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
    const refused = await client.messages
      .create({ ...ask, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as APIError).message).toContain('data: URL');
    server.script = { error: anthropicCodec.error('authentication', 'invalid x-api-key') };
    expect(await client.messages.create(ask).catch((e: unknown) => e)).toBeInstanceOf(Anthropic.AuthenticationError);
    server.script = { error: anthropicCodec.error('overloaded', 'The console is busy.') };
    const busy = await client.messages.create(ask).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(Anthropic.InternalServerError);
    expect((busy as APIError).status).toBe(529);
    expect((busy as APIError).type).toBe('overloaded_error');
  });

  it('a mid-stream error makes raw iteration and finalMessage() throw an APIError with the message', async () => {
    const script = {
      reply: textReply('unused'),
      deltas: ['Partial'],
      midStreamError: anthropicCodec.error('permission', 'The response was rejected by the reviewer.'),
    };
    server.script = script;
    const stream = await client.messages.create({ ...ask, stream: true });
    const types: string[] = [];
    const err = await (async () => {
      for await (const event of stream) types.push(event.type);
    })().catch((e: unknown) => e);
    expect(types).toEqual(['message_start', 'content_block_start', 'content_block_delta']);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toContain('rejected by the reviewer');
    expect((err as APIError).type).toBe('permission_error');

    server.script = script;
    const viaHelper = await client.messages.stream(ask).finalMessage().catch((e: unknown) => e);
    expect(viaHelper).toBeInstanceOf(APIError);
    expect((viaHelper as APIError).message).toContain('rejected by the reviewer');
  });
});
