/**
 * The OpenAI Responses codec: pure parse checks (input items into MCP messages that pass the
 * sampling validator, earlier answers resolved through the lookup, refusals naming the field), the
 * ids that name History entries, and the official `openai` SDK as a client of a loopback server
 * that answers with nothing but the codec (JSON, the streamed event sequence, errors).
 */
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSamplingRequest } from '../../shared/domain/validate-sampling.js';
import { readResponsesId, replyIdFor, responsesCodec, type EarlierLookup, type GatewayCall } from '../../main/gateway/wire/index.js';
import { outputItemId } from '../../main/gateway/wire/ids.js';
import { sseEvents, startWireServer, textReplyWith, type WireServer } from './wire-server.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const ITEM = '0f8fad5b-d9cb-469f-a165-70867728950e';
const RESP = replyIdFor('responses', ITEM);

/** Parses `body` (with `earlier`), failing the test when the codec refuses it. */
function parseOk(body: unknown, earlier?: EarlierLookup): GatewayCall {
  const out = responsesCodec.parse(body, earlier ? { earlier } : {});
  if (!out.ok) throw new Error(`refused: ${JSON.stringify(out.error)}`);
  expect(validateSamplingRequest(out.call.params, { toolsDeclared: true }).ok).toBe(true);
  return out.call;
}

describe('response ids', () => {
  it('name the History entry, with a checksum that tells the console’s ids from others', () => {
    expect(RESP).toMatch(/^resp_0f8fad5bd9cb469fa16570867728950e[\da-f]{8}$/);
    expect(readResponsesId(RESP)).toEqual({ kind: 'response', itemId: ITEM });
    expect(readResponsesId(outputItemId(RESP, 'fc', 2))).toEqual({ kind: 'item', itemId: ITEM, index: 2 });
    const forged = `${RESP.slice(0, -1)}${RESP.endsWith('0') ? '1' : '0'}`;
    expect(readResponsesId(forged)).toEqual({ kind: 'unknown' });
    expect(readResponsesId('resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b')).toEqual({ kind: 'unknown' });
    expect(readResponsesId('msg_abc')).toEqual({ kind: 'unknown' });
    expect(replyIdFor('chat_completions', ITEM)).toBe('chatcmpl-0f8fad5bd9cb469fa16570867728950e');
    expect(replyIdFor('messages', ITEM)).toBe('msg_0f8fad5bd9cb469fa16570867728950e');
  });
});

describe('responses parse: requests as MCP sampling params', () => {
  it('a string input with instructions', () => {
    const call = parseOk({ model: 'gpt-4.1', instructions: 'Be brief.', input: 'Hello', max_output_tokens: 200, temperature: 0.3, top_p: 0.9, store: false });
    expect(call.params).toEqual({ systemPrompt: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }], maxTokens: 200, temperature: 0.3, modelPreferences: { hints: [{ name: 'gpt-4.1' }] } });
    expect(call.ignored).toEqual(['top_p', 'store (History keeps every call)']);
    expect(call.echo).toMatchObject({ instructions: 'Be brief.', max_output_tokens: 200, top_p: 0.9 });
  });

  it('items: system and developer into the system prompt in order; function calls joined into the assistant turn; outputs into one user message; reasoning dropped', () => {
    const call = parseOk({
      model: 'gpt-4.1',
      instructions: 'First.',
      input: [
        { role: 'developer', content: 'Second.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris and Rome?' }, { type: 'input_image', image_url: `data:image/png;base64,${PNG}` }] },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'c2', name: 'weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'sunny' },
        { type: 'function_call_output', call_id: 'c2', output: [{ type: 'input_text', text: 'rain' }] },
        { role: 'system', content: 'Third.' },
        { role: 'user', content: 'Which is warmer?' },
      ],
      tools: [{ type: 'function', name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true }],
      tool_choice: { type: 'function', name: 'weather' },
    });
    expect(call.params.systemPrompt).toBe('First.\n\nSecond.\n\nThird.');
    expect(call.params.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }, { type: 'image', mimeType: 'image/png', data: PNG }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'c1', name: 'weather', input: { city: 'Paris' } }, { type: 'tool_use', id: 'c2', name: 'weather', input: { city: 'Rome' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: 'sunny' }] }, { type: 'tool_result', toolUseId: 'c2', content: [{ type: 'text', text: 'rain' }] }] },
      { role: 'user', content: [{ type: 'text', text: 'Which is warmer?' }] },
    ]);
    expect(call.params.tools).toEqual([{ name: 'weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }]);
    expect(call.params.toolChoice).toEqual({ mode: 'required' });
    expect(call.ignored).toEqual(['input[2] (reasoning)']);
  });

  it('previous_response_id and item_reference open the conversation through the lookup', () => {
    const asked: string[] = [];
    const earlier: EarlierLookup = (id, param) => {
      asked.push(`${param}=${id}`);
      if (id === 'resp_prev') return [{ role: 'user', content: [{ type: 'text', text: 'Weather?' }] }, { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'weather', input: {} }] }];
      return { status: 404, kind: 'not_found', message: `No response or item with id '${id}'`, param };
    };
    const call = parseOk({ model: 'gpt-4.1', previous_response_id: 'resp_prev', input: [{ type: 'function_call_output', call_id: 'c1', output: 'sunny' }], tools: [{ type: 'function', name: 'weather' }] }, earlier);
    expect(call.previousResponseId).toBe('resp_prev');
    expect(call.params.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(asked).toEqual(['previous_response_id=resp_prev']);
    const missing = responsesCodec.parse({ model: 'gpt-4.1', input: [{ type: 'item_reference', id: 'msg_x' }] }, { earlier });
    expect(missing).toEqual({ ok: false, error: { status: 404, kind: 'not_found', message: "No response or item with id 'msg_x'", param: 'input[0].id' } });
  });

  it.each([
    [{ model: 'gpt-4.1', input: 'x', tools: [{ type: 'web_search' }] }, 'tools[0].type'],
    [{ model: 'gpt-4.1', input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] }] }, 'input[0].content[0].image_url'],
    [{ model: 'gpt-4.1', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] }, 'input[0].content[0]'],
    [{ model: 'gpt-4.1', input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: 'not json' }] }, 'input[0].arguments'],
    [{ model: 'gpt-4.1', input: [{ type: 'web_search_call', id: 'ws' }] }, 'input[0].type'],
    [{ model: 'gpt-4.1', conversation: 'conv_1', input: 'x' }, 'conversation'],
    [{ input: 'x' }, 'model'],
    [{ model: 'gpt-4.1' }, 'input'],
    [{ model: 'gpt-4.1', input: [{ role: 'system', content: 'only a system message' }] }, 'input'],
  ])('refuses %j naming %s', (body, param) => {
    const out = responsesCodec.parse(body);
    expect(out.ok).toBe(false);
    expect(!out.ok && out.error).toMatchObject({ status: 400, kind: 'invalid_request', param });
  });
});

