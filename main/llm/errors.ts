/**
 * Turning whatever the AI SDK / fetch throws into an Error a person can act on.
 *
 * Message shape: `<label> (<baseURL>): <what happened> — <what to do>`, e.g.
 * `openai-compatible (http://127.0.0.1:1234/v1): 401 Unauthorized — check the API key. Server said: "Invalid key"`.
 * The API key is never part of a message: any occurrence (servers sometimes echo it) is replaced by `***`.
 */
import { APICallError, InvalidResponseDataError, JSONParseError, NoOutputGeneratedError, StreamProviderError, TypeValidationError, UnsupportedFunctionalityError } from 'ai';
import { ProviderError, type ErrorContext, type ProviderErrorKind, type ProviderTimeout } from './provider-error.js';

export { ProviderError, type ErrorContext, type ProviderErrorKind, type ProviderTimeout } from './provider-error.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** "an OpenAI-compatible", "a Gemini …". */
const article = (noun: string): string => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

/** Replaces every occurrence of `secret` in `text` with `***`. */
export function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('***') : text;
}

/** The error chain (`cause` links), outermost first, at most 8 deep. */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let e: unknown = error;
  while (e !== undefined && e !== null && out.length < 8 && !out.includes(e)) {
    out.push(e);
    e = typeof e === 'object' && 'cause' in e ? (e as { cause?: unknown }).cause : undefined;
  }
  return out;
}

function codeOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The server's own error text from an OpenAI-style body `{"error": {"message"}}`, if any (max 300 chars). */
function serverMessage(error: APICallError): string | undefined {
  let text: string | undefined;
  const data = error.data as { error?: { message?: unknown } } | undefined;
  if (typeof data?.error?.message === 'string') text = data.error.message;
  else if (error.responseBody) {
    try {
      const body = JSON.parse(error.responseBody) as { error?: { message?: unknown } | string; message?: unknown };
      if (typeof body.error === 'string') text = body.error;
      else if (typeof body.error?.message === 'string') text = body.error.message;
      else if (typeof body.message === 'string') text = body.message;
    } catch {
      text = error.responseBody.trim();
    }
  }
  if (!text) return undefined;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function fromStatus(error: APICallError, status: number, ctx: ErrorContext): { text: string; kind: ProviderErrorKind; retryable: boolean; retryAfter?: number } {
  const head = `${status} ${STATUS_TEXT[status] ?? 'HTTP error'}`;
  const retryAfterHeader = error.responseHeaders?.['retry-after'];
  const retryAfter = retryAfterHeader !== undefined && /^\d+(\.\d+)?$/.test(retryAfterHeader.trim()) ? Number(retryAfterHeader) : undefined;
  if (status === 401 || status === 403) return { text: `${head} — check the API key`, kind: 'auth', retryable: false };
  if (status === 404) return { text: `${head} — check the base URL and that model "${ctx.modelId}" exists on this server`, kind: 'not-found', retryable: false };
  if (status === 429) {
    const wait = retryAfter !== undefined ? `retry after ${retryAfter} s` : 'wait a moment before retrying';
    return { text: `${head} — rate limited by the provider; ${wait}`, kind: 'rate-limit', retryable: true, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  }
  if (status >= 500) return { text: `${head} — the provider failed; try again later`, kind: 'server', retryable: true };
  return { text: `${head} — the provider refused the request (check the model id, the token limit and the messages)`, kind: 'bad-request', retryable: false };
}

/**
 * Converts any failure of a generation into a {@link ProviderError} with a readable, key-free
 * message. Abort errors are not passed here (the provider rethrows those as AbortError).
 */
export function toProviderError(error: unknown, ctx: ErrorContext): ProviderError {
  const make = maker(ctx);
  if (error instanceof ProviderError) return error;
  const links = chain(error);
  const codes = links.map(codeOf);

  const api = links.find((e): e is APICallError => APICallError.isInstance(e));
  if (api && inStreamStatus(api)) return make(...inStreamFailure(api, ctx.protocol ?? 'OpenAI-compatible'));
  if (api?.statusCode !== undefined && api.statusCode >= 400) {
    const r = fromStatus(api, api.statusCode, ctx);
    const said = serverMessage(api);
    // Gemini answers a bad key with 400 INVALID_ARGUMENT "API key not valid".
    if (api.statusCode === 400 && said && /api[ _-]?key/i.test(said)) return make(`${api.statusCode} Bad Request — check the API key. Server said: "${said}"`, 'auth', false, 400);
    return make(said ? `${r.text}. Server said: "${said}"` : r.text, r.kind, r.retryable, api.statusCode, r.retryAfter);
  }
  const inStream = links.find((e): e is StreamProviderError => StreamProviderError.isInstance(e));
  if (inStream) {
    const tag = inStream.type ?? (inStream.code !== undefined ? String(inStream.code) : undefined);
    const status = inStream.statusCode;
    const kind: ProviderErrorKind = status === 429 || status === 503 || status === 529 ? 'rate-limit' : status === 401 || status === 403 ? 'auth' : 'server';
    const todo = kind === 'auth' ? 'check the API key' : inStream.isRetryable ? 'wait a moment, then retry' : 'retry, or choose another model';
    // The status here is the SDK's reading of the event (sometimes guessed from its words), not an HTTP status: the response was a 200.
    return make(`the provider reported an error mid-stream: ${tag ? `${tag}: ` : ''}${inStream.message} — ${todo}`, kind, inStream.isRetryable);
  }
  if (codes.includes('ECONNREFUSED')) return make('cannot connect (connection refused) — is the server running and is the base URL right?', 'network', true);
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) return make('cannot connect (host not found) — check the base URL', 'network', true);
  if (codes.includes('ETIMEDOUT') || codes.includes('UND_ERR_CONNECT_TIMEOUT')) return make('cannot connect (timed out) — check the base URL and the network', 'network', true);
  const terminated = links.some((e) => e instanceof TypeError && e.message === 'terminated');
  if (terminated || codes.includes('ECONNRESET') || codes.includes('UND_ERR_SOCKET')) {
    const during = api && /successful response/i.test(api.message) ? 'the connection was lost while the response was streaming' : 'the server closed the connection';
    return make(`${during} (${messageOf(links[links.length - 1])}) — check the server, then retry`, 'network', true);
  }
  if (links.some((e) => JSONParseError.isInstance(e) || TypeValidationError.isInstance(e))) {
    return make(`the server sent a malformed response stream (${messageOf(error).split('\n')[0]}) — is this ${article(ctx.protocol ?? 'OpenAI-compatible')} endpoint?`, 'protocol', true);
  }
  const invalid = links.find((e): e is InvalidResponseDataError => InvalidResponseDataError.isInstance(e));
  if (invalid) {
    const early = /without a finish reason/i.test(invalid.message);
    return make(early ? 'the response stream ended before the model finished (no finish reason) — the connection may have dropped; retry' : `invalid response: ${invalid.message}`, 'protocol', true);
  }
  if (links.some((e) => NoOutputGeneratedError.isInstance(e))) {
    return make('the response stream ended before the model finished (no finish event) — the connection may have dropped; retry', 'protocol', true);
  }
  const unsupported = links.find((e): e is UnsupportedFunctionalityError => UnsupportedFunctionalityError.isInstance(e));
  if (unsupported) return make(`cannot send this request: ${unsupported.message} — remove or change that content`, 'unsupported', false);
  if (api) return make(`${api.message} — check the server and the base URL`, 'network', api.isRetryable);
  const reported = streamErrorOf(error);
  if (reported) return make(reported.text, reported.kind, reported.retryable);
  return make(messageOf(error), 'unknown', false);
}

/** Builds ProviderErrors for `ctx`: the message prefixed `<label> (<baseURL>): `, the key scrubbed from both it and the detail. */
function maker(ctx: ErrorContext) {
  const prefix = `${ctx.label} (${ctx.baseURL})`;
  return (text: string, kind: ProviderErrorKind, retryable: boolean, status?: number, retryAfter?: number, timeout?: ProviderTimeout): ProviderError => {
    const detail = redact(text, ctx.apiKey);
    return new ProviderError(redact(`${prefix}: ${text}`, ctx.apiKey), kind, retryable, status, retryAfter, { detail, ...(timeout && { timeout }) });
  };
}

/**
 * Whether the error's HTTP status was not the response's: the response was an event stream (so
 * the provider answered 2xx; an error status never comes with one) but an event in it was an
 * error or unreadable, which some SDK packages report as an APICallError with a status of their
 * own (`@ai-sdk/anthropic`: 500, or 529 for `overloaded_error`, when it is the first event;
 * `@ai-sdk/google`: the code inside the error event).
 */
function inStreamStatus(api: APICallError): boolean {
  const type = api.responseHeaders?.['content-type'] ?? '';
  return api.statusCode !== undefined && api.statusCode >= 400 && type.toLowerCase().startsWith('text/event-stream');
}

/**
 * What went wrong inside a 2xx stream (see {@link inStreamStatus}), in the provider's words: its
 * own error event (Anthropic `{type, message}`, Gemini `{error: {code, message, status}}`), or an
 * event the console cannot read.
 */
function inStreamFailure(api: APICallError, protocol: string): [string, ProviderErrorKind, boolean] {
  let said: unknown;
  try {
    said = api.responseBody ? JSON.parse(api.responseBody) : undefined;
  } catch {
    said = undefined;
  }
  const reported = streamErrorOf(said);
  if (reported) return [reported.text, reported.kind, reported.retryable];
  const first = api.message.split('\n')[0];
  return [`the provider answered 200 but its stream could not be read (${first}) — is this ${article(protocol)} endpoint? Retry`, 'protocol', true];
}

/**
 * The error of a call past one of its time limits (kind `timeout`, retryable), saying which limit
 * and its length.
 */
export function timeoutError(ctx: ErrorContext, timeout: ProviderTimeout): ProviderError {
  const s = `${Math.round(timeout.ms / 100) / 10} s`;
  const what = {
    first_byte: `no response within ${s} (time to first byte)`,
    idle: `the response stalled: nothing for ${s} (idle limit)`,
    total: `the response took longer than ${s} (total deadline)`,
  }[timeout.phase];
  return maker(ctx)(`${what} — retry, or raise the provider's time limits on the Providers screen`, 'timeout', true, undefined, undefined, timeout);
}

/**
 * An error the provider sent inside a successful stream (not an Error object): Anthropic's
 * `event: error` `{type: "overloaded_error", message}`, OpenAI Responses' `error` / `response.failed`,
 * Gemini's `{error: {code, message, status}}` chunk.
 */
function streamErrorOf(error: unknown): { text: string; kind: ProviderErrorKind; retryable: boolean } | undefined {
  if (typeof error !== 'object' || error === null || error instanceof Error) return undefined;
  const e = error as { message?: unknown; type?: unknown; code?: unknown; status?: unknown; error?: unknown };
  const inner = (typeof e.error === 'object' && e.error !== null ? e.error : e) as typeof e;
  if (typeof inner.message !== 'string') return undefined;
  const tag = [inner.type, inner.status, inner.code].find((v) => typeof v === 'string' || typeof v === 'number');
  const label = tag !== undefined ? `${String(tag)}: ` : '';
  const t = String(tag ?? '').toLowerCase();
  if (/overloaded|rate|resource_exhausted|429/.test(t)) return { text: `the provider reported ${label}${inner.message} mid-stream — wait a moment, then retry`, kind: 'rate-limit', retryable: true };
  if (/auth|permission|401|403|unauthenticated/.test(t)) return { text: `the provider reported ${label}${inner.message} — check the API key`, kind: 'auth', retryable: false };
  return { text: `the provider reported ${label}${inner.message} mid-stream — retry`, kind: 'server', retryable: true };
}

/** An Error named `AbortError` (what `generate` rejects with when its signal fires). */
export function abortError(reason?: unknown): Error {
  const e = new Error(reason instanceof Error && reason.message ? `Generation cancelled: ${reason.message}` : 'Generation cancelled');
  e.name = 'AbortError';
  return e;
}
