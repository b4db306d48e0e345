/**
 * The OpenAI Responses codec: `POST /v1/responses` bodies (responses-parse.ts), `response`
 * answers, the named SSE events of a streamed response and `{error: {...}}` error bodies (as Chat
 * Completions), as the official `openai` SDK, the OpenAI Agents SDK and the AI SDK read them.
 *
 * An answer's `output` is its text as one `message` item (one `output_text` part), then each
 * tool call as a `function_call` item; ids name the History entry (ids.ts). A result that hit
 * `maxTokens` is `incomplete` (`max_output_tokens`), anything else `completed`.
 */
import type { CreateMessageResult, ToolUseContent } from '../../../shared/contract/sampling.js';
import { replyText, replyToolUses, unstreamedText } from './common.js';
import { outputItemId } from './ids.js';
import { openAiCodec } from './openai.js';
import { parseResponsesRequest } from './responses-parse.js';
import type { GatewayCall, GatewayReply, StreamEncoder, WireCodec, WireError } from './types.js';

/** One output item of an answer: its text, or one tool call. */
export type AnswerItem = { kind: 'message'; text: string } | { kind: 'function_call'; call: ToolUseContent };

/** The output items of a result, in `output` order (see the module doc). */
export function answerItems(result: CreateMessageResult): AnswerItem[] {
  const text = replyText(result);
  const calls = replyToolUses(result).map((call): AnswerItem => ({ kind: 'function_call', call }));
  return text === '' ? calls : [{ kind: 'message', text }, ...calls];
}

/** A completed `message` output item. */
function messageItem(id: string, text: string, status: 'in_progress' | 'completed'): Record<string, unknown> {
  return { id, type: 'message', status, role: 'assistant', content: status === 'completed' ? [outputText(text)] : [] };
}

const outputText = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });

/** A `function_call` output item (`args` the arguments JSON, '' while streaming). */
function functionCallItem(id: string, call: ToolUseContent, args: string, status: 'in_progress' | 'completed'): Record<string, unknown> {
  return { id, type: 'function_call', status, call_id: call.id, name: call.name, arguments: args };
}

/** The `output` of a reply. */
function outputOf(reply: GatewayReply): Array<Record<string, unknown>> {
  return answerItems(reply.result).map((item, i) =>
    item.kind === 'message' ? messageItem(outputItemId(reply.id, 'msg', i), item.text, 'completed') : functionCallItem(outputItemId(reply.id, 'fc', i), item.call, JSON.stringify(item.call.input), 'completed'),
  );
}

/** `usage` in the Responses shape; unknown counts are 0. */
function usageOf(reply: GatewayReply) {
  const input = reply.usage?.inputTokens ?? 0;
  const output = reply.usage?.outputTokens ?? 0;
  return { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output };
}

/** The fields every `response` object has, from what the call asked (`echo`). */
function base(id: string, created: number, model: string, echo: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    object: 'response',
    created_at: created,
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: echo.instructions ?? null,
    max_output_tokens: echo.max_output_tokens ?? null,
    metadata: echo.metadata ?? {},
    model,
    output: [],
    parallel_tool_calls: echo.parallel_tool_calls ?? true,
    previous_response_id: echo.previous_response_id ?? null,
    reasoning: echo.reasoning ?? { effort: null, summary: null },
    store: true,
    temperature: echo.temperature ?? null,
    text: echo.text ?? { format: { type: 'text' } },
    tool_choice: echo.tool_choice ?? 'auto',
    tools: echo.tools ?? [],
    top_p: echo.top_p ?? null,
    truncation: echo.truncation ?? 'disabled',
    usage: null,
    user: echo.user ?? null,
  };
}

/**
 * The `response` body of a reply (`echo`: the request fields it repeats; a response rebuilt from
 * History has those it can tell).
 */
export function responseBody(reply: GatewayReply, echo?: Record<string, unknown>): Record<string, unknown> {
  const incomplete = reply.result.stopReason === 'maxTokens';
  return {
    ...base(reply.id, reply.created, reply.result.model, echo),
    status: incomplete ? 'incomplete' : 'completed',
    completed_at: reply.created,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    output: outputOf(reply),
    usage: usageOf(reply),
  };
}

