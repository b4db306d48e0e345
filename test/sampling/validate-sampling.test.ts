import { describe, expect, it } from 'vitest';
import { validateSamplingRequest, type SamplingValidationContext } from '../../shared/domain/validate-sampling.js';

const ctx: SamplingValidationContext = { toolsDeclared: true, inFlightClientRequests: 1 };
const text = (t: string) => ({ type: 'text', text: t });
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Each row: rule id, a description, params (and optional context), and a fragment of the message. */
const refused: Array<[string, string, unknown, Partial<SamplingValidationContext>, string]> = [
  ['S-MAX-1', 'missing maxTokens', { messages: [user(text('hi'))] }, {}, 'maxTokens is required'],
  ['S-MAX-1', 'zero maxTokens', { messages: [user(text('hi'))], maxTokens: 0 }, {}, 'positive integer'],
  ['S-MAX-1', 'fractional maxTokens', { messages: [user(text('hi'))], maxTokens: 1.5 }, {}, 'positive integer'],
  ['S-MSG-1', 'role system', { messages: [{ role: 'system', content: text('x') }], maxTokens: 5 }, {}, 'message 1 has role "system"'],
  ['S-MSG-1', 'unknown block type', { messages: [user({ type: 'video', data: 'AA==' })], maxTokens: 5 }, {}, 'unknown type "video"'],
  ['S-MSG-1', 'messages not an array', { messages: 'hi', maxTokens: 5 }, {}, 'messages is required'],
  ['S-B64-1', 'undecodable image data', { messages: [user({ type: 'image', data: 'not base64!', mimeType: 'image/png' })], maxTokens: 5 }, {}, 'not valid base64'],
  ['S-B64-1', 'undecodable audio data', { messages: [user({ type: 'audio', data: 'abc', mimeType: 'audio/wav' })], maxTokens: 5 }, {}, 'message 1 block 1 (audio)'],
  ['S-PREF-1', 'priority above 1', { messages: [user(text('x'))], maxTokens: 5, modelPreferences: { costPriority: 1.5 } }, {}, 'costPriority must be a number from 0 to 1'],
  ['S-PREF-1', 'negative priority', { messages: [user(text('x'))], maxTokens: 5, modelPreferences: { speedPriority: -0.1 } }, {}, 'speedPriority'],
  [
    'S-TR-1',
    'tool_result mixed with text',
    {
      messages: [user(text('q')), assistant([{ type: 'tool_use', id: 't1', name: 'w', input: {} }]), user([{ type: 'tool_result', toolUseId: 't1', content: [] }, text('and')]), assistant(text('ok'))],
      maxTokens: 5,
    },
    {},
    'message 3 holds tool_result and text; a tool_result message must hold only tool_result blocks',
  ],
  [
    'S-TR-2',
    'tool_use not answered before the next message',
    { messages: [user(text('q')), assistant([{ type: 'tool_use', id: 't1', name: 'w', input: {} }]), user(text('next'))], maxTokens: 5 },
    {},
    'Tool result missing in request',
  ],
  [
    'S-TR-2',
    'one of two parallel tool_use ids unanswered',
    {
      messages: [
        user(text('q')),
        assistant([{ type: 'tool_use', id: 'a', name: 'w', input: {} }, { type: 'tool_use', id: 'b', name: 'w', input: {} }]),
        user([{ type: 'tool_result', toolUseId: 'a', content: [] }]),
      ],
      maxTokens: 5,
    },
    {},
    'tool_use "b"',
  ],
  ['S-TR-2', 'tool_use as the last message', { messages: [user(text('q')), assistant([{ type: 'tool_use', id: 'a', name: 'w', input: {} }])], maxTokens: 5 }, {}, 'no tool_result message follows'],
  [
    'S-TR-2',
    'tool_result for an id nobody asked for',
    { messages: [user(text('q')), assistant(text('x')), user([{ type: 'tool_result', toolUseId: 'zz', content: [] }])], maxTokens: 5 },
    {},
    'tool_result for "zz"',
  ],
  [
    'S-CAP-2',
    'tools sent although sampling.tools was not declared',
    { messages: [user(text('q'))], maxTokens: 5, tools: [{ name: 'w', inputSchema: { type: 'object' } }] },
    { toolsDeclared: false },
    'did not declare sampling.tools',
  ],
  ['S-CAP-2', 'toolChoice without tools capability', { messages: [user(text('q'))], maxTokens: 5, toolChoice: { mode: 'auto' } }, { toolsDeclared: false }, 'sampling.tools'],
  ['S-ASSOC-1', 'no client request in flight', { messages: [user(text('q'))], maxTokens: 5 }, { inFlightClientRequests: 0 }, 'no client request'],
  ['S-SIZE-1', 'request over the size cap', { messages: [user(text('x'.repeat(2000)))], maxTokens: 5 }, { maxRequestBytes: 1000 }, 'the limit is 1000 B'],
  ['S-SIZE-1', 'image over the media cap', { messages: [user({ type: 'image', data: PNG_1PX, mimeType: 'image/png' })], maxTokens: 5 }, { maxMediaBytes: 10 }, '(image) is 70 B; the limit is 10 B'],
];

