/**
 * Embeddings: one `embedMany` of the AI SDK (split into batches as the model allows), with no
 * retries (the caller or the person decides), under the provider's time limits (call-clock.ts),
 * its failures as {@link ProviderError}s worded as a generation's are.
 */
import { embedMany, type EmbeddingModel } from 'ai';
import { DEFAULT_PROVIDER_TIMEOUTS, type ProviderTimeouts } from '../../shared/contract/providers.js';
import { CallClock } from './call-clock.js';
import { abortError, timeoutError, toProviderError, type ErrorContext } from './errors.js';
import type { EmbedInput, EmbedOutput } from './provider.js';

/** What {@link embedTexts} needs besides the request. */
export interface EmbedSetup {
  /** The AI SDK embedding model (built with `watchedFetch`, call-clock.ts). */
  model: EmbeddingModel;
  ctx: ErrorContext;
  timeouts?: ProviderTimeouts;
}

/**
 * `dimensions` as each SDK package reads it: OpenAI's and Google's from their provider options
 * (`dimensions`, `outputDimensionality`), the OpenAI-compatible one from the call's own option.
 */
function dimensionsOf(dimensions: number | undefined) {
  if (dimensions === undefined) return {};
  return { dimensions, providerOptions: { openai: { dimensions }, google: { outputDimensionality: dimensions } } };
}

/**
 * Embeds `input.texts`, in order.
 * @returns one vector per text and the input tokens the provider reported
 * @throws (rejects) ProviderError (HTTP errors with their status and retry-after, unreachable
 *   server, malformed answer, a time limit broken — kind `timeout`); an Error named `AbortError`
 *   when `input.signal` fires
 */
export async function embedTexts(input: EmbedInput, setup: EmbedSetup): Promise<EmbedOutput> {
  const { signal } = input;
  if (signal.aborted) throw abortError(signal.reason);
  const clock = new CallClock(signal, setup.timeouts ?? DEFAULT_PROVIDER_TIMEOUTS);
  try {
    const out = await embedMany({ model: setup.model, values: input.texts, maxRetries: 0, abortSignal: clock.signal, ...dimensionsOf(input.dimensions) });
    const tokens = out.usage?.tokens;
    return { embeddings: out.embeddings, ...(typeof tokens === 'number' && Number.isFinite(tokens) && { usage: { inputTokens: tokens } }) };
  } catch (error) {
    if (signal.aborted) throw abortError(signal.reason);
    if (clock.expired) throw timeoutError(setup.ctx, clock.expired);
    throw toProviderError(error, setup.ctx);
  } finally {
    clock.stop();
  }
}