/** The `code` of a failed response's `error` for an error answer. */
function failedCode(error: WireError): string {
  return error.kind === 'rate_limit' ? 'rate_limit_exceeded' : error.kind === 'invalid_request' ? 'invalid_prompt' : 'server_error';
}

/**
 * The event encoder: `response.created` and `response.in_progress` first; text deltas open the
 * message item (`response.output_item.added`, `response.content_part.added`) and are
 * `response.output_text.delta` events; finish writes the text not streamed yet, closes the
 * message (`…output_text.done`, `…content_part.done`, `…output_item.done`), writes each function
 * call (`…output_item.added`, `…function_call_arguments.delta` / `.done`, `…output_item.done`)
 * and `response.completed` (or `response.incomplete`) with the whole response and usage. An error
 * is an `error` event (the SDKs raise it) followed by `response.failed`; `ping()` is an SSE comment.
 */
function stream(call: GatewayCall, id: string, created: number): StreamEncoder {
  let seq = 0;
  let streamed = '';
  let messageOpen = false;
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: seq++ })}\n\n`;
  const msgId = outputItemId(id, 'msg', 0);
  const snapshot = (status: string, model: string) => ({ ...base(id, created, model, call.echo), status });
  const text = (delta: string) => {
    let out = '';
    if (!messageOpen) {
      messageOpen = true;
      out += ev('response.output_item.added', { output_index: 0, item: messageItem(msgId, '', 'in_progress') });
      out += ev('response.content_part.added', { item_id: msgId, output_index: 0, content_index: 0, part: outputText('') });
    }
    streamed += delta;
    return out + ev('response.output_text.delta', { item_id: msgId, output_index: 0, content_index: 0, delta, logprobs: [] });
  };
  const closeMessage = () => {
    const item = { item_id: msgId, output_index: 0, content_index: 0 };
    return (
      ev('response.output_text.done', { ...item, text: streamed, logprobs: [] }) +
      ev('response.content_part.done', { ...item, part: outputText(streamed) }) +
      ev('response.output_item.done', { output_index: 0, item: messageItem(msgId, streamed, 'completed') })
    );
  };
  const functionCall = (index: number, tool: ToolUseContent) => {
    const itemId = outputItemId(id, 'fc', index);
    const args = JSON.stringify(tool.input);
    return (
      ev('response.output_item.added', { output_index: index, item: functionCallItem(itemId, tool, '', 'in_progress') }) +
      ev('response.function_call_arguments.delta', { item_id: itemId, output_index: index, delta: args }) +
      ev('response.function_call_arguments.done', { item_id: itemId, output_index: index, name: tool.name, arguments: args }) +
      ev('response.output_item.done', { output_index: index, item: functionCallItem(itemId, tool, args, 'completed') })
    );
  };
  return {
    start: () => ev('response.created', { response: snapshot('in_progress', call.requestedModel) }) + ev('response.in_progress', { response: snapshot('in_progress', call.requestedModel) }),
    text: (delta) => (delta === '' ? '' : text(delta)),
    finish(reply) {
      const rest = unstreamedText(streamed, replyText(reply.result));
      let out = rest === '' ? '' : text(rest);
      if (messageOpen) out += closeMessage();
      replyToolUses(reply.result).forEach((tool, i) => (out += functionCall(i + (messageOpen ? 1 : 0), tool)));
      const body = responseBody(reply, call.echo);
      return out + ev(body.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: body });
    },
    error(error) {
      const { error: detail } = openAiCodec.errorBody(error) as { error: Record<string, unknown> };
      const failed = { ...snapshot('failed', call.requestedModel), error: { code: failedCode(error), message: error.message } };
      return ev('error', { code: detail.code, message: error.message, param: detail.param, error: detail }) + ev('response.failed', { response: failed });
    },
    ping: () => ': ping\n\n',
  };
}

/** OpenAI Responses: see the module doc. Errors are answered as Chat Completions answers them. */
export const responsesCodec: WireCodec = {
  api: 'openai',
  endpoint: 'responses',
  parse: parseResponsesRequest,
  response: (reply, call) => responseBody(reply, call.echo),
  errorBody: openAiCodec.errorBody,
  stream,
  error: openAiCodec.error,
};
