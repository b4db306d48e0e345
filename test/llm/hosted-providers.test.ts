// Anthropic, OpenAI (Responses + Chat Completions) and Gemini through their real AI SDK packages,
// against loopback servers speaking each provider's wire format: text, images, audio, tool calls,
// stop sequences, max tokens, usage, errors (401, 429 retry-after, 500, malformed stream,
// connection drop, in-stream error, truncated stream) and cancellation.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../main/llm/errors.js';
import { createAnthropicProvider, createGoogleProvider, createOpenAIProvider, openAIEndpointFor } from '../../main/llm/hosted-providers.js';
import type { GenerateOutput, SdkProvider } from '../../main/llm/provider.js';
import { CreateMessageResultSchema, type CreateMessageParams, type SamplingTool } from '../../shared/contract/sampling.js';
import { startAnthropicServer, type AnthropicRequest } from '../fixtures/anthropic-server.js';
import { startGeminiServer, type GeminiRequest } from '../fixtures/gemini-server.js';
import { startOpenAIServer, type ResponsesRequest } from '../fixtures/openai-server.js';
import type { ChatCompletionRequest } from '../fixtures/openai-compatible-server.js';
import type { Script, WireServer } from '../fixtures/wire-server.js';

const KEY = 'sk-loopback-SECRET-4f1e2d3c4b5a';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

interface Case {
  name: 'anthropic' | 'openai' | 'google';
  model: string;
  start(): Promise<WireServer<object>>;
  make(baseURL: string): SdkProvider;
  /** The provider's own finish reasons for max tokens. */
  maxTokensReason: string;
  /** Whether the AI SDK passes on the model id the server reports (Gemini's modelVersion is not). */
  reportsModel: boolean;
}

const cases: Case[] = [
  {
    name: 'anthropic',
    model: 'claude-sonnet-4-5',
    start: () => startAnthropicServer({ apiKey: KEY }),
    make: (baseURL) => createAnthropicProvider({ id: 'anthropic', label: 'Anthropic', baseURL, apiKey: KEY, models: ['claude-sonnet-4-5'] }),
    maxTokensReason: 'max_tokens',
    reportsModel: true,
  },
  {
    name: 'openai',
    model: 'gpt-4.1',
    start: () => startOpenAIServer({ apiKey: KEY }),
    make: (baseURL) => createOpenAIProvider({ id: 'openai', label: 'OpenAI', baseURL, apiKey: KEY, models: ['gpt-4.1'] }),
    maxTokensReason: 'length',
    reportsModel: true,
  },
  {
    name: 'google',
    model: 'gemini-2.5-flash',
    start: () => startGeminiServer({ apiKey: KEY }),
    make: (baseURL) => createGoogleProvider({ id: 'google', label: 'Gemini', baseURL, apiKey: KEY, models: ['gemini-2.5-flash'] }),
    maxTokensReason: 'MAX_TOKENS',
    reportsModel: false,
  },
];

