/**
 * The OpenAI Chat Completions codec: pure parse checks, and the official `openai` SDK as a client
 * of a loopback server that answers with nothing but the codec (JSON, streams, errors).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import OpenAI, { APIError } from 'openai';
import { validateSamplingRequest } from '../../shared/domain/validate-sampling.js';
import {
  codecFor,
  DEFAULT_MAX_TOKENS,
  IMAGE_URL_REFUSED,
  openAiCodec,
  type GatewayCall,
  type GatewayReply,
} from '../../main/gateway/wire/index.js';
import { sseEvents, startWireServer, type WireServer, textReplyWith } from './wire-server.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

/** Parses `body`, failing the test when the codec refuses it. */
function parseOk(body: unknown): GatewayCall {
  const out = openAiCodec.parse(body);
  if (!out.ok) throw new Error(`refused: ${JSON.stringify(out.error)}`);
  return out.call;
}

describe('openai parse: requests as MCP sampling params', () => {
  it('translates a tool round trip (assistant tool_calls, two tool messages, user follow-up)', () => {
    const call = parseOk({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use tools.' }] },
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'rain' }] },
        { role: 'user', content: 'Thanks. Which is warmer?' },
      ],
      tools: [
        { type: 'function', function: { name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
        { type: 'function', function: { name: 'clock' } },
      ],
      tool_choice: 'auto',
      temperature: 0.2,
      stop: 'END',
    });
    expect(call).toMatchObject({ api: 'openai', requestedModel: 'gpt-4o', stream: false, ignored: [] });
    expect(call.params).toEqual({
      systemPrompt: 'Be brief.\n\nUse tools.',
      maxTokens: DEFAULT_MAX_TOKENS,
      temperature: 0.2,
      stopSequences: ['END'],
      modelPreferences: { hints: [{ name: 'gpt-4o' }] },
      toolChoice: { mode: 'auto' },
      tools: [
        { name: 'weather', description: 'Current weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'clock', inputSchema: { type: 'object', properties: {} } },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_2', name: 'weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: 'sunny' }] },
            { type: 'tool_result', toolUseId: 'call_2', content: [{ type: 'text', text: 'rain' }] },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Thanks. Which is warmer?' }] },
      ],
    });
    expect(validateSamplingRequest(call.params, { toolsDeclared: true })).toMatchObject({ ok: true });
  });

  it('turns data: image URLs and input_audio into image and audio blocks', () => {
    const call = parseOk({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } },
            { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
            { type: 'input_audio', input_audio: { data: WAV, format: 'mp3' } },
          ],
        },
      ],
    });
    expect(call.params.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'audio', data: WAV, mimeType: 'audio/wav' },
          { type: 'audio', data: WAV, mimeType: 'audio/mpeg' },
        ],
      },
    ]);
    expect(validateSamplingRequest(call.params, { toolsDeclared: true })).toMatchObject({ ok: true });
  });

  it('refuses an http image URL, naming the part as param', () => {
    const out = openAiCodec.parse({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'x' },
        { role: 'user', content: 'hi' },
        { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] },
      ],
    });
    expect(out).toEqual({
      ok: false,
      error: { status: 400, kind: 'invalid_request', message: IMAGE_URL_REFUSED, param: 'messages[2].content[1].image_url' },
    });
  });

  it('takes max_completion_tokens over max_tokens, and defaults to DEFAULT_MAX_TOKENS', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    expect(parseOk(base).params.maxTokens).toBe(4096);
    expect(parseOk({ ...base, max_tokens: 50 }).params.maxTokens).toBe(50);
    expect(parseOk({ ...base, max_tokens: 50, max_completion_tokens: 70 }).params.maxTokens).toBe(70);
  });

  it('lists the fields it does not carry over (null ones are not listed)', () => {
    const call = parseOk({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      top_p: 0.9,
      response_format: { type: 'json_object' },
      seed: 7,
      user: null,
      n: 1,
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(call.ignored).toEqual(['top_p', 'response_format', 'seed', 'tool_choice']);
    expect(call).toMatchObject({ stream: true, streamUsage: true });
  });

  it('keeps only the named tool for a named tool_choice, as required', () => {
    const call = parseOk({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: ['a', 'b'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } })),
      tool_choice: { type: 'function', function: { name: 'b' } },
    });
    expect(call.params.tools).toEqual([{ name: 'b', inputSchema: { type: 'object' } }]);
    expect(call.params.toolChoice).toEqual({ mode: 'required' });
  });

  it.each([
    ['no model', { messages: [{ role: 'user', content: 'hi' }] }, 'model', "Missing required parameter: 'model'."],
    ['n > 1', { model: 'm', n: 2, messages: [{ role: 'user', content: 'hi' }] }, 'n', 'n must be 1'],
    [
      'arguments that are not a JSON object',
      { model: 'm', messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }] }] },
      'messages[0].tool_calls[0].function.arguments',
      'JSON object',
    ],
    ['an unknown part type', { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', file: {} }] }] }, 'messages[0].content[0].type', 'input_audio'],
    ['a bad temperature', { model: 'm', temperature: 3, messages: [{ role: 'user', content: 'hi' }] }, 'temperature', 'temperature'],
    ['a missing image url', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content[0].image_url.url', 'Missing'],
  ])('refuses %s with a 400 naming the param', (_name, body, param, message) => {
    const out = openAiCodec.parse(body);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.error).toMatchObject({ status: 400, kind: 'invalid_request', param });
    expect(out.error.message).toContain(message);
  });

  it('is the codec codecFor("openai") returns', () => {
    expect(codecFor('openai')).toBe(openAiCodec);
  });
});

