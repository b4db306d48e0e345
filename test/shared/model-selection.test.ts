// Model selection: hints (substring, same name other version, family mapping), priorities,
// server allowed/default models, capability mismatches, the manual provider. Table-driven.
import { describe, expect, it } from 'vitest';
import { capabilityIssues, modelsThatCan, requestNeeds } from '../../shared/domain/capabilities.js';
import { chooseModel, selectModel, type SelectionInput } from '../../shared/domain/model-selection.js';
import { defaultModelFacts, familyOf, DEFAULT_FAMILY_RULES, type FamilyRule, type ServerModelSettings } from '../../shared/contract/providers.js';
import type { CreateMessageParams, ModelPreferences } from '../../shared/contract/sampling.js';
import type { ProviderView } from '../../shared/contract/state.js';

const manual: ProviderView = { id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false };
const anthropic: ProviderView = { id: 'anthropic', kind: 'anthropic', label: 'Anthropic', models: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'], hasApiKey: true };
const openai: ProviderView = { id: 'openai', kind: 'openai', label: 'OpenAI', models: ['gpt-4.1', 'gpt-4o-mini'], hasApiKey: true };
const google: ProviderView = { id: 'google', kind: 'google', label: 'Gemini', models: ['gemini-2.5-flash', 'gemini-2.5-pro'], hasApiKey: true };
const ollama: ProviderView = {
  id: 'ollama',
  kind: 'openai-compatible',
  label: 'Ollama',
  models: ['llama3.2', 'qwen2.5-coder'],
  hasApiKey: false,
  modelFacts: {
    'llama3.2': { ...defaultModelFacts('openai-compatible', 'llama3.2'), tools: 'prompt', contextWindow: 8192 },
    'qwen2.5-coder': { ...defaultModelFacts('openai-compatible', 'qwen2.5-coder'), tools: 'none' },
  },
};
const all = [anthropic, openai, google, ollama, manual];
const noAnthropic = [openai, google, ollama, manual];
const manualDefault = { providerId: 'manual', modelId: 'manual' };
const sonnetDefault = { providerId: 'anthropic', modelId: 'claude-sonnet-4-5' };

const text = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
const withAudio: CreateMessageParams = { maxTokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'transcribe' }, { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] }] };
const withTools: CreateMessageParams = { maxTokens: 100, messages: [text('weather?')], tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }] };
const bigImage: CreateMessageParams = { maxTokens: 100, messages: [{ role: 'user', content: { type: 'image', data: 'A'.repeat(8 * 1024 * 1024), mimeType: 'image/png' } }] };
const longText: CreateMessageParams = { maxTokens: 4000, messages: [text('x'.repeat(40_000))] };

const hints = (...names: string[]): ModelPreferences => ({ hints: names.map((name) => ({ name })) });

interface Case {
  name: string;
  prefs?: ModelPreferences;
  providers?: ProviderView[];
  fallback?: SelectionInput['fallback'];
  server?: ServerModelSettings;
  families?: FamilyRule[];
  params?: CreateMessageParams;
  chosen: string;
  reason: string | RegExp;
}

