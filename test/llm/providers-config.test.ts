import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManualProvider } from '../../main/llm/manual.js';
import { ENV_PROVIDER_ID, lineAndColumn, loadProvidersConfig, parseProvidersConfig, PROVIDERS_CONFIG_FILE, resolveEnvReference, serializeProvidersFile } from '../../main/llm/providers-config.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'providers-config-'));
  file = join(dir, PROVIDERS_CONFIG_FILE);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (value: unknown): void => writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
const ids = (r: ReturnType<typeof loadProvidersConfig>): string[] => r.providers.map((p) => p.view.id);
const lmstudio = { id: 'lmstudio', kind: 'openai-compatible', label: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1', models: ['llama3.2', 'qwen3'] };

describe('manual provider', () => {
  it('has the fixed view and no generate', () => {
    const m = createManualProvider();
    expect(m.view).toEqual({ id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false });
    expect(m.generate).toBeUndefined();
  });
});

describe('loadProvidersConfig', () => {
  it('missing file and empty env → only manual, the default, no problems', () => {
    const r = loadProvidersConfig(file, {});
    expect(ids(r)).toEqual(['manual']);
    expect(r.defaultModel).toEqual({ providerId: 'manual', modelId: 'manual' });
    expect(r.problems).toEqual([]);
  });

  it('a valid file → its providers (manual last); the first configured model is the default', () => {
    write({ providers: [lmstudio] });
    const r = loadProvidersConfig(file, {});
    expect(ids(r)).toEqual(['lmstudio', 'manual']);
    expect(r.providers[0]?.view).toMatchObject({ id: 'lmstudio', kind: 'openai-compatible', label: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1', models: ['llama3.2', 'qwen3'], hasApiKey: false, source: 'console', customFacts: [] });
    expect(r.providers[0]?.view.modelFacts?.['llama3.2']).toMatchObject({ tools: 'native', images: false, audio: false });
    expect(typeof r.providers[0]?.generate).toBe('function');
    expect(r.defaultModel).toEqual({ providerId: 'lmstudio', modelId: 'llama3.2' });
    expect(r.problems).toEqual([]);
  });

  it('broken JSON → defaults plus a problem naming the file and the line', () => {
    write('{\n  "providers": [\n    { "id": "x", }\n  ]\n}\n');
    const r = loadProvidersConfig(file, {});
    expect(ids(r)).toEqual(['manual']);
    expect(r.defaultModel.providerId).toBe('manual');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toContain(file);
    expect(r.problems[0]).toMatch(/invalid JSON at line 3, column \d+/);
  });

  it('truncated JSON reports the last line', () => {
    write('{\n  "providers": [\n');
    expect(loadProvidersConfig(file, {}).problems[0]).toMatch(/invalid JSON at line 3/);
  });

  it('a wrong top level → defaults plus a problem', () => {
    write({ providers: 'lmstudio' });
    const r = loadProvidersConfig(file, {});
    expect(ids(r)).toEqual(['manual']);
    expect(r.problems[0]).toMatch(/providers\.json .*providers: /);
  });

  it('refuses a literal API key, without repeating it, and keeps the other providers', () => {
    const secret = 'sk-live-DO-NOT-ECHO-1234567890';
    write({ providers: [{ ...lmstudio, id: 'bad', apiKey: secret }, lmstudio] });
    const r = loadProvidersConfig(file, {});
    expect(ids(r)).toEqual(['lmstudio', 'manual']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toContain('provider "bad" skipped');
    expect(r.problems[0]).toContain('${env:');
    expect(r.problems[0]).toContain('never stored in plain text');
    expect(r.problems.join('\n')).not.toContain(secret);
  });

  it('resolves an ${env:NAME} API key from the env passed in (not process.env)', () => {
    write({ providers: [{ ...lmstudio, apiKey: '${env:LMSTUDIO_KEY}' }] });
    const r = loadProvidersConfig(file, { LMSTUDIO_KEY: 'sk-from-env' });
    expect(r.problems).toEqual([]);
    expect(r.providers[0]?.view.hasApiKey).toBe(true);
    expect(JSON.stringify(r.providers[0]?.view)).not.toContain('sk-from-env');
  });

  it('an unset env reference keeps the provider without a key and says which variable is missing', () => {
    write({ providers: [{ ...lmstudio, apiKey: '${env:NOT_SET_ANYWHERE}' }] });
    const r = loadProvidersConfig(file, {});
    expect(ids(r)).toEqual(['lmstudio', 'manual']);
    expect(r.providers[0]?.view.hasApiKey).toBe(false);
    expect(r.problems[0]).toContain('NOT_SET_ANYWHERE');
  });

  it('refuses credential-like headers in plain text; resolves header env references', () => {
    write({
      providers: [
        { ...lmstudio, id: 'h1', headers: { Authorization: 'Bearer sk-plain' } },
        { ...lmstudio, id: 'h2', headers: { 'X-Api-Key': '${env:H2_KEY}', 'X-Org': 'me' } },
      ],
    });
    const r = loadProvidersConfig(file, { H2_KEY: 'k' });
    expect(ids(r)).toEqual(['h2', 'manual']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toContain('header "Authorization"');
    expect(r.problems[0]).not.toContain('sk-plain');
  });

  it('skips invalid entries (bad URL, no base URL, wrong kind, reserved or duplicate id) with one problem each', () => {
    write({
      providers: [
        { ...lmstudio, id: 'u', baseURL: 'localhost:1234' },
        { ...lmstudio, id: 'n', baseURL: undefined },
        { ...lmstudio, id: 'k', kind: 'bogus' },
        { ...lmstudio, id: 'manual' },
        lmstudio,
        lmstudio,
      ],
    });
    const r = loadProvidersConfig(file, {});
    expect(ids(r)).toEqual(['lmstudio', 'manual']);
    expect(r.problems).toHaveLength(5);
    expect(r.problems[0]).toMatch(/provider "u" skipped: baseURL: must be an http\(s\) URL/);
    expect(r.problems[1]).toMatch(/provider "n" skipped: baseURL: an openai-compatible provider needs its baseURL/);
    expect(r.problems[2]).toMatch(/provider "k" skipped: kind/);
    expect(r.problems[3]).toMatch(/"manual" is reserved/);
    expect(r.problems[4]).toMatch(/"lmstudio" is used twice/);
  });

  it.each([
    [{ defaultProvider: 'other', defaultModel: 'm2' }, { providerId: 'other', modelId: 'm2' }, 0],
    [{ defaultModel: 'm2' }, { providerId: 'other', modelId: 'm2' }, 0],
    [{ defaultProvider: 'manual' }, { providerId: 'manual', modelId: 'manual' }, 0],
    [{ defaultProvider: 'ghost' }, { providerId: 'lmstudio', modelId: 'llama3.2' }, 1],
    [{ defaultProvider: 'other', defaultModel: 'ghost' }, { providerId: 'other', modelId: 'm1' }, 1],
    [{ defaultModel: 'ghost' }, { providerId: 'lmstudio', modelId: 'llama3.2' }, 1],
  ])('defaults %j → %j (%d problems)', (defaults, expected, problemCount) => {
    write({ providers: [lmstudio, { ...lmstudio, id: 'other', models: ['m1', 'm2'] }], ...defaults });
    const r = loadProvidersConfig(file, {});
    expect(r.defaultModel).toEqual(expected);
    expect(r.problems).toHaveLength(problemCount);
  });

  it('time limits: set ones reach the provider (the rest default) and the file written back; bad ones are a problem, with the defaults used', () => {
    write({ providers: [{ ...lmstudio, timeouts: { firstByteMs: 300_000 } }, { ...lmstudio, id: 'bad', timeouts: { idleMs: 'soon' } }] });
    const r = loadProvidersConfig(file, {});
    expect(r.providers.find((p) => p.view.id === 'lmstudio')!.view.timeouts).toEqual({ firstByteMs: 300_000 });
    expect(r.providers.find((p) => p.view.id === 'bad')!.view.timeouts).toBeUndefined();
    expect(r.problems).toEqual([expect.stringMatching(/provider "bad": timeouts ignored \(idleMs: .*\); using the defaults/)]);
    expect(JSON.parse(serializeProvidersFile(r.file)).providers[0]).toMatchObject({ id: 'lmstudio', timeouts: { firstByteMs: 300_000 } });
  });

  it('an unreadable path (a directory) → defaults plus a problem', () => {
    mkdirSync(file);
    const r = loadProvidersConfig(file, {});
    expect(ids(r)).toEqual(['manual']);
    expect(r.problems[0]).toMatch(/cannot be read/);
  });
});

describe('environment-only provider', () => {
  it('OPENAI_COMPATIBLE_BASE_URL + MODEL (comma list) + API_KEY → a provider that is the default', () => {
    const r = loadProvidersConfig(file, {
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_COMPATIBLE_MODEL: 'llama3.2, qwen3 ,',
      OPENAI_COMPATIBLE_API_KEY: 'sk-env',
    });
    expect(r.problems).toEqual([]);
    expect(ids(r)).toEqual([ENV_PROVIDER_ID, 'manual']);
    expect(r.providers[0]?.view).toMatchObject({ baseURL: 'http://127.0.0.1:11434/v1', models: ['llama3.2', 'qwen3'], hasApiKey: true });
    expect(r.defaultModel).toEqual({ providerId: ENV_PROVIDER_ID, modelId: 'llama3.2' });
  });

  it('comes after the file providers; the file default still wins', () => {
    write({ providers: [lmstudio], defaultProvider: 'lmstudio' });
    const r = loadProvidersConfig(file, { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_COMPATIBLE_MODEL: 'x' });
    expect(ids(r)).toEqual(['lmstudio', ENV_PROVIDER_ID, 'manual']);
    expect(r.defaultModel.providerId).toBe('lmstudio');
  });

  it.each([
    [{ OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:1/v1' }, /OPENAI_COMPATIBLE_MODEL is not/],
    [{ OPENAI_COMPATIBLE_MODEL: 'm' }, /OPENAI_COMPATIBLE_BASE_URL is not/],
    [{ OPENAI_COMPATIBLE_BASE_URL: 'not a url', OPENAI_COMPATIBLE_MODEL: 'm' }, /not an http\(s\) URL/],
  ])('incomplete env %j → manual only plus a problem', (env, problem) => {
    const r = loadProvidersConfig(file, env);
    expect(ids(r)).toEqual(['manual']);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(problem);
  });
});

describe('helpers', () => {
  it('resolveEnvReference', () => {
    expect(resolveEnvReference('${env:A_B}', { A_B: 'v' })).toEqual({ name: 'A_B', value: 'v' });
    expect(resolveEnvReference('${env:A_B}', { A_B: '' })).toEqual({ name: 'A_B', value: undefined });
    expect(resolveEnvReference('sk-123', {})).toBeUndefined();
    expect(resolveEnvReference('prefix ${env:A}', { A: 'v' })).toBeUndefined();
  });

  it('lineAndColumn', () => {
    expect(lineAndColumn('ab\ncd\nef', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
  });

  it('parseProvidersConfig treats undefined text as a missing file', () => {
    expect(parseProvidersConfig(undefined, '/x/providers.json', {}).problems).toEqual([]);
  });
});

describe('a configured provider end to end', () => {
  let server: OpenAICompatibleServer;
  beforeAll(async () => {
    server = await startOpenAICompatibleServer({ apiKey: 'sk-env-secret' });
  });
  afterAll(() => server.close());

  it('sends the key resolved from ${env:NAME} as the bearer token', async () => {
    write({ providers: [{ id: 'loop', kind: 'openai-compatible', baseURL: server.baseURL, models: ['test-model'], apiKey: '${env:LOOP_KEY}' }] });
    const r = loadProvidersConfig(file, { LOOP_KEY: 'sk-env-secret' });
    const out = await r.providers[0]?.generate?.({
      params: { maxTokens: 5, messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] },
      modelId: 'test-model',
      signal: new AbortController().signal,
      onText: () => {},
    });
    expect(out?.result.content).toEqual({ type: 'text', text: 'Hello from the loopback server.' });
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer sk-env-secret');
  });
});
