/**
 * The OpenAI Chat Completions codec: `POST /v1/chat/completions` bodies, `chat.completion`
 * answers, `chat.completion.chunk` streams and `{error: {...}}` error bodies, as the official
 * `openai` SDK reads them.
 */
import type { CreateMessageResult } from '../../../shared/contract/sampling.js';
import {
  COMMON_STATUS,
  makeError,
  replyText,
  replyToolUses,
  sseEvent,
  unstreamedText,
  type StatusTable,
} from './common.js';
import { parseOpenAiRequest } from './openai-parse.js';
import type { GatewayCall, GatewayErrorKind, GatewayReply, StreamEncoder, WireCodec, WireError } from './types.js';

/** OpenAI's statuses per error kind: overloaded is answered as 503. */
const STATUS: StatusTable = { ...COMMON_STATUS, overloaded: 503 };

/** OpenAI's `error.type` and `error.code` per error kind. */
const ERROR_TYPE: Record<GatewayErrorKind, { type: string; code: string | null }> = {
  invalid_request: { type: 'invalid_request_error', code: null },
  authentication: { type: 'authentication_error', code: 'invalid_api_key' },
  permission: { type: 'permission_error', code: null },
  not_found: { type: 'not_found_error', code: null },
  too_large: { type: 'invalid_request_error', code: 'request_too_large' },
  rate_limit: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
  api_error: { type: 'api_error', code: null },
  overloaded: { type: 'api_error', code: 'overloaded' },
  timeout: { type: 'api_error', code: 'timeout' },
};

/** `finish_reason` of a result: tool_calls when it holds tool_use, length for maxTokens, else stop. */
export function openAiFinishReason(result: CreateMessageResult): 'stop' | 'length' | 'tool_calls' {
  if (result.stopReason === 'toolUse' || replyToolUses(result).length > 0) return 'tool_calls';
  return result.stopReason === 'maxTokens' ? 'length' : 'stop';
}

/** The result's tool_use blocks as OpenAI `tool_calls` (arguments as a JSON string). */
function toolCalls(result: CreateMessageResult) {
  return replyToolUses(result).map((t) => ({
    id: t.id,
    type: 'function' as const,
    function: { name: t.name, arguments: JSON.stringify(t.input) },
  }));
}

/** `usage` in OpenAI's shape; unknown counts are 0. */
function usageOf(reply: GatewayReply) {
  const prompt = reply.usage?.inputTokens ?? 0;
  const completion = reply.usage?.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The `chat.completion` body of a reply. */
function response(reply: GatewayReply): unknown {
  const { result } = reply;
  const calls = toolCalls(result);
  const text = replyText(result);
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    refusal: null,
  };
  if (calls.length > 0) message.tool_calls = calls;
  return {
    id: reply.id,
    object: 'chat.completion',
    created: reply.created,
    model: result.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: openAiFinishReason(result) }],
    usage: usageOf(reply),
  };
}

/** `{error: {message, type, param, code}}`. */
function errorBody(error: WireError): unknown {
  const { type, code } = ERROR_TYPE[error.kind];
  return { error: { message: error.message, type, param: error.param ?? null, code } };
}

/**
 * The chunk encoder: a role delta, content deltas, one tool_calls delta per call, a chunk with
 * `finish_reason`, a usage chunk (`choices: []`) when `call.streamUsage`, then `data: [DONE]`.
 * An error is one `data: {error: {...}}` event, which the SDK raises as an APIError; `ping()` is an
 * SSE comment.
 */
function stream(call: GatewayCall, id: string, created: number): StreamEncoder {
  let streamed = '';
  const withUsage = call.streamUsage === true;
  const chunk = (model: string, choices: unknown[], usage?: unknown) =>
    sseEvent({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices,
      ...(withUsage ? { usage: usage ?? null } : {}),
    });
  const choice = (delta: unknown, finishReason: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  });
  return {
    start: () => chunk(call.requestedModel, [choice({ role: 'assistant', content: '', refusal: null })]),
    text(delta) {
      if (delta === '') return '';
      streamed += delta;
      return chunk(call.requestedModel, [choice({ content: delta })]);
    },
    finish(reply) {
      const { result } = reply;
      const rest = unstreamedText(streamed, replyText(result));
      let out = rest === '' ? '' : chunk(result.model, [choice({ content: rest })]);
      for (const [index, tc] of toolCalls(result).entries()) {
        out += chunk(result.model, [choice({ tool_calls: [{ index, ...tc }] })]);
      }
      out += chunk(result.model, [choice({}, openAiFinishReason(result))]);
      if (withUsage) out += chunk(result.model, [], usageOf(reply));
      return `${out}data: [DONE]\n\n`;
    },
    error: (error) => sseEvent(errorBody(error)),
    ping: () => ': ping\n\n',
  };
}

/** OpenAI Chat Completions: see the module doc. */
export const openAiCodec: WireCodec = {
  api: 'openai',
  endpoint: 'chat_completions',
  parse: parseOpenAiRequest,
  response,
  errorBody,
  stream,
  error: (kind, message, param) => makeError(STATUS, kind, message, param),
};
