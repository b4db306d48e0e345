/**
 * LangChain's chat models through the gateway, configured only by the variables their docs name:
 * `ChatOpenAI` (`@langchain/openai`) reads `OPENAI_BASE_URL` and `OPENAI_API_KEY`, `ChatAnthropic`
 * (`@langchain/anthropic`) `ANTHROPIC_BASE_URL` and `ANTHROPIC_API_KEY`. Each is invoked with a
 * person reviewing (editing the answer), then streamed and given a bound tool under an
 * approve-everything rule; `ChatOpenAI` also on the Responses API (`useResponsesApi`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approveEverything, reviewedRun, startFrameworkEnv, type FrameworkEnv } from './frameworks-env.js';

let env: FrameworkEnv;
let ChatOpenAI: (typeof import('@langchain/openai'))['ChatOpenAI'];
let ChatAnthropic: (typeof import('@langchain/anthropic'))['ChatAnthropic'];
let tool: (typeof import('@langchain/core/tools'))['tool'];

beforeAll(async () => {
  env = await startFrameworkEnv();
  ({ ChatOpenAI } = await import('@langchain/openai'));
  ({ ChatAnthropic } = await import('@langchain/anthropic'));
  ({ tool } = await import('@langchain/core/tools'));
}, 60_000);
afterAll(async () => env?.close());

const weatherTool = () => tool(({ city }: { city: string }) => `21°C and sunny in ${city}`, { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) });

type Chat = InstanceType<typeof ChatOpenAI> | InstanceType<typeof ChatAnthropic>;

const SETUPS = [
  { name: 'ChatOpenAI (Chat Completions)', chat: (): Chat => new ChatOpenAI({ model: 'llama-3.1', maxRetries: 0 }), fake: () => env.compat, endpoint: 'chat_completions' },
  { name: 'ChatOpenAI (Responses API)', chat: (): Chat => new ChatOpenAI({ model: 'gpt-4o-mini', useResponsesApi: true, maxRetries: 0 }), fake: () => env.oa, endpoint: 'responses' },
  { name: 'ChatAnthropic', chat: (): Chat => new ChatAnthropic({ model: 'claude-sonnet-4-5', maxRetries: 0 }), fake: () => env.claude, endpoint: 'messages' },
] as const;

describe.each(SETUPS)('LangChain $name', ({ chat, fake, endpoint }) => {
  it('invoke, a person reviewing and editing the answer', async () => {
    fake().script({ text: 'Paris.' });
    const { result, items } = await reviewedRun(env, () => chat().invoke([['system', 'Be brief.'], ['human', 'Capital of France?']]), 'Edited: Paris, France.');
    expect(result.text).toBe('Edited: Paris, France.');
    expect(items).toHaveLength(1);
    expect(items[0]!.gateway).toMatchObject({ endpoint, caller: { kind: 'token', name: 'fw' } });
    expect(items[0]!.original.systemPrompt).toBe('Be brief.');
  }, 60_000);

  it('streamed, and a bound tool, under an approve-everything rule', async () => {
    await approveEverything(env, true);
    try {
      fake().script({ chunks: ['Par', 'is', '.'] });
      const chunks: string[] = [];
      for await (const chunk of await chat().stream('Capital of France?')) if (chunk.text) chunks.push(chunk.text);
      expect(chunks.join('')).toBe('Paris.');
      expect(chunks.length).toBeGreaterThan(1);

      fake().script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] });
      const bound = chat().bindTools([weatherTool()]);
      const message = await bound.invoke('Weather in Paris?');
      expect(message.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);
      const answer = await weatherTool().invoke(message.tool_calls![0]!);
      fake().script({ text: 'Sunny.' });
      const final = await bound.invoke([['human', 'Weather in Paris?'], message, answer]);
      expect(final.text).toBe('Sunny.');
      expect(JSON.stringify(fake().requests.at(-1)!.body)).toContain('21°C and sunny in Paris');
    } finally {
      await approveEverything(env, false);
    }
  }, 60_000);
});
