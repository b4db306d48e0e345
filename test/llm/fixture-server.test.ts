// The loopback OpenAI-compatible fixture itself: other suites (integration, Playwright) rely on
// its wire format and control endpoints, so they are pinned here with plain fetch.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';

let server: OpenAICompatibleServer;
beforeAll(async () => {
  server = await startOpenAICompatibleServer({ models: ['a', 'b'] });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const post = (path: string, body: unknown): Promise<Response> =>
  fetch(`${server.baseURL}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => e.slice('data: '.length));
}

describe('openai-compatible fixture server', () => {
  it('binds to 127.0.0.1 and lists models', async () => {
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const body = (await (await fetch(`${server.baseURL}/models`)).json()) as { data: Array<{ id: string }> };
    expect(body.data.map((m) => m.id)).toEqual(['a', 'b']);
  });

  it('answers non-streaming requests with a chat.completion (text and tool_calls)', async () => {
    server.script({ text: 'hi there', toolCalls: [{ id: 'c1', name: 't', arguments: { x: 1 } }], usage: { promptTokens: 3, completionTokens: 2 } });
    const res = await post('/chat/completions', { model: 'a', messages: [{ role: 'user', content: 'hi' }] });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'a',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: 'hi there', tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{"x":1}' } }] } }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(server.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('streams SSE chunks: role, text pieces, tool-call fragments, finish, usage (only when asked), [DONE]', async () => {
    server.script({ text: 'one two three four', chunks: 2, toolCalls: [{ name: 'f', arguments: '{"q":"abc"}' }], finishReason: 'tool_calls' });
    const res = await post('/chat/completions', { model: 'a', messages: [], stream: true, stream_options: { include_usage: true } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const data = sseData(await res.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d) as { object: string; choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>; usage?: unknown });
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('one two three four');
    expect(chunks.filter((c) => typeof c.choices[0]?.delta.content === 'string' && c.choices[0]?.delta.content !== '')).toHaveLength(2);
    const args = chunks.flatMap((c) => (c.choices[0]?.delta.tool_calls as Array<{ function?: { arguments?: string } }> | undefined) ?? []).map((t) => t.function?.arguments ?? '');
    expect(args.join('')).toBe('{"q":"abc"}');
    expect(args.filter((a) => a !== '').length).toBeGreaterThan(1);
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10 } });

    server.script({ text: 'x' });
    const plain = sseData(await (await post('/chat/completions', { model: 'a', messages: [], stream: true })).text());
    expect(plain.some((d) => d.includes('"usage"'))).toBe(false);
  });

  it('scripts are consumed in order, then the default reply', async () => {
    server.script({ text: 'first' }, { error: { status: 503, message: 'down' } });
    const a = (await (await post('/chat/completions', { model: 'a', messages: [] })).json()) as { choices: Array<{ message: { content: string } }> };
    const b = await post('/chat/completions', { model: 'a', messages: [] });
    const c = (await (await post('/chat/completions', { model: 'a', messages: [] })).json()) as { choices: Array<{ message: { content: string } }> };
    expect(a.choices[0]?.message.content).toBe('first');
    expect(b.status).toBe(503);
    expect(await b.json()).toEqual({ error: { message: 'down', type: 'server_error', code: null, param: null } });
    expect(c.choices[0]?.message.content).toBe('Hello from the loopback server.');
  });

  it('can be scripted and inspected over HTTP (for tests in another process)', async () => {
    const origin = server.baseURL.replace(/\/v1$/, '');
    await fetch(`${origin}/__script`, { method: 'POST', body: JSON.stringify([{ text: 'remote' }]) });
    const r = (await (await post('/chat/completions', { model: 'b', messages: [] })).json()) as { choices: Array<{ message: { content: string } }> };
    expect(r.choices[0]?.message.content).toBe('remote');
    await server.waitForOutcome(0);
    const recorded = (await (await fetch(`${origin}/__requests`)).json()) as Array<{ body: { model: string }; outcome: string }>;
    expect(recorded.map((q) => q.body.model)).toEqual(['b']);
    expect(recorded[0]?.outcome).toBe('completed');
  });
});
