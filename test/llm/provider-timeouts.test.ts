// The time limits of a provider call (time to first byte, idle, total deadline) on every AI SDK
// provider, against loopback wire servers that stall; a reset connection; and a 200 stream whose
// first event cannot be read, which is not reported as an HTTP status the provider never sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROVIDER_TIMEOUTS, providerTimeouts, type ProviderTimeouts } from '../../shared/contract/providers.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import { ProviderError } from '../../main/llm/errors.js';
import { createAnthropicProvider, createGoogleProvider, createOpenAIProvider } from '../../main/llm/hosted-providers.js';
import { createOpenAICompatibleProvider } from '../../main/llm/openai-compatible.js';
import type { SdkProvider } from '../../main/llm/provider.js';
import { startAnthropicServer } from '../fixtures/anthropic-server.js';
import { startGeminiServer } from '../fixtures/gemini-server.js';
import { startOpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startOpenAIServer } from '../fixtures/openai-server.js';
import type { Script, WireServer } from '../fixtures/wire-server.js';

const LIMITS: ProviderTimeouts = { firstByteMs: 300, idleMs: 300, totalMs: 900 };
const hello: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 100 };

interface Case {
  name: string;
  model: string;
  start(): Promise<WireServer<object>>;
  make(baseURL: string): SdkProvider;
}

const cases: Case[] = [
  { name: 'openai-compatible', model: 'm', start: () => startOpenAICompatibleServer(), make: (baseURL) => createOpenAICompatibleProvider({ id: 'oc', baseURL, models: ['m'], timeouts: LIMITS }) },
  { name: 'anthropic', model: 'claude-sonnet-4-5', start: () => startAnthropicServer(), make: (baseURL) => createAnthropicProvider({ id: 'a', baseURL, apiKey: 'k', models: ['claude-sonnet-4-5'], timeouts: LIMITS }) },
  { name: 'openai', model: 'gpt-4.1', start: () => startOpenAIServer(), make: (baseURL) => createOpenAIProvider({ id: 'o', baseURL, apiKey: 'k', models: ['gpt-4.1'], timeouts: LIMITS }) },
  { name: 'google', model: 'gemini-2.5-flash', start: () => startGeminiServer(), make: (baseURL) => createGoogleProvider({ id: 'g', baseURL, apiKey: 'k', models: ['gemini-2.5-flash'], timeouts: LIMITS }) },
];

/** The error `generate` rejects with, and the ms it took. */
async function failure(p: SdkProvider, model: string): Promise<{ error: ProviderError; ms: number }> {
  const started = Date.now();
  const error: unknown = await p.generate({ params: hello, modelId: model, signal: new AbortController().signal, onText: () => {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return { error: error as ProviderError, ms: Date.now() - started };
}

describe.each(cases)('$name: time limits of a call', (c) => {
  let server: WireServer<object>;
  let provider: SdkProvider;
  beforeAll(async () => {
    server = await c.start();
    provider = c.make(server.baseURL);
  });
  afterAll(() => server.close());

  it.each<[string, Script, 'first_byte' | 'idle' | 'total', RegExp]>([
    ['no response at all', { fault: 'stall-headers' }, 'first_byte', /no response within 0\.3 s \(time to first byte\)/],
    ['a response that stops half-way', { fault: 'stall', text: 'a b c d e f' }, 'idle', /nothing for 0\.3 s \(idle limit\)/],
    ['a response that trickles past the deadline', { chunks: Array.from({ length: 20 }, (_, i) => `w${i} `), delayMs: 100 }, 'total', /longer than 0\.9 s \(total deadline\)/],
  ])('%s → a timeout failure naming the limit; the HTTP request is closed', async (_what, script, phase, message) => {
    server.reset();
    server.script(script);
    const { error } = await failure(provider, c.model);
    expect(error).toMatchObject({ kind: 'timeout', retryable: true, status: undefined, timeout: { phase, ms: LIMITS[phase === 'first_byte' ? 'firstByteMs' : phase === 'idle' ? 'idleMs' : 'totalMs'] } });
    expect(error.message).toMatch(message);
    expect(error.detail).toMatch(message);
    expect(error.detail).not.toContain(server.baseURL);
    expect(await server.waitForOutcome(0)).toMatch(/client-closed|fault/);
  });

  it('a connection reset before any response → a network failure, no status', async () => {
    server.reset();
    server.script({ fault: 'reset' });
    const { error } = await failure(provider, c.model);
    expect(error).toMatchObject({ kind: 'network', status: undefined });
  });
});

describe('limits and their defaults', () => {
  it('an unset limit takes its default', () => {
    expect(providerTimeouts(undefined)).toEqual(DEFAULT_PROVIDER_TIMEOUTS);
    expect(providerTimeouts({ idleMs: 5000 })).toEqual({ ...DEFAULT_PROVIDER_TIMEOUTS, idleMs: 5000 });
  });

  it('a response that keeps coming is not cut by the idle limit, however long it takes in all', async () => {
    const server = await startOpenAICompatibleServer();
    try {
      const p = createOpenAICompatibleProvider({ id: 'oc', baseURL: server.baseURL, models: ['m'], timeouts: { firstByteMs: 2000, idleMs: 500, totalMs: 10_000 } });
      server.script({ chunks: ['a ', 'b ', 'c ', 'd ', 'e'], delayMs: 150 }); // 8 events 150 ms apart: far longer than the idle limit in all
      const out = await p.generate({ params: hello, modelId: 'm', signal: new AbortController().signal, onText: () => {} });
      expect(out.result.content).toEqual({ type: 'text', text: 'a b c d e' });
    } finally {
      await server.close();
    }
  });
});

describe('Anthropic: a 200 stream whose first event is unreadable', () => {
  it('is a protocol failure in the stream, not "500 Internal Server Error"', async () => {
    const server = await startAnthropicServer();
    try {
      const p = createAnthropicProvider({ id: 'a', label: 'Anthropic', baseURL: server.baseURL, apiKey: 'k', models: ['claude-sonnet-4-5'] });
      server.script({ fault: 'malformed-first', text: 'a b' });
      const { error } = await failure(p, 'claude-sonnet-4-5');
      expect(error).toMatchObject({ kind: 'protocol', status: undefined });
      expect(error.message).not.toMatch(/500|Internal Server Error/);
      expect(error.message).toMatch(/answered 200 but its stream could not be read/);
    } finally {
      await server.close();
    }
  });
});
