/**
 * The provider failure the sampling pipeline sees, apart from the AI SDK: errors.ts turns what
 * the SDK throws into it, and modules that only check or show one need not load the SDK (the SDK
 * is loaded at the first generation, create-provider.ts).
 */
import type { ProviderFailureKind } from '../../shared/contract/providers.js';

/** What went wrong, for callers that branch (e.g. offer "retry" only for transient kinds); see the shared type. */
export type ProviderErrorKind = ProviderFailureKind;

/** A time limit a provider call broke (call-clock.ts): which one, and its length in ms. */
export interface ProviderTimeout {
  phase: 'first_byte' | 'idle' | 'total';
  ms: number;
}

/**
 * A provider failure. `message` is the readable text, prefixed with the provider's label and
 * base URL (for the person); `detail` the same without that prefix (for a caller outside the
 * console: a server, a gateway caller). `status` is the HTTP status the provider answered, when
 * it answered one (never invented: a failure inside a 200 stream has none); `retryAfterSeconds`
 * from a `retry-after` header (429); `timeout` the limit a call broke (kind `timeout`);
 * `retryable` says whether trying again could help (the console never retries by itself: the
 * person decides).
 */
export class ProviderError extends Error {
  override name = 'ProviderError';
  readonly detail: string;
  readonly timeout?: ProviderTimeout;
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterSeconds?: number,
    more: { detail?: string; timeout?: ProviderTimeout } = {},
  ) {
    super(message);
    this.detail = more.detail ?? message;
    if (more.timeout) this.timeout = more.timeout;
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
