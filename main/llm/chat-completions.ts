/**
 * The direct Chat Completions call of the OpenAI-compatible provider: sampling params → the
 * request body `@ai-sdk/openai-compatible` would send (the same fields, the same messages), one
 * streamed `POST {baseURL}/chat/completions` on a kept-alive `node:http(s)` connection, its
 * server-sent events read as they arrive → text deltas, tool calls, usage, the model the server
 * names → the same {@link GenerateOutput} and the same {@link ProviderError}s (errors.ts is given
 * what the AI SDK would have thrown).
 *
 * Why not the AI SDK here: an auto-approved request is one model call, and the SDK's call (fetch,
 * a chain of web streams, a zod validation of every chunk, its prompt standardisation) cost more
 * CPU than the rest of the console's work on the request (`npm run bench`, gateway and latency
 * scenarios). Requests this module cannot send exactly as the SDK would — prompt-based tools, a
 * tool result holding media, audio other than WAV or MP3 — still go through the SDK
 * ({@link sendsDirect}).
 *
 * Rules it serves as generate-stream.ts does: S-MAX-1 (`maxTokens` → `max_tokens`, never raised),
 * one call and no retries, cancellation aborts the HTTP request, the call's time limits
 * (call-clock.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { APICallError, InvalidResponseDataError, JSONParseError, StreamProviderError } from 'ai';
import { DEFAULT_PROVIDER_TIMEOUTS, type ProviderTimeouts } from '../../shared/contract/providers.js';
import { contentBlocks, type CreateMessageParams, type SamplingContent, type ToolResultContent } from '../../shared/contract/sampling.js';
import { apiRoot } from './base-url.js';
import { CallClock } from './call-clock.js';
import { fromAiSdkResult, toolResultOutput } from './convert.js';
import { abortError, timeoutError, toProviderError, type ErrorContext } from './errors.js';
import type { GenerateInput, GenerateOutput } from './provider.js';

/** One endpoint's settings: its API root (ending in the version; trailing slashes are dropped), key and extra headers, time limits. */
export interface ChatCompletionsEndpoint {
  baseURL: string;
  apiKey?: string;
  headers?: Record<string, string>;
  timeouts?: ProviderTimeouts;
}

/** An endpoint's direct `generate`, with its own kept-alive connections. */
export type DirectGenerate = (input: GenerateInput, ctx: ErrorContext) => Promise<GenerateOutput>;

/**
 * Whether {@link chatCompletionsBody} sends `params` exactly as `@ai-sdk/openai-compatible` would:
 * every block is text, an image, WAV or MP3 audio, a `tool_use`, or a `tool_result` of text or
 * structured content (no media in it).
 */
export function sendsDirect(params: CreateMessageParams): boolean {
  for (const m of params.messages) {
    for (const b of contentBlocks<SamplingContent>(m.content)) {
      if (b.type === 'text' || b.type === 'tool_use' || b.type === 'image') continue;
      if (b.type === 'audio' && m.role === 'user' && audioFormat(b.mimeType)) continue;
      if (b.type === 'tool_result' && !b.content.some((c) => c.type === 'image' || c.type === 'audio')) continue;
      return false;
    }
  }
  return true;
}

/** The Chat Completions `input_audio` format of a MIME type, if it has one. */
function audioFormat(mimeType: string): 'wav' | 'mp3' | undefined {
  return mimeType === 'audio/wav' ? 'wav' : mimeType === 'audio/mp3' || mimeType === 'audio/mpeg' ? 'mp3' : undefined;
}

type ChatMessage = Record<string, unknown>;

/** A user message's parts (text, image data URL, input audio); a lone text is sent as a string. */
function userContent(blocks: SamplingContent[]): unknown {
  const parts: unknown[] = [];
  for (const b of blocks) {
    if (b.type === 'text') parts.push({ type: 'text', text: b.text });
    else if (b.type === 'image') parts.push({ type: 'image_url', image_url: { url: `data:${b.mimeType};base64,${b.data}` } });
    else if (b.type === 'audio') parts.push({ type: 'input_audio', input_audio: { data: b.data, format: audioFormat(b.mimeType) } });
  }
  return parts.length === 1 && (parts[0] as { type: string }).type === 'text' ? (parts[0] as { text: string }).text : parts;
}

