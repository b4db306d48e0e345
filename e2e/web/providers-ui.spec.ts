/**
 * Providers UI against the fake API: the ranked model picker with reasons, the capability banner
 * (audio to a model without audio → the models that can), the prompt-based tool notice on the
 * response review, and exactly what the Providers screen and the model-selection panel send.
 */
import type { Page } from '@playwright/test';
import { defaultModelFacts, DEFAULT_FAMILY_RULES } from '../../shared/contract/providers.js';
import type { ProviderView, SamplingItemView } from '../../shared/contract/state.js';
import type { FixtureState } from '../support/fixture-state.js';
import { expect, openConsole, recorded, shot, test } from '../support/ui.js';

const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

const providers: ProviderView[] = [
  {
    id: 'anthropic',
    kind: 'anthropic',
    label: 'Anthropic',
    baseURL: 'https://api.anthropic.com/v1',
    models: ['claude-sonnet-4-5', 'claude-haiku-4-5'],
    hasApiKey: true,
    apiKeyHint: '…9f8e',
    source: 'console',
    preset: 'anthropic',
    modelFacts: { 'claude-sonnet-4-5': defaultModelFacts('anthropic', 'claude-sonnet-4-5'), 'claude-haiku-4-5': defaultModelFacts('anthropic', 'claude-haiku-4-5') },
    customFacts: [],
  },
  {
    id: 'google',
    kind: 'google',
    label: 'Gemini',
    models: ['gemini-2.5-flash'],
    hasApiKey: true,
    apiKeyHint: '…a1b2',
    source: 'console',
    modelFacts: { 'gemini-2.5-flash': defaultModelFacts('google', 'gemini-2.5-flash') },
    customFacts: [],
  },
  {
    id: 'ollama',
    kind: 'openai-compatible',
    label: 'Ollama',
    baseURL: 'http://127.0.0.1:11434/v1',
    models: ['llama3.2'],
    hasApiKey: false,
    source: 'console',
    preset: 'ollama',
    modelFacts: { 'llama3.2': { ...defaultModelFacts('openai-compatible', 'llama3.2'), tools: 'prompt' } },
    customFacts: ['llama3.2'],
    timeouts: { firstByteMs: 300_000 },
  },
  { id: 'manual', kind: 'manual', label: 'Write the response myself', models: ['manual'], hasApiKey: false },
];

/** A request with audio, ranked: the hinted Claude cannot take audio, Gemini can. */
function audioItem(base: SamplingItemView): SamplingItemView {
  return {
    ...base,
    id: 'item-audio',
    conversationId: 'item-audio',
    status: 'awaiting_request_review',
    error: undefined,
    sent: undefined,
    original: {
      maxTokens: 200,
      modelPreferences: { hints: [{ name: 'claude-3-sonnet' }], intelligencePriority: 0.8 },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Transcribe this clip.' }, { type: 'audio', data: WAV, mimeType: 'audio/wav' }] }],
    },
    // What the pipeline would store after the person (or a stale default) picked Claude.
    model: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5', reason: "hint 'claude-3-sonnet' matched 'claude-sonnet-4-5' (same name, other version)" },
    candidates: [
      { providerId: 'google', modelId: 'gemini-2.5-flash', score: 51.1, reason: "hint 'claude-3-sonnet' matched only 'claude-sonnet-4-5', which cannot take this request; mapped by family 'balanced' (table row 'sonnet') to 'gemini-2.5-flash'" },
      { providerId: 'ollama', modelId: 'llama3.2', score: 0, reason: 'no hint matched — but the request holds audio (1 clip), which llama3.2 cannot take', issues: ['the request holds audio (1 clip), which llama3.2 cannot take'] },
      {
        providerId: 'anthropic',
        modelId: 'claude-sonnet-4-5',
        score: 0,
        reason: "hint 'claude-3-sonnet' matched 'claude-sonnet-4-5' (same name, other version) — but the request holds audio (1 clip), which claude-sonnet-4-5 cannot take",
        issues: ['the request holds audio (1 clip), which claude-sonnet-4-5 cannot take'],
      },
      { providerId: 'manual', modelId: 'manual', score: 0, reason: 'no model is called: you write the response yourself' },
    ],
  };
}

