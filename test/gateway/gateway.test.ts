/**
 * The provider gateway through the real console (createConsole), called by the official `openai`
 * and `@anthropic-ai/sdk` clients; the console's own provider is the loopback OpenAI-compatible
 * fake. What a caller sees and what the reviewer sees:
 *
 * - no token, a wrong or revoked token → 401; a web page's Origin → 403; a body over the cap → 413;
 * - a call waits in the queue as a provider call (API, model asked for, caller); the person edits
 *   the request (the provider receives the edit) and the response (the caller receives the edit);
 * - a rejection is a 403 the SDKs raise as PermissionDeniedError "rejected by the reviewer";
 * - a streamed call whose response is reviewed streams after approval; under an approve_all rule
 *   the provider's chunks stream straight through, tool calls included;
 * - the caller hanging up ends the item; History keeps the call with its gateway facts;
 * - a stdio server with `providerGateway` gets the SDKs' variables, and its calls are linked to the
 *   tool call they happen in.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RulesFile } from '../../shared/contract/rules.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startHarness, type Harness, type WholeState, seenVersion } from '../support/console-harness.js';

const FIXTURE = new URL('../fixtures/gateway-caller-server.ts', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

let llm: OpenAICompatibleServer;
let h: Harness;
let gatewayUrl: string;
let token: string;

const MODEL = { providerId: 'llm', modelId: 'test-model' };
const openai = (apiKey = token) => new OpenAI({ baseURL: `${gatewayUrl}/openai/v1`, apiKey, maxRetries: 0 });
const anthropic = (apiKey = token) => new Anthropic({ baseURL: `${gatewayUrl}/anthropic`, apiKey, maxRetries: 0 });
const waitingCall = (s: WholeState, serverId: string) => s.items.find((i) => i.gateway && i.serverId === serverId && i.status === 'awaiting_request_review');
const rules = (servers: Record<string, unknown>) => ({ version: 1, servers }) as unknown as RulesFile;

/** Waits for the next provider call of `serverId` to reach request review. */
async function nextCall(serverId = 'gateway:script'): Promise<SamplingItemView> {
  const s = await h.waitFor((st) => waitingCall(st, serverId) !== undefined, `a provider call from ${serverId} in the queue`);
  return waitingCall(s, serverId)!;
}

/** Approves the request as it is (or `params`), waits for the response and approves it (or `edit` of it). */
async function approveBoth(item: SamplingItemView, opts: { params?: SamplingItemView['original']; text?: string } = {}): Promise<void> {
  await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: opts.params ?? item.original, model: MODEL });
  const s = await h.waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'the response to review');
  const draft = s.items.find((i) => i.id === item.id)!.response!.draft;
  const result = opts.text === undefined ? draft : { ...draft, content: { type: 'text' as const, text: opts.text } };
  await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result });
}

beforeAll(async () => {
  llm = await startOpenAICompatibleServer();
  h = await startHarness({
    servers: { caller: { command: process.execPath, args: ['--import', 'tsx', FIXTURE], cwd: ROOT, providerGateway: true } },
    providers: { providers: [{ id: 'llm', kind: 'openai-compatible', baseURL: llm.baseURL, models: ['test-model'] }], defaultProvider: 'llm', defaultModel: 'test-model' },
    env: { MCP_CONSOLE_GATEWAY_PORT: '0' },
  });
  await h.ready;
  const state = await h.state();
  expect(state.gateway).toMatchObject({ listening: true, servers: ['caller'] });
  gatewayUrl = state.gateway!.url!;
  token = (await h.service.createGatewayToken({ name: 'script' })).token;
}, 60_000);

afterAll(async () => {
  await h?.dispose();
  await llm?.close();
});

