// The provider registry behind the Providers screen: add/edit/rename/remove with keys only in the
// secret store, providers.json written without keys (and never over a broken file), per-model
// facts, model lists and Test connection against the loopback wire servers, model settings and
// the server-aware selection.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROVIDERS_CONFIG_FILE } from '../../main/llm/providers-config.js';
import { openProviderRegistry, type ProviderRegistryService } from '../../main/llm/registry.js';
import { apiKeySecretName, createMemorySecretStore, type SecretStore } from '../../main/secrets/secret-store.js';
import { defaultModelFacts, type ModelSettings, type ProviderSettings } from '../../shared/contract/providers.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { ProviderView } from '../../shared/contract/state.js';
import { startAnthropicServer, type AnthropicServer } from '../fixtures/anthropic-server.js';
import { startGeminiServer, type GeminiServer } from '../fixtures/gemini-server.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';

const KEY = 'sk-ant-REGISTRY-test-key-9f8e7d';
let dir: string;
let path: string;
let secrets: SecretStore;
let published: Array<{ views: ProviderView[]; settings: ModelSettings }>;
const open = (env: Record<string, string> = {}): Promise<ProviderRegistryService> =>
  openProviderRegistry({ path, env, secrets, onChange: (views, settings) => published.push({ views, settings }), listOptions: { timeoutMs: 3000 } });

let anthropic: AnthropicServer;
let gemini: GeminiServer;
let geminiNoList: GeminiServer;
let compat: OpenAICompatibleServer;
beforeAll(async () => {
  anthropic = await startAnthropicServer({ apiKey: KEY, models: ['claude-sonnet-4-5', 'claude-haiku-4-5'] });
  gemini = await startGeminiServer({ apiKey: KEY, models: ['gemini-2.5-flash', 'gemini-2.5-pro'] });
  geminiNoList = await startGeminiServer({ apiKey: KEY, noModelList: true });
  compat = await startOpenAICompatibleServer({ models: ['llama3.2'] });
});
afterAll(async () => {
  await Promise.all([anthropic.close(), gemini.close(), geminiNoList.close(), compat.close()]);
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'registry-'));
  path = join(dir, PROVIDERS_CONFIG_FILE);
  secrets = createMemorySecretStore();
  published = [];
  for (const s of [anthropic, gemini, geminiNoList, compat]) s.reset();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const claude = (): ProviderSettings => ({ id: 'anthropic', kind: 'anthropic', label: 'Anthropic', baseURL: anthropic.baseURL, models: ['claude-sonnet-4-5'] });
const hello: CreateMessageParams = { maxTokens: 20, messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] };

