// The direct Chat Completions call against the AI SDK's own (`@ai-sdk/openai-compatible` through
// generate-stream.ts): for each request shape it sends, the same body reaches the provider and the
// same output or failure comes back; the shapes it leaves to the SDK are named.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import { createDirectGenerate, sendsDirect } from '../../main/llm/chat-completions.js';
import { watchedFetch } from '../../main/llm/call-clock.js';
import type { ErrorContext } from '../../main/llm/errors.js';
import { streamGenerate } from '../../main/llm/generate-stream.js';
import type { GenerateOutput } from '../../main/llm/provider.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import type { Script } from '../fixtures/wire-server.js';

const API_KEY = 'sk-test-0123456789abcdef';
const TIMEOUTS = { firstByteMs: 2_000, idleMs: 2_000, totalMs: 5_000 };
let server: OpenAICompatibleServer;
let ctx: ErrorContext;

beforeAll(async () => {
  server = await startOpenAICompatibleServer();
  ctx = { label: 'loop', baseURL: server.baseURL, modelId: 'test-model', apiKey: API_KEY };
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** What one call gave: its output or its failure (message, kind, status), the deltas, the body the provider got. */
interface Seen {
  out?: GenerateOutput;
  error?: { name: string; message: string; kind?: string; status?: number; retryAfterSeconds?: number };
  deltas: string[];
  body: unknown;
}

async function call(how: 'direct' | 'sdk', params: CreateMessageParams, script?: Script): Promise<Seen> {
  server.reset();
  if (script) server.script(script);
  const deltas: string[] = [];
  const input = { params, modelId: 'test-model', signal: new AbortController().signal, onText: (d: string) => deltas.push(d) };
  const run =
    how === 'direct'
      ? createDirectGenerate({ baseURL: server.baseURL, apiKey: API_KEY, timeouts: TIMEOUTS })(input, ctx)
      : streamGenerate(input, { model: createOpenAICompatible({ name: 'loop', baseURL: server.baseURL, apiKey: API_KEY, includeUsage: true, fetch: watchedFetch() }).chatModel('test-model'), ctx, timeouts: TIMEOUTS });
  const seen: Seen = { deltas, body: undefined };
  try {
    seen.out = await run;
  } catch (e) {
    const x = e as Error & { kind?: string; status?: number; retryAfterSeconds?: number };
    // The parenthesised low-level cause differs between the two HTTP stacks; the sentence around it is the contract.
    seen.error = { name: x.name, message: x.message.replace(/ \([^()]*\) — /, ' (…) — '), kind: x.kind, status: x.status, retryAfterSeconds: x.retryAfterSeconds };
  }
  seen.body = server.requests[0]?.body;
  return seen;
}

const schema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

const REQUESTS: Array<{ name: string; params: CreateMessageParams }> = [
  { name: 'text with a system prompt, temperature and stop sequences', params: { systemPrompt: 'Be terse.', maxTokens: 100, temperature: 0.7, stopSequences: ['END'], messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }] } },
  { name: 'several text blocks and an image', params: { maxTokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'text', text: 'here' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] }] } },
  { name: 'MP3 audio', params: { maxTokens: 10, messages: [{ role: 'user', content: { type: 'audio', data: 'SUQz', mimeType: 'audio/mpeg' } }] } },
  {
    name: 'a tool loop: assistant text and tool calls, results as text, JSON and an error',
    params: {
      maxTokens: 50,
      tools: [{ name: 'get_weather', description: 'Weather', inputSchema: schema }, { name: 'noop', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'auto' },
      messages: [
        { role: 'user', content: { type: 'text', text: 'Weather?' } },
        { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }, { type: 'tool_use', id: 'c2', name: 'noop', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: '18°C' }, { type: 'text', text: 'sunny' }] },
            { type: 'tool_result', toolUseId: 'c2', content: [], structuredContent: { ok: true } },
          ],
        },
        { role: 'assistant', content: { type: 'text', text: 'It is 18°C.' } },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c9', content: [{ type: 'text', text: 'boom' }], isError: true }, { type: 'text', text: 'and now?' }] },
      ],
    },
  },
  { name: 'tools without a mode', params: { maxTokens: 20, tools: [{ name: 'get_weather', inputSchema: schema }], messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] } },
];

describe('the direct call sends what the AI SDK sends', () => {
  it.each(REQUESTS)('$name', async ({ params }) => {
    expect(sendsDirect(params)).toBe(true);
    const sdk = await call('sdk', params);
    const direct = await call('direct', params);
    expect(sdk.error).toBeUndefined();
    expect(JSON.parse(JSON.stringify(direct.body))).toEqual(JSON.parse(JSON.stringify(sdk.body)));
    expect(direct.out).toEqual(sdk.out);
  });
});

