/**
 * The OpenAI-compatible provider (Ollama, LM Studio, vLLM, llama.cpp server, OpenAI itself …):
 * `@ai-sdk/openai-compatible` for the wire protocol, `experimental_streamLanguageModelCall` from
 * `ai` for the call (generate-stream.ts).
 *
 * The streaming loop and its rules (S-MAX-1, no automatic retries, cancellation, tool support) are
 * shared with the other providers in generate-stream.ts.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ProviderTimeouts, ToolSupport } from '../../shared/contract/providers.js';
import { apiRoot } from './base-url.js';
import { watchedFetch } from './call-clock.js';
import { createDirectGenerate, sendsDirect } from './chat-completions.js';
import type { ErrorContext } from './errors.js';
import { embedTexts } from './embed.js';
import { streamGenerate } from './generate-stream.js';
import type { EmbedInput, EmbedOutput, GenerateInput, GenerateOutput, SdkProvider } from './provider.js';

/** Settings of one OpenAI-compatible endpoint. `apiKey` is the resolved secret (never logged or shown). */
export interface OpenAICompatibleConfig {
  /** Unique provider id, e.g. "lmstudio". */
  id: string;
  /** Display name; default: the id. Also prefixes error messages. */
  label?: string;
  /** API root including the version, e.g. "http://127.0.0.1:1234/v1" (requests go to `${baseURL}/chat/completions`). */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Model ids offered to the person, e.g. ["llama3.2"]. */
  models: string[];
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /** How a model calls tools (its facts); default `native` for every model. */
  toolSupport?: (modelId: string) => ToolSupport;
  /** Time limits of each call; default DEFAULT_PROVIDER_TIMEOUTS (shared/contract/providers.ts). */
  timeouts?: ProviderTimeouts;
}

/**
 * Creates the generation side ({@link SdkProvider}) of an OpenAI-compatible Chat Completions endpoint.
 *
 * `embed` (`POST ${baseURL}/embeddings`) goes through embed.ts. `generate` streams through {@link streamGenerate} (usage requested via
 * `stream_options.include_usage`; each call under `config.timeouts`), calls `onText` with each text delta in order, and resolves with
 * the CreateMessageResult (see convert.ts), the usage (`inputTokens` / `outputTokens`, token
 * counts) and the AI SDK finish reason (`stop`, `length`, `tool-calls`, …). Models whose
 * `toolSupport` is `prompt` get the prompt-based tool fallback (prompt-tools.ts).
 * @throws (rejects) ProviderError (errors.ts) with a readable message for HTTP errors (401, 429
 *   with retry-after, 5xx, …), unreachable servers, calls past a time limit, malformed or truncated streams — including
 *   errors the AI SDK reports only as stream `error` parts; an Error named `AbortError` when
 *   `signal` fires; SamplingConversionError when the messages cannot be converted.
 */
export function createOpenAICompatibleProvider(config: OpenAICompatibleConfig): SdkProvider {
  const label = config.label ?? config.id;
  const baseURL = apiRoot(config.baseURL);
  const sdk = createOpenAICompatible({
    name: config.id,
    baseURL,
    includeUsage: true,
    fetch: watchedFetch(),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.headers ? { headers: config.headers } : {}),
  });
  // One AI SDK model object per model id: it is stateless configuration, but building one compiles
  // its zod stream-chunk schema (≈ 1 ms, measured by `npm run bench` on every request before).
  const models = new Map<string, ReturnType<typeof sdk.chatModel>>();
  const chatModel = (modelId: string) => {
    let model = models.get(modelId);
    if (!model) models.set(modelId, (model = sdk.chatModel(modelId)));
    return model;
  };

  const ctxOf = (modelId: string): ErrorContext => ({ label, baseURL, modelId, ...(config.apiKey ? { apiKey: config.apiKey } : {}) });
  const direct = createDirectGenerate({ baseURL, ...(config.apiKey && { apiKey: config.apiKey }), ...(config.headers && { headers: config.headers }), ...(config.timeouts && { timeouts: config.timeouts }) });
  async function generate(input: GenerateInput): Promise<GenerateOutput> {
    const tools = config.toolSupport?.(input.modelId) ?? 'native';
    const hasTools = (input.params.tools?.length ?? 0) > 0;
    if ((tools === 'native' || !hasTools) && sendsDirect(input.params)) return direct(input, ctxOf(input.modelId));
    return streamGenerate(input, { model: chatModel(input.modelId), ctx: ctxOf(input.modelId), tools, ...(config.timeouts && { timeouts: config.timeouts }) });
  }
  async function embed(input: EmbedInput): Promise<EmbedOutput> {
    return embedTexts(input, { model: sdk.embeddingModel(input.modelId), ctx: ctxOf(input.modelId), ...(config.timeouts && { timeouts: config.timeouts }) });
  }

  return { generate, embed };
}