const cases: Case[] = [
  { name: 'substring hint', prefs: hints('sonnet'), chosen: 'anthropic/claude-sonnet-4-5', reason: "hint 'sonnet' matched 'claude-sonnet-4-5'" },
  { name: 'hint of an older version (same name words)', prefs: hints('claude-3-sonnet'), chosen: 'anthropic/claude-sonnet-4-5', reason: "hint 'claude-3-sonnet' matched 'claude-sonnet-4-5' (same name, other version)" },
  { name: 'single-word hint of another version is no match', prefs: hints('gpt-5'), chosen: 'anthropic/claude-opus-4-1', reason: "no configured model matches hint 'gpt-5'; mapped by family 'frontier'" },
  { name: 'hints in order: first that matches wins', prefs: hints('gpt-5', 'haiku', 'gemini'), chosen: 'anthropic/claude-haiku-4-5', reason: "hint 'haiku' matched 'claude-haiku-4-5'" },
  { name: 'a direct match of a later hint beats a family mapping of an earlier one', prefs: hints('claude-3-opus', 'flash'), providers: noAnthropic, chosen: 'google/gemini-2.5-flash', reason: "hint 'flash' matched" },
  { name: 'case-insensitive', prefs: hints('GPT-4O'), chosen: 'openai/gpt-4o-mini', reason: "hint 'GPT-4O' matched 'gpt-4o-mini'" },
  {
    name: 'cross-provider family mapping (sonnet → balanced)',
    prefs: hints('claude-3-sonnet'),
    providers: noAnthropic,
    chosen: 'openai/gpt-4.1',
    reason: "no configured model matches hint 'claude-3-sonnet'; mapped by family 'balanced' (table row 'sonnet') to 'gpt-4.1'",
  },
  { name: 'family mapping, ties broken by priorities', prefs: { ...hints('opus'), speedPriority: 1 }, providers: noAnthropic, chosen: 'google/gemini-2.5-pro', reason: "table row 'opus') to 'gemini-2.5-pro'" },
  {
    name: 'edited family table: llama counts as balanced',
    prefs: hints('sonnet'),
    providers: [ollama, google, manual],
    families: [{ pattern: 'llama', family: 'balanced' }, ...DEFAULT_FAMILY_RULES],
    chosen: 'ollama/llama3.2',
    reason: "mapped by family 'balanced' (table row 'sonnet') to 'llama3.2'",
  },
  { name: 'several matches of one hint: priorities decide', prefs: { ...hints('gemini'), intelligencePriority: 1 }, chosen: 'google/gemini-2.5-pro', reason: "hint 'gemini' matched 'gemini-2.5-pro' (priorities preferred it over 1 other match)" },
  { name: 'several matches, no priorities: provider order', prefs: hints('gemini'), chosen: 'google/gemini-2.5-flash', reason: "hint 'gemini' matched 'gemini-2.5-flash'" },
  {
    name: 'no hints, intelligencePriority → most capable',
    prefs: { intelligencePriority: 0.8 },
    chosen: 'anthropic/claude-opus-4-1',
    reason: 'the request names no model hints; intelligencePriority 0.8 → most capable configured model (cost 5/5, speed 2/5, capability 5/5)',
  },
  { name: 'no hint matched, costPriority → cheapest', prefs: { ...hints('mistral'), costPriority: 1 }, providers: [google, ollama, manual], chosen: 'ollama/llama3.2', reason: "no configured model matched the hints 'mistral'; costPriority 1 → cheapest configured model" },
  { name: 'speedPriority → fastest', prefs: { speedPriority: 0.9, costPriority: 0.1 }, providers: noAnthropic, chosen: 'openai/gpt-4o-mini', reason: 'speedPriority 0.9 → fastest configured model' },
  { name: 'mixed priorities: best fit', prefs: { speedPriority: 0.5, intelligencePriority: 0.5 }, providers: [google, manual], chosen: 'google/gemini-2.5-flash', reason: /best fit for priorities cost 0, speed 0.5, intelligence 0.5|→ (fastest|most capable)/ },
  { name: 'no hints, no priorities: the console default', prefs: undefined, fallback: sonnetDefault, chosen: 'anthropic/claude-sonnet-4-5', reason: 'the request names no model hints; using the default model (Anthropic)' },
  { name: 'no match, manual default', prefs: hints('mistral'), chosen: 'manual/manual', reason: "no configured model matched the hints 'mistral'; using the default model (Write the response myself)" },
  { name: 'a hint never matches the manual provider', prefs: hints('manual'), providers: [manual], chosen: 'manual/manual', reason: 'no model is configured' },
  { name: 'unknown default: the first configured model', prefs: undefined, fallback: { providerId: 'gone', modelId: 'x' }, chosen: 'anthropic/claude-sonnet-4-5', reason: 'using the first configured model' },
  { name: 'server default beats the console default', prefs: undefined, fallback: sonnetDefault, server: { defaultModel: { providerId: 'google', modelId: 'gemini-2.5-pro' } }, chosen: 'google/gemini-2.5-pro', reason: "using the server's default model" },
  {
    name: 'allowed models: others are never chosen, even on a direct hint',
    prefs: hints('sonnet'),
    server: { allowedModels: [{ providerId: 'ollama', modelId: 'llama3.2' }, { providerId: 'google', modelId: 'gemini-2.5-flash' }] },
    chosen: 'google/gemini-2.5-flash',
    reason: "no allowed model matches hint 'sonnet'; mapped by family 'balanced'",
  },
  { name: 'allowed models none of which is configured', prefs: hints('sonnet'), server: { allowedModels: [{ providerId: 'gone', modelId: 'x' }] }, chosen: 'manual/manual', reason: "none of this server's allowed models is configured" },
  { name: 'audio: a hinted model without audio is passed over', prefs: hints('sonnet'), params: withAudio, chosen: 'google/gemini-2.5-flash', reason: "hint 'sonnet' matched only 'claude-sonnet-4-5', which cannot take this request; mapped by family 'balanced'" },
  { name: 'tools: a hinted model without tools is passed over for the default', prefs: hints('qwen'), providers: [ollama, manual], params: withTools, chosen: 'manual/manual', reason: "no configured model matched the hints 'qwen'; using the default model" },
  {
    name: 'tools: prompt-based tools count; a default that cannot take the request is replaced',
    prefs: undefined,
    providers: [ollama, manual],
    params: withTools,
    fallback: { providerId: 'ollama', modelId: 'qwen2.5-coder' },
    chosen: 'ollama/llama3.2',
    reason: 'using the first configured model that can take this request (the default, qwen2.5-coder, cannot)',
  },
  { name: 'image too large for Anthropic', prefs: hints('claude-sonnet'), params: bigImage, chosen: 'openai/gpt-4.1', reason: "mapped by family 'balanced' (table row 'sonnet') to 'gpt-4.1'" },
  { name: 'nothing can take it: the best is still chosen, and says so', prefs: hints('llama'), providers: [{ ...ollama, models: ['llama3.2'] }, manual], params: longText, fallback: { providerId: 'ollama', modelId: 'llama3.2' }, chosen: 'ollama/llama3.2', reason: /no configured model can take this request/ },
];

