/**
 * The provider failure the sampling pipeline sees, apart from the AI SDK: errors.ts turns what
 * the SDK throws into it, and modules that only check or show one need not load the SDK (the SDK
 * is loaded at the first generation, create-provider.ts).
 */
import type { ProviderFailureKind } from '../../shared/contract/providers.js';

/** What went wrong, for callers that branch (e.g. offer "retry" only for transient kinds); see the shared type. */
export type ProviderErrorKind = ProviderFailureKind;

/**
 * A provider failure. `message` is the readable text; `status` the HTTP status when there was
 * one; `retryAfterSeconds` from a `retry-after` header (429); `retryable` says whether trying
 * again could help (the console never retries by itself: the person decides).
 */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Who failed, for the message prefix and redaction. `apiKey` is only used to scrub it out. */
export interface ErrorContext {
  label: string;
  baseURL: string;
  modelId: string;
  apiKey?: string;
  /** The wire protocol expected at `baseURL`, for "is this a … endpoint?" hints; default "OpenAI-compatible". */
  protocol?: string;
}
