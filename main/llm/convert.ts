/**
 * Pure conversion between MCP sampling (`sampling/createMessage` params and CreateMessageResult,
 * shared/contract/sampling.ts) and the AI SDK 7 call options and results (the options `streamText` and
 * `experimental_streamLanguageModelCall` share).
 *
 * No I/O and no provider specifics: the OpenAI-compatible provider (openai-compatible.ts) and any
 * later provider (Anthropic, Google, …) share it.
 */
import { jsonSchema, tool, type JSONSchema7, type JSONValue, type ModelMessage, type ToolSet } from 'ai';
import type { AssistantContent, FilePart, TextPart, ToolCallPart, ToolResultPart, UserContent } from 'ai';
import {
  contentBlocks,
  type CreateMessageParams,
  type CreateMessageResult,
  type SamplingContent,
  type SamplingMessage,
  type ToolResultContent,
} from '../../shared/contract/sampling.js';

/**
 * The prompt and settings part of the AI SDK call options derived from sampling params.
 * `maxOutputTokens` is a token count (MCP `maxTokens`, S-MAX-1: always set, never raised).
 */
export interface AiSdkCallOptions {
  /** MCP `systemPrompt` (AI SDK 7 calls it `instructions`; `system` is deprecated). */
  instructions?: string;
  messages: ModelMessage[];
  maxOutputTokens: number;
  temperature?: number;
  stopSequences?: string[];
  /** One AI SDK tool per MCP tool, keyed by name, each without `execute` (calls come back to the server). */
  tools?: ToolSet;
  toolChoice?: 'auto' | 'required' | 'none';
}

/** `_meta` key under which a tool call's unparseable arguments text is kept for the reviewer. */
export const INVALID_TOOL_INPUT_META_KEY = 'mcp-approval-console/invalidToolInput';

/** Thrown by {@link toAiSdkCall} when a message cannot be expressed (e.g. `tool_use` in a user message). */
export class SamplingConversionError extends Error {
  override name = 'SamplingConversionError';
}

type ToolResultOutput = ToolResultPart['output'];
type ToolOutputContent = Extract<ToolResultOutput, { type: 'content' }>['value'][number];

/** `image`/`audio` block → AI SDK file part (base64 data, tagged so it is never taken for a URL). */
function filePart(block: { data: string; mimeType: string }): FilePart {
  return { type: 'file', mediaType: block.mimeType, data: { type: 'data', data: block.data } };
}

/**
 * A `tool_result` block → AI SDK tool output. All-text results become `text` (`error-text` when
 * `isError`); results holding images or audio become `content` parts; other inner blocks (resource
 * links, embedded resources) are sent as their JSON text. An empty result with `structuredContent`
 * becomes `json` / `error-json`.
 */
export function toolResultOutput(block: ToolResultContent): ToolResultOutput {
  const inner = block.content;
  if (inner.length === 0 && block.structuredContent !== undefined) {
    const value = block.structuredContent as JSONValue;
    return block.isError ? { type: 'error-json', value } : { type: 'json', value };
  }
  const textOf = (b: { type: string; [k: string]: unknown }): string =>
    b.type === 'text' && typeof b.text === 'string' ? b.text : JSON.stringify(b);
  const isMedia = (b: { type: string; [k: string]: unknown }): boolean =>
    (b.type === 'image' || b.type === 'audio') && typeof b.data === 'string' && typeof b.mimeType === 'string';
  if (!inner.some(isMedia)) {
    const value = inner.map(textOf).join('\n');
    return block.isError ? { type: 'error-text', value } : { type: 'text', value };
  }
  const value: ToolOutputContent[] = inner.map((b) =>
    isMedia(b)
      ? { type: 'file', mediaType: String(b.mimeType), data: { type: 'data', data: String(b.data) } }
      : { type: 'text', text: textOf(b) },
  );
  if (block.isError) value.unshift({ type: 'text', text: 'The tool reported an error:' });
  return { type: 'content', value };
}