/** A text request offering a tool, for a model with prompt-based tools. */
function toolsItem(base: SamplingItemView): SamplingItemView {
  return {
    ...base,
    id: 'item-tools',
    conversationId: 'item-tools',
    status: 'awaiting_request_review',
    error: undefined,
    sent: undefined,
    original: {
      maxTokens: 200,
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the weather in Oslo?' } }],
      tools: [{ name: 'get_weather', description: 'Current weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
    },
    model: { providerId: 'ollama', modelId: 'llama3.2', reason: 'the request names no model hints; using the default model (Ollama)' },
  };
}

function stateWith(state: FixtureState): FixtureState {
  const base = state.items.find((i) => i.id === 'item-request')!;
  return {
    ...state,
    providers,
    items: [...state.items, audioItem(base), toolsItem(base)],
    modelSettings: { families: [...DEFAULT_FAMILY_RULES], servers: {}, defaultModel: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5' } },
    settings: { ...state.settings, secretStore: { backend: 'Electron safeStorage (basic_text), ciphertexts in /tmp/fake/secrets.safe.json', warning: 'Electron safeStorage is using its "basic_text" backend on Linux: no keyring was found.' } },
  };
}

const open = async (page: Page, appUrl: string, fixture: { state: FixtureState; history: never[] | unknown[] }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await openConsole(page, appUrl, { ...fixture, state: stateWith(fixture.state) } as Parameters<typeof openConsole>[2]);
};

test('the review shows the ranking with reasons, and a capability banner that offers the models that can', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.locator('[data-testid="queue-item"][data-item-id="item-audio"]').click();
  const review = page.getByTestId('request-review');
  await expect(review.getByTestId('model-select').locator('option:checked')).toHaveText('Anthropic — claude-sonnet-4-5 — cannot take this request');
  // The ranking score is no number beside a name in the select (it read as a price or a count).
  await expect(review.getByTestId('model-select').locator('option')).toHaveText([
    'Gemini — gemini-2.5-flash',
    'Ollama — llama3.2 — cannot take this request',
    'Anthropic — claude-sonnet-4-5 — cannot take this request',
    'Write the response myself',
  ]);
  await expect(review.getByTestId('model-reason')).toContainText("hint 'claude-3-sonnet' matched 'claude-sonnet-4-5'");
  const banner = review.getByTestId('capability-banner');
  await expect(banner).toContainText('claude-sonnet-4-5 cannot take this request as it is');
  await expect(banner.getByTestId('capability-issue')).toHaveText(['the request holds audio (1 clip), which claude-sonnet-4-5 cannot take']);
  await expect(banner.getByTestId('capability-alternative')).toHaveText(['Gemini — gemini-2.5-flash']);
  await review.getByTestId('model-candidates').locator('summary').click();
  await expect(review.getByTestId('model-candidate')).toHaveCount(4);
  // In the ranking, the score says what it is.
  await expect(review.getByTestId('model-candidate').first()).toContainText("Gemini — gemini-2.5-flash score 51.1 of 100 — hint 'claude-3-sonnet' matched only");
  await expect(review.getByTestId('model-candidate').last()).toContainText('Write the response myself score 0 of 100');
  await banner.scrollIntoViewIfNeeded();
  await shot(page, 'providers-capability-banner');

  await banner.getByTestId('capability-alternative').click();
  await expect(review.getByTestId('capability-banner')).toHaveCount(0);
  await expect(review.getByTestId('model-reason')).toContainText('Chosen by you');
  await expect(review.getByTestId('model-reason')).toContainText("Your pick ranked: hint 'claude-3-sonnet' matched only 'claude-sonnet-4-5'");
  await review.getByTestId('approve-request').click();
  const [sent] = await recorded(page, 'approveRequest');
  expect(sent).toMatchObject({ itemId: 'item-audio', model: { providerId: 'google', modelId: 'gemini-2.5-flash' } });
});

test('tools to a model with prompt-based tools: a note, not a mismatch', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.locator('[data-testid="queue-item"][data-item-id="item-tools"]').click();
  const review = page.getByTestId('request-review');
  await expect(review.getByTestId('prompt-tools-note')).toContainText('llama3.2 has no native tool calling: the tools will be described in its system prompt');
});

test('Providers screen: stored key shown only as a hint, weak storage warned, edits and facts sent as typed', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-providers').click();
  await expect(page.getByTestId('secret-store-warning')).toContainText('basic_text');
  await expect(page.getByTestId('provider-item')).toHaveCount(3);
  const editor = page.getByTestId('provider-editor');
  await expect(editor.getByTestId('provider-key-stored')).toHaveText(/stored …9f8e/);
  await page.getByTestId('provider-item').filter({ hasText: 'Ollama' }).click();
  const ollama = page.getByTestId('provider-editor');
  await expect(ollama.locator('[data-testid="model-facts-row"][data-model="llama3.2"]')).toContainText('yours');
  await ollama.getByTestId('provider-model-input').fill('qwen3:4b');
  await ollama.getByTestId('provider-model-add').click();
  const qwen = ollama.locator('[data-testid="model-facts-row"][data-model="qwen3:4b"]');
  await qwen.getByTestId('fact-tools').selectOption('none');
  await qwen.getByTestId('fact-intelligence').selectOption('3');
  await shot(page, 'providers-facts-edit');
  await ollama.getByTestId('provider-test').click();
  await expect(ollama.getByTestId('provider-test-result')).toContainText('Connected');
  await ollama.getByTestId('provider-save').click();
  const [tested] = await recorded(page, 'testProvider');
  expect(tested).toMatchObject({ id: 'ollama', provider: { kind: 'openai-compatible', baseURL: 'http://127.0.0.1:11434/v1' } });
  const [saved] = await recorded(page, 'saveProvider');
  expect(saved).toMatchObject({
    previousId: 'ollama',
    provider: { id: 'ollama', models: ['llama3.2', 'qwen3:4b'], modelFacts: { 'llama3.2': { tools: 'prompt' }, 'qwen3:4b': { tools: 'none', intelligence: 3 } } },
  });
  expect(saved).not.toHaveProperty('apiKey');

  // A new Anthropic provider: the typed key is sent once, with the settings.
  await page.getByTestId('add-provider').click();
  await page.getByTestId('provider-preset-anthropic').click();
  const fresh = page.getByTestId('provider-editor');
  await expect(fresh.getByTestId('provider-id')).toHaveValue('anthropic-2');
  await fresh.getByTestId('provider-api-key').fill('sk-ant-typed-once-0000');
  await fresh.getByTestId('provider-model-input').fill('claude-opus-4-1');
  await fresh.getByTestId('provider-model-add').click();
  await fresh.getByTestId('provider-save').click();
  const saves = await recorded(page, 'saveProvider');
  expect(saves.at(-1)).toMatchObject({ apiKey: 'sk-ant-typed-once-0000', provider: { id: 'anthropic-2', kind: 'anthropic', models: ['claude-opus-4-1'] } });
});

