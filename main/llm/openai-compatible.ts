/**
 * The OpenAI-compatible provider (Ollama, LM Studio, vLLM, llama.cpp server, OpenAI itself …):
 * `@ai-sdk/openai-compatible` for the wire protocol, `streamText` from `ai` for the call.
 *
 * Rules it serves: S-MAX-1 (`maxTokens` → `maxOutputTokens`, never raised); the person decides
 * whether to retry (`maxRetries: 0`, no stream retries); cancellation aborts the HTTP request.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { streamText } from 'ai';
import type { ProviderView } from '../../shared/state.js';
import { fromAiSdkResult, toAiSdkCall } from './convert.js';
import { abortError, toProviderError, type ErrorContext } from './errors.js';
import type { GenerateInput, GenerateOutput, LlmProvider } from './provider.js';

/** Settings of one OpenAI-compatible endpoint. `apiKey` is the resolved secret (never logged or shown). */
export interface OpenAICompatibleConfig {
  /** Unique provider id, e.g. "lmstudio". */
  id: string;
  /** Display name; default: the id. Also prefixes error messages. */
  label?: string;
  /** API root including the version, e.g. "http://127.0.0.1:1234/v1" (requests go to `${baseURL}/chat/completions`). */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Model ids offered to the person, e.g. ["llama3.2"]. */
  models: string[];
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
}

/**
 * Creates an {@link LlmProvider} for an OpenAI-compatible Chat Completions endpoint.
 *
 * `generate` streams with `streamText` (usage requested via `stream_options.include_usage`),
 * calls `onText` with each text delta in order, and resolves with the CreateMessageResult
 * (see convert.ts), the usage (`inputTokens` / `outputTokens`, token counts) and the AI SDK
 * finish reason (`stop`, `length`, `tool-calls`, …).
 * @throws (rejects) ProviderError (errors.ts) with a readable message for HTTP errors (401, 429
 *   with retry-after, 5xx, …), unreachable servers, malformed or truncated streams — including
 *   errors `streamText` reports only as stream `error` parts; an Error named `AbortError` when
 *   `signal` fires; SamplingConversionError when the messages cannot be converted.
 */
export function createOpenAICompatibleProvider(config: OpenAICompatibleConfig): LlmProvider {
  const label = config.label ?? config.id;
  const baseURL = config.baseURL.replace(/\/+$/, '');
  const sdk = createOpenAICompatible({
    name: config.id,
    baseURL,
    includeUsage: true,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.headers ? { headers: config.headers } : {}),
  });
  const view: ProviderView = {
    id: config.id,
    kind: 'openai-compatible',
    label,
    baseURL,
    models: [...config.models],
    hasApiKey: Boolean(config.apiKey),
  };

  async function generate(input: GenerateInput): Promise<GenerateOutput> {
    const { params, modelId, signal, onText } = input;
    const ctx: ErrorContext = { label, baseURL, modelId, ...(config.apiKey ? { apiKey: config.apiKey } : {}) };
    if (signal.aborted) throw abortError(signal.reason);
    const call = toAiSdkCall(params);

    let text = '';
    const toolCalls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
    let streamError: unknown;
    let finish: { finishReason: string; rawFinishReason?: string; inputTokens?: number; outputTokens?: number } | undefined;
    let responseModelId: string | undefined;
    let aborted = false;

    try {
      const result = streamText({
        model: sdk.chatModel(modelId),
        ...call,
        abortSignal: signal,
        maxRetries: 0,
        // Errors also arrive as stream parts (handled below); this keeps the SDK from logging them.
        onError: () => {},
      });
      for await (const part of result.stream) {
        switch (part.type) {
          case 'text-delta':
            text += part.text;
            onText(part.text);
            break;
          case 'tool-call':
            toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
            break;
          case 'finish-step':
            responseModelId = part.response.modelId;
            break;
          case 'finish':
            finish = {
              finishReason: part.finishReason,
              ...(part.rawFinishReason !== undefined ? { rawFinishReason: part.rawFinishReason } : {}),
              ...(part.totalUsage.inputTokens !== undefined ? { inputTokens: part.totalUsage.inputTokens } : {}),
              ...(part.totalUsage.outputTokens !== undefined ? { outputTokens: part.totalUsage.outputTokens } : {}),
            };
            break;
          case 'error':
            streamError ??= part.error;
            break;
          case 'abort':
            aborted = true;
            break;
          default:
            break;
        }
      }
    } catch (error) {
      if (signal.aborted) throw abortError(signal.reason);
      throw toProviderError(error, ctx);
    }
    if (signal.aborted || aborted) throw abortError(signal.reason);
    if (streamError !== undefined) throw toProviderError(streamError, ctx);
    if (!finish) throw toProviderError(new Error('the response ended without a result — retry'), ctx);

    const outcome = { text, toolCalls, finishReason: finish.finishReason, ...(finish.rawFinishReason !== undefined ? { rawFinishReason: finish.rawFinishReason } : {}), ...(responseModelId ? { responseModelId } : {}) };
    const usage = {
      ...(finish.inputTokens !== undefined ? { inputTokens: finish.inputTokens } : {}),
      ...(finish.outputTokens !== undefined ? { outputTokens: finish.outputTokens } : {}),
    };
    return {
      result: fromAiSdkResult(outcome, { requestedModelId: modelId, ...(call.stopSequences ? { stopSequences: call.stopSequences } : {}) }),
      ...(Object.keys(usage).length > 0 ? { usage } : {}),
      finishReason: finish.finishReason,
    };
  }

  return { view, generate };
}
