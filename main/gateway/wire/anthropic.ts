/**
 * The Anthropic Messages codec: `POST /v1/messages` bodies, `message` answers, the named SSE
 * events of a streamed message and `{type: 'error', error: {...}}` error bodies, as the official
 * `@anthropic-ai/sdk` reads them.
 */
import type { CreateMessageResult, SamplingContent } from '../../../shared/contract/sampling.js';
import { parseAnthropicRequest } from './anthropic-parse.js';
import {
  COMMON_STATUS,
  makeError,
  replyBlocks,
  replyText,
  replyToolUses,
  sseEvent,
  unstreamedText,
  type StatusTable,
} from './common.js';
import type { GatewayCall, GatewayErrorKind, GatewayReply, StreamEncoder, WireCodec, WireError } from './types.js';

/** Anthropic's statuses per error kind: overloaded is answered as 529. */
const STATUS: StatusTable = { ...COMMON_STATUS, overloaded: 529 };

/** Anthropic's `error.type` per error kind. */
const ERROR_TYPE: Record<GatewayErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  too_large: 'request_too_large',
  rate_limit: 'rate_limit_error',
  api_error: 'api_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
};

/** Anthropic's `stop_reason` of a result: tool_use when it holds tool_use blocks; unknown reasons → end_turn. */
export function anthropicStopReason(result: CreateMessageResult): 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' {
  if (result.stopReason === 'toolUse' || replyToolUses(result).length > 0) return 'tool_use';
  if (result.stopReason === 'maxTokens') return 'max_tokens';
  return result.stopReason === 'stopSequence' ? 'stop_sequence' : 'end_turn';
}

/** A result block in Anthropic's shape; null for kinds a Messages answer cannot hold (image, audio). */
function blockOf(block: SamplingContent): Record<string, unknown> | null {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'tool_use') return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
  return null;
}

/** The result's blocks in Anthropic's shape, without the kinds it cannot hold. */
function answerBlocks(result: CreateMessageResult): Array<Record<string, unknown>> {
  return replyBlocks(result).flatMap((b) => {
    const block = blockOf(b);
    return block ? [block] : [];
  });
}

/** `usage` in Anthropic's shape; unknown counts are 0. */
function usageOf(reply: GatewayReply) {
  return { input_tokens: reply.usage?.inputTokens ?? 0, output_tokens: reply.usage?.outputTokens ?? 0 };
}

/** The `message` body of a reply. */
function response(reply: GatewayReply): unknown {
  const { result } = reply;
  return {
    id: reply.id,
    type: 'message',
    role: 'assistant',
    model: result.model,
    content: answerBlocks(result),
    stop_reason: anthropicStopReason(result),
    stop_sequence: null,
    usage: usageOf(reply),
  };
}

/** `{type: 'error', error: {type, message}}`. */
function errorBody(error: WireError): unknown {
  return { type: 'error', error: { type: ERROR_TYPE[error.kind], message: error.message } };
}

/** The events of one content block: start, one delta carrying all of it, stop. */
function wholeBlock(index: number, block: Record<string, unknown>): string {
  const ev = (name: string, data: Record<string, unknown>) => sseEvent({ type: name, index, ...data }, name);
  if (block.type === 'text') {
    return (
      ev('content_block_start', { content_block: { type: 'text', text: '' } }) +
      (block.text === '' ? '' : ev('content_block_delta', { delta: { type: 'text_delta', text: block.text } })) +
      ev('content_block_stop', {})
    );
  }
  return (
    ev('content_block_start', { content_block: { ...block, input: {} } }) +
    ev('content_block_delta', { delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }) +
    ev('content_block_stop', {})
  );
}

/**
 * The event encoder. message_start is written with the first text delta (naming the requested
 * model) or by finish (naming the reply's model), so `start()` writes nothing; text deltas go into
 * one text block at index 0. finish closes that block (or writes the reply's text blocks when
 * nothing was streamed), writes tool_use blocks, message_delta (stop_reason, usage) and
 * message_stop. `ping()` is Anthropic's keep-alive event; an error is one `event: error`.
 */
function stream(call: GatewayCall, id: string, _created: number): StreamEncoder {
  let started = false;
  let streamed = '';
  const ev = (name: string, data: Record<string, unknown>) => sseEvent({ type: name, ...data }, name);
  const textDelta = (text: string) => ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
  const messageStart = (model: string) => {
    if (started) return '';
    started = true;
    const message = {
      id, type: 'message', role: 'assistant', model, content: [],
      stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 },
    };
    return ev('message_start', { message });
  };
  return {
    start: () => '',
    text(delta) {
      if (delta === '') return '';
      const open = streamed === '' ? ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) : '';
      streamed += delta;
      return messageStart(call.requestedModel) + open + textDelta(delta);
    },
    finish(reply) {
      const { result } = reply;
      let out = messageStart(result.model);
      let blocks = answerBlocks(result);
      let index = 0;
      if (streamed !== '') {
        const rest = unstreamedText(streamed, replyText(result));
        out += (rest === '' ? '' : textDelta(rest)) + ev('content_block_stop', { index: 0 });
        blocks = blocks.filter((b) => b.type !== 'text');
        index = 1;
      }
      for (const block of blocks) out += wholeBlock(index++, block);
      out += ev('message_delta', {
        delta: { stop_reason: anthropicStopReason(result), stop_sequence: null },
        usage: usageOf(reply),
      });
      return out + ev('message_stop', {});
    },
    error: (error) => sseEvent(errorBody(error), 'error'),
    ping: () => ev('ping', {}),
  };
}

/** Anthropic Messages: see the module doc. */
export const anthropicCodec: WireCodec = {
  api: 'anthropic',
  endpoint: 'messages',
  parse: parseAnthropicRequest,
  response,
  errorBody,
  stream,
  error: (kind, message, param) => makeError(STATUS, kind, message, param),
};