describe('validateSamplingRequest refuses malformed requests with -32602', () => {
  it.each(refused)('%s: %s', (rule, _what, params, extra, fragment) => {
    const res = validateSamplingRequest(params, { ...ctx, ...extra });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.rule).toBe(rule);
    expect(res.error.code).toBe(-32602);
    expect(res.error.message).toContain(fragment);
  });
});

describe('validateSamplingRequest accepts well-formed requests', () => {
  it('S-MSG-1: user and assistant text, single block or array', () => {
    const res = validateSamplingRequest({ messages: [user(text('a')), assistant([text('b')]), user(text('c'))], maxTokens: 10, systemPrompt: 's' }, ctx);
    expect(res.ok).toBe(true);
  });

  it('S-TR-2: a balanced parallel tool loop passes', () => {
    const res = validateSamplingRequest(
      {
        messages: [
          user(text('weather in two cities?')),
          assistant([{ type: 'tool_use', id: 'a', name: 'w', input: { city: 'Paris' } }, { type: 'tool_use', id: 'b', name: 'w', input: { city: 'Oslo' } }]),
          user([
            { type: 'tool_result', toolUseId: 'a', content: [text('18C')] },
            { type: 'tool_result', toolUseId: 'b', content: [text('4C')], isError: false },
          ]),
        ],
        maxTokens: 50,
        tools: [{ name: 'w', inputSchema: { type: 'object' } }],
        toolChoice: { mode: 'auto' },
      },
      ctx,
    );
    expect(res).toMatchObject({ ok: true });
  });

  it('S-B64-1: valid image and audio data pass and keep their fields', () => {
    const res = validateSamplingRequest({ messages: [user([{ type: 'image', data: PNG_1PX, mimeType: 'image/png' }, { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }])], maxTokens: 5 }, ctx);
    expect(res.ok).toBe(true);
    if (res.ok) expect(res.params.messages[0]!.content).toHaveLength(2);
  });

  it('S-B64-1 / S-SIZE-1: a 16 MB image is checked without exhausting the stack, and refused over the cap', () => {
    const data = 'A'.repeat(16 * 1024 * 1024);
    const msg = { messages: [user({ type: 'image', data, mimeType: 'image/png' })], maxTokens: 5 };
    expect(validateSamplingRequest(msg, { ...ctx, maxMediaBytes: 64 * 1024 * 1024, maxRequestBytes: 64 * 1024 * 1024 }).ok).toBe(true);
    const capped = validateSamplingRequest(msg, { ...ctx, maxRequestBytes: 64 * 1024 * 1024 });
    expect(capped).toMatchObject({ ok: false, error: { rule: 'S-SIZE-1', code: -32602 } });
  });

  it('S-ASSOC-1 is skipped when the in-flight count is unknown (re-checking an edit)', () => {
    expect(validateSamplingRequest({ messages: [user(text('q'))], maxTokens: 5 }, { toolsDeclared: false }).ok).toBe(true);
  });

  it('S-PREF-1: priorities at the bounds 0 and 1 pass', () => {
    const res = validateSamplingRequest({ messages: [user(text('q'))], maxTokens: 5, modelPreferences: { costPriority: 0, speedPriority: 1, hints: [{ name: 'claude' }] } }, ctx);
    expect(res.ok).toBe(true);
  });
});