const textReply = (text: string, extra: Partial<GatewayReply['result']> = {}): GatewayReply => textReplyWith('chatcmpl-test1', text, extra);

const toolReply: GatewayReply = {
  id: 'chatcmpl-test2',
  created: 1_700_000_001,
  result: {
    role: 'assistant',
    model: 'reviewed-model',
    stopReason: 'toolUse',
    content: [
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'call_a', name: 'weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'clock', input: {} },
    ],
  },
  usage: { inputTokens: 30, outputTokens: 9 },
};

describe('openai SDK against the codec', () => {
  let server: WireServer;
  let client: OpenAI;
  const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }] };

  beforeAll(async () => {
    server = await startWireServer(openAiCodec);
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test-key', maxRetries: 0 });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.script = {};
  });

  it('reads a text completion: content, finish reason, model, usage', async () => {
    server.script = { reply: textReply('Hello there.') };
    const out = await client.chat.completions.create({ ...ask, max_tokens: 64, top_p: 0.5 });
    expect(out.id).toBe('chatcmpl-test1');
    expect(out.model).toBe('reviewed-model');
    expect(out.choices[0]?.message.content).toBe('Hello there.');
    expect(out.choices[0]?.finish_reason).toBe('stop');
    expect(out.usage).toEqual({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    expect(server.calls.at(-1)).toMatchObject({ requestedModel: 'gpt-4o', params: { maxTokens: 64 }, ignored: ['top_p'] });
  });

  it('reads tool calls: ids, names, arguments, finish_reason tool_calls', async () => {
    server.script = { reply: toolReply };
    const out = await client.chat.completions.create(ask);
    const message = out.choices[0]!.message;
    expect(out.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message.content).toBe('Let me check.');
    const calls = (message.tool_calls ?? []).map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : []));
    expect(calls).toEqual([
      ['call_a', 'weather', { city: 'Paris' }],
      ['call_b', 'clock', {}],
    ]);
  });

  it('answers maxTokens as finish_reason length', async () => {
    server.script = { reply: textReply('cut', { stopReason: 'maxTokens' }) };
    const out = await client.chat.completions.create(ask);
    expect(out.choices[0]?.finish_reason).toBe('length');
  });

  it('streams chunks the SDK iterates: role, content deltas, finish, usage chunk (with keep-alives)', async () => {
    server.script = { reply: textReply('Hello there.'), deltas: ['Hello', ' there.'], pings: true };
    const stream = await client.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
    let text = '';
    const finishes: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.id).toBe('chatcmpl-test1');
      for (const c of chunk.choices) {
        text += c.delta.content ?? '';
        if (c.finish_reason) finishes.push(c.finish_reason);
      }
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello there.');
    expect(finishes).toEqual(['stop']);
    expect(usage).toEqual({ prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    expect(server.lastAnswer.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(sseEvents(server.lastAnswer).at(-2)?.data).toMatchObject({ choices: [] });
  });

  it('streams no usage chunk without include_usage', async () => {
    server.script = { reply: textReply('ok') };
    const stream = await client.chat.completions.create({ ...ask, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((c) => c.choices.length === 1 && c.usage === undefined)).toBe(true);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('ok');
  });

  it('finalChatCompletion() assembles streamed text and tool calls', async () => {
    server.script = { reply: toolReply, deltas: ['Let me', ' check.'] };
    const stream = client.chat.completions.stream({ ...ask, stream_options: { include_usage: true } });
    const final = await stream.finalChatCompletion();
    const message = final.choices[0]!.message;
    expect(message.content).toBe('Let me check.');
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : []))).toEqual([
      ['call_a', 'weather', '{"city":"Paris"}'],
      ['call_b', 'clock', '{}'],
    ]);
    expect(final.usage?.total_tokens).toBe(39);
    expect(final.model).toBe('reviewed-model');
  });

  it('finish() writes the reply text when nothing was streamed, and only the rest after a prefix', async () => {
    server.script = { reply: textReply('All at once.') };
    const whole = await client.chat.completions.stream(ask).finalChatCompletion();
    expect(whole.choices[0]?.message.content).toBe('All at once.');
    server.script = { reply: textReply('Hello there.'), deltas: ['Hel'] };
    const rest = await client.chat.completions.stream(ask).finalChatCompletion();
    expect(rest.choices[0]?.message.content).toBe('Hello there.');
  });

  it('a 403 from the reviewer is a PermissionDeniedError carrying the message', async () => {
    server.script = { error: openAiCodec.error('permission', 'The request was rejected by the reviewer.') };
    const err = await client.chat.completions.create(ask).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((err as APIError).status).toBe(403);
    expect((err as APIError).message).toContain('rejected by the reviewer');
    expect((err as APIError).type).toBe('permission_error');
  });

  it('a parse refusal is a BadRequestError naming the param', async () => {
    const err = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x/y.png' } }] }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as APIError).param).toBe('messages[0].content[0].image_url');
    expect((err as APIError).message).toContain('data: URL');
  });

  it('401 is an AuthenticationError with code invalid_api_key; overloaded is a 503 InternalServerError', async () => {
    server.script = { error: openAiCodec.error('authentication', 'Incorrect API key provided.') };
    const auth = await client.chat.completions.create(ask).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((auth as APIError).code).toBe('invalid_api_key');
    server.script = { error: openAiCodec.error('overloaded', 'The console is busy.') };
    const busy = await client.chat.completions.create(ask).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(OpenAI.InternalServerError);
    expect((busy as APIError).status).toBe(503);
  });

  it('a mid-stream error makes the SDK iteration throw an APIError with the message', async () => {
    server.script = {
      reply: textReply('unused'),
      deltas: ['Partial'],
      midStreamError: openAiCodec.error('permission', 'The response was rejected by the reviewer.'),
    };
    const stream = await client.chat.completions.create({ ...ask, stream: true });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen.join('')).toBe('Partial');
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toContain('rejected by the reviewer');
    expect((err as APIError).type).toBe('permission_error');
  });
});
