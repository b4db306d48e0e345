/**
 * Public shapes of the provider gateway's wire codecs: the translation between a provider API
 * (OpenAI Chat Completions and Responses, Anthropic Messages) and MCP `sampling/createMessage`.
 *
 * The codecs are pure: no I/O, no clock, no randomness. The HTTP server decides ids, timestamps
 * and statuses it answers with; the codecs only turn bodies into params and replies into bodies.
 */
import type { GatewayEndpoint, ProviderApi } from '../../../shared/contract/gateway.js';
import type { CreateMessageParams, CreateMessageResult, SamplingMessage } from '../../../shared/contract/sampling.js';

/** The provider API a gateway endpoint speaks (shared/contract/gateway.ts). */
export type { GatewayEndpoint, ProviderApi };

/** A caller's request, translated. */
export interface GatewayCall {
  api: ProviderApi;
  /** The request as MCP params; `modelPreferences` is `{ hints: [{ name: requestedModel }] }`. */
  params: CreateMessageParams;
  /** The `model` the caller asked for. */
  requestedModel: string;
  /** Whether the caller asked for a server-sent-events answer. */
  stream: boolean;
  /** OpenAI `stream_options.include_usage`. */
  streamUsage?: boolean;
  /** Paths of `system` messages after the first turn carried into the system prompt (Anthropic), e.g. `messages[3]`. */
  movedToSystem?: string[];
  /** The Responses API `previous_response_id` the call continues. */
  previousResponseId?: string;
  /**
   * Request fields the answer repeats as they were asked (the Responses API's `instructions`,
   * `tools`, `tool_choice`, `temperature`, `max_output_tokens`, `metadata`…).
   */
  echo?: Record<string, unknown>;
  /**
   * Request fields the console does not carry over (e.g. "top_p", "response_format", or
   * "messages[1].content[0] (thinking)"), for the reviewer to see. In the order met.
   */
  ignored: string[];
}

/** What kind of failure an error answer reports; each codec maps it to its provider's error type. */
export type GatewayErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'too_large'
  | 'rate_limit'
  | 'api_error'
  | 'overloaded'
  | 'timeout';

/**
 * An error as the gateway answers it; `status` is the HTTP status (400, 401, 403, 404, 413, 429,
 * 500, 502, 503, 504 or 529; a provider's failure passes on the status the provider answered).
 * `param` names the offending request field, e.g. `messages[2].content[0].image_url`;
 * `retryAfterSeconds` is sent as the `retry-after` header.
 */
export interface WireError {
  status: number;
  kind: GatewayErrorKind;
  message: string;
  param?: string;
  retryAfterSeconds?: number;
}

/**
 * Messages the console answered before, by id: a response it gave (the Responses API's
 * `previous_response_id`: the conversation that response continued and its answer) or one output
 * item of it (`item_reference`). A WireError (404 in the API's shape) for one it never gave or
 * History no longer holds.
 */
export type EarlierLookup = (id: string, param: string) => SamplingMessage[] | WireError;

/** What a parse may consult besides the body. */
export interface ParseContext {
  /** Resolves ids of earlier answers (Responses API); absent: every id is unknown. */
  earlier?: EarlierLookup;
}

/** The result of {@link WireCodec.parse}: the translated call, or the 4xx error to answer. */
export type ParseOutcome = { ok: true; call: GatewayCall } | { ok: false; error: WireError };

/** What the console answers a call with. */
export interface GatewayReply {
  /** The response id, e.g. `chatcmpl-…`, `resp_…` or `msg_…` (see `replyId`). */
  id: string;
  /** epoch seconds */
  created: number;
  result: CreateMessageResult;
  /** Token counts when known; absent counts are answered as 0. */
  usage?: { inputTokens?: number; outputTokens?: number };
}

/**
 * Writes one streamed answer as SSE text, in order: start(), text(delta)*, then finish(reply) or
 * error(e). Each returns the SSE text to write (possibly '').
 *
 * `finish(reply)` writes whatever of the reply was not streamed yet: the reply's text when no
 * delta was sent (or the rest of it when the deltas are its beginning), then tool calls, the stop
 * reason, usage and the terminator. Deltas that are not the beginning of the reply's text cannot
 * be taken back: the caller should only stream text that is final.
 */
export interface StreamEncoder {
  start(): string;
  text(delta: string): string;
  finish(reply: GatewayReply): string;
  error(error: WireError): string;
  /**
   * A keep-alive the SDKs skip (an SSE comment, or Anthropic's `ping` event), to write while
   * the reviewer decides; allowed at any point before finish()/error().
   */
  ping(): string;
}

/** One provider API's translation: request body in, response / stream / error bodies out. */
export interface WireCodec {
  api: ProviderApi;
  /** The endpoint whose bodies it reads. */
  endpoint: GatewayEndpoint;
  /** Checks and translates a request body (already JSON-parsed); never throws. */
  parse(body: unknown, ctx?: ParseContext): ParseOutcome;
  /** The non-streaming JSON body. */
  response(reply: GatewayReply, call: GatewayCall): unknown;
  /** The JSON error body in the provider's shape (send it with `error.status`). */
  errorBody(error: WireError): unknown;
  /** An encoder for one streamed answer (`content-type: text/event-stream`). */
  stream(call: GatewayCall, id: string, created: number): StreamEncoder;
  /**
   * A WireError of `kind` with this provider's HTTP status for it (e.g. overloaded: 503 for
   * OpenAI, 529 for Anthropic).
   */
  error(kind: GatewayErrorKind, message: string, param?: string): WireError;
}

/** Used when an OpenAI caller gives no max_tokens / max_completion_tokens. */
export const DEFAULT_MAX_TOKENS = 4096;
