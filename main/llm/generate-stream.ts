/**
 * The one streaming loop every AI SDK provider shares (Anthropic, OpenAI, Gemini,
 * OpenAI-compatible): sampling params → one model call → text deltas to the caller as they arrive →
 * CreateMessageResult, token usage and the model the provider reports.
 *
 * The call is `experimental_streamLanguageModelCall` (one model call: the prompt and tools
 * standardised and tool calls parsed as `streamText` does) rather than `streamText` itself: a
 * sampling request is exactly one call, and streamText's multi-step machinery (its chain of web
 * streams, step bookkeeping, telemetry) cost ≈ 1.1 ms of CPU per request on top of ≈ 1.7 ms for
 * the call (measured against the loopback provider, `bench/profile-sampling.ts`).
 *
 * Rules it serves: S-MAX-1 (`maxTokens` → `maxOutputTokens`, never raised); the person decides
 * whether to retry (one call, no retry layer); cancellation aborts the HTTP request; per-model tool support
 * (native tools, the prompt-based fallback of prompt-tools.ts, or none — refused with a clear
 * message instead of silently dropping the tools).
 */
import { randomUUID } from 'node:crypto';
import { experimental_streamLanguageModelCall as streamLanguageModelCall, type LanguageModel } from 'ai';
import { DEFAULT_PROVIDER_TIMEOUTS, type ProviderTimeouts, type ToolSupport } from '../../shared/contract/providers.js';
import type { CreateMessageResult, SamplingContent } from '../../shared/contract/sampling.js';
import { fromAiSdkResult, toAiSdkCall } from './convert.js';
import { CallClock } from './call-clock.js';
import { abortError, ProviderError, timeoutError, toProviderError, type ErrorContext } from './errors.js';
import { parsePromptToolReply, PROMPT_TOOL_META_KEY, toPromptToolParams } from './prompt-tools.js';
import type { GenerateInput, GenerateOutput } from './provider.js';

/** What {@link streamGenerate} needs besides the request. */
export interface StreamSetup {
  /** The AI SDK model to call (e.g. `createAnthropic(...).messages(id)`). */
  model: LanguageModel;
  /** For error messages (label, base URL, model id, protocol) and key redaction. */
  ctx: ErrorContext;
  /** How this model calls tools; default `native`. */
  tools?: ToolSupport;
  /** The call's time limits; default DEFAULT_PROVIDER_TIMEOUTS. The model must be built with `watchedFetch` (call-clock.ts). */
  timeouts?: ProviderTimeouts;
}

/** Rewrites a prompt-based tool reply into a tool_use block, or marks the text when it cannot be used. */
function applyPromptToolReply(result: CreateMessageResult, text: string, input: GenerateInput): CreateMessageResult {
  const parsed = parsePromptToolReply(text, input.params.tools ?? []);
  if (parsed.kind === 'text') return result;
  if (parsed.kind === 'tool_use') {
    const block: SamplingContent = { type: 'tool_use', id: `prompt_${randomUUID()}`, name: parsed.name, input: parsed.input };
    return { ...result, content: block, stopReason: 'toolUse' };
  }
  const block: SamplingContent = { type: 'text', text, _meta: { [PROMPT_TOOL_META_KEY]: { problem: parsed.problem, message: parsed.message } } };
  return { ...result, content: block };
}

/** What the stream's `model-call-end` part says: the finish reasons and the token usage reported. */
interface Finish {
  finishReason: string;
  rawFinishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
}

/** A tool call the model made (native tools). */
interface ToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/**
 * Streams one generation. `input.onText` receives each text delta in order.
 * @returns the CreateMessageResult (convert.ts; a prompt-based tool reply parsed, see
 *   prompt-tools.ts), usage in tokens, and the AI SDK finish reason (`stop`, `length`, `tool-calls`, …)
 * @throws (rejects) ProviderError with a readable, key-free message for HTTP errors (401, 429 with
 *   retry-after, 5xx), unreachable servers, malformed or truncated streams, errors reported inside
 *   the stream, tools sent to a model without tool calling (kind `unsupported`), and a call past one
 *   of its time limits (kind `timeout`: first byte, idle, total — `setup.timeouts`); an Error named
 *   `AbortError` when `input.signal` fires; SamplingConversionError when the messages cannot be
 *   converted.
 */
export async function streamGenerate(input: GenerateInput, setup: StreamSetup): Promise<GenerateOutput> {
  const { signal } = input;
  const { ctx } = setup;
  const toolMode = setup.tools ?? 'native';
  if (signal.aborted) throw abortError(signal.reason);
  const hasTools = (input.params.tools?.length ?? 0) > 0;
  if (hasTools && toolMode === 'none') throw noToolCalling(ctx, input.modelId);
  const promptTools = toolMode === 'prompt';
  const params = promptTools ? toPromptToolParams(input.params) : input.params;
  const call = toAiSdkCall(params);
  const clock = new CallClock(signal, setup.timeouts ?? DEFAULT_PROVIDER_TIMEOUTS);
  try {
    return await streamCall(input, setup, { call, clock, parseToolReply: promptTools && hasTools });
  } finally {
    clock.stop();
  }
}

