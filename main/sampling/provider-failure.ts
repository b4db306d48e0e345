/**
 * A failed generation as the pipeline reports it: to the person (the provider's full message, with
 * its label and base URL, and the failure's kind for a headline) and to a caller no person answers
 * for (the JSON-RPC error `ErrorCodes.PROVIDER_FAILED`, its message without the provider's label
 * and URL, and `data` saying what the provider did: status, retry-after, the limit broken).
 */
import type { ProviderFailureData, ProviderFailureKind } from '../../shared/contract/providers.js';
import { ErrorCodes } from '../../shared/contract/sampling.js';
import { ProviderError } from '../llm/provider-error.js';

/** What a failed generation tells the person and the caller. */
export interface GenerationFailure {
  /** For the person and History: the provider's readable message. */
  message: string;
  /** The kind, for the person's headline (absent when the failure is not the provider's, e.g. a conversion error). */
  kind?: ProviderFailureKind;
  /** For the caller: code, message and data of the JSON-RPC error. */
  answer: { code: number; message: string; data: ProviderFailureData };
}

/** The {@link GenerationFailure} of what a provider's `generate` rejected with (anything). */
export function generationFailure(err: unknown): GenerationFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof ProviderError)) {
    return { message, answer: { code: ErrorCodes.PROVIDER_FAILED, message: `The LLM provider call failed: ${message}`, data: { provider: { kind: 'unknown' } } } };
  }
  const provider: ProviderFailureData['provider'] = {
    kind: err.kind,
    ...(err.status !== undefined && { status: err.status }),
    ...(err.retryAfterSeconds !== undefined && { retryAfterSeconds: err.retryAfterSeconds }),
    ...(err.timeout && { timeout: err.timeout }),
  };
  return { message, kind: err.kind, answer: { code: ErrorCodes.PROVIDER_FAILED, message: `The LLM provider failed: ${err.detail}`, data: { provider } } };
}