describe('the openai SDK reads the codec’s answers', () => {
  let server: WireServer;
  let client: OpenAI;
  beforeAll(async () => {
    server = await startWireServer(responsesCodec);
    client = new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 });
  });
  afterAll(() => server.close());

  const toolReply = () => textReplyWith(RESP, 'Checking.', { content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'c1', name: 'weather', input: { city: 'Paris' } }], stopReason: 'toolUse' });

  it('a response: output items with ids naming the entry, usage, the echoed request', async () => {
    server.script = { reply: toolReply() };
    const r = await client.responses.create({ model: 'gpt-4.1', input: 'Weather?', instructions: 'Be brief.', tools: [{ type: 'function', name: 'weather', parameters: null, strict: false }] });
    expect(r).toMatchObject({ id: RESP, object: 'response', status: 'completed', model: 'reviewed-model', instructions: 'Be brief.', tools: [{ name: 'weather' }], usage: { input_tokens: 12, output_tokens: 5, total_tokens: 17 } });
    expect(r.output).toEqual([
      { id: outputItemId(RESP, 'msg', 0), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [], logprobs: [] }] },
      { id: outputItemId(RESP, 'fc', 1), type: 'function_call', status: 'completed', call_id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' },
    ]);
    expect(r.output_text).toBe('Checking.');
  });

  it('a response cut by maxTokens is incomplete', async () => {
    server.script = { reply: textReplyWith(RESP, 'Cut', { stopReason: 'maxTokens' }) };
    const r = await client.responses.create({ model: 'gpt-4.1', input: 'x' });
    expect(r).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('a stream: the event sequence in order, keep-alives skipped, the final response assembled by the SDK', async () => {
    server.script = { reply: toolReply(), deltas: ['Check', 'ing.'], pings: true };
    const stream = client.responses.stream({ model: 'gpt-4.1', input: 'Weather?' });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const final = await stream.finalResponse();
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(final.output_text).toBe('Checking.');
    expect(final.output[1]).toMatchObject({ type: 'function_call', call_id: 'c1', arguments: '{"city":"Paris"}' });
    const seq = sseEvents(server.lastAnswer).map((e) => (e.data as { sequence_number: number }).sequence_number);
    expect(seq).toEqual(seq.map((_, i) => i));
  });

  it('an error mid-stream is an APIError the SDK raises, followed by response.failed', async () => {
    server.script = { reply: toolReply(), deltas: ['Chec'], midStreamError: { status: 403, kind: 'permission', message: 'rejected by the reviewer' } };
    const stream = await client.responses.create({ model: 'gpt-4.1', input: 'x', stream: true });
    const err = await (async () => {
      for await (const _ of stream) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).error).toMatchObject({ type: 'permission_error', message: 'rejected by the reviewer' });
    expect(sseEvents(server.lastAnswer).map((e) => e.event).slice(-2)).toEqual(['error', 'response.failed']);
  });

  it('an error before the answer is OpenAI’s error body with its status', async () => {
    server.script = { error: responsesCodec.error('rate_limit', 'slow down') };
    await expect(client.responses.create({ model: 'gpt-4.1', input: 'x' })).rejects.toMatchObject({ status: 429, error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
  });
});
