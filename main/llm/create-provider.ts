/**
 * One configured provider → a running {@link LlmProvider} of its kind, with the full view the
 * renderer mirrors (model facts resolved, a key hint, never the key).
 */
import { defaultModelFacts, type FamilyRule, type ModelFacts, type ProviderSettings } from '../../shared/contract/providers.js';
import type { ProviderView } from '../../shared/contract/state.js';
import { apiKeyHint } from '../secrets/secret-store.js';
import { createAnthropicProvider, createGoogleProvider, createOpenAIProvider, hostedBaseURL } from './hosted-providers.js';
import { createOpenAICompatibleProvider } from './openai-compatible.js';
import type { LlmProvider } from './provider.js';

/** A provider as configured, with its resolved secrets. `apiKey` and `headers` values are secrets: never logged or shown. */
export interface ResolvedProvider {
  settings: ProviderSettings;
  apiKey?: string;
  headers?: Record<string, string>;
  /** `env`: from OPENAI_COMPATIBLE_* variables (not editable on the Providers screen). */
  source: 'console' | 'env';
}

/** The facts of every model of a provider: the person's where set, else {@link defaultModelFacts}. */
export function resolveFacts(settings: ProviderSettings, families: readonly FamilyRule[]): Record<string, ModelFacts> {
  const out: Record<string, ModelFacts> = {};
  for (const m of settings.models) out[m] = settings.modelFacts?.[m] ?? defaultModelFacts(settings.kind, m, families);
  return out;
}

/** The API root a provider uses (its setting, else the kind's official one). */
export function baseURLOf(settings: ProviderSettings): string {
  if (settings.kind === 'openai-compatible') return (settings.baseURL ?? '').replace(/(?<!\/)\/+$/, '');
  return hostedBaseURL(settings.kind, settings);
}

/**
 * Builds the provider. Tool calling per model follows its facts (`native`, `prompt`, `none`).
 * @returns an LlmProvider whose `view` carries kind, label, base URL, models, facts, the key hint
 *   ("…abcd") and where the config came from — never the key itself
 */
export function createProvider(p: ResolvedProvider, families: readonly FamilyRule[]): LlmProvider {
  const { settings } = p;
  const facts = resolveFacts(settings, families);
  const toolSupport = (modelId: string) => (facts[modelId] ?? defaultModelFacts(settings.kind, modelId, families)).tools;
  const common = {
    id: settings.id,
    label: settings.label ?? settings.id,
    models: settings.models,
    toolSupport,
    ...(p.apiKey ? { apiKey: p.apiKey } : {}),
    ...(p.headers ? { headers: p.headers } : {}),
  };
  const base =
    settings.kind === 'openai-compatible'
      ? createOpenAICompatibleProvider({ ...common, baseURL: baseURLOf(settings) })
      : settings.kind === 'anthropic'
        ? createAnthropicProvider({ ...common, baseURL: baseURLOf(settings) })
        : settings.kind === 'openai'
          ? createOpenAIProvider({ ...common, baseURL: baseURLOf(settings), ...(settings.openaiApi ? { openaiApi: settings.openaiApi } : {}) })
          : createGoogleProvider({ ...common, baseURL: baseURLOf(settings) });
  const hint = apiKeyHint(p.apiKey);
  const view: ProviderView = {
    ...base.view,
    source: p.source,
    modelFacts: facts,
    customFacts: Object.keys(settings.modelFacts ?? {}).filter((m) => settings.models.includes(m)),
    ...(hint ? { apiKeyHint: hint } : {}),
    ...(settings.preset ? { preset: settings.preset } : {}),
    ...(settings.kind === 'openai' ? { openaiApi: settings.openaiApi ?? 'responses' } : {}),
  };
  return { ...base, view };
}