const hello: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], systemPrompt: 'You are terse.', maxTokens: 100, temperature: 0.5 };
const weatherTool: SamplingTool = { name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

async function run(p: SdkProvider, model: string, params: CreateMessageParams, signal = new AbortController().signal): Promise<{ out: GenerateOutput; deltas: string[] }> {
  const deltas: string[] = [];
  const out = await p.generate!({ params, modelId: model, signal, onText: (d) => deltas.push(d) });
  expect(CreateMessageResultSchema.safeParse(out.result).success).toBe(true);
  return { out, deltas };
}

async function failure(p: SdkProvider, model: string, params: CreateMessageParams = hello): Promise<ProviderError> {
  const error: unknown = await p.generate!({ params, modelId: model, signal: new AbortController().signal, onText: () => {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as Error).message).not.toContain(KEY);
  return error as ProviderError;
}

describe.each(cases)('$name provider against its loopback wire server', (c) => {
  let server: WireServer<object>;
  let provider: SdkProvider;
  beforeAll(async () => {
    server = await c.start();
    provider = c.make(server.baseURL);
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('streams text deltas in order; result, usage and the reported model', async () => {
    server.script({ chunks: ['Hel', 'lo, ', 'world!'], usage: { promptTokens: 21, completionTokens: 4 }, model: `${c.model}-2026-01-01` });
    const { out, deltas } = await run(provider, c.model, hello);
    expect(deltas).toEqual(['Hel', 'lo, ', 'world!']);
    expect(out.result).toEqual({ role: 'assistant', content: { type: 'text', text: 'Hello, world!' }, model: c.reportsModel ? `${c.model}-2026-01-01` : c.model, stopReason: 'endTurn' });
    expect(out.usage).toEqual({ inputTokens: 21, outputTokens: 4 });
    expect(out.finishReason).toBe('stop');
  });

  it('max tokens → stopReason maxTokens', async () => {
    server.script({ text: 'cut off', finishReason: c.maxTokensReason });
    const { out } = await run(provider, c.model, hello);
    expect(out.result.stopReason).toBe('maxTokens');
  });

  it('tool calls come back as tool_use blocks with parsed input', async () => {
    server.script({ toolCalls: [{ id: 'call_abc', name: 'get_weather', arguments: { city: 'Paris' } }] });
    const { out } = await run(provider, c.model, { ...hello, tools: [weatherTool] });
    expect(out.result.stopReason).toBe('toolUse');
    expect(out.result.content).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
  });

  it.each<[string, Script, RegExp, string, boolean]>([
    ['401', { error: { status: 401, message: 'invalid key' } }, /401 Unauthorized — check the API key/, 'auth', false],
    ['429 with retry-after', { error: { status: 429, retryAfter: 7 } }, /429 Too Many Requests — rate limited by the provider; retry after 7 s/, 'rate-limit', true],
    ['500', { error: { status: 500 } }, /500 Internal Server Error — the provider failed; try again later/, 'server', true],
    ['malformed stream', { fault: 'malformed', text: 'a b c d' }, /malformed response stream/, 'protocol', true],
    ['connection drop mid-stream', { fault: 'drop', text: 'a b c d e f' }, /connection was lost while the response was streaming/, 'network', true],
    ['error inside the stream', { fault: 'stream-error', text: 'a b c d e f' }, /mid-stream|500 Internal Server Error/, 'any', true],
    ['stream that stops without its closing events', { fault: 'truncate', text: 'a b c d e f' }, /ended before the model finished/, 'protocol', true],
  ])('%s: a clear, key-free ProviderError', async (_n, script, message, kind, retryable) => {
    server.script(script);
    const e = await failure(provider, c.model);
    expect(e.message).toMatch(message);
    expect(e.message.startsWith(`${c.name === 'google' ? 'Gemini' : c.name === 'openai' ? 'OpenAI' : 'Anthropic'} (${server.baseURL})`)).toBe(true);
    if (kind !== 'any') expect(e.kind).toBe(kind);
    expect(e.retryable).toBe(retryable);
    if (script.error?.retryAfter) expect(e.retryAfterSeconds).toBe(script.error.retryAfter);
  });

  it('cancellation aborts the HTTP request', async () => {
    server.script({ chunks: ['a ', 'b ', 'c ', 'd ', 'e ', 'f '], delayMs: 150 });
    const ac = new AbortController();
    const p = provider.generate!({ params: hello, modelId: c.model, signal: ac.signal, onText: () => ac.abort() });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(await server.waitForOutcome(0)).toBe('client-closed');
  });

  it('a wrong key is refused by the server and reported as such', async () => {
    const wrong = c.make(server.baseURL);
    (wrong as { generate?: unknown }).generate = (c.name === 'anthropic' ? createAnthropicProvider : c.name === 'openai' ? createOpenAIProvider : createGoogleProvider)({
      id: c.name,
      baseURL: server.baseURL,
      apiKey: 'wrong-key-000000',
      models: [c.model],
    }).generate;
    const e = await failure(wrong, c.model);
    expect(e.kind).toBe('auth');
    expect(e.message).toMatch(/check the API key/);
  });
});

describe('request shapes on the wire', () => {
  const image: CreateMessageParams = { ...hello, messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', data: PNG, mimeType: 'image/png' }] }] };
  const audio: CreateMessageParams = { ...hello, messages: [{ role: 'user', content: [{ type: 'text', text: 'Transcribe' }, { type: 'audio', data: WAV, mimeType: 'audio/wav' }] }] };
  const stop: CreateMessageParams = { ...hello, stopSequences: ['END'] };
  const tools: CreateMessageParams = { ...hello, tools: [weatherTool], toolChoice: { mode: 'required' } };

  it('Anthropic Messages: x-api-key, system, max_tokens, temperature, stop_sequences, base64 image, tools; audio refused before sending', async () => {
    const server = await startAnthropicServer({ apiKey: KEY });
    const p = createAnthropicProvider({ id: 'a', baseURL: server.baseURL, apiKey: KEY, models: ['claude-sonnet-4-5'] });
    try {
      server.script({ text: 'A cat END', finishReason: 'stop_sequence', stopSequence: 'END' });
      const { out } = await run(p, 'claude-sonnet-4-5', { ...image, stopSequences: ['END'] });
      expect(out.result.stopReason).toBe('stopSequence');
      const req = server.requests[0]!;
      expect(req.headers['x-api-key']).toBe(KEY);
      expect(req.headers['anthropic-version']).toBe('2023-06-01');
      const body = req.body as AnthropicRequest;
      expect(body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 100, temperature: 0.5, stream: true, stop_sequences: ['END'], system: [{ type: 'text', text: 'You are terse.' }] });
      expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] }]);

      server.script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
      await run(p, 'claude-sonnet-4-5', tools);
      const t = server.requests[1]!.body as AnthropicRequest;
      expect(t.tools).toMatchObject([{ name: 'get_weather', description: 'Weather for a city', input_schema: weatherTool.inputSchema }]);
      expect(t.tool_choice).toMatchObject({ type: 'any' });

      const e = await failure(p, 'claude-sonnet-4-5', audio);
      expect(e.kind).toBe('unsupported');
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('OpenAI: Responses by default (input, instructions as system, max_output_tokens, input_image, function tools); Chat Completions for audio and for stop sequences', async () => {
    const server = await startOpenAIServer({ apiKey: KEY });
    const p = createOpenAIProvider({ id: 'o', baseURL: server.baseURL, apiKey: KEY, models: ['gpt-4o-audio-preview'] });
    try {
      await run(p, 'gpt-4.1', image);
      const r = server.requests[0]!;
      expect(r.path).toBe('/v1/responses');
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      const body = r.body as ResponsesRequest;
      expect(body).toMatchObject({ model: 'gpt-4.1', max_output_tokens: 100, temperature: 0.5, stream: true });
      expect(body.input).toEqual([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: [{ type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] },
      ]);

      server.script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
      await run(p, 'gpt-4.1', tools);
      expect((server.requests[1]!.body as ResponsesRequest).tools).toMatchObject([
        { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: weatherTool.inputSchema },
      ]);

      server.script({ text: 'hello', usage: { promptTokens: 40, completionTokens: 1 } });
      const a = await run(p, 'gpt-4o-audio-preview', audio);
      expect(a.out.result.content).toEqual({ type: 'text', text: 'hello' });
      const chat = server.requests[2]!;
      expect(chat.path).toBe('/v1/chat/completions');
      expect((chat.body as ChatCompletionRequest).messages[1]).toEqual({
        role: 'user',
        content: [{ type: 'text', text: 'Transcribe' }, { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } }],
      });

      server.script({ text: 'stopped here', finishReason: 'stop' });
      await run(p, 'gpt-4.1', stop);
      expect(server.requests[3]!.path).toBe('/v1/chat/completions');
      expect((server.requests[3]!.body as ChatCompletionRequest).stop).toEqual(['END']);
    } finally {
      await server.close();
    }
  });

  it('openAIEndpointFor: chat for audio (also inside tool results) and stop sequences, else the preference', () => {
    expect(openAIEndpointFor(hello)).toBe('responses');
    expect(openAIEndpointFor(hello, 'chat')).toBe('chat');
    expect(openAIEndpointFor(audio)).toBe('chat');
    expect(openAIEndpointFor(stop)).toBe('chat');
  });

  it('Gemini: x-goog-api-key, streamGenerateContent, systemInstruction, generationConfig, inlineData image and audio, functionDeclarations', async () => {
    const server = await startGeminiServer({ apiKey: KEY });
    const p = createGoogleProvider({ id: 'g', baseURL: server.baseURL, apiKey: KEY, models: ['gemini-2.5-flash'] });
    try {
      await run(p, 'gemini-2.5-flash', { ...image, stopSequences: ['END'] });
      const r = server.requests[0]!;
      expect(r.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
      expect(r.headers['x-goog-api-key']).toBe(KEY);
      const body = r.body as GeminiRequest;
      expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are terse.' }] });
      expect(body.generationConfig).toMatchObject({ maxOutputTokens: 100, temperature: 0.5, stopSequences: ['END'] });
      expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: PNG } }] }]);

      await run(p, 'gemini-2.5-flash', audio);
      expect((server.requests[1]!.body as GeminiRequest).contents[0]!.parts[1]).toEqual({ inlineData: { mimeType: 'audio/wav', data: WAV } });

      server.script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] });
      await run(p, 'gemini-2.5-flash', tools);
      expect((server.requests[2]!.body as GeminiRequest).tools).toEqual([
        { functionDeclarations: [{ name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] },
      ]);
    } finally {
      await server.close();
    }
  });
});