/** A `tool_result` block's `tool` message content, as the SDK sends one without media. */
function toolMessageContent(block: ToolResultContent): string {
  const output = toolResultOutput(block);
  if (output.type === 'text' || output.type === 'error-text') return output.value;
  return JSON.stringify('value' in output ? output.value : null);
}

/** An assistant message: its text joined, its `tool_use` blocks as `tool_calls` (media is not sent, as by the SDK). */
function assistantMessage(blocks: SamplingContent[]): ChatMessage {
  let text = '';
  const calls: unknown[] = [];
  for (const b of blocks) {
    if (b.type === 'text') text += b.text;
    else if (b.type === 'tool_use') calls.push({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input) } });
  }
  return calls.length > 0 ? { role: 'assistant', content: text || null, tool_calls: calls } : { role: 'assistant', content: text };
}

/** MCP messages → Chat Completions messages (see convert.ts `toModelMessages` for the mapping of tool results). */
function chatMessages(params: CreateMessageParams): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (params.systemPrompt) out.push({ role: 'system', content: params.systemPrompt });
  for (const m of params.messages) {
    const blocks = contentBlocks<SamplingContent>(m.content);
    if (m.role === 'assistant') {
      out.push(assistantMessage(blocks));
      continue;
    }
    const results = blocks.filter((b): b is ToolResultContent => b.type === 'tool_result');
    for (const r of results) out.push({ role: 'tool', tool_call_id: r.toolUseId, content: toolMessageContent(r) });
    const rest = blocks.filter((b) => b.type !== 'tool_result');
    if (rest.length > 0 || results.length === 0) out.push({ role: 'user', content: userContent(rest) });
  }
  return out;
}

/**
 * The streamed request body for `params` on `modelId`: model, `max_tokens` (S-MAX-1),
 * temperature, `stop` (when any), messages (system prompt first), function tools and
 * `tool_choice` (`auto` unless the request names a mode), `stream` with usage.
 */
