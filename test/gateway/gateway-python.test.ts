/**
 * The provider gateway called by Python's official `openai` and `anthropic` packages (the test
 * venv), configured only through the environment variables the SDKs read — Chat Completions, the
 * Responses API (the console's provider answering through the Responses API of the OpenAI fake),
 * Messages, embeddings, the model lists and count_tokens; streamed and not; reviewed by a person
 * (an edited answer), approved by a rule (the provider's chunks stream straight through) and
 * rejected by one (the SDKs raise PermissionDeniedError "rejected by the reviewer").
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RulesFile } from '../../shared/contract/rules.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startOpenAIServer, type OpenAIServer } from '../fixtures/openai-server.js';
import { seenVersion, startHarness, type Harness } from '../support/console-harness.js';
import { pythonForTests } from '../support/python.js';

const CLIENT = new URL('../fixtures/python/gateway_client.py', import.meta.url).pathname;
const run = promisify(execFile);

let llm: OpenAICompatibleServer;
let oa: OpenAIServer;
let h: Harness;
const env: Record<string, Record<string, string>> = {};

/** Runs gateway_client.py MODE as the holder of `tokenName`'s token; its JSON answer. */
async function client(mode: string, tokenName: string): Promise<Record<string, unknown>> {
  const { stdout } = await run(pythonForTests(), [CLIENT, mode], { env: { ...process.env, ...env[tokenName] }, timeout: 60_000 });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The next call of `serverId` waiting for review. */
async function waiting(serverId: string): Promise<SamplingItemView> {
  const pick = (items: SamplingItemView[]) => items.find((i) => i.serverId === serverId && i.status === 'awaiting_request_review');
  return pick((await h.waitFor((st) => pick(st.items) !== undefined, `a call of ${serverId}`)).items)!;
}

/** The person approves the next call of `serverId` and edits its answer to `text`. */
async function reviewWithEdit(serverId: string, text: string): Promise<SamplingItemView> {
  const item = await waiting(serverId);
  await h.service.approveRequest({ itemId: item.id, version: await seenVersion(h, item.id), params: item.original, model: item.model });
  const s = await h.waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'the response');
  const draft = s.items.find((i) => i.id === item.id)!.response!.draft;
  await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { ...draft, content: { type: 'text', text } } });
  return item;
}

beforeAll(async () => {
  llm = await startOpenAICompatibleServer();
  oa = await startOpenAIServer({ models: ['gpt-4.1'] });
  h = await startHarness({
    providers: {
      providers: [
        { id: 'llm', kind: 'openai-compatible', baseURL: llm.baseURL, models: ['test-model', 'text-embedding-3-small'] },
        { id: 'oa', kind: 'openai', baseURL: oa.baseURL, models: ['gpt-4.1'] },
      ],
      defaultProvider: 'llm',
      defaultModel: 'test-model',
    },
    servers: {},
    env: { MCP_CONSOLE_GATEWAY_PORT: '0' },
  });
  const url = (await h.state()).gateway!.url!;
  for (const name of ['py', 'py-no', 'py-person']) {
    const { token } = await h.service.createGatewayToken({ name });
    env[name] = { OPENAI_BASE_URL: `${url}/openai/v1`, OPENAI_API_KEY: token, ANTHROPIC_BASE_URL: `${url}/anthropic`, ANTHROPIC_API_KEY: token };
  }
  const rules = {
    version: 1,
    servers: {
      'gateway:py': { rules: [{ id: 'yes', name: 'Python calls', when: {}, action: { kind: 'approve_all' } }] },
      'gateway:py-no': { rules: [{ id: 'no', name: 'Not this one', when: {}, action: { kind: 'reject', reason: 'not allowed' } }] },
    },
  } as unknown as RulesFile;
  await h.service.saveRules({ rules });
}, 60_000);

afterAll(async () => {
  await h?.dispose();
  await llm?.close();
  await oa?.close();
});

describe('Python SDKs through the gateway', () => {
  it('openai: a call and a streamed call (chunks one by one, usage)', async () => {
    llm.script({ text: 'Hello from the console.' });
    expect(await client('openai', 'py')).toEqual({ text: 'Hello from the console.', finish: 'stop', usage: expect.any(Number) });
    llm.script({ chunks: ['Hel', 'lo ', 'there.'] });
    expect(await client('openai-stream', 'py')).toEqual({ deltas: ['Hel', 'lo ', 'there.'], usage: expect.any(Number) });
  }, 60_000);

  it('anthropic: a call and a streamed call', async () => {
    llm.script({ text: 'Bonjour.' });
    expect(await client('anthropic', 'py')).toEqual({ text: 'Bonjour.', stop: 'end_turn' });
    llm.script({ chunks: ['Bon', 'jour', '!'] });
    expect(await client('anthropic-stream', 'py')).toEqual({ deltas: ['Bon', 'jour', '!'], text: 'Bonjour!' });
  }, 60_000);

  it('a rejection is PermissionDeniedError (403) "rejected by the reviewer" in both SDKs; History names the token', async () => {
    for (const mode of ['openai-rejected', 'anthropic-rejected']) {
      const out = await client(mode, 'py-no');
      expect(out).toMatchObject({ error: 'PermissionDeniedError', status: 403 });
      expect(String(out.message)).toContain('rejected by the reviewer');
    }
    const page = await h.service.listHistory({ limit: 10, offset: 0 });
    expect(page.entries.filter((e) => e.serverId === 'gateway:py-no').map((e) => e.status)).toEqual(['rejected', 'rejected']);
    expect(page.entries.filter((e) => e.serverId === 'gateway:py' && e.status === 'delivered')).toHaveLength(4);
  }, 60_000);

  it('a person reviews a call of each SDK and edits the answer (Responses API, Messages)', async () => {
    const responses = client('responses', 'py-person');
    const item = await reviewWithEdit('gateway:py-person', 'Edited in the console.');
    expect(item.gateway).toMatchObject({ endpoint: 'responses', requestedModel: 'gpt-4.1' });
    expect(await responses).toEqual({ text: 'Edited in the console.', status: 'completed', id: expect.stringMatching(/^resp_/) });
    expect(oa.requests.at(-1)!.path).toBe('/v1/responses');
    const messages = client('anthropic', 'py-person');
    await reviewWithEdit('gateway:py-person', 'Bonjour, edited.');
    expect(await messages).toEqual({ text: 'Bonjour, edited.', stop: 'end_turn' });
  }, 60_000);
});

describe('Python SDKs on the Responses API, embeddings, model lists (approved by a rule)', () => {
  it('responses: streamed, and a function tool continued with previous_response_id', async () => {
    oa.script({ chunks: ['Hel', 'lo ', 'there.'] });
    expect(await client('responses-stream', 'py')).toEqual({
      deltas: ['Hel', 'lo ', 'there.'],
      text: 'Hello there.',
      events: ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed'],
    });
    oa.script({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'Sunny in Paris.' });
    expect(await client('responses-tool', 'py')).toEqual({ call: { name: 'get_weather', arguments: { city: 'Paris' } }, text: 'Sunny in Paris.' });
    expect(JSON.stringify(oa.requests.at(-1)!.body)).toContain('21 C, sunny');
  }, 60_000);

  it('embeddings, the model lists and count_tokens', async () => {
    expect(await client('embeddings', 'py')).toEqual({ count: 2, dimensions: 4 });
    expect(await client('models', 'py')).toEqual({ openai: ['test-model', 'text-embedding-3-small', 'gpt-4.1'], anthropic: ['test-model', 'text-embedding-3-small', 'gpt-4.1'], tokens: 10 });
  }, 60_000);
});
