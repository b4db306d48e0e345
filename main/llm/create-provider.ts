/**
 * One configured provider → a running {@link LlmProvider} of its kind, with the full view the
 * renderer mirrors (model facts resolved, a key hint, never the key). The AI SDK and the
 * provider packages (sdk-provider.ts) are loaded at the provider's first generation, not when the
 * console starts (the bench's `p5.start_overhead_ms`).
 */
import { defaultModelFacts, providerTimeouts, type FamilyRule, type ModelFacts, type ProviderSettings } from '../../shared/contract/providers.js';
import type { ProviderView } from '../../shared/contract/state.js';
import { apiKeyHint } from '../secrets/secret-store.js';
import { apiRoot, hostedBaseURL } from './base-url.js';
import type { EmbedInput, EmbedOutput, GenerateInput, GenerateOutput, LlmProvider, SdkProvider } from './provider.js';
import type { SdkProviderConfig } from './sdk-provider.js';

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
  if (settings.kind === 'openai-compatible') return apiRoot(settings.baseURL ?? '');
  return hostedBaseURL(settings.kind, settings);
}

/**
 * Builds the provider. Tool calling per model follows its facts (`native`, `prompt`, `none`); each
 * call is held to the provider's time limits (its `timeouts` over DEFAULT_PROVIDER_TIMEOUTS).
 * @returns an LlmProvider whose `view` carries kind, label, base URL, models, facts, the key hint
 *   ("…abcd") and where the config came from — never the key itself
 */
export function createProvider(p: ResolvedProvider, families: readonly FamilyRule[]): LlmProvider {
  const { settings } = p;
  const facts = resolveFacts(settings, families);
  const config: SdkProviderConfig = {
    id: settings.id,
    label: settings.label ?? settings.id,
    models: settings.models,
    baseURL: baseURLOf(settings),
    toolSupport: (modelId) => (facts[modelId] ?? defaultModelFacts(settings.kind, modelId, families)).tools,
    ...(p.apiKey ? { apiKey: p.apiKey } : {}),
    ...(p.headers ? { headers: p.headers } : {}),
    ...(settings.kind === 'openai' && settings.openaiApi ? { openaiApi: settings.openaiApi } : {}),
    timeouts: providerTimeouts(settings.timeouts),
  };
  const hint = apiKeyHint(p.apiKey);
  const view: ProviderView = {
    id: settings.id,
    kind: settings.kind,
    label: config.label!,
    baseURL: config.baseURL,
    models: [...settings.models],
    hasApiKey: Boolean(p.apiKey),
    source: p.source,
    modelFacts: facts,
    customFacts: Object.keys(settings.modelFacts ?? {}).filter((m) => settings.models.includes(m)),
    ...(hint ? { apiKeyHint: hint } : {}),
    ...(settings.preset ? { preset: settings.preset } : {}),
    ...(settings.kind === 'openai' ? { openaiApi: settings.openaiApi ?? 'responses' } : {}),
    ...(settings.timeouts && { timeouts: settings.timeouts }),
  };
  const sdk = lazySdk(settings.kind, config);
  const generate = async (input: GenerateInput): Promise<GenerateOutput> => (await sdk()).generate(input);
  if (!EMBEDDING_KINDS.has(settings.kind)) return { view, generate };
  const embed = async (input: EmbedInput): Promise<EmbedOutput> => {
    const built = await sdk();
    if (!built.embed) throw new Error(`${config.label}: this provider has no embeddings`);
    return built.embed(input);
  };
  return { view, generate, embed };
}

/** The provider kinds whose API has embeddings (an {@link LlmProvider} of these has `embed`). */
const EMBEDDING_KINDS: ReadonlySet<ProviderSettings['kind']> = new Set(['openai', 'openai-compatible', 'google']);

/**
 * The provider sdk-provider.ts builds, built (and the SDK loaded) at the first call; a failed
 * load rejects that call and is tried again at the next.
 */
function lazySdk(kind: ProviderSettings['kind'], config: SdkProviderConfig): () => Promise<SdkProvider> {
  let built: Promise<SdkProvider> | undefined;
  return () => {
    if (!built) {
      built = import('./sdk-provider.js').then((m) => m.buildSdkProvider(kind, config));
      built.catch(() => (built = undefined));
    }
    return built;
  };
}