test('Providers opens on the list and the first provider; with none yet, on an invitation with the presets; a form only when asked', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-providers').click();
  await expect(page.getByTestId('provider-item')).toHaveCount(3);
  await expect(page.getByTestId('provider-editor').getByRole('heading', { level: 2 })).toHaveText('Anthropic');
  await page.getByTestId('add-provider').click();
  await expect(page.getByTestId('provider-presets')).toContainText('Add a provider');
  await expect(page.getByTestId('provider-editor')).toHaveCount(0);
  await page.getByTestId('provider-preset-ollama').click();
  await expect(page.getByTestId('provider-editor').getByRole('heading', { level: 2 })).toHaveText('Add provider: Ollama');
  expect(await recorded(page, 'saveProvider')).toEqual([]);
});

test('Providers with no provider yet: the presets, and what the console does without one', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openConsole(page, appUrl, { ...fixture, state: { ...fixture.state, providers: [providers.at(-1)!] } });
  await page.getByTestId('nav-providers').click();
  const invitation = page.getByTestId('provider-presets');
  await expect(invitation.getByRole('heading', { level: 2 })).toHaveText('No provider yet');
  await expect(invitation).toContainText('every response is one you write yourself');
  await expect(invitation.getByRole('button')).toHaveCount(6);
  await expect(page.getByTestId('provider-editor')).toHaveCount(0);
  await shot(page, 'providers-first-run');
  await invitation.getByTestId('provider-preset-anthropic').click();
  await expect(page.getByTestId('provider-editor').getByRole('heading', { level: 2 })).toHaveText('Add provider: Anthropic');
});

