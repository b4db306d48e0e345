import { describe, expect, it } from 'vitest';
import type { ModelMessage } from 'ai';
import { CreateMessageResultSchema, type CreateMessageParams, type SamplingMessage } from '../../shared/contract/sampling.js';
import {
  fromAiSdkResult,
  INVALID_TOOL_INPUT_META_KEY,
  mapFinishReason,
  SamplingConversionError,
  toAiSdkCall,
  toModelMessages,
  type AiSdkOutcome,
} from '../../main/llm/convert.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

describe('toModelMessages: every content kind', () => {
  const cases: Array<{ name: string; input: SamplingMessage[]; expected: ModelMessage[] }> = [
    {
      name: 'user text (single block)',
      input: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      expected: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    },
    {
      name: 'user image → file part with mediaType and base64 data',
      input: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', data: PNG, mimeType: 'image/png' }] }],
      expected: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } }] }],
    },
    {
      name: 'user audio → file part',
      input: [{ role: 'user', content: { type: 'audio', data: WAV, mimeType: 'audio/wav' } }],
      expected: [{ role: 'user', content: [{ type: 'file', mediaType: 'audio/wav', data: { type: 'data', data: WAV } }] }],
    },
    {
      name: 'assistant text',
      input: [{ role: 'assistant', content: { type: 'text', text: 'hello' } }],
      expected: [{ role: 'assistant', content: [{ type: 'text', text: 'hello' }] }],
    },
    {
      name: 'assistant tool_use → tool-call parts; user tool_result → tool message (toolName looked up)',
      input: [
        { role: 'user', content: { type: 'text', text: 'weather in Paris and Rome?' } },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'c2', name: 'get_time', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: '18°C' }, { type: 'text', text: 'sunny' }] },
            { type: 'tool_result', toolUseId: 'c2', content: [{ type: 'text', text: 'boom' }], isError: true },
          ],
        },
      ],
      expected: [
        { role: 'user', content: [{ type: 'text', text: 'weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'get_time', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: '18°C\nsunny' } },
            { type: 'tool-result', toolCallId: 'c2', toolName: 'get_time', output: { type: 'error-text', value: 'boom' } },
          ],
        },
      ],
    },
    {
      name: 'tool_result with an image → content output; structuredContent only → json',
      input: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'shot', input: {} }, { type: 'tool_use', id: 'b', name: 'stats', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', toolUseId: 'a', content: [{ type: 'text', text: 'here' }, { type: 'image', data: PNG, mimeType: 'image/png' }] },
            { type: 'tool_result', toolUseId: 'b', content: [], structuredContent: { count: 3 } },
          ],
        },
      ],
      expected: [
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'a', toolName: 'shot', input: {} },
            { type: 'tool-call', toolCallId: 'b', toolName: 'stats', input: {} },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'a',
              toolName: 'shot',
              output: { type: 'content', value: [{ type: 'text', text: 'here' }, { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } }] },
            },
            { type: 'tool-result', toolCallId: 'b', toolName: 'stats', output: { type: 'json', value: { count: 3 } } },
          ],
        },
      ],
    },
    {
      name: 'resource link inside a tool_result is sent as its JSON text',
      input: [
        { role: 'assistant', content: { type: 'tool_use', id: 'r', name: 'find', input: { q: 'x' } } },
        { role: 'user', content: { type: 'tool_result', toolUseId: 'r', content: [{ type: 'resource_link', uri: 'file:///a.txt', name: 'a' }] } },
      ],
      expected: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'r', toolName: 'find', input: { q: 'x' } }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'r', toolName: 'find', output: { type: 'text', value: '{"type":"resource_link","uri":"file:///a.txt","name":"a"}' } }],
        },
      ],
    },
  ];
  it.each(cases)('$name', ({ input, expected }) => {
    expect(toModelMessages(input)).toEqual(expected);
  });

  it('refuses tool_use in a user message and tool_result in an assistant message', () => {
    expect(() => toModelMessages([{ role: 'user', content: { type: 'tool_use', id: 'x', name: 'n', input: {} } }])).toThrow(SamplingConversionError);
    expect(() => toModelMessages([{ role: 'assistant', content: { type: 'tool_result', toolUseId: 'x', content: [] } }])).toThrow(/assistant/);
  });
});

