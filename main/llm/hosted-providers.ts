/**
 * The hosted providers, each through its own AI SDK package and the shared streaming loop
 * (generate-stream.ts):
 * - Anthropic: `@ai-sdk/anthropic`, Messages API (`POST {baseURL}/messages`, SSE). No audio input.
 * - OpenAI: `@ai-sdk/openai`, the Responses API (`POST {baseURL}/responses`) by default, Chat
 *   Completions (`POST {baseURL}/chat/completions`) when the request holds audio (Responses takes
 *   no audio input) or stop sequences (Responses has no `stop`), or when the provider is set to
 *   `chat`.
 * - Google Gemini: `@ai-sdk/google`, `POST {baseURL}/models/{id}:streamGenerateContent?alt=sse`.
 * OpenAI and Gemini also embed texts (`POST {baseURL}/embeddings`, `…/models/{id}:batchEmbedContents`;
 * embed.ts); Anthropic's API has no embeddings.
 * Each takes a `baseURL` (tests point them at loopback servers) and an API key resolved from the
 * secret store; the key is only ever placed in the request header the API wants.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { EmbeddingModel, LanguageModel } from 'ai';
import type { OpenAIApi, ProviderKind, ProviderTimeouts, ToolSupport } from '../../shared/contract/providers.js';
import { contentBlocks, type CreateMessageParams, type SamplingContent } from '../../shared/contract/sampling.js';
import type { ErrorContext } from './errors.js';
import { apiRoot, hostedBaseURL } from './base-url.js';
import { watchedFetch } from './call-clock.js';
import { embedTexts } from './embed.js';
import { streamGenerate } from './generate-stream.js';
import type { EmbedInput, EmbedOutput, GenerateInput, GenerateOutput, SdkProvider } from './provider.js';

/** Settings of a hosted provider. `apiKey` is the resolved secret (never logged or shown). */
export interface HostedProviderConfig {
  id: string;
  /** Display name (also prefixes error messages); default: the id. */
  label?: string;
  /** API root; default the official one (shared/contract/providers.ts PROVIDER_PRESETS). */
  baseURL?: string;
  apiKey?: string;
  models: string[];
  headers?: Record<string, string>;
  /** How a model calls tools (its facts); default `native`. */
  toolSupport?: (modelId: string) => ToolSupport;
  /** OpenAI only: the endpoint for requests that do not need Chat Completions; default `responses`. */
  openaiApi?: OpenAIApi;
  /** Time limits of each call; default DEFAULT_PROVIDER_TIMEOUTS (shared/contract/providers.ts). */
  timeouts?: ProviderTimeouts;
}

type HostedKind = 'anthropic' | 'openai' | 'google';

const PROTOCOL: Record<HostedKind, string> = { anthropic: 'Anthropic Messages', openai: 'OpenAI', google: 'Gemini generateContent' };

function hosted(kind: HostedKind, config: HostedProviderConfig, model: (modelId: string, params: CreateMessageParams) => LanguageModel): SdkProvider {
  const label = config.label ?? config.id;
  const baseURL = hostedBaseURL(kind, config);
  const ctxOf = (modelId: string): ErrorContext => ({ label, baseURL, modelId, protocol: PROTOCOL[kind], ...(config.apiKey ? { apiKey: config.apiKey } : {}) });
  async function generate(input: GenerateInput): Promise<GenerateOutput> {
    return streamGenerate(input, { model: model(input.modelId, input.params), ctx: ctxOf(input.modelId), tools: config.toolSupport?.(input.modelId) ?? 'native', ...(config.timeouts && { timeouts: config.timeouts }) });
  }
  const embedding = sdkEmbeddingFactory(kind, connectionOf(kind, config));
  if (!embedding) return { generate };
  const embed = (input: EmbedInput): Promise<EmbedOutput> => embedTexts(input, { model: embedding(input.modelId), ctx: ctxOf(input.modelId), ...(config.timeouts && { timeouts: config.timeouts }) });
  return { generate, embed };
}

/** Where and how to reach a provider: resolved API root, key (secret), extra headers, OpenAI endpoint preference. */
export interface ProviderConnection {
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
  openaiApi?: OpenAIApi;
}

/**
 * The AI SDK model for a provider kind and connection: a function of the model id (and, for
 * OpenAI, the request, which picks Responses or Chat Completions — see {@link openAIEndpointFor}).
 * Its `fetch` reports to the time limits of a call (call-clock.ts).
 */