test('Model selection panel: family table, default model and per-server allowed models are sent', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-providers').click();
  await page.getByTestId('model-settings-item').click();
  const panel = page.getByTestId('model-settings');
  await expect(panel.getByTestId('family-row')).toHaveCount(DEFAULT_FAMILY_RULES.length);
  await panel.getByRole('button', { name: 'Add row' }).click();
  await panel.getByLabel(`Row ${DEFAULT_FAMILY_RULES.length + 1} pattern`).fill('llama');
  await panel.getByLabel(`Row ${DEFAULT_FAMILY_RULES.length + 1} family`).fill('fast');
  const everything = panel.locator('[data-testid="server-model-settings"][data-server-id="everything"]');
  await everything.getByLabel('Gemini — gemini-2.5-flash').check();
  await everything.getByLabel('Ollama — llama3.2').check();
  await everything.getByTestId('server-default-model').selectOption({ label: 'Ollama — llama3.2' });
  await shot(page, 'providers-model-selection');
  await panel.getByTestId('model-settings-save').click();
  const [sent] = await recorded(page, 'saveModelSettings');
  expect(sent).toMatchObject({
    defaultModel: { providerId: 'anthropic', modelId: 'claude-sonnet-4-5' },
    servers: { everything: { allowedModels: [{ providerId: 'google', modelId: 'gemini-2.5-flash' }, { providerId: 'ollama', modelId: 'llama3.2' }], defaultModel: { providerId: 'ollama', modelId: 'llama3.2' } } },
  });
  expect((sent?.families as unknown[]).at(-1)).toEqual({ pattern: 'llama', family: 'fast' });
});

test('Providers screen: each model shows its price and where it comes from; a typed price is sent as yours', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-providers').click();
  await page.getByTestId('provider-item').filter({ hasText: 'Ollama' }).click();
  const ollama = page.getByTestId('provider-editor');
  const local = ollama.locator('[data-testid="model-facts-row"][data-model="llama3.2"]');
  await expect(local.getByTestId('fact-price-in')).toHaveValue('0');
  await expect(local.getByTestId('fact-price-origin')).toHaveText('free (local)');

  await page.getByTestId('add-provider').click();
  await page.getByTestId('provider-preset-anthropic').click();
  const fresh = page.getByTestId('provider-editor');
  await fresh.getByTestId('provider-model-input').fill('claude-sonnet-4-5');
  await fresh.getByTestId('provider-model-add').click();
  const sonnet = fresh.locator('[data-testid="model-facts-row"][data-model="claude-sonnet-4-5"]');
  await expect(sonnet.getByTestId('fact-price-in')).toHaveValue('3');
  await expect(sonnet.getByTestId('fact-price-out')).toHaveValue('15');
  await expect(sonnet.getByTestId('fact-price-origin')).toHaveText(/^list price, \d{4}-\d{2}-\d{2}$/);
  await expect(sonnet.getByTestId('fact-price-origin')).toHaveAttribute('title', /anthropic\.com\/pricing/);
  await sonnet.getByTestId('fact-price-out').fill('12.5');
  await expect(sonnet.getByTestId('fact-price-origin')).toHaveText('yours');
  await shot(page, 'providers-prices');
  await fresh.getByTestId('provider-save').click();
  const saves = await recorded(page, 'saveProvider');
  expect(saves.at(-1)).toMatchObject({ provider: { kind: 'anthropic', modelFacts: { 'claude-sonnet-4-5': { price: { inputPerMTok: 3, outputPerMTok: 12.5 } } } } });
});

test('Providers screen: the time limits of a call, with their defaults; typed seconds are sent in ms; one out of range blocks saving', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-providers').click();
  await page.getByTestId('provider-item').filter({ hasText: 'Ollama' }).click();
  const ollama = page.getByTestId('provider-editor');
  const limits = ollama.getByTestId('provider-limits');
  await expect(limits.getByTestId('provider-limit-firstByteMs')).toHaveValue('300');
  await expect(limits.getByTestId('provider-limit-idleMs')).toHaveValue('');
  await expect(limits.getByTestId('provider-limit-idleMs')).toHaveAttribute('placeholder', 'default 120');
  await expect(limits.getByTestId('provider-limit-totalMs')).toHaveAttribute('placeholder', 'default 600');
  await limits.getByTestId('provider-limit-idleMs').fill('45');
  await limits.getByTestId('provider-limit-totalMs').fill('0');
  await expect(ollama.getByTestId('provider-problems')).toContainText('from 0.05 to 3600');
  await expect(ollama.getByTestId('provider-save')).toBeDisabled();
  await limits.getByTestId('provider-limit-totalMs').fill('');
  await limits.scrollIntoViewIfNeeded();
  await shot(page, 'providers-time-limits');
  await ollama.getByTestId('provider-save').click();
  const saves = await recorded(page, 'saveProvider');
  expect(saves.at(-1)).toMatchObject({ provider: { id: 'ollama', timeouts: { firstByteMs: 300_000, idleMs: 45_000 } } });
  expect((saves.at(-1)!.provider as { timeouts: object }).timeouts).not.toHaveProperty('totalMs');
});
