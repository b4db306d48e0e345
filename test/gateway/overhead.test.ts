/**
 * Every answer of the provider gateway reports the console's own added time — a plain one in the
 * `x-mcp-console-overhead-ms` header, a streamed one as its last line, an SSE comment — and that
 * time leaves out what the console waited on: the provider's generation and a person's review.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RulesFile } from '../../shared/contract/rules.js';
import { OVERHEAD_HEADER } from '../../main/gateway/overhead.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startHarness, type Harness } from '../support/console-harness.js';

let llm: OpenAICompatibleServer;
let h: Harness;
let url: string;
const tokens = { auto: '', reviewed: '' };
const MODEL = { providerId: 'llm', modelId: 'test-model' };
/** The provider's pace in the slow cells: 4 chunks 150 ms apart, so it takes ≥ 450 ms. */
const SLOW = { chunks: ['a ', 'b ', 'c ', 'd'], delayMs: 150 };
const COMMENT = new RegExp(`\\n\\n: ${OVERHEAD_HEADER}: (\\d+(?:\\.\\d+)?)\\n\\n$`);

beforeAll(async () => {
  llm = await startOpenAICompatibleServer();
  h = await startHarness({
    providers: { providers: [{ id: 'llm', kind: 'openai-compatible', baseURL: llm.baseURL, models: ['test-model'] }], defaultProvider: 'llm', defaultModel: 'test-model' },
    env: { MCP_CONSOLE_GATEWAY_PORT: '0' },
  });
  await h.ready;
  url = (await h.state()).gateway!.url!;
  tokens.auto = (await h.service.createGatewayToken({ name: 'auto' })).token;
  tokens.reviewed = (await h.service.createGatewayToken({ name: 'reviewed' })).token;
  const rules = { version: 1, servers: { 'gateway:auto': { rules: [{ id: 'all', name: 'all', when: {}, action: { kind: 'approve_all' } }] } } } as unknown as RulesFile;
  await h.service.saveRules({ rules });
}, 60_000);

afterAll(async () => {
  await h?.dispose();
  await llm?.close();
});

const client = (who: 'auto' | 'reviewed') => new OpenAI({ baseURL: `${url}/openai/v1`, apiKey: tokens[who], maxRetries: 0 });
const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }] };

/** The header's value as a number; fails when it is missing or not a number. */
function overheadOf(headers: Headers): number {
  const value = headers.get(OVERHEAD_HEADER);
  expect(value, `${OVERHEAD_HEADER} header`).toMatch(/^\d+(\.\d+)?$/);
  return Number(value);
}

/** A raw streamed call: the whole SSE text and the ms it took. */
async function rawStream(who: 'auto' | 'reviewed'): Promise<{ text: string; ms: number; headers: Headers }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/openai/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...ask, stream: true }) });
  const text = await res.text();
  return { text, ms: performance.now() - t0, headers: res.headers };
}

describe('plain answers carry the header', () => {
  it('an auto-approved call: the added time is below the whole call and leaves out the provider’s generation', async () => {
    llm.script(SLOW);
    const t0 = performance.now();
    const { data, response } = await client('auto').chat.completions.create(ask).withResponse();
    const ms = performance.now() - t0;
    expect(data.choices[0]!.message.content).toBe('a b c d');
    expect(ms).toBeGreaterThan(450);
    expect(overheadOf(response.headers)).toBeLessThan(ms - 400);
  });

  it('a reviewed call: the person’s review is not the console’s time', async () => {
    const answer = client('reviewed').chat.completions.create(ask).withResponse();
    const s = await h.waitFor((st) => st.items.some((i) => i.serverId === 'gateway:reviewed' && i.status === 'awaiting_request_review'), 'the call in the queue');
    const item = s.items.find((i) => i.serverId === 'gateway:reviewed' && i.status === 'awaiting_request_review')!;
    await new Promise((r) => setTimeout(r, 600));
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MODEL });
    const ready = await h.waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'the response');
    const reviewed = ready.items.find((i) => i.id === item.id)!;
    await new Promise((r) => setTimeout(r, 600));
    await h.service.approveResponse({ itemId: item.id, version: reviewed.contentVersion!, result: reviewed.response!.draft });
    const { response } = await answer;
    expect(overheadOf(response.headers)).toBeLessThan(500);
  }, 30_000);

  it('errors carry it too: no token (401), an unknown path (404)', async () => {
    const unauthorized = await fetch(`${url}/openai/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(unauthorized.status).toBe(401);
    overheadOf(unauthorized.headers);
    const unknown = await fetch(`${url}/openai/v1/nowhere`, { headers: { authorization: `Bearer ${tokens.auto}` } });
    expect(unknown.status).toBe(404);
    overheadOf(unknown.headers);
  });
});

describe('streamed answers end with it as an SSE comment', () => {
  it('an auto-approved stream: the text passes through, then the comment, leaving out the provider’s generation', async () => {
    llm.script(SLOW);
    const { text, ms, headers } = await rawStream('auto');
    expect(headers.get('content-type')).toBe('text/event-stream');
    expect(headers.get(OVERHEAD_HEADER)).toBeNull();
    const m = COMMENT.exec(text);
    expect(m, text.slice(-200)).not.toBeNull();
    expect(text.slice(0, m!.index)).toContain('data: [DONE]');
    expect(Number(m![1])).toBeLessThan(ms - 400);
  });

  it('the openai SDK reads such a stream as usual', async () => {
    const stream = await client('auto').chat.completions.create({ ...ask, stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from the loopback server.');
  });

  it('a stream that fails once the text passed ends with its error event, then the comment', async () => {
    llm.script({ chunks: ['first ', 'second'], fault: 'drop' });
    const { text } = await rawStream('auto');
    expect(text).toContain('first ');
    expect(text).toContain('the connection was lost while the response was streaming');
    expect(text).toMatch(COMMENT);
  });

  it('a streamed call rejected before its stream started is a plain 403: the header', async () => {
    const answer = rawStream('reviewed');
    const s = await h.waitFor((st) => st.items.some((i) => i.serverId === 'gateway:reviewed' && i.status === 'awaiting_request_review'), 'the call in the queue');
    const item = s.items.find((i) => i.serverId === 'gateway:reviewed' && i.status === 'awaiting_request_review')!;
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion! });
    const { text, headers } = await answer;
    expect(text).toContain('rejected by the reviewer');
    overheadOf(headers);
  }, 30_000);
});
