/**
 * The provider seam: how the sampling pipeline asks an LLM for a completion. Implementations wrap
 * the AI SDK (one streamed model call, generate-stream.ts); "manual" has no `generate` (the
 * person writes the response).
 */
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { ProviderView, TokenUsage } from '../../shared/contract/state.js';

/** One generation request: the approved (edited) params and the model to use. */
export interface GenerateInput {
  params: CreateMessageParams;
  /** Model id as the provider names it, e.g. "gpt-4o-mini" or "llama3.2". */
  modelId: string;
  /** Aborts the HTTP request; `generate` then rejects with an AbortError. */
  signal: AbortSignal;
  /** Called with each streamed text delta, in order. */
  onText(delta: string): void;
}

/** A finished generation. `result` validates against CreateMessageResultSchema. */
export interface GenerateOutput {
  result: CreateMessageResult;
  usage?: TokenUsage;
  /** The provider's finish reason before mapping to `stopReason` (e.g. "stop", "length"). */
  finishReason: string;
}

/** One embeddings request: the texts, in order, and the embedding model to use. */
export interface EmbedInput {
  texts: string[];
  /** Embedding model id as the provider names it, e.g. "text-embedding-3-small". */
  modelId: string;
  /** Dimensions asked of the model (where it can shorten its vectors). */
  dimensions?: number;
  /** Aborts the HTTP request; `embed` then rejects with an AbortError. */
  signal: AbortSignal;
}

/** Finished embeddings: one vector per text, in order. */
export interface EmbedOutput {
  embeddings: number[][];
  usage?: TokenUsage;
}

/**
 * A provider's generation (and embeddings, where its kind has them) on the AI SDK, as its kind's
 * module builds it (hosted-providers.ts, openai-compatible.ts, through sdk-provider.ts);
 * create-provider.ts adds the view.
 */
export type SdkProvider = Required<Pick<LlmProvider, 'generate'>> & Pick<LlmProvider, 'embed'>;

/** A configured provider. */
export interface LlmProvider {
  /** Public facts for the renderer; never includes the API key. */
  view: ProviderView;
  /**
   * Generates a completion. Absent for the manual provider.
   * @throws Error with a readable message on HTTP/stream failures (401, 429, 5xx, bad stream);
   *   an AbortError when `signal` fires.
   */
  generate?(input: GenerateInput): Promise<GenerateOutput>;
  /**
   * Embeds texts. Present for the kinds whose API has embeddings (OpenAI, OpenAI-compatible,
   * Google Gemini); absent for Anthropic and the manual provider.
   * @throws as `generate` (a ProviderError; an AbortError when `signal` fires)
   */
  embed?(input: EmbedInput): Promise<EmbedOutput>;
}