/**
 * MCP messages → AI SDK model messages.
 * - user text / image / audio → `user` message with text and file parts;
 * - user `tool_result` blocks → a `tool` message of `tool-result` parts (placed before any other
 *   blocks of the same message, which S-TR-1 forbids anyway); `toolName` is looked up from the
 *   matching earlier `tool_use` (`"unknown"` when there is none);
 * - assistant text / image / audio / `tool_use` → `assistant` message with text, file and
 *   `tool-call` parts.
 * @throws SamplingConversionError for `tool_use` in a user message or `tool_result` in an assistant one.
 */
export function toModelMessages(messages: SamplingMessage[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  const out: ModelMessage[] = [];
  messages.forEach((message, index) => {
    const blocks = contentBlocks<SamplingContent>(message.content);
    if (message.role === 'assistant') {
      const parts: Exclude<AssistantContent, string> = [];
      for (const b of blocks) {
        if (b.type === 'text') parts.push({ type: 'text', text: b.text } satisfies TextPart);
        else if (b.type === 'image' || b.type === 'audio') parts.push(filePart(b));
        else if (b.type === 'tool_use') {
          toolNames.set(b.id, b.name);
          parts.push({ type: 'tool-call', toolCallId: b.id, toolName: b.name, input: b.input } satisfies ToolCallPart);
        } else throw new SamplingConversionError(`messages[${index}]: a tool_result block cannot be in an assistant message`);
      }
      out.push({ role: 'assistant', content: parts });
      return;
    }
    const results: ToolResultPart[] = [];
    const parts: Exclude<UserContent, string> = [];
    for (const b of blocks) {
      if (b.type === 'text') parts.push({ type: 'text', text: b.text });
      else if (b.type === 'image' || b.type === 'audio') parts.push(filePart(b));
      else if (b.type === 'tool_result') {
        results.push({ type: 'tool-result', toolCallId: b.toolUseId, toolName: toolNames.get(b.toolUseId) ?? 'unknown', output: toolResultOutput(b) });
      } else throw new SamplingConversionError(`messages[${index}]: a tool_use block cannot be in a user message`);
    }
    if (results.length > 0) out.push({ role: 'tool', content: results });
    if (parts.length > 0 || results.length === 0) out.push({ role: 'user', content: parts });
  });
  return out;
}

/**
 * Sampling params → AI SDK call options: `systemPrompt` → `instructions`, messages (see
 * {@link toModelMessages}), `maxTokens` → `maxOutputTokens`, `temperature`, `stopSequences`
 * (omitted when empty), `tools` → AI SDK tools built with `tool({description, inputSchema:
 * jsonSchema(...)})` and no `execute`, `toolChoice.mode` → `toolChoice` (`auto` when tools are
 * given without a mode; omitted when there are no tools). `metadata`, `modelPreferences` and
 * `includeContext` are not sent (the spec lets the client ignore them).
 * @throws SamplingConversionError, see {@link toModelMessages}.
 */
export function toAiSdkCall(params: CreateMessageParams): AiSdkCallOptions {
  const call: AiSdkCallOptions = { messages: toModelMessages(params.messages), maxOutputTokens: params.maxTokens };
  if (params.systemPrompt !== undefined && params.systemPrompt !== '') call.instructions = params.systemPrompt;
  if (params.temperature !== undefined) call.temperature = params.temperature;
  if (params.stopSequences && params.stopSequences.length > 0) call.stopSequences = [...params.stopSequences];
  if (params.tools && params.tools.length > 0) {
    const tools: ToolSet = {};
    for (const t of params.tools) {
      tools[t.name] = tool({
        ...(t.description !== undefined ? { description: t.description } : {}),
        inputSchema: jsonSchema<Record<string, unknown>>(t.inputSchema as JSONSchema7),
      });
    }
    call.tools = tools;
    call.toolChoice = params.toolChoice?.mode ?? 'auto';
  }
  return call;
}

/** What {@link fromAiSdkResult} needs of a finished AI SDK generation. */
export interface AiSdkOutcome {
  /** The generated text (all text deltas joined). */
  text: string;
  /** Tool calls in the order the model made them; `input` is the parsed arguments (or raw text when invalid). */
  toolCalls: ReadonlyArray<{ toolCallId: string; toolName: string; input: unknown }>;
  /** AI SDK unified finish reason: `stop | length | tool-calls | content-filter | error | interrupted | other`. */
  finishReason: string;
  /** The provider's own finish reason (e.g. OpenAI `tool_calls`, Anthropic `stop_sequence`). */
  rawFinishReason?: string;
  /** The model id the provider reported (`response.modelId`). */
  responseModelId?: string;
}

/**
 * AI SDK finish reason → MCP `stopReason`: `stop` → `endTurn` (or `stopSequence` when the provider
 * says `stop_sequence`, or the text ends with one of the requested stop sequences), `length` →
 * `maxTokens`, `tool-calls` → `toolUse`; anything else is passed through unchanged (the spec
 * allows a provider's own value).
 */
export function mapFinishReason(finishReason: string, detail: { rawFinishReason?: string; text?: string; stopSequences?: string[] } = {}): string {
  switch (finishReason) {
    case 'stop': {
      if (detail.rawFinishReason === 'stop_sequence') return 'stopSequence';
      const text = detail.text ?? '';
      if (detail.stopSequences?.some((s) => s !== '' && text.endsWith(s))) return 'stopSequence';
      return 'endTurn';
    }
    case 'length':
      return 'maxTokens';
    case 'tool-calls':
      return 'toolUse';
    default:
      return finishReason;
  }
}

function toolInput(input: unknown): { input: Record<string, unknown>; invalid?: string } {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) return { input: input as Record<string, unknown> };
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return { input: parsed as Record<string, unknown> };
    } catch {
      // fall through: keep the raw text for the reviewer
    }
    return { input: {}, invalid: input };
  }
  return { input: {}, invalid: JSON.stringify(input) ?? String(input) };
}