describe('toAiSdkCall: settings and tools', () => {
  const base: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 64 };

  it('maps systemPrompt → instructions, maxTokens → maxOutputTokens, temperature, stopSequences', () => {
    const call = toAiSdkCall({ ...base, systemPrompt: 'Be brief.', temperature: 0.7, stopSequences: ['END'] });
    expect(call).toMatchObject({ instructions: 'Be brief.', maxOutputTokens: 64, temperature: 0.7, stopSequences: ['END'] });
    expect(call.tools).toBeUndefined();
    expect(call.toolChoice).toBeUndefined();
  });

  it('omits what was not given (no instructions, temperature, empty stopSequences)', () => {
    const call = toAiSdkCall({ ...base, stopSequences: [] });
    expect(call).toEqual({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], maxOutputTokens: 64 });
  });

  it('builds one AI SDK tool per MCP tool, with the JSON schema and no execute', () => {
    const inputSchema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };
    const call = toAiSdkCall({ ...base, tools: [{ name: 'get_weather', description: 'Weather now', inputSchema }] });
    const t = call.tools?.get_weather;
    expect(t).toBeDefined();
    expect(t?.description).toBe('Weather now');
    expect(t && 'execute' in t ? t.execute : undefined).toBeUndefined();
    const schema = t?.inputSchema as { jsonSchema: unknown } | undefined;
    expect(schema?.jsonSchema).toEqual(inputSchema);
  });

  it.each([
    [undefined, 'auto'],
    [{}, 'auto'],
    [{ mode: 'auto' as const }, 'auto'],
    [{ mode: 'required' as const }, 'required'],
    [{ mode: 'none' as const }, 'none'],
  ])('toolChoice %j → %s', (toolChoice, expected) => {
    const call = toAiSdkCall({ ...base, tools: [{ name: 't', inputSchema: { type: 'object' } }], ...(toolChoice ? { toolChoice } : {}) });
    expect(call.toolChoice).toBe(expected);
  });
});

describe('fromAiSdkResult / mapFinishReason', () => {
  const outcome = (o: Partial<AiSdkOutcome>): AiSdkOutcome => ({ text: '', toolCalls: [], finishReason: 'stop', ...o });

  it.each([
    ['stop', {}, 'endTurn'],
    ['length', {}, 'maxTokens'],
    ['tool-calls', {}, 'toolUse'],
    ['stop', { rawFinishReason: 'stop_sequence' }, 'stopSequence'],
    ['stop', { text: 'one two END', stopSequences: ['END'] }, 'stopSequence'],
    ['stop', { text: 'one two', stopSequences: ['END'] }, 'endTurn'],
    ['content-filter', {}, 'content-filter'],
    ['other', {}, 'other'],
    ['error', {}, 'error'],
  ])('%s %j → %s', (finishReason, detail, expected) => {
    expect(mapFinishReason(finishReason, detail)).toBe(expected);
  });

  it('text only → a single text block, model from the provider', () => {
    const r = fromAiSdkResult(outcome({ text: 'Hello', responseModelId: 'llama-3.2-3b' }), { requestedModelId: 'llama3.2' });
    expect(r).toEqual({ role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'llama-3.2-3b', stopReason: 'endTurn' });
    expect(CreateMessageResultSchema.safeParse(r).success).toBe(true);
  });

  it('nothing generated → one empty text block; model falls back to the requested id', () => {
    const r = fromAiSdkResult(outcome({ finishReason: 'length' }), { requestedModelId: 'm1' });
    expect(r).toEqual({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm1', stopReason: 'maxTokens' });
  });

  it('one tool call → a single tool_use block', () => {
    const r = fromAiSdkResult(outcome({ finishReason: 'tool-calls', toolCalls: [{ toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' } }] }), { requestedModelId: 'm' });
    expect(r.content).toEqual({ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } });
    expect(r.stopReason).toBe('toolUse');
  });

  it('text plus parallel tool calls → an array, text first, in call order', () => {
    const r = fromAiSdkResult(
      outcome({
        text: 'Let me check.',
        finishReason: 'tool-calls',
        toolCalls: [
          { toolCallId: 'c1', toolName: 'a', input: { x: 1 } },
          { toolCallId: 'c2', toolName: 'b', input: '{"y":2}' },
        ],
      }),
      { requestedModelId: 'm' },
    );
    expect(r.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'c1', name: 'a', input: { x: 1 } },
      { type: 'tool_use', id: 'c2', name: 'b', input: { y: 2 } },
    ]);
    expect(CreateMessageResultSchema.safeParse(r).success).toBe(true);
  });

  it('invalid tool arguments → input {} and the raw text kept in _meta for the reviewer', () => {
    const r = fromAiSdkResult(outcome({ finishReason: 'tool-calls', toolCalls: [{ toolCallId: 'c', toolName: 't', input: '{"city": ' }] }), { requestedModelId: 'm' });
    expect(r.content).toEqual({ type: 'tool_use', id: 'c', name: 't', input: {}, _meta: { [INVALID_TOOL_INPUT_META_KEY]: '{"city": ' } });
    expect(CreateMessageResultSchema.safeParse(r).success).toBe(true);
  });

  it('detects a stop sequence from the requested list', () => {
    const r = fromAiSdkResult(outcome({ text: 'a b STOP' }), { requestedModelId: 'm', stopSequences: ['STOP'] });
    expect(r.stopReason).toBe('stopSequence');
  });
});