export function chatCompletionsBody(params: CreateMessageParams, modelId: string): Record<string, unknown> {
  const hasTools = (params.tools?.length ?? 0) > 0;
  return {
    model: modelId,
    max_tokens: params.maxTokens,
    ...(params.temperature !== undefined && { temperature: params.temperature }),
    ...(params.stopSequences && params.stopSequences.length > 0 && { stop: [...params.stopSequences] }),
    messages: chatMessages(params),
    ...(hasTools && {
      tools: params.tools!.map((t) => ({ type: 'function', function: { name: t.name, ...(t.description !== undefined && { description: t.description }), parameters: t.inputSchema } })),
      tool_choice: params.toolChoice?.mode ?? 'auto',
    }),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** A tool call gathered from its deltas. */
interface PendingCall {
  id?: string;
  name?: string;
  args: string;
}

/** What the stream said so far. */
interface StreamState {
  text: string;
  calls: Map<number, PendingCall>;
  rawFinish?: string;
  refusal: boolean;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  modelId?: string;
  /** The first failure inside the stream (an error event, an unreadable event): what the SDK would report. */
  failure?: unknown;
}

/** The AI SDK's unified finish reason of a Chat Completions `finish_reason`. */
function unifiedFinish(raw: string, refusal: boolean): string {
  if (raw === 'stop') return refusal ? 'content-filter' : 'stop';
  if (raw === 'length') return 'length';
  if (raw === 'content_filter') return 'content-filter';
  if (raw === 'tool_calls' || raw === 'function_call') return 'tool-calls';
  return 'other';
}

interface ChunkDelta {
  content?: unknown;
  refusal?: unknown;
  tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
}

/** A status 400–599 given as a number or three digits, as the SDK reads one in an error event. */
function httpStatus(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 400 && n <= 599 ? n : undefined;
}

/**
 * An error event's `error` as the SDK reports it: a StreamProviderError with its message, type,
 * code, the status it names (or its words imply: "overloaded", "service unavailable", "internal
 * server error") and whether that is worth a retry; an error the SDK's schema would not accept is
 * an unreadable event.
 */
function streamProviderError(error: unknown, data: string): unknown {
  const e = error as { message?: unknown; type?: unknown; code?: unknown; status?: unknown; statusCode?: unknown; status_code?: unknown; isRetryable?: unknown; is_retryable?: unknown };
  if (typeof e !== 'object' || e === null || typeof e.message !== 'string') return new JSONParseError({ text: data, cause: new Error('the error event has no message') });
  const implied = ({ overloaded: 503, 'overloaded error': 503, 'model overloaded': 503, 'internal server error': 500, 'service unavailable': 503 } as Record<string, number>)[e.message.trim().toLowerCase()];
  const statusCode = httpStatus(e.statusCode) ?? httpStatus(e.status_code) ?? httpStatus(e.status) ?? httpStatus(e.code) ?? implied;
  const explicit = [e.isRetryable, e.is_retryable].find((v) => typeof v === 'boolean') as boolean | undefined;
  const retryable = explicit ?? (implied !== undefined || (statusCode !== undefined && (statusCode === 408 || statusCode === 409 || statusCode === 429 || statusCode >= 500)));
  return new StreamProviderError({
    message: e.message,
    ...(typeof e.type === 'string' && { type: e.type }),
    ...((typeof e.code === 'string' || typeof e.code === 'number') && { code: e.code }),
    ...(statusCode !== undefined && { statusCode }),
    isRetryable: retryable,
    data: error,
  });
}

/** Applies one event's JSON to the state; text deltas go to `onText`. */
function applyChunk(st: StreamState, data: string, onText: (delta: string) => void): void {
  let chunk: { error?: unknown; model?: unknown; usage?: StreamState['usage']; choices?: Array<{ delta?: ChunkDelta; finish_reason?: string | null }> };
  try {
    chunk = JSON.parse(data) as typeof chunk;
  } catch (cause) {
    st.failure = new JSONParseError({ text: data, cause });
    return;
  }
  if (chunk.error !== undefined) {
    st.failure = streamProviderError(chunk.error, data);
    return;
  }
  if (st.modelId === undefined && typeof chunk.model === 'string' && chunk.model) st.modelId = chunk.model;
  if (chunk.usage) st.usage = chunk.usage;
  const choice = chunk.choices?.[0];
  if (choice?.finish_reason) st.rawFinish = choice.finish_reason;
  const delta = choice?.delta;
  if (!delta) return;
  if (typeof delta.content === 'string' && delta.content) {
    st.text += delta.content;
    onText(delta.content);
  }
  if (typeof delta.refusal === 'string' && delta.refusal) {
    st.refusal = true;
    st.text += delta.refusal;
    onText(delta.refusal);
  }
  for (const d of delta.tool_calls ?? []) {
    const index = d.index ?? st.calls.size;
    const call = st.calls.get(index) ?? { args: '' };
    if (d.id) call.id ??= d.id;
    if (d.function?.name) call.name ??= d.function.name;
    if (d.function?.arguments) call.args += d.function.arguments;
    st.calls.set(index, call);
  }
}

/**
 * Reads server-sent events from `res` (`data:` lines, `[DONE]` ends), applying each to `st`;
 * resolves at the end of the body, rejects with the socket's error when the connection is lost.
 */
function readEvents(res: http.IncomingMessage, st: StreamState, clock: CallClock, onText: (delta: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let data: string[] = [];
    let done = false;
    const line = (l: string) => {
      if (l === '') {
        if (data.length > 0 && !done && st.failure === undefined) {
          const joined = data.join('\n');
          if (joined === '[DONE]') done = true;
          else applyChunk(st, joined, onText);
        }
        data = [];
      } else if (l.startsWith('data:')) data.push(l.slice(l.charCodeAt(5) === 32 ? 6 : 5));
    };
    res.setEncoding('utf8');
    res.on('data', (text: string) => {
      clock.chunk();
      buffer += text;
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        line(buffer.charCodeAt(nl - 1) === 13 ? buffer.slice(0, nl - 1) : buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
    });
    res.on('end', () => {
      if (buffer) line(buffer);
      line('');
      resolve();
    });
    res.on('error', reject);
    res.on('aborted', () => reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
  });
}

/** The whole body of an error response, as text. */
function readAll(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => (text += d));
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

/** Response headers as the SDK records them: lower-case names, one string each. */
function headerRecord(res: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** What the SDK throws for an HTTP error answer: an APICallError with the status, headers, body and its parsed JSON. */
async function httpFailure(res: http.IncomingMessage, url: string, body: unknown): Promise<APICallError> {
  const responseBody = await readAll(res);
  let data: unknown;
  try {
    data = JSON.parse(responseBody);
  } catch {
    data = undefined;
  }
  const said = (data as { error?: { message?: unknown } } | undefined)?.error?.message;
  return new APICallError({
    message: typeof said === 'string' ? said : (res.statusMessage ?? `HTTP ${res.statusCode}`),
    url,
    requestBodyValues: body,
    statusCode: res.statusCode,
    responseHeaders: headerRecord(res),
    responseBody,
    ...(data !== undefined && { data }),
  });
}

/** The SDK's wrapping of a failure after a successful response started (so errors.ts says "while the response was streaming"). */
function lostMidStream(cause: unknown, url: string, body: unknown): APICallError {
  return new APICallError({ message: 'Failed to process successful response', url, requestBodyValues: body, cause, isRetryable: true });
}

/** Sends the request and resolves with the response once its headers arrived. */
function post(url: URL, agent: http.Agent, headers: Record<string, string>, payload: string, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(payload)) }, signal }, resolve);
    request.on('error', reject);
    request.end(payload);
  });
}