const hello: CreateMessageParams = { maxTokens: 50, messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], tools: [{ name: 'get_weather', inputSchema: schema }] };

const ANSWERS: Array<{ name: string; script: Script }> = [
  { name: 'text in chunks, usage', script: { chunks: ['Hel', 'lo ', 'there'], usage: { promptTokens: 7, completionTokens: 3 } } },
  { name: 'no usage reported', script: { text: 'plain', usage: null } },
  { name: 'length, another model id', script: { text: 'cut', finishReason: 'length', model: 'test-model-2' } },
  { name: 'parallel tool calls with text', script: { text: 'Both.', toolCalls: [{ id: 'a', name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'b', name: 'get_weather', arguments: { city: 'Rome' } }] } },
  { name: 'unparseable tool arguments', script: { toolCalls: [{ id: 'x', name: 'get_weather', arguments: '{"city": "Par' }] } },
  { name: 'a 400 with the server words', script: { error: { status: 400, message: 'max_tokens is too large' } } },
  { name: 'a 401', script: { error: { status: 401, message: 'bad key' } } },
  { name: 'a 429 with retry-after', script: { error: { status: 429, retryAfter: 7, message: 'slow down' } } },
  { name: 'a 503', script: { error: { status: 503, message: 'overloaded' } } },
  { name: 'a reset before the answer', script: { fault: 'reset' } },
  { name: 'a malformed event after text', script: { text: 'a b c d', fault: 'malformed' } },
  { name: 'a malformed first event', script: { text: 'a b', fault: 'malformed-first' } },
  { name: 'a stream that ends without a finish reason', script: { text: 'a b c', fault: 'truncate' } },
  { name: 'an error event inside the stream', script: { text: 'a b c', fault: 'stream-error' } },
];

describe('the direct call answers what the AI SDK answers', () => {
  it.each(ANSWERS)('$name', async ({ script }) => {
    const sdk = await call('sdk', hello, script);
    const direct = await call('direct', hello, script);
    expect(direct.error).toEqual(sdk.error);
    expect(direct.out).toEqual(sdk.out);
    expect(direct.deltas.join('')).toEqual(sdk.deltas.join(''));
  });

  it('a connection lost mid-stream: the same failure, after the text received so far', async () => {
    const sdk = await call('sdk', hello, { chunks: ['first ', 'second'], fault: 'drop' });
    const direct = await call('direct', hello, { chunks: ['first ', 'second'], fault: 'drop' });
    expect(direct.error).toEqual(sdk.error);
    expect(direct.error?.message).toMatch(/the connection was lost while the response was streaming/);
  });
});

describe('what the direct call leaves to the AI SDK', () => {
  it.each([
    { name: 'audio other than WAV or MP3', params: { maxTokens: 5, messages: [{ role: 'user' as const, content: { type: 'audio' as const, data: 'AAAA', mimeType: 'audio/ogg' } }] } },
    { name: 'a tool result holding an image', params: { maxTokens: 5, messages: [{ role: 'user' as const, content: { type: 'tool_result' as const, toolUseId: 'c', content: [{ type: 'image' as const, data: 'iVBO', mimeType: 'image/png' }] } }] } },
  ])('$name', ({ params }) => {
    expect(sendsDirect(params)).toBe(false);
  });
});

describe('proxy variables', () => {
  const saved = { NODE_USE_ENV_PROXY: process.env.NODE_USE_ENV_PROXY, HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
  let proxy: http.Server;
  const proxied: string[] = [];
  beforeAll(async () => {
    // A forward proxy: takes the absolute URL a proxied request names and sends it on to the fake provider.
    proxy = http.createServer((req, res) => {
      proxied.push(req.url ?? '');
      const target = new URL(new URL(req.url ?? '/').pathname, server.baseURL);
      const onward = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(onward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    proxy.close();
  });

  it('with NODE_USE_ENV_PROXY=1 the direct call goes through HTTP_PROXY, as the SDK’s fetch does', async () => {
    process.env.NODE_USE_ENV_PROXY = '1';
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    delete process.env.NO_PROXY;
    const input = { params: hello, modelId: 'test-model', signal: new AbortController().signal, onText: () => undefined };
    // The provider's host exists only for the proxy.
    const out = await createDirectGenerate({ baseURL: 'http://provider.invalid/v1', apiKey: API_KEY, timeouts: TIMEOUTS })(input, ctx);
    expect(out.finishReason).toBe('stop');
    expect(proxied).toEqual(['http://provider.invalid/v1/chat/completions']);
  });
});
