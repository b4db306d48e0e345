/**
 * The OpenAI Agents SDK for TypeScript (`@openai/agents`) through the gateway, configured as its
 * docs tell users to: `OPENAI_BASE_URL` and `OPENAI_API_KEY` (the gateway's URL and a token),
 * tracing off (`setTracingDisabled`, as for any provider that is not OpenAI), and
 * `setOpenAIAPI('chat_completions')` for its Chat Completions mode. An agent with a function tool
 * runs to completion in each mode: once with a person reviewing every call (editing the answer),
 * once streamed under an approve-everything rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approveEverything, reviewedRun, startFrameworkEnv, weatherScripts, type FrameworkEnv } from './frameworks-env.js';

let env: FrameworkEnv;
let agents: typeof import('@openai/agents');

beforeAll(async () => {
  env = await startFrameworkEnv();
  agents = await import('@openai/agents');
  agents.setTracingDisabled(true);
}, 60_000);
afterAll(async () => env?.close());

/** The agent: answers about the weather with its `get_weather` tool, on `model`. */
function weatherAgent(model: string) {
  const getWeather = agents.tool({
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `21°C and sunny in ${city}`,
  });
  return new agents.Agent({ name: 'Weather', instructions: 'Answer questions about the weather with the tool.', model, tools: [getWeather] });
}

/** What the upstream fake received in the second call of a run: the tool's result. */
const sentToolResult = (body: unknown) => expect(JSON.stringify(body)).toContain('21°C and sunny in Paris');

describe('OpenAI Agents SDK, default Responses mode', () => {
  it('a person reviews each call and edits the answer', async () => {
    env.oa.script(...weatherScripts('Sunny.'));
    const { result, items } = await reviewedRun(env, () => agents.run(weatherAgent('gpt-4o-mini'), 'Weather in Paris?'), 'Edited: 21°C and sunny in Paris.');
    expect(result.finalOutput).toBe('Edited: 21°C and sunny in Paris.');
    expect(items.map((i) => i.gateway?.endpoint)).toEqual(['responses', 'responses']);
    expect(items[0]!.original.tools?.map((t) => t.name)).toEqual(['get_weather']);
    expect(env.oa.requests.slice(-2).map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    sentToolResult(env.oa.requests.at(-1)!.body);
  }, 60_000);

  it('auto-approved, streamed', async () => {
    await approveEverything(env, true);
    try {
      env.oa.script(...weatherScripts('It is 21°C and sunny in Paris.'));
      const stream = await agents.run(weatherAgent('gpt-4o-mini'), 'Weather in Paris?', { stream: true });
      let text = '';
      for await (const event of stream.toTextStream()) text += event;
      await stream.completed;
      expect(stream.finalOutput).toBe('It is 21°C and sunny in Paris.');
      expect(text).toBe('It is 21°C and sunny in Paris.');
      sentToolResult(env.oa.requests.at(-1)!.body);
    } finally {
      await approveEverything(env, false);
    }
  }, 60_000);
});

describe('OpenAI Agents SDK, Chat Completions mode', () => {
  beforeAll(() => agents.setOpenAIAPI('chat_completions'));
  afterAll(() => agents.setOpenAIAPI('responses'));

  it('a person reviews each call and edits the answer', async () => {
    env.compat.script(...weatherScripts('Sunny.'));
    const { result, items } = await reviewedRun(env, () => agents.run(weatherAgent('llama-3.1'), 'Weather in Paris?'), 'Edited: sunny.');
    expect(result.finalOutput).toBe('Edited: sunny.');
    expect(items.map((i) => i.gateway?.endpoint)).toEqual(['chat_completions', 'chat_completions']);
    expect(env.compat.requests.slice(-2).map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
    sentToolResult(env.compat.requests.at(-1)!.body);
  }, 60_000);

  it('auto-approved, streamed', async () => {
    await approveEverything(env, true);
    try {
      env.compat.script(...weatherScripts('Sunny in Paris.'));
      const stream = await agents.run(weatherAgent('llama-3.1'), 'Weather in Paris?', { stream: true });
      for await (const _ of stream) void _;
      await stream.completed;
      expect(stream.finalOutput).toBe('Sunny in Paris.');
      sentToolResult(env.compat.requests.at(-1)!.body);
    } finally {
      await approveEverything(env, false);
    }
  }, 60_000);
});
