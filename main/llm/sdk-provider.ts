/**
 * The AI SDK side of a configured provider: its kind's provider (hosted-providers.ts,
 * openai-compatible.ts). create-provider.ts loads this module at a provider's first generation.
 */
import type { OpenAIApi, ProviderSettings, ProviderTimeouts, ToolSupport } from '../../shared/contract/providers.js';
import { createAnthropicProvider, createGoogleProvider, createOpenAIProvider } from './hosted-providers.js';
import { createOpenAICompatibleProvider } from './openai-compatible.js';
import type { SdkProvider } from './provider.js';

/** What every kind's provider is built from. `apiKey` and `headers` values are secrets. */
export interface SdkProviderConfig {
  id: string;
  label?: string;
  /** The resolved API root (create-provider.ts `baseURLOf`). */
  baseURL: string;
  models: string[];
  toolSupport: (modelId: string) => ToolSupport;
  apiKey?: string;
  headers?: Record<string, string>;
  /** OpenAI only: see HostedProviderConfig. */
  openaiApi?: OpenAIApi;
  /** Time limits of each call (resolved: the settings over the defaults). */
  timeouts: ProviderTimeouts;
}

/** The provider of `kind` on the AI SDK. @throws Error for the manual kind, which has no SDK side */
export function buildSdkProvider(kind: ProviderSettings['kind'], config: SdkProviderConfig): SdkProvider {
  switch (kind) {
    case 'openai-compatible':
      return createOpenAICompatibleProvider(config);
    case 'anthropic':
      return createAnthropicProvider(config);
    case 'openai':
      return createOpenAIProvider(config);
    case 'google':
      return createGoogleProvider(config);
    default:
      throw new Error(`no AI SDK provider for kind ${kind}`);
  }
}