/** The call's output from what the stream said (the same as generate-stream.ts makes of the SDK's parts). */
function outputOf(st: StreamState, input: GenerateInput, ctx: ErrorContext): GenerateOutput {
  if (st.rawFinish === undefined) throw toProviderError(new InvalidResponseDataError({ data: undefined, message: 'Response stream ended without a finish reason.' }), ctx);
  const toolCalls = [...st.calls.values()].map((c, i) => ({ toolCallId: c.id ?? `call_${i}`, toolName: c.name ?? '', input: c.args.trim() === '' ? '{}' : c.args }));
  const finishReason = unifiedFinish(st.rawFinish, st.refusal);
  const stopSequences = input.params.stopSequences && input.params.stopSequences.length > 0 ? input.params.stopSequences : undefined;
  const result = fromAiSdkResult(
    { text: st.text, toolCalls, finishReason, rawFinishReason: st.rawFinish, ...(st.modelId && { responseModelId: st.modelId }) },
    { requestedModelId: input.modelId, ...(stopSequences && { stopSequences }) },
  );
  const usage = {
    ...(st.usage?.prompt_tokens !== undefined && { inputTokens: st.usage.prompt_tokens }),
    ...(st.usage?.completion_tokens !== undefined && { outputTokens: st.usage.completion_tokens }),
  };
  return { result, ...(Object.keys(usage).length > 0 && { usage }), finishReason };
}

/**
 * Creates the direct `generate` of one endpoint (see the module doc); the caller checks
 * {@link sendsDirect} first. Resolves and rejects as generate-stream.ts `streamGenerate`: a
 * ProviderError with the same words for every failure, an AbortError when `input.signal` fires.
 */
export function createDirectGenerate(endpoint: ChatCompletionsEndpoint): DirectGenerate {
  const url = new URL(`${apiRoot(endpoint.baseURL)}/chat/completions`);
  // Proxy variables are honoured when Node is told to (as its fetch does, which the SDK uses).
  const proxy = process.env.NODE_USE_ENV_PROXY === '1' || process.execArgv.includes('--use-env-proxy') ? { proxyEnv: process.env } : {};
  const agent = new (url.protocol === 'https:' ? https.Agent : http.Agent)({ keepAlive: true, ...proxy });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
    ...endpoint.headers,
  };
  return async (input, ctx) => {
    if (input.signal.aborted) throw abortError(input.signal.reason);
    const body = chatCompletionsBody(input.params, input.modelId);
    const clock = new CallClock(input.signal, endpoint.timeouts ?? DEFAULT_PROVIDER_TIMEOUTS);
    const st: StreamState = { text: '', calls: new Map(), refusal: false };
    let started = false;
    try {
      const res = await post(url, agent, headers, JSON.stringify(body), clock.signal);
      clock.responded();
      if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) throw await httpFailure(res, url.href, body);
      started = true;
      await readEvents(res, st, clock, input.onText);
    } catch (error) {
      if (input.signal.aborted) throw abortError(input.signal.reason);
      if (clock.expired) throw timeoutError(ctx, clock.expired);
      throw toProviderError(started && !APICallError.isInstance(error) ? lostMidStream(error, url.href, body) : error, ctx);
    } finally {
      clock.stop();
    }
    if (input.signal.aborted) throw abortError(input.signal.reason);
    if (clock.expired) throw timeoutError(ctx, clock.expired);
    if (st.failure !== undefined) throw toProviderError(st.failure, ctx);
    return outputOf(st, input, ctx);
  };
}