describe('selectModel (table)', () => {
  it.each(cases)('$name', (c) => {
    const { choice, candidates } = selectModel({
      prefs: c.prefs,
      providers: c.providers ?? all,
      fallback: c.fallback ?? manualDefault,
      ...(c.server ? { server: c.server } : {}),
      ...(c.families ? { families: c.families } : {}),
      ...(c.params ? { params: c.params } : {}),
    });
    expect(`${choice.providerId}/${choice.modelId}`).toBe(c.chosen);
    if (typeof c.reason === 'string') expect(choice.reason).toContain(c.reason);
    else expect(choice.reason).toMatch(c.reason);
    // The choice is always among the candidates; every candidate says why.
    expect(candidates.some((k) => k.providerId === choice.providerId && k.modelId === choice.modelId)).toBe(true);
    for (const k of candidates) expect(k.reason.length).toBeGreaterThan(10);
  });
});

describe('candidates', () => {
  it('are ranked best first with scores, incapable ones last with score 0 and their issues, manual at the end', () => {
    const { candidates } = selectModel({ prefs: hints('sonnet'), providers: all, fallback: manualDefault, params: withAudio });
    const capable = candidates.filter((k) => !k.issues && k.providerId !== 'manual');
    const scores = capable.map((k) => k.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const sonnet = candidates.find((k) => k.modelId === 'claude-sonnet-4-5');
    expect(sonnet?.score).toBe(0);
    expect(sonnet?.issues?.[0]).toContain('cannot take');
    expect(sonnet?.reason).toContain("hint 'sonnet' matched 'claude-sonnet-4-5' — but the request holds audio");
    expect(candidates.at(-1)).toMatchObject({ providerId: 'manual', score: 0 });
    expect(candidates.indexOf(sonnet!)).toBeGreaterThan(candidates.findIndex((k) => k.modelId === 'gemini-2.5-flash'));
  });

  it('exclude models the server does not allow', () => {
    const { candidates } = selectModel({ prefs: undefined, providers: all, fallback: manualDefault, server: { allowedModels: [{ providerId: 'openai', modelId: 'gpt-4.1' }] } });
    expect(candidates.map((k) => `${k.providerId}/${k.modelId}`)).toEqual(['openai/gpt-4.1', 'manual/manual']);
  });

  it('a direct match outscores a family match, which outscores priorities alone', () => {
    const direct = selectModel({ prefs: hints('gpt-4.1'), providers: all, fallback: manualDefault }).candidates[0]!;
    const mapped = selectModel({ prefs: hints('sonnet'), providers: noAnthropic, fallback: manualDefault }).candidates[0]!;
    const byPriority = selectModel({ prefs: { intelligencePriority: 1 }, providers: all, fallback: manualDefault }).candidates[0]!;
    expect(direct.score).toBeGreaterThan(mapped.score);
    expect(mapped.score).toBeGreaterThan(byPriority.score);
  });
});

describe('chooseModel (the pipeline call, unchanged signature)', () => {
  it('returns the choice of selectModel', () => {
    expect(chooseModel(hints('haiku'), all, manualDefault)).toMatchObject({ providerId: 'anthropic', modelId: 'claude-haiku-4-5' });
    expect(chooseModel(undefined, all, manualDefault).modelId).toBe('manual');
  });
});

describe('families and facts', () => {
  it.each([
    ['claude-3-5-sonnet-latest', 'balanced'],
    ['gemini-2.5-flash-lite', 'fast'],
    ['gemini-2.5-flash', 'balanced'],
    ['gemini-2.5-pro', 'frontier'],
    ['gpt-4o-mini', 'fast'],
    ['gpt-5', 'frontier'],
    ['llama3.2', undefined],
  ])('%s → %s', (name, family) => {
    expect(familyOf(name, DEFAULT_FAMILY_RULES)?.family).toBe(family);
  });

  it('default facts follow the provider kind', () => {
    expect(defaultModelFacts('anthropic', 'claude-sonnet-4-5')).toMatchObject({ audio: false, images: true, maxImageBytes: 5 * 1024 * 1024, tools: 'native', contextWindow: 200_000 });
    expect(defaultModelFacts('google', 'gemini-2.5-flash')).toMatchObject({ audio: true, images: true });
    expect(defaultModelFacts('openai', 'gpt-4o-audio-preview').audio).toBe(true);
    expect(defaultModelFacts('openai', 'gpt-4.1').audio).toBe(false);
    expect(defaultModelFacts('openai-compatible', 'llama3.2')).toMatchObject({ images: false, audio: false, cost: 1 });
    expect(defaultModelFacts('openai-compatible', 'llava:13b').images).toBe(true);
  });
});

describe('capability checks', () => {
  it.each([
    ['audio to Anthropic', withAudio, 'anthropic', 'claude-sonnet-4-5', ['audio']],
    ['audio to Gemini', withAudio, 'google', 'gemini-2.5-flash', []],
    ['8 MB image to Anthropic (5 MB max)', bigImage, 'anthropic', 'claude-sonnet-4-5', ['image-size']],
    ['8 MB image to OpenAI (20 MB max)', bigImage, 'openai', 'gpt-4.1', []],
    ['image to a text-only local model', bigImage, 'openai-compatible', 'llama3.2', ['images']],
    ['tools to a model with native tools', withTools, 'openai', 'gpt-4.1', []],
  ] as const)('%s', (_n, params, kind, modelId, kinds) => {
    const issues = capabilityIssues(requestNeeds(params), defaultModelFacts(kind, modelId), modelId);
    expect(issues.map((i) => i.kind)).toEqual(kinds);
  });

  it('tools to a model without tool calling, and context overflow', () => {
    const facts = { ...defaultModelFacts('openai-compatible', 'tiny'), tools: 'none' as const, contextWindow: 8000 };
    const issues = capabilityIssues(requestNeeds({ ...longText, tools: withTools.tools }), facts, 'tiny');
    expect(issues.map((i) => i.kind)).toEqual(['tools', 'context']);
    expect(issues[1]?.message).toMatch(/about \d+ input tokens \+ 4000 max output exceed tiny's 8000-token context window/);
  });

  it('measures images in decoded bytes and counts tool history as needing tools', () => {
    const needs = requestNeeds(bigImage);
    expect(needs.largestImageBytes).toBe(6 * 1024 * 1024);
    const history: CreateMessageParams = {
      maxTokens: 10,
      messages: [
        { role: 'assistant', content: { type: 'tool_use', id: 't1', name: 'x', input: {} } },
        { role: 'user', content: { type: 'tool_result', toolUseId: 't1', content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] } },
      ],
    };
    expect(requestNeeds(history)).toMatchObject({ tools: 1, audio: 1 });
  });

  it('modelsThatCan lists the capable models, within the allowed list', () => {
    expect(modelsThatCan(withAudio, all).map((m) => m.modelId)).toEqual(['gemini-2.5-flash', 'gemini-2.5-pro']);
    expect(modelsThatCan(withAudio, all, [{ providerId: 'google', modelId: 'gemini-2.5-pro' }]).map((m) => m.modelId)).toEqual(['gemini-2.5-pro']);
  });
});