/** The one model call of {@link streamGenerate}, under `clock`; its failures as ProviderErrors. */
async function streamCall(
  input: GenerateInput,
  setup: StreamSetup,
  run: { call: ReturnType<typeof toAiSdkCall>; clock: CallClock; parseToolReply: boolean },
): Promise<GenerateOutput> {
  const { signal, onText } = input;
  const { ctx } = setup;
  const { call, clock } = run;
  let text = '';
  const toolCalls: ToolCall[] = [];
  let streamError: unknown;
  let finish: Finish | undefined;
  let responseModelId: string | undefined;

  try {
    // No retries (the person decides), no steps: one call. Errors arrive as a rejection (HTTP
    // errors before the stream) or as stream `error` parts (handled below).
    const { stream } = await streamLanguageModelCall({ model: setup.model, ...call, abortSignal: clock.signal });
    for await (const part of stream) {
      switch (part.type) {
        case 'text-delta':
          text += part.text;
          onText(part.text);
          break;
        case 'tool-call':
          toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
          break;
        case 'model-call-response-metadata':
          if (part.modelId) responseModelId = part.modelId;
          break;
        case 'model-call-end':
          finish = finishOf(part);
          break;
        case 'error':
          streamError ??= part.error;
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (signal.aborted) throw abortError(signal.reason);
    if (clock.expired) throw timeoutError(ctx, clock.expired);
    throw toProviderError(error, ctx);
  }
  if (signal.aborted) throw abortError(signal.reason);
  if (clock.expired) throw timeoutError(ctx, clock.expired);
  if (streamError !== undefined) throw toProviderError(streamError, ctx);
  return outputOf(input, ctx, call.stopSequences, run.parseToolReply, text, toolCalls, finish, responseModelId);
}

/** The refusal of a request that offers tools to a model set to no tool calling (kind `unsupported`, not retryable). */
function noToolCalling(ctx: ErrorContext, modelId: string): ProviderError {
  return new ProviderError(
    `${ctx.label} (${ctx.baseURL}): model "${modelId}" has no tool calling (set to "none" on the Providers screen) but this request offers tools — choose another model, switch it to prompt-based tools, or remove the tools`,
    'unsupported',
    false,
  );
}

/** The finish reasons and token usage of a `model-call-end` part (fields left out when the provider did not report them). */
function finishOf(part: { finishReason: string; rawFinishReason?: string; usage: { inputTokens?: number; outputTokens?: number } }): Finish {
  return {
    finishReason: part.finishReason,
    ...(part.rawFinishReason !== undefined ? { rawFinishReason: part.rawFinishReason } : {}),
    ...(part.usage.inputTokens !== undefined ? { inputTokens: part.usage.inputTokens } : {}),
    ...(part.usage.outputTokens !== undefined ? { outputTokens: part.usage.outputTokens } : {}),
  };
}

/**
 * What a finished stream gives: the CreateMessageResult (a prompt-based tool reply parsed when
 * `parseToolReply` and the model made no native tool call), the usage reported, the finish reason.
 * @throws ProviderError `protocol` (retryable) when the stream stopped before the model finished
 */
function outputOf(
  input: GenerateInput,
  ctx: ErrorContext,
  stopSequences: string[] | undefined,
  parseToolReply: boolean,
  text: string,
  toolCalls: ToolCall[],
  finish: Finish | undefined,
  responseModelId: string | undefined,
): GenerateOutput {
  // A stream that stops without the provider's closing event (Anthropic message_stop, Responses
  // response.completed, Gemini finishReason) is a dropped connection, not a finished answer: the
  // call then ends without its `model-call-end` part, or (providers that always close the stream
  // with a finish) with finish reason `other` and no raw reason.
  if (!finish || (finish.finishReason === 'other' && finish.rawFinishReason === undefined)) {
    throw new ProviderError(`${ctx.label} (${ctx.baseURL}): the response stream ended before the model finished — the connection may have dropped; retry`, 'protocol', true);
  }
  const outcome = {
    text,
    toolCalls,
    finishReason: finish.finishReason,
    ...(finish.rawFinishReason !== undefined ? { rawFinishReason: finish.rawFinishReason } : {}),
    ...(responseModelId ? { responseModelId } : {}),
  };
  const usage = {
    ...(finish.inputTokens !== undefined ? { inputTokens: finish.inputTokens } : {}),
    ...(finish.outputTokens !== undefined ? { outputTokens: finish.outputTokens } : {}),
  };
  let result = fromAiSdkResult(outcome, { requestedModelId: input.modelId, ...(stopSequences ? { stopSequences } : {}) });
  if (parseToolReply && toolCalls.length === 0) result = applyPromptToolReply(result, text, input);
  return { result, ...(Object.keys(usage).length > 0 ? { usage } : {}), finishReason: finish.finishReason };
}
