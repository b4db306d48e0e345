/**
 * The gateway's routing and its small endpoints, as pure functions: which method and path reach
 * which endpoint (Anthropic's with and without `/v1`), the embeddings body, count_tokens' estimate,
 * the model lists a caller may ask for.
 */
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../main/gateway/count-tokens.js';
import { parseEmbeddingsRequest } from '../../main/gateway/embeddings.js';
import { modelCatalog, modelsBody } from '../../main/gateway/models.js';
import { route } from '../../main/gateway/routes.js';
import type { ProviderView } from '../../shared/contract/state.js';

describe('routes', () => {
  it.each([
    ['POST', '/openai/v1/chat/completions', { kind: 'call', endpoint: 'chat_completions' }],
    ['POST', '/openai/v1/responses', { kind: 'call', endpoint: 'responses' }],
    ['GET', '/openai/v1/responses/resp_1', { kind: 'response', id: 'resp_1' }],
    ['POST', '/openai/v1/embeddings', { kind: 'embeddings' }],
    ['GET', '/openai/v1/models', { kind: 'models', api: 'openai' }],
    ['GET', '/openai/v1/models/meta-llama%2FLlama-3', { kind: 'models', api: 'openai', id: 'meta-llama/Llama-3' }],
    ['POST', '/anthropic/v1/messages', { kind: 'call', endpoint: 'messages' }],
    ['POST', '/anthropic/messages', { kind: 'call', endpoint: 'messages' }],
    ['POST', '/anthropic/v1/messages/count_tokens', { kind: 'count_tokens' }],
    ['POST', '/anthropic/messages/count_tokens', { kind: 'count_tokens' }],
    ['GET', '/anthropic/models', { kind: 'models', api: 'anthropic' }],
    ['GET', '/anthropic/v1/models/claude-x', { kind: 'models', api: 'anthropic', id: 'claude-x' }],
  ])('%s %s', (method, path, endpoint) => {
    expect(route(method, path).endpoint).toEqual(endpoint);
  });

  it('an unknown path has no endpoint (and the shape of the API it is under); a served one with another method says which it wants', () => {
    expect(route('POST', '/openai/v1/assistants')).toEqual({ shape: 'openai' });
    expect(route('POST', '/anthropic/v1/complete')).toEqual({ shape: 'anthropic' });
    expect(route('POST', '/v1/chat/completions')).toEqual({ shape: 'openai' });
    expect(route('GET', '/anthropic/v1/messages')).toEqual({ shape: 'anthropic', allow: 'POST' });
    expect(route('POST', '/openai/v1/models')).toEqual({ shape: 'openai', allow: 'GET' });
  });
});

describe('embeddings body', () => {
  it('a string or strings, the format and dimensions; other fields listed as not carried', () => {
    expect(parseEmbeddingsRequest({ model: 'e', input: 'one', user: 'u' })).toEqual({ ok: true, call: { texts: ['one'], model: 'e', base64: false, ignored: ['user'] } });
    expect(parseEmbeddingsRequest({ model: 'e', input: ['a', 'b'], encoding_format: 'base64', dimensions: 8 })).toEqual({ ok: true, call: { texts: ['a', 'b'], model: 'e', base64: true, dimensions: 8, ignored: [] } });
  });

  it.each([
    [{ model: 'e', input: [1, 2, 3] }, 'input[0]'],
    [{ model: 'e', input: [[1, 2]] }, 'input[0]'],
    [{ model: 'e', input: ['a', ''] }, 'input[1]'],
    [{ model: 'e', input: [] }, 'input'],
    [{ input: 'a' }, 'model'],
    [{ model: 'e', input: 'a', encoding_format: 'int8' }, 'encoding_format'],
  ])('refuses %j naming %s', (body, param) => {
    const out = parseEmbeddingsRequest(body);
    expect(!out.ok && out.error).toMatchObject({ status: 400, param });
  });
});

describe('count_tokens', () => {
  it('estimates one token per 4 characters of text, tools included, without max_tokens', () => {
    const tool = { name: 'weather', input_schema: { type: 'object' } };
    const out = countTokens({ model: 'c', system: 'abcd', messages: [{ role: 'user', content: 'x'.repeat(40) }], tools: [tool] });
    const toolChars = JSON.stringify({ name: 'weather', inputSchema: { type: 'object' } }).length;
    expect(out).toEqual({ ok: true, body: { input_tokens: Math.ceil((4 + 40 + toolChars) / 4) } });
  });

  it('refuses what the Messages endpoint refuses', () => {
    expect(countTokens({ model: 'c', messages: [] })).toMatchObject({ ok: false, error: { status: 400 } });
  });
});

describe('model lists', () => {
  const providers = [
    { id: 'oa', kind: 'openai', label: 'OpenAI', models: ['gpt-4o', 'gpt-4o-mini'], hasApiKey: true },
    { id: 'local', kind: 'openai-compatible', label: 'Local', models: ['gpt-4o', 'llama'], hasApiKey: false },
    { id: 'manual', kind: 'manual', label: 'Write it', models: ['manual'], hasApiKey: false },
  ] as ProviderView[];

  it('every model once, in provider order, the manual one aside; a server’s allowed models only', () => {
    expect(modelCatalog(providers)).toEqual([{ id: 'gpt-4o', provider: 'oa' }, { id: 'gpt-4o-mini', provider: 'oa' }, { id: 'llama', provider: 'local' }]);
    expect(modelCatalog(providers, { allowedModels: [{ providerId: 'local', modelId: 'llama' }] })).toEqual([{ id: 'llama', provider: 'local' }]);
  });

  it('in OpenAI’s and Anthropic’s list shapes', () => {
    const models = modelCatalog(providers);
    expect(modelsBody('openai', models)).toEqual({ object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', created: 0, owned_by: m.provider })) });
    expect(modelsBody('anthropic', models)).toMatchObject({ has_more: false, first_id: 'gpt-4o', last_id: 'llama', data: [{ type: 'model', id: 'gpt-4o', display_name: 'gpt-4o' }, {}, {}] });
  });
});