describe('saving providers', () => {
  it('stores the key only in the secret store; providers.json has no key; the view shows only a hint', async () => {
    const r = await open();
    const view = await r.save({ provider: claude(), apiKey: KEY });
    expect(view).toMatchObject({ id: 'anthropic', kind: 'anthropic', hasApiKey: true, apiKeyHint: `…${KEY.slice(-4)}`, source: 'console' });
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(await secrets.get(apiKeySecretName('anthropic'))).toBe(KEY);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toEqual({ providers: [claude()] });
    expect(published.at(-1)?.views.map((v) => v.id)).toEqual(['anthropic', 'manual']);
    // The provider generates with the stored key (the fixture refuses any other).
    const out = await r.get('anthropic')!.generate!({ params: hello, modelId: 'claude-sonnet-4-5', signal: new AbortController().signal, onText: () => {} });
    expect(out.result.role).toBe('assistant');
    expect(anthropic.requests.at(-1)?.headers['x-api-key']).toBe(KEY);
  });

  it('time limits saved on the Providers screen are written to providers.json and hold the next call', async () => {
    const r = await open();
    const view = await r.save({ provider: { ...claude(), timeouts: { firstByteMs: 200 } }, apiKey: KEY });
    expect(view.timeouts).toEqual({ firstByteMs: 200 });
    expect(JSON.parse(readFileSync(path, 'utf8')).providers[0]).toMatchObject({ timeouts: { firstByteMs: 200 } });
    anthropic.script({ fault: 'stall-headers' });
    const failed = await r.get('anthropic')!.generate!({ params: hello, modelId: 'claude-sonnet-4-5', signal: new AbortController().signal, onText: () => {} }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ kind: 'timeout', timeout: { phase: 'first_byte', ms: 200 } });
  });

  it('reopening loads the key from the secret store', async () => {
    await (await open()).save({ provider: claude(), apiKey: KEY });
    const again = await open();
    expect(again.get('anthropic')?.view).toMatchObject({ hasApiKey: true });
  });

  it('keeps the key on edits without one, moves it on rename, removes it with null', async () => {
    const r = await open();
    await r.save({ provider: claude(), apiKey: KEY });
    await r.save({ provider: { ...claude(), label: 'Claude' } });
    expect(await secrets.get(apiKeySecretName('anthropic'))).toBe(KEY);
    await r.save({ provider: { ...claude(), id: 'claude' }, previousId: 'anthropic' });
    expect(await secrets.get(apiKeySecretName('anthropic'))).toBeUndefined();
    expect(await secrets.get(apiKeySecretName('claude'))).toBe(KEY);
    expect(r.views().map((v) => v.id)).toEqual(['claude', 'manual']);
    await r.save({ provider: { ...claude(), id: 'claude' }, apiKey: null });
    expect(await secrets.get(apiKeySecretName('claude'))).toBeUndefined();
    expect(r.get('claude')?.view.hasApiKey).toBe(false);
  });

  it('refuses reserved and duplicate ids, a missing base URL, and the environment provider', async () => {
    const r = await open({ OPENAI_COMPATIBLE_BASE_URL: compat.baseURL, OPENAI_COMPATIBLE_MODEL: 'llama3.2' });
    await r.save({ provider: claude() });
    await expect(r.save({ provider: { ...claude(), id: 'manual' } })).rejects.toThrow(/reserved/);
    await expect(r.save({ provider: { ...claude(), id: 'other' } }).then(() => r.save({ provider: { ...claude(), id: 'other' }, previousId: 'anthropic' }))).rejects.toThrow(/already exists/);
    await expect(r.save({ provider: { id: 'x', kind: 'openai-compatible', models: [] } })).rejects.toThrow(/needs its base URL/);
    await expect(r.save({ provider: { id: 'openai-compatible-env', kind: 'openai-compatible', baseURL: compat.baseURL, models: [] } })).rejects.toThrow(/environment variables/);
    await expect(r.remove('openai-compatible-env')).rejects.toThrow(/environment variables/);
  });

  it('removes a provider, its key and the server settings that named it', async () => {
    const r = await open();
    await r.save({ provider: claude(), apiKey: KEY });
    await r.saveModelSettings({ servers: { everything: { allowedModels: [{ providerId: 'anthropic', modelId: 'claude-sonnet-4-5' }], defaultModel: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5' } } } });
    await r.remove('anthropic');
    expect(await secrets.get(apiKeySecretName('anthropic'))).toBeUndefined();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ providers: [], servers: { everything: { allowedModels: [] } } });
  });

  it('never overwrites a broken providers.json; keeps skipped entries verbatim', async () => {
    writeFileSync(path, '{ "providers": [ ');
    const broken = await open();
    expect(broken.problems[0]).toMatch(/invalid JSON/);
    await expect(broken.save({ provider: claude() })).rejects.toThrow(/never overwritten/);
    expect(readFileSync(path, 'utf8')).toBe('{ "providers": [ ');

    const odd = { id: 'odd', kind: 'openai-compatible', baseURL: 'not a url', models: [] };
    writeFileSync(path, JSON.stringify({ providers: [odd] }));
    const r = await open();
    await r.save({ provider: claude() });
    expect(JSON.parse(readFileSync(path, 'utf8')).providers).toEqual([claude(), odd]);
  });

  it('rewrites ${env:…} key references as references, never their values', async () => {
    writeFileSync(path, JSON.stringify({ providers: [{ id: 'loop', kind: 'openai-compatible', baseURL: compat.baseURL, models: ['llama3.2'], apiKey: '${env:LOOP_KEY}' }] }));
    const r = await open({ LOOP_KEY: 'sk-env-value-123456' });
    expect(r.get('loop')?.view.hasApiKey).toBe(true);
    await r.save({ provider: claude() });
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('sk-env-value-123456');
    expect(JSON.parse(text).providers[0].apiKey).toBe('${env:LOOP_KEY}');
  });

  it('saves per-model facts; the view resolves the rest from defaults; prompt-based tools are used', async () => {
    const r = await open();
    const facts = { ...defaultModelFacts('openai-compatible', 'llama3.2'), tools: 'prompt' as const, contextWindow: 8192 };
    const view = await r.save({ provider: { id: 'ollama', kind: 'openai-compatible', preset: 'ollama', baseURL: compat.baseURL, models: ['llama3.2', 'qwen3'], modelFacts: { 'llama3.2': facts, gone: facts } } });
    expect(view.customFacts).toEqual(['llama3.2']);
    expect(view.modelFacts?.['llama3.2']).toEqual(facts);
    expect(view.modelFacts?.qwen3).toEqual(defaultModelFacts('openai-compatible', 'qwen3'));
    expect(JSON.parse(readFileSync(path, 'utf8')).providers[0].modelFacts).toEqual({ 'llama3.2': facts });
    compat.script({ text: '{"tool": "t", "arguments": {}}' });
    const out = await r.get('ollama')!.generate!({ params: { ...hello, tools: [{ name: 't', inputSchema: { type: 'object' } }] }, modelId: 'llama3.2', signal: new AbortController().signal, onText: () => {} });
    expect(compat.requests.at(-1)?.body.tools).toBeUndefined();
    expect(out.result.stopReason).toBe('toolUse');
  });
});

describe('model lists and Test connection', () => {
  it('lists Anthropic models with the stored key', async () => {
    const r = await open();
    await r.save({ provider: claude(), apiKey: KEY });
    expect((await r.listModels({ id: 'anthropic' })).map((m) => m.id)).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5']);
  });

  it('lists Gemini models that can generate, with context windows; tests unsaved settings with a typed key', async () => {
    const r = await open();
    const g: ProviderSettings = { id: 'google', kind: 'google', baseURL: gemini.baseURL, models: [] };
    expect(await r.listModels({ id: 'google', provider: g, apiKey: KEY })).toEqual([
      { id: 'gemini-2.5-flash', contextWindow: 1_048_576 },
      { id: 'gemini-2.5-pro', contextWindow: 1_048_576 },
    ]);
    const ok = await r.test({ id: 'google', provider: g, apiKey: KEY });
    expect(ok).toMatchObject({ ok: true, models: ['gemini-2.5-flash', 'gemini-2.5-pro'] });
    expect(ok.message).toMatch(/^Connected to google: 2 models listed in \d+ ms$/);
    expect(ok.messageUi).toMatchObject({ code: 'test.listedMany', params: { label: 'google', count: 2 } });
    expect(existsSync(path)).toBe(false);
  });

  it('a wrong key, an unreachable server: clear, key-free failures', async () => {
    const r = await open();
    const bad = await r.test({ id: 'anthropic', provider: claude(), apiKey: 'sk-wrong-0000000000' });
    expect(bad.ok).toBe(false);
    expect(bad.message).toMatch(/401 — check the API key\. Server said: "invalid x-api-key"/);
    expect(bad.message).not.toContain('sk-wrong');
    expect(bad.failure).toBe('auth'); // the headline the renderer translates
    const down = await r.test({ id: 'x', provider: { id: 'x', kind: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', models: [] } });
    expect(down).toMatchObject({ ok: false, failure: 'network' });
    expect(down.message).toMatch(/cannot connect to http:\/\/127\.0\.0\.1:9\/v1\/models .*is the server running/);
    await expect(r.listModels({ id: 'anthropic', provider: claude(), apiKey: 'nope-nope-nope' })).rejects.toThrow(/check the API key/);
  });

  it('without a model list, asks the first model for OK through generateContent (non-streaming)', async () => {
    const r = await open();
    geminiNoList.script({ text: 'OK' });
    const res = await r.test({ id: 'g', provider: { id: 'g', kind: 'google', baseURL: geminiNoList.baseURL, models: ['gemini-2.5-flash'] }, apiKey: KEY });
    expect(res.ok).toBe(true);
    expect(res.message).toMatch(/model gemini-2\.5-flash answered "OK" in \d+ ms \(this server has no model list\)/);
    expect(geminiNoList.requests[0]?.body._method).toBe('generateContent');
    expect(geminiNoList.requests[0]?.body.generationConfig?.maxOutputTokens).toBe(16);
  });
});

describe('model settings and selection', () => {
  it('persists families, server settings and the default; select honours the server allowed list', async () => {
    const r = await open();
    await r.save({ provider: claude(), apiKey: KEY });
    await r.save({ provider: { id: 'google', kind: 'google', baseURL: gemini.baseURL, models: ['gemini-2.5-flash'] }, apiKey: KEY });
    const s = await r.saveModelSettings({
      families: [{ pattern: 'sonnet', family: 'balanced' }, { pattern: 'flash', family: 'balanced' }],
      servers: { everything: { allowedModels: [{ providerId: 'google', modelId: 'gemini-2.5-flash' }] } },
      defaultModel: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5' },
    });
    expect(s.defaultModel).toEqual({ providerId: 'anthropic', modelId: 'claude-sonnet-4-5' });
    expect(published.at(-1)?.settings.families).toHaveLength(2);
    const sel = r.select({ ...hello, modelPreferences: { hints: [{ name: 'sonnet' }] } }, 'everything');
    expect(sel.choice).toMatchObject({ providerId: 'google', modelId: 'gemini-2.5-flash' });
    expect(sel.choice.reason).toContain("mapped by family 'balanced'");
    expect(r.select({ ...hello, modelPreferences: { hints: [{ name: 'sonnet' }] } }, 'other').choice.modelId).toBe('claude-sonnet-4-5');
    const file = JSON.parse(readFileSync(path, 'utf8'));
    expect(file).toMatchObject({ defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', servers: { everything: { allowedModels: [{ providerId: 'google' }] } } });
    await expect(r.saveModelSettings({ defaultModel: { providerId: 'anthropic', modelId: 'ghost' } })).rejects.toThrow(/no model "ghost"/);
    expect((await open()).defaultModel()).toEqual({ providerId: 'anthropic', modelId: 'claude-sonnet-4-5' });
  });
});
