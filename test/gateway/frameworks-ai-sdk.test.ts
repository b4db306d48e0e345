/**
 * The AI SDK through the gateway, with its default provider instances configured only by the
 * variables its docs name: `OPENAI_BASE_URL` / `OPENAI_API_KEY` for `@ai-sdk/openai` (`openai(model)`
 * is the Responses API, `openai.chat(model)` Chat Completions) and `ANTHROPIC_BASE_URL` /
 * `ANTHROPIC_API_KEY` for `@ai-sdk/anthropic` — the gateway's `…/anthropic`, which that package
 * takes as a root already ending in `/v1` (it posts to `…/anthropic/messages`). Each runs a tool
 * loop (`generateText` with a tool, `stopWhen`) with a person reviewing every call (editing the
 * answer), and streams (`streamText`) under an approve-everything rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approveEverything, reviewedRun, startFrameworkEnv, weatherScripts, type FrameworkEnv } from './frameworks-env.js';

let env: FrameworkEnv;
let ai: typeof import('ai');
let openai: (typeof import('@ai-sdk/openai'))['openai'];
let anthropic: (typeof import('@ai-sdk/anthropic'))['anthropic'];

beforeAll(async () => {
  env = await startFrameworkEnv();
  // The default instances read the variables when their module loads: after they are set.
  ai = await import('ai');
  ({ openai } = await import('@ai-sdk/openai'));
  ({ anthropic } = await import('@ai-sdk/anthropic'));
}, 60_000);
afterAll(async () => env?.close());

const tools = () => ({
  get_weather: ai.tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: ({ city }) => Promise.resolve(`21°C and sunny in ${city}`) }),
});

type Model = Parameters<typeof ai.generateText>[0]['model'];

const SETUPS = [
  { name: 'openai(model): the Responses API', model: () => openai('gpt-4o-mini') as Model, fake: () => env.oa, endpoint: 'responses', path: '/v1/responses' },
  { name: 'openai.chat(model): Chat Completions', model: () => openai.chat('llama-3.1') as Model, fake: () => env.compat, endpoint: 'chat_completions', path: '/v1/chat/completions' },
  { name: '@ai-sdk/anthropic with ANTHROPIC_BASE_URL=…/anthropic', model: () => anthropic('claude-sonnet-4-5') as Model, fake: () => env.claude, endpoint: 'messages', path: '/v1/messages' },
] as const;

describe.each(SETUPS)('AI SDK, $name', ({ model, fake, endpoint, path }) => {
  it('a tool loop, a person reviewing each call and editing the answer', async () => {
    fake().script(...weatherScripts('Sunny.'));
    const { result, items } = await reviewedRun(env, () => ai.generateText({ model: model(), tools: tools(), stopWhen: ai.stepCountIs(3), prompt: 'Weather in Paris?', maxRetries: 0 }), 'Edited: sunny in Paris.');
    expect(result.text).toBe('Edited: sunny in Paris.');
    expect(result.steps[0]!.toolResults[0]!.output).toBe('21°C and sunny in Paris');
    expect(items.map((i) => i.gateway?.endpoint)).toEqual([endpoint, endpoint]);
    expect(fake().requests.slice(-2).map((r) => r.path)).toEqual([path, path]);
    expect(JSON.stringify(fake().requests.at(-1)!.body)).toContain('21°C and sunny in Paris');
  }, 60_000);

  it('streamed under an approve-everything rule', async () => {
    await approveEverything(env, true);
    try {
      fake().script({ chunks: ['It is ', 'sunny ', 'in Paris.'] });
      const result = ai.streamText({ model: model(), prompt: 'Weather in Paris?', maxRetries: 0 });
      const parts: string[] = [];
      for await (const text of result.textStream) parts.push(text);
      expect(parts.join('')).toBe('It is sunny in Paris.');
      expect(parts.length).toBeGreaterThan(1);
      expect((await result.usage).inputTokens).toBeGreaterThan(0);
    } finally {
      await approveEverything(env, false);
    }
  }, 60_000);
});
