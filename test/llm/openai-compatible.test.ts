// The OpenAI-compatible provider through the real AI SDK, against the loopback wire-protocol server.
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CreateMessageResultSchema, type CreateMessageParams } from '../../shared/contract/sampling.js';
import { INVALID_TOOL_INPUT_META_KEY } from '../../main/llm/convert.js';
import { ProviderError } from '../../main/llm/errors.js';
import { createOpenAICompatibleProvider } from '../../main/llm/openai-compatible.js';
import { createProvider } from '../../main/llm/create-provider.js';
import type { GenerateOutput, SdkProvider } from '../../main/llm/provider.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';

const API_KEY = 'sk-test-0123456789abcdef';
let server: OpenAICompatibleServer;
let provider: SdkProvider;

beforeAll(async () => {
  server = await startOpenAICompatibleServer();
  provider = createOpenAICompatibleProvider({ id: 'loop', label: 'openai-compatible', baseURL: server.baseURL, apiKey: API_KEY, models: ['test-model'] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const hello: CreateMessageParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
  systemPrompt: 'You are terse.',
  maxTokens: 100,
  temperature: 0.7,
  stopSequences: ['END'],
};

async function run(params: CreateMessageParams, opts: { signal?: AbortSignal; modelId?: string; p?: SdkProvider } = {}): Promise<{ out: GenerateOutput; deltas: string[] }> {
  const deltas: string[] = [];
  const p = opts.p ?? provider;
  if (!p.generate) throw new Error('no generate');
  const out = await p.generate({ params, modelId: opts.modelId ?? 'test-model', signal: opts.signal ?? new AbortController().signal, onText: (d) => deltas.push(d) });
  return { out, deltas };
}

async function failure(params: CreateMessageParams, p?: SdkProvider): Promise<ProviderError> {
  const error: unknown = await run(params, p ? { p } : {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  const e = error as ProviderError;
  expect(e.message).not.toContain(API_KEY);
  return e;
}

describe('openai-compatible provider: success paths', () => {
  it('streams text deltas in order and returns a valid CreateMessageResult with usage', async () => {
    server.script({ chunks: ['Hel', 'lo, ', 'wor', 'ld!'], usage: { promptTokens: 21, completionTokens: 4 } });
    const { out, deltas } = await run(hello);
    expect(deltas).toEqual(['Hel', 'lo, ', 'wor', 'ld!']);
    expect(out.result).toEqual({ role: 'assistant', content: { type: 'text', text: 'Hello, world!' }, model: 'test-model', stopReason: 'endTurn' });
    expect(CreateMessageResultSchema.safeParse(out.result).success).toBe(true);
    expect(out.usage).toEqual({ inputTokens: 21, outputTokens: 4 });
    expect(out.finishReason).toBe('stop');
  });

  it('sends model, system prompt first, messages, max_tokens, temperature, stop, streaming with usage, and the key as a bearer token', async () => {
    await run(hello);
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    const body = req?.body;
    expect(body?.model).toBe('test-model');
    expect(body?.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say hello' },
    ]);
    expect(body?.max_tokens ?? body?.max_completion_tokens).toBe(100);
    expect(body?.temperature).toBe(0.7);
    expect(body?.stop).toEqual(['END']);
    expect(body?.stream).toBe(true);
    expect(body?.stream_options).toEqual({ include_usage: true });
    expect(body?.tools).toBeUndefined();
    expect(req?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('reports the model the server names, and length → maxTokens', async () => {
    server.script({ text: 'cut off here', finishReason: 'length', model: 'test-model-2026-01-01' });
    const { out } = await run(hello);
    expect(out.result.model).toBe('test-model-2026-01-01');
    expect(out.result.stopReason).toBe('maxTokens');
    expect(out.finishReason).toBe('length');
  });

  it('sends tools and tool_choice, and returns parallel tool calls as tool_use blocks with stopReason toolUse', async () => {
    server.script({
      text: 'Checking both.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'call_b', name: 'get_weather', arguments: { city: 'Rome', unit: 'C' } },
      ],
    });
    const inputSchema = { type: 'object' as const, properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] };
    const { out } = await run({ ...hello, tools: [{ name: 'get_weather', description: 'Current weather', inputSchema }], toolChoice: { mode: 'required' } });

    const body = server.requests[0]?.body;
    expect(body?.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: inputSchema } }]);
    expect(body?.tool_choice).toBe('required');

    expect(out.result.content).toEqual([
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_b', name: 'get_weather', input: { city: 'Rome', unit: 'C' } },
    ]);
    expect(out.result.stopReason).toBe('toolUse');
    expect(out.finishReason).toBe('tool-calls');
    expect(CreateMessageResultSchema.safeParse(out.result).success).toBe(true);
  });

  it('keeps unparseable tool-call arguments for the reviewer instead of failing', async () => {
    server.script({ toolCalls: [{ id: 'call_x', name: 'get_weather', arguments: '{"city": "Par' }] });
    const { out } = await run({ ...hello, tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }] });
    expect(out.result.content).toEqual({ type: 'tool_use', id: 'call_x', name: 'get_weather', input: {}, _meta: { [INVALID_TOOL_INPUT_META_KEY]: '{"city": "Par' } });
    expect(out.result.stopReason).toBe('toolUse');
  });

  it('sends a tool loop turn as assistant tool_calls followed by tool messages', async () => {
    await run({
      maxTokens: 50,
      tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'none' },
      messages: [
        { role: 'user', content: { type: 'text', text: 'Weather?' } },
        { role: 'assistant', content: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } } },
        { role: 'user', content: { type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: '18°C' }] } },
      ],
    });
    const body = server.requests[0]?.body;
    expect(body?.tool_choice).toBe('none');
    expect(body?.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
    ]);
  });

  it('sends images as image_url data URLs and WAV audio as input_audio', async () => {
    await run({
      maxTokens: 10,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe' },
            { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            { type: 'audio', data: 'UklGRiQAAAA=', mimeType: 'audio/wav' },
          ],
        },
      ],
    });
    expect(server.requests[0]?.body.messages[0]?.content).toEqual([
      { type: 'text', text: 'Describe' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'input_audio', input_audio: { data: 'UklGRiQAAAA=', format: 'wav' } },
    ]);
  });

  it('works without an API key (no Authorization header); its view (made by createProvider) holds no secret', async () => {
    const keyless = createProvider({ settings: { id: 'local', kind: 'openai-compatible', baseURL: `${server.baseURL}/`, models: ['a', 'b'] }, source: 'console' }, []);
    expect(keyless.view).toMatchObject({ id: 'local', kind: 'openai-compatible', label: 'local', baseURL: server.baseURL, models: ['a', 'b'], hasApiKey: false });
    const keyed = createProvider({ settings: { id: 'loop', kind: 'openai-compatible', baseURL: server.baseURL, models: ['test-model'] }, apiKey: API_KEY, source: 'console' }, []);
    expect(JSON.stringify(keyed.view)).not.toContain(API_KEY);
    expect(keyed.view.hasApiKey).toBe(true);
    await run(hello, { p: keyless as SdkProvider, modelId: 'a' });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('openai-compatible provider: errors a person can act on', () => {
  it('401 → "401 Unauthorized — check the API key", with the server message but never the key', async () => {
    server.script({ error: { status: 401, message: `Incorrect API key provided: ${API_KEY}.`, code: 'invalid_api_key' } });
    const e = await failure(hello);
    expect(e.message).toMatch(/^openai-compatible \(http:\/\/127\.0\.0\.1:\d+\/v1\): 401 Unauthorized — check the API key/);
    expect(e.message).toContain('Incorrect API key provided: ***');
    expect(e).toMatchObject({ kind: 'auth', status: 401, retryable: false });
  });

  it('429 with retry-after → rate limited, retry after N s; not retried automatically', async () => {
    server.script({ error: { status: 429, message: 'Rate limit reached for requests', retryAfter: 7 } });
    const e = await failure(hello);
    expect(e.message).toContain('429 Too Many Requests');
    expect(e.message).toContain('retry after 7 s');
    expect(e).toMatchObject({ kind: 'rate-limit', status: 429, retryAfterSeconds: 7, retryable: true });
    expect(server.requests).toHaveLength(1);
  });

  it('500 with an OpenAI-style error body → server failure with its message; not retried', async () => {
    server.script({ error: { status: 500, message: 'The model crashed', type: 'server_error' } });
    const e = await failure(hello);
    expect(e.message).toContain('500 Internal Server Error — the provider failed; try again later');
    expect(e.message).toContain('Server said: "The model crashed"');
    expect(e).toMatchObject({ kind: 'server', status: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it('404 → names the base URL and the model id', async () => {
    server.script({ error: { status: 404, message: 'model "nope" not found' } });
    const e = await run(hello, { modelId: 'nope' }).catch((x: unknown) => x as ProviderError);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).message).toContain('404 Not Found — check the base URL and that model "nope" exists');
  });

  it('a malformed stream (reported by streamText as an error part) rejects generate', async () => {
    server.script({ chunks: ['Hello', ' again'], fault: 'malformed' });
    const deltas: string[] = [];
    const e = await provider.generate!({ params: hello, modelId: 'test-model', signal: new AbortController().signal, onText: (d) => deltas.push(d) }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).message).toContain('malformed response stream');
    expect((e as ProviderError).kind).toBe('protocol');
    expect(deltas).toEqual(['Hello']);
  });

  it('a connection dropped mid-stream rejects generate after the text received so far', async () => {
    server.script({ chunks: ['first ', 'second ', 'third'], fault: 'drop' });
    const deltas: string[] = [];
    const e = await provider.generate!({ params: hello, modelId: 'test-model', signal: new AbortController().signal, onText: (d) => deltas.push(d) }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).message).toMatch(/: the connection was lost while the response was streaming \(.+\) — check the server, then retry$/);
    expect((e as ProviderError).kind).toBe('network');
    // Text already streamed stays delivered in order; whether 'first ' beats the socket error
    // through the stream pipeline is up to the network stack, so both are accepted.
    expect(['', 'first ']).toContain(deltas.join(''));
  });

  it('an unreachable server → "connection refused — is the server running"', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const down = createOpenAICompatibleProvider({ id: 'down', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: API_KEY, models: ['m'] });
    const e = await failure(hello, down);
    expect(e.message).toBe(`down (http://127.0.0.1:${port}/v1): cannot connect (connection refused) — is the server running and is the base URL right?`);
    expect(e.kind).toBe('network');
  });

  it('audio the provider cannot send → a clear "cannot send this request" error, nothing sent', async () => {
    const e = await failure({ maxTokens: 5, messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/ogg' } }] });
    expect(e.message).toContain('cannot send this request');
    expect(e.message).toContain('audio/ogg');
    expect(server.requests).toHaveLength(0);
  });
});

describe('openai-compatible provider: cancellation', () => {
  it('abort via signal rejects promptly with an AbortError and the server sees the connection close', async () => {
    // 40 chunks, 250 ms apart: about 10 s if not cancelled.
    server.script({ chunks: Array.from({ length: 40 }, (_, i) => `w${i} `), delayMs: 250 });
    const controller = new AbortController();
    const deltas: string[] = [];
    const started = Date.now();
    const promise = provider.generate!({
      params: hello,
      modelId: 'test-model',
      signal: controller.signal,
      onText: (d) => {
        deltas.push(d);
        if (deltas.length === 2) controller.abort();
      },
    });
    await expect(promise).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(deltas).toEqual(['w0 ', 'w1 ']);
    expect(await server.waitForOutcome(0)).toBe('client-closed');
  });

  it('an already-aborted signal rejects without contacting the server', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(run(hello, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });
});