export function sdkModelFactory(kind: Exclude<ProviderKind, 'manual'>, conn: ProviderConnection): (modelId: string, params?: CreateMessageParams) => LanguageModel {
  const common = { baseURL: apiRoot(conn.baseURL), fetch: watchedFetch(), ...(conn.headers ? { headers: conn.headers } : {}) };
  switch (kind) {
    case 'anthropic': {
      const sdk = createAnthropic({ ...common, apiKey: conn.apiKey ?? '' });
      return (id) => sdk.messages(id);
    }
    case 'openai': {
      const sdk = createOpenAI({ ...common, apiKey: conn.apiKey ?? '' });
      return (id, params) => ((params ? openAIEndpointFor(params, conn.openaiApi) : (conn.openaiApi ?? 'responses')) === 'chat' ? sdk.chat(id) : sdk.responses(id));
    }
    case 'google': {
      const sdk = createGoogleGenerativeAI({ ...common, apiKey: conn.apiKey ?? '' });
      return (id) => sdk.languageModel(id);
    }
    case 'openai-compatible': {
      const sdk = createOpenAICompatible({ name: 'openai-compatible', ...common, includeUsage: true, ...(conn.apiKey ? { apiKey: conn.apiKey } : {}) });
      return (id) => sdk.chatModel(id);
    }
  }
}

/**
 * The AI SDK embedding model for a provider kind and connection, as a function of the model id;
 * undefined for a kind whose API has no embeddings (Anthropic).
 */
export function sdkEmbeddingFactory(kind: Exclude<ProviderKind, 'manual'>, conn: ProviderConnection): ((modelId: string) => EmbeddingModel) | undefined {
  const common = { baseURL: apiRoot(conn.baseURL), fetch: watchedFetch(), ...(conn.headers ? { headers: conn.headers } : {}) };
  switch (kind) {
    case 'openai': {
      const sdk = createOpenAI({ ...common, apiKey: conn.apiKey ?? '' });
      return (id) => sdk.embedding(id);
    }
    case 'google': {
      const sdk = createGoogleGenerativeAI({ ...common, apiKey: conn.apiKey ?? '' });
      return (id) => sdk.embedding(id);
    }
    case 'openai-compatible': {
      const sdk = createOpenAICompatible({ name: 'openai-compatible', ...common, ...(conn.apiKey ? { apiKey: conn.apiKey } : {}) });
      return (id) => sdk.embeddingModel(id);
    }
    default:
      return undefined;
  }
}

const connectionOf = (kind: HostedKind, config: HostedProviderConfig): ProviderConnection => ({
  baseURL: hostedBaseURL(kind, config),
  ...(config.apiKey ? { apiKey: config.apiKey } : {}),
  ...(config.headers ? { headers: config.headers } : {}),
  ...(config.openaiApi ? { openaiApi: config.openaiApi } : {}),
});

/** Creates the Anthropic provider (Messages API, streamed). */
export function createAnthropicProvider(config: HostedProviderConfig): SdkProvider {
  return hosted('anthropic', config, sdkModelFactory('anthropic', connectionOf('anthropic', config)));
}

/** Whether a request holds audio anywhere (messages or tool results). */
function hasAudio(params: CreateMessageParams): boolean {
  return params.messages.some((m) =>
    contentBlocks<SamplingContent>(m.content).some((b) => b.type === 'audio' || (b.type === 'tool_result' && b.content.some((c) => c.type === 'audio'))),
  );
}

/**
 * Which OpenAI endpoint a request goes to: `chat` when it holds audio or stop sequences (the
 * Responses API takes neither), else `preferred` (default `responses`).
 */
export function openAIEndpointFor(params: CreateMessageParams, preferred: OpenAIApi = 'responses'): OpenAIApi {
  if (hasAudio(params) || (params.stopSequences?.length ?? 0) > 0) return 'chat';
  return preferred;
}

/** Creates the OpenAI provider (Responses API, or Chat Completions where the request needs it). */
export function createOpenAIProvider(config: HostedProviderConfig): SdkProvider {
  return hosted('openai', config, sdkModelFactory('openai', connectionOf('openai', config)));
}

/** Creates the Google Gemini provider (streamGenerateContent). */
export function createGoogleProvider(config: HostedProviderConfig): SdkProvider {
  return hosted('google', config, sdkModelFactory('google', connectionOf('google', config)));
}
