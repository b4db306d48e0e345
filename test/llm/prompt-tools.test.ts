// The prompt-based tool fallback: tools described in the system prompt, the JSON reply
// parsed into tool_use, invalid JSON / mixed prose / unknown tools shown as such — pure, and through
// an OpenAI-compatible model marked "prompt" against the loopback server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../main/llm/errors.js';
import { createOpenAICompatibleProvider } from '../../main/llm/openai-compatible.js';
import { formatToolForPrompt, parsePromptToolReply, PROMPT_TOOL_META_KEY, promptToolsInstructions, toPromptToolParams } from '../../main/llm/prompt-tools.js';
import type { SdkProvider } from '../../main/llm/provider.js';
import type { CreateMessageParams, SamplingTool } from '../../shared/contract/sampling.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';

const weather: SamplingTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' }, unit: { type: 'string' } }, required: ['city'] },
};
const tools: SamplingTool[] = [weather, { name: 'get_time', inputSchema: { type: 'object' } }];

describe('describing tools in the system prompt', () => {
  it('formats name, description and each argument with type and required-ness', () => {
    expect(formatToolForPrompt(weather)).toBe(
      'Tool: get_weather\nDescription: Current weather for a city\nArguments:\n- city (string, required): City name\n- unit (string, optional): No description',
    );
    expect(formatToolForPrompt(tools[1]!)).toBe('Tool: get_time\nDescription: No description\nArguments: none');
  });

  it('asks for ONLY the JSON object, and says "must use" for toolChoice required', () => {
    const text = promptToolsInstructions(tools);
    expect(text).toContain('you must ONLY respond with the exact JSON object format below');
    expect(text).toContain('"tool": "tool-name"');
    expect(text).toContain('If no tool is needed, reply directly.');
    expect(promptToolsInstructions(tools, 'required')).toContain('You must use one of these tools');
  });

  it('rewrites the request: no tools field, tool section after the server system prompt, history as text', () => {
    const params: CreateMessageParams = {
      maxTokens: 100,
      systemPrompt: 'Be brief.',
      tools,
      toolChoice: { mode: 'auto' },
      messages: [
        { role: 'user', content: { type: 'text', text: 'Weather in Oslo?' } },
        { role: 'assistant', content: { type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Oslo' } } },
        { role: 'user', content: { type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: '12°C' }] } },
      ],
    };
    const out = toPromptToolParams(params);
    expect(out.tools).toBeUndefined();
    expect(out.toolChoice).toBeUndefined();
    expect(out.systemPrompt?.startsWith('Be brief.\n\nYou have access to these tools:')).toBe(true);
    expect(out.messages[1]?.content).toEqual({ type: 'text', text: JSON.stringify({ tool: 'get_weather', arguments: { city: 'Oslo' } }, null, 2) });
    expect(out.messages[2]?.content).toEqual({ type: 'text', text: 'Result of tool "get_weather":\n12°C' });
    expect(toPromptToolParams({ ...params, toolChoice: { mode: 'none' } }).systemPrompt).toBe('Be brief.');
  });
});

describe('parsing the reply', () => {
  it.each([
    ['plain text answer', 'It is sunny in Oslo.', { kind: 'text' }],
    ['a JSON answer without "tool"', '{"temperature": 12}', { kind: 'text' }],
    ['a tool call', '{"tool": "get_weather", "arguments": {"city": "Oslo"}}', { kind: 'tool_use', name: 'get_weather', input: { city: 'Oslo' } }],
    ['a tool call in a ```json fence', '```json\n{"tool": "get_time", "arguments": {}}\n```', { kind: 'tool_use', name: 'get_time', input: {} }],
    ['arguments omitted', '{"tool": "get_time"}', { kind: 'tool_use', name: 'get_time', input: {} }],
    ['invalid JSON', '{"tool": "get_weather", "arguments": {"city": Oslo}}', { kind: 'invalid', problem: 'invalid-json' }],
    ['arguments not an object', '{"tool": "get_weather", "arguments": "Oslo"}', { kind: 'invalid', problem: 'invalid-json' }],
    ['unknown tool', '{"tool": "delete_everything", "arguments": {}}', { kind: 'invalid', problem: 'unknown-tool' }],
    ['tool call inside prose', 'Sure! {"tool": "get_weather", "arguments": {"city": "Oslo"}}', { kind: 'invalid', problem: 'mixed' }],
  ])('%s', (_n, reply, expected) => {
    expect(parsePromptToolReply(reply, tools)).toMatchObject(expected);
  });

  it('names the unknown tool and the offered ones', () => {
    const r = parsePromptToolReply('{"tool": "rm", "arguments": {}}', tools);
    expect(r.kind === 'invalid' && r.message).toBe('The reply calls a tool named "rm", which was not offered (offered: "get_weather", "get_time"). It was not treated as a tool call.');
  });
});

describe('through a model marked "prompt" (OpenAI-compatible, loopback)', () => {
  let server: OpenAICompatibleServer;
  let provider: SdkProvider;
  const params: CreateMessageParams = { maxTokens: 50, messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Oslo?' } }], tools, toolChoice: { mode: 'auto' } };
  const gen = (p: CreateMessageParams = params) => provider.generate!({ params: p, modelId: 'tiny', signal: new AbortController().signal, onText: () => {} });
  beforeAll(async () => {
    server = await startOpenAICompatibleServer({ models: ['tiny', 'none-model'] });
    provider = createOpenAICompatibleProvider({
      id: 'local',
      baseURL: server.baseURL,
      models: ['tiny', 'none-model'],
      toolSupport: (m) => (m === 'tiny' ? 'prompt' : 'none'),
    });
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('sends no tools field, describes the tools in the system message, and parses the JSON reply into tool_use', async () => {
    server.script({ text: '{"tool": "get_weather", "arguments": {"city": "Oslo"}}' });
    const out = await gen();
    const body = server.requests[0]!.body;
    expect(body.tools).toBeUndefined();
    expect(body.messages[0]).toMatchObject({ role: 'system' });
    expect(String(body.messages[0]!.content)).toContain('Tool: get_weather');
    expect(out.result.stopReason).toBe('toolUse');
    expect(out.result.content).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Oslo' } });
  });

  it('an unknown tool stays text, marked for the reviewer', async () => {
    server.script({ text: '{"tool": "format_disk", "arguments": {}}' });
    const out = await gen();
    expect(out.result.stopReason).toBe('endTurn');
    expect(out.result.content).toMatchObject({ type: 'text', text: '{"tool": "format_disk", "arguments": {}}', _meta: { [PROMPT_TOOL_META_KEY]: { problem: 'unknown-tool' } } });
  });

  it('invalid JSON stays text, marked for the reviewer', async () => {
    server.script({ text: '{"tool": "get_weather", "arguments": {city: Oslo}' });
    const out = await gen();
    expect(out.result.content).toMatchObject({ type: 'text', _meta: { [PROMPT_TOOL_META_KEY]: { problem: 'invalid-json' } } });
  });

  it('a direct answer passes through unchanged', async () => {
    server.script({ text: 'I cannot check the weather.' });
    const out = await gen();
    expect(out.result.content).toEqual({ type: 'text', text: 'I cannot check the weather.' });
  });

  it('a model with no tool calling refuses a request with tools, without sending it', async () => {
    const e = await provider.generate!({ params, modelId: 'none-model', signal: new AbortController().signal, onText: () => {} }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).kind).toBe('unsupported');
    expect((e as Error).message).toMatch(/has no tool calling/);
    expect(server.requests).toHaveLength(0);
  });
});
