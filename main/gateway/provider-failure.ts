/**
 * A provider's failure (the pipeline's `ErrorCodes.PROVIDER_FAILED`, with its `ProviderFailureData`)
 * as the gateway answers it, in the caller's provider shape:
 *
 * - the provider answered an HTTP error → that status (400, 401, 403, 404, 413, 429, 500, 503, 529 …)
 *   with the error type the caller's API has for it, and its `retry-after`;
 * - it never answered in time (first byte, idle, total) → 504 `timeout`;
 * - it reported overload inside a 200 stream → the caller's API's overloaded status (503 / 529);
 * - the console could not send the content (`unsupported`) → 400;
 * - anything else (connection reset, a stream broken half-way, malformed JSON, an error event
 *   inside a 200 stream) → 502, the provider failed behind the gateway.
 *
 * The message is the provider's, as the pipeline words it for callers (no provider label or URL).
 */
import type { ProviderFailureData } from '../../shared/contract/providers.js';
import type { GatewayErrorKind, WireCodec, WireError } from './wire/types.js';

/** The error type a provider's HTTP status maps to. */
function kindOfStatus(status: number): GatewayErrorKind {
  switch (status) {
    case 401:
      return 'authentication';
    case 403:
      return 'permission';
    case 404:
      return 'not_found';
    case 413:
      return 'too_large';
    case 429:
      return 'rate_limit';
    case 503:
    case 529:
      return 'overloaded';
    case 504:
      return 'timeout';
    default:
      return status < 500 ? 'invalid_request' : 'api_error';
  }
}

/** What the provider did, read from the error's `data` (anything else: an unknown failure). */
function providerOf(data: unknown): Partial<ProviderFailureData['provider']> {
  const provider = typeof data === 'object' && data !== null ? (data as { provider?: unknown }).provider : undefined;
  return typeof provider === 'object' && provider !== null ? (provider as Partial<ProviderFailureData['provider']>) : {};
}

/** The answer to a gateway caller for a provider failure with `message` and `data` (see the module doc). */
export function providerWireError(message: string, data: unknown, codec: WireCodec): WireError {
  const { status, kind, retryAfterSeconds } = providerOf(data);
  const retry = typeof retryAfterSeconds === 'number' ? { retryAfterSeconds } : {};
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599) return { status, kind: kindOfStatus(status), message, ...retry };
  if (kind === 'timeout') return codec.error('timeout', message);
  if (kind === 'rate-limit') return { ...codec.error('overloaded', message), ...retry };
  if (kind === 'unsupported') return codec.error('invalid_request', message);
  return { status: 502, kind: 'api_error', message };
}