/**
 * AI SDK result → CreateMessageResult (validates against CreateMessageResultSchema): a `text`
 * block (when there is text, or when there is nothing else), then one `tool_use` block per tool
 * call (`id` = toolCallId, `name`, `input`; S-RES-1 allows several). `content` is a single block
 * when there is one, an array otherwise. `model` is the provider-reported model id, else
 * `requestedModelId`. Tool-call arguments that are not a JSON object become `input: {}` with the
 * raw text kept in `_meta[INVALID_TOOL_INPUT_META_KEY]`, so the reviewer sees the problem.
 */
export function fromAiSdkResult(outcome: AiSdkOutcome, context: { requestedModelId: string; stopSequences?: string[] }): CreateMessageResult {
  const blocks: SamplingContent[] = [];
  if (outcome.text !== '' || outcome.toolCalls.length === 0) blocks.push({ type: 'text', text: outcome.text });
  for (const call of outcome.toolCalls) {
    const { input, invalid } = toolInput(call.input);
    blocks.push({
      type: 'tool_use',
      id: call.toolCallId,
      name: call.toolName,
      input,
      ...(invalid !== undefined ? { _meta: { [INVALID_TOOL_INPUT_META_KEY]: invalid } } : {}),
    });
  }
  const detail: { rawFinishReason?: string; text?: string; stopSequences?: string[] } = { text: outcome.text };
  if (outcome.rawFinishReason !== undefined) detail.rawFinishReason = outcome.rawFinishReason;
  if (context.stopSequences !== undefined) detail.stopSequences = context.stopSequences;
  return {
    role: 'assistant',
    content: blocks.length === 1 ? (blocks[0] as SamplingContent) : blocks,
    model: outcome.responseModelId || context.requestedModelId,
    stopReason: mapFinishReason(outcome.finishReason, detail),
  };
}