describe('who may call', () => {
  it('no token, a wrong token → 401 in each API’s shape; a web page’s Origin → 403', async () => {
    await expect(openai('not-a-token').chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(anthropic('not-a-token').messages.create({ model: 'claude-x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    const noKey = await fetch(`${gatewayUrl}/openai/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toMatchObject({ error: { type: 'authentication_error' } });
    const fromPage = await fetch(`${gatewayUrl}/anthropic/v1/messages`, { method: 'POST', headers: { origin: 'https://evil.example', 'x-api-key': token }, body: '{}' });
    expect(fromPage.status).toBe(403);
    expect(await fromPage.json()).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
  });

  it('a body over the cap → 413, before anything is queued', async () => {
    const big = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(26 * 1024 * 1024) }] });
    const res = await fetch(`${gatewayUrl}/openai/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect((await h.state()).items.filter((i) => i.gateway)).toHaveLength(0);
  });
});

describe('a person reviews each call', () => {
  it('OpenAI: the request waits as a provider call; edits reach the provider and the caller; History keeps it', async () => {
    const answer = openai().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Summarize the meeting' }], temperature: 0.2, top_p: 0.9 });
    const item = await nextCall();
    expect(item.gateway).toEqual({ api: 'openai', endpoint: 'chat_completions', requestedModel: 'gpt-4o', stream: false, caller: { kind: 'token', name: 'script' }, ignored: ['top_p'] });
    expect(item.original).toMatchObject({ systemPrompt: 'Be brief.', temperature: 0.2, modelPreferences: { hints: [{ name: 'gpt-4o' }] } });
    const before = llm.requests.length;
    await approveBoth(item, { params: { ...item.original, systemPrompt: 'Be very brief.' }, text: 'Edited by the reviewer.' });
    const reply = await answer;
    expect(reply.choices[0]!.message.content).toBe('Edited by the reviewer.');
    expect(reply.choices[0]!.finish_reason).toBe('stop');
    expect(reply.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(JSON.stringify(llm.requests.slice(before).map((r) => r.body.messages))).toContain('Be very brief.');
    const page = await h.service.listHistory({ limit: 1, offset: 0 });
    expect(page.entries[0]).toMatchObject({ kind: 'provider_call', serverId: 'gateway:script', status: 'delivered', edited: true });
    const entry = await h.service.getHistoryEntry({ id: page.entries[0]!.id });
    expect(entry).toMatchObject({ gateway: { api: 'openai', caller: { kind: 'token', name: 'script' } } });
    expect(entry!.events.at(-1)).toMatchObject({ kind: 'delivered', detail: 'The caller received the response (provider call)' });
    expect((await h.state()).gateway!.tokens).toEqual([expect.objectContaining({ name: 'script', calls: expect.any(Number) })]);
  }, 30_000);

  it('a rejection is a 403 the SDKs raise as PermissionDeniedError "rejected by the reviewer"', async () => {
    const openaiAnswer = openai().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'no' }] });
    const first = await nextCall();
    await h.service.rejectRequest({ itemId: first.id, version: first.contentVersion! });
    const err = await openaiAnswer.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((err as Error).message).toContain('rejected by the reviewer');

    const anthropicAnswer = anthropic().messages.create({ model: 'claude-test-model', max_tokens: 50, messages: [{ role: 'user', content: 'no' }] });
    const item = await nextCall();
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MODEL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'the response');
    await h.service.rejectResponse({ itemId: item.id, version: await seenVersion(h, item.id) });
    const err2 = await anthropicAnswer.catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((err2 as Error).message).toContain('rejected by the reviewer');
  }, 30_000);

  it('Anthropic streamed: the approved response streams after approval', async () => {
    const stream = anthropic().messages.stream({ model: 'claude-test-model', max_tokens: 64, system: 'Reply in French.', messages: [{ role: 'user', content: 'Hello' }] });
    const item = await nextCall();
    expect(item.gateway).toMatchObject({ api: 'anthropic', stream: true, requestedModel: 'claude-test-model' });
    expect(item.original).toMatchObject({ systemPrompt: 'Reply in French.', maxTokens: 64 });
    await approveBoth(item, { text: 'Bonjour !' });
    const message = await stream.finalMessage();
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Bonjour !' })]);
    expect(message.stop_reason).toBe('end_turn');
  }, 30_000);

  it('the caller hanging up ends the item (cancelled); nothing is left waiting', async () => {
    const abort = new AbortController();
    const answer = openai().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'never mind' }] }, { signal: abort.signal });
    const item = await nextCall();
    abort.abort();
    await expect(answer).rejects.toThrow();
    const s = await h.waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'cancelled', 'the item to end');
    expect(s.items.find((i) => i.id === item.id)!.outcome?.stopped).toBe('server_stopped_waiting');
  }, 30_000);
});

describe('auto-approved calls stream straight through', () => {
  beforeAll(async () => {
    await h.service.saveRules({ rules: rules({ 'gateway:script': { rules: [{ id: 'all', name: 'Script calls', when: {}, action: { kind: 'approve_all' } }] } }) });
  });
  afterAll(async () => {
    await h.service.saveRules({ rules: rules({}) });
  });

  it('OpenAI stream: the provider’s chunks reach the caller one by one, with usage', async () => {
    llm.script({ chunks: ['One ', 'two ', 'three.'], delayMs: 30 });
    const stream = await openai().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'count' }], stream: true, stream_options: { include_usage: true } });
    const deltas: string[] = [];
    let usage: unknown;
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta.content;
      if (text) deltas.push(text);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(deltas).toEqual(['One ', 'two ', 'three.']);
    expect(usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
  }, 30_000);

  it('tool calls: the model’s tool_use reaches the caller as tool_calls, and the follow-up with the tool result is accepted', async () => {
    llm.script({ toolCalls: [{ id: 'call_w1', name: 'weather', arguments: { city: 'Paris' } }], finishReason: 'tool_calls' });
    const tools = [{ type: 'function' as const, function: { name: 'weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
    const first = await openai().chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({ id: 'call_w1', type: 'function', function: { name: 'weather' } });
    expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toEqual({ city: 'Paris' });
    llm.script({ text: 'Sunny in Paris.' });
    const second = await openai().chat.completions.create({
      model: 'gpt-4o',
      tools,
      messages: [{ role: 'user', content: 'Weather in Paris?' }, first.choices[0]!.message, { role: 'tool', tool_call_id: 'call_w1', content: '21°C, sunny' }],
    });
    expect(second.choices[0]!.message.content).toBe('Sunny in Paris.');
    const sent = JSON.stringify(llm.requests.at(-1)!.body.messages);
    expect(sent).toContain('21°C, sunny');
  }, 30_000);

  it('a revoked token is refused from then on', async () => {
    await h.service.createGatewayToken({ name: 'short-lived' });
    const { token: shortLived } = await h.service.revealGatewayToken({ name: 'short-lived' });
    await h.service.revokeGatewayToken({ name: 'short-lived' });
    await expect(openai(shortLived).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect((await h.state()).gateway!.tokens.map((t) => t.name)).toEqual(['script']);
  });
});

describe('a server launched with providerGateway', () => {
  const callTool = async (name: string, args: Record<string, unknown> = {}) => {
    const { callId } = await h.service.callTool({ serverId: 'caller', name, arguments: args });
    return {
      callId,
      done: () => h.waitFor((s) => s.calls.some((c) => c.id === callId && c.status !== 'running'), `call ${name}`).then((s) => s.calls.find((c) => c.id === callId)!),
    };
  };
  const textOf = (c: { result?: { content: Array<Record<string, unknown>> } }) => String(c.result?.content[0]?.text);

  it('gets the four variables, and its SDK call is reviewed as a call of that server, linked to the tool call it happens in', async () => {
    expect(JSON.parse(textOf(await (await callTool('env')).done()))).toEqual({ OPENAI_BASE_URL: true, OPENAI_API_KEY: true, ANTHROPIC_BASE_URL: true, ANTHROPIC_API_KEY: true });
    const summarize = await callTool('summarize', { text: 'A long meeting about budgets.' });
    const item = await nextCall('caller');
    expect(item.gateway).toMatchObject({ api: 'openai', requestedModel: 'gpt-4o-mini', caller: { kind: 'server' } });
    expect(item.association).toMatchObject({ exact: true, calls: [expect.objectContaining({ callId: summarize.callId, name: 'summarize' })] });
    await approveBoth(item, { text: 'Budgets were discussed.' });
    expect(textOf(await summarize.done())).toBe('Budgets were discussed.');

    const haiku = await callTool('haiku', { topic: 'rain' });
    const rejected = await nextCall('caller');
    expect(rejected.gateway).toMatchObject({ api: 'anthropic' });
    await h.service.rejectRequest({ itemId: rejected.id, version: rejected.contentVersion! });
    expect(textOf(await haiku.done())).toMatch(/^403 .*rejected by the reviewer/);
  }, 60_000);
});
