/**
 * OpenAI Responses request (`POST /v1/responses`) → MCP `CreateMessageParams`.
 *
 * - `instructions`, then `system` / `developer` messages, become the system prompt, in order;
 * - `input` as a string is one user message; as items: messages (`input_text`, `input_image` as a
 *   data: URL, `output_text`, `refusal`), `function_call` items (tool_use blocks of the assistant
 *   turn they belong to), `function_call_output` items (tool_result blocks of one user message,
 *   as MCP forbids mixing them with other content), `item_reference` (an output item the console
 *   answered before) and `reasoning` items (dropped, listed in `ignored`);
 * - `previous_response_id`: the conversation that response continued and its answer, from
 *   History, open the messages (its `instructions` are not carried over, as OpenAI does);
 * - function tools become MCP tools; `tool_choice` maps to an MCP mode (a named function keeps
 *   only that tool);
 * - `max_output_tokens` → `maxTokens` (default {@link DEFAULT_MAX_TOKENS}), `temperature` kept.
 * Built-in tools (web search, file search…), files and `conversation` are refused with a 400 naming
 * the field; fields not carried over are listed in `ignored`.
 */
import { z } from 'zod';
import type { CreateMessageParams, SamplingContent, SamplingMessage, SamplingTool, ToolChoice } from '../../../shared/contract/sampling.js';
import { ignoredFields, invalidRequest, isPlainObject, isWireError, parseDataUrl, zodFailure, ZOD_PARSE_OPTIONS, type FieldMessage } from './common.js';
import { DEFAULT_MAX_TOKENS, type EarlierLookup, type GatewayCall, type ParseContext, type ParseOutcome, type WireError } from './types.js';

const InputText = z.looseObject({ type: z.enum(['input_text', 'output_text']), text: z.string() });
const InputImage = z.looseObject({ type: z.literal('input_image'), image_url: z.string().nullish(), file_id: z.string().nullish() });
const InputFile = z.looseObject({ type: z.literal('input_file') });
const Refusal = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });
const Part = z.discriminatedUnion('type', [InputText, InputImage, InputFile, Refusal], {
  error: 'expected a content part of type "input_text", "input_image", "output_text" or "refusal"',
});
type Part = z.infer<typeof Part>;

const MessageItem = z.looseObject({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(Part)]),
});
const FunctionCallItem = z.looseObject({ type: z.literal('function_call'), call_id: z.string(), name: z.string(), arguments: z.string() });
const FunctionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string(),
  output: z.union([z.string(), z.array(Part)]),
});
const ItemReference = z.looseObject({ type: z.literal('item_reference'), id: z.string() });
const ReasoningItem = z.looseObject({ type: z.literal('reasoning') });
const Item = z.discriminatedUnion('type', [MessageItem, FunctionCallItem, FunctionCallOutputItem, ItemReference, ReasoningItem], {
  error: 'expected an input item of type "message", "function_call", "function_call_output", "item_reference" or "reasoning"',
});
type Item = z.infer<typeof Item>;

const FunctionTool = z.looseObject({
  type: z.literal('function'),
  name: z.string(),
  description: z.string().nullish(),
  parameters: z.looseObject({}).nullish(),
});

const ToolChoiceValue = z.union([z.enum(['auto', 'none', 'required']), z.looseObject({ type: z.string(), name: z.string().optional() })]);

const Request = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(Item)]).nullish(),
  instructions: z.string().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  stream: z.boolean().nullish(),
  tools: z.array(FunctionTool).nullish(),
  tool_choice: ToolChoiceValue.nullish(),
  previous_response_id: z.string().min(1).nullish(),
  store: z.boolean().nullish(),
  text: z.looseObject({ format: z.looseObject({ type: z.string() }).nullish() }).nullish(),
});
type Request = z.infer<typeof Request>;

/** The top-level fields this codec carries over (or answers for, as `store`); any other is listed in `ignored`. */
const CONSUMED = ['model', 'input', 'instructions', 'max_output_tokens', 'temperature', 'stream', 'stream_options', 'tools', 'tool_choice', 'previous_response_id', 'store', 'text'];

/** Request fields a Responses answer repeats. */
const ECHOED = ['instructions', 'max_output_tokens', 'metadata', 'parallel_tool_calls', 'previous_response_id', 'reasoning', 'temperature', 'text', 'tool_choice', 'tools', 'top_p', 'truncation', 'user'];

/** OpenAI's wording of a failed field (as Chat Completions). */
const wordField: FieldMessage = (param, message, missing) => (missing ? `Missing required parameter: '${param}'.` : `Invalid value for '${param}': ${message}`);

/** Items without a `type` are messages (OpenAI's "easy input message"). */
function typedItems(input: unknown): unknown {
  if (!Array.isArray(input)) return input;
  return input.map((item: unknown) => (isPlainObject(item) && item.type === undefined ? { ...item, type: 'message' } : item));
}

/** The conversation as it is built: messages, system parts, and what was dropped. */
interface Build {
  messages: SamplingMessage[];
  system: string[];
  ignored: string[];
}

/** Adds blocks to the assistant turn being built (a new assistant message when the last is not one). */
function pushAssistant(b: Build, blocks: SamplingContent[]): void {
  const last = b.messages.at(-1);
  if (last?.role === 'assistant' && Array.isArray(last.content)) last.content.push(...blocks);
  else b.messages.push({ role: 'assistant', content: [...blocks] });
}

/** Adds a tool result to the user message of tool results being built (a new one when the last is not). */
function pushToolResult(b: Build, block: SamplingContent): void {
  const last = b.messages.at(-1);
  const results: SamplingContent[] | undefined = last?.role === 'user' && Array.isArray(last.content) ? last.content : undefined;
  if (results?.every((c): boolean => c.type === 'tool_result')) results.push(block);
  else b.messages.push({ role: 'user', content: [block] });
}

/** Earlier messages (a previous response's conversation, a referenced item), merged into the turns being built. */
function pushEarlier(b: Build, messages: SamplingMessage[]): void {
  for (const m of messages) {
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    if (m.role === 'assistant') pushAssistant(b, blocks);
    else if (blocks.length > 0 && blocks.every((c) => c.type === 'tool_result')) for (const block of blocks) pushToolResult(b, block);
    else b.messages.push({ role: 'user', content: [...blocks] });
  }
}

/** A content part as an MCP block; a WireError for a file or an image not given as a data: URL. */
function partOf(part: Part, param: string): SamplingContent | WireError {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_file':
      return invalidRequest("files are not supported by the console's gateway; send the text of the file", param);
    case 'input_image': {
      if (typeof part.image_url !== 'string') return invalidRequest("image file ids are not supported by the console's gateway; send the image as a data: URL", `${param}.file_id`);
      const image = parseDataUrl(part.image_url, `${param}.image_url`);
      return isWireError(image) ? image : { type: 'image', ...image };
    }
  }
}

/** Parts as MCP blocks. */
function partsOf(content: string | Part[], param: string): SamplingContent[] | WireError {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: SamplingContent[] = [];
  for (const [j, part] of content.entries()) {
    const block = partOf(part, `${param}.content[${j}]`);
    if (isWireError(block)) return block;
    blocks.push(block);
  }
  return blocks;
}

/** The text of system parts (joined with "\n"). */
function systemText(blocks: SamplingContent[]): string {
  return blocks.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
}

/** One message item into the build. */
function addMessage(b: Build, item: Extract<Item, { type: 'message' }>, param: string): WireError | undefined {
  const blocks = partsOf(item.content, param);
  if (isWireError(blocks)) return blocks;
  if (item.role === 'system' || item.role === 'developer') b.system.push(systemText(blocks));
  else if (item.role === 'assistant') pushAssistant(b, blocks);
  else b.messages.push({ role: 'user', content: blocks });
  return undefined;
}

/** One input item into the build. */
function addItem(b: Build, item: Item, param: string, earlier: EarlierLookup): WireError | undefined {
  switch (item.type) {
    case 'message':
      return addMessage(b, item, param);
    case 'function_call': {
      let input: unknown;
      try {
        input = JSON.parse(item.arguments);
      } catch {
        input = undefined;
      }
      if (!isPlainObject(input)) return invalidRequest('function call arguments must be a JSON object string', `${param}.arguments`);
      pushAssistant(b, [{ type: 'tool_use', id: item.call_id, name: item.name, input }]);
      return undefined;
    }
    case 'function_call_output': {
      const content = partsOf(item.output, `${param}.output`);
      if (isWireError(content)) return content;
      pushToolResult(b, { type: 'tool_result', toolUseId: item.call_id, content });
      return undefined;
    }
    case 'item_reference': {
      const found = earlier(item.id, `${param}.id`);
      if (isWireError(found)) return found;
      pushEarlier(b, found);
      return undefined;
    }
    default:
      b.ignored.push(`${param} (${item.type})`);
      return undefined;
  }
}

/** `tools` and `tool_choice` as MCP tools and mode; a named function keeps only that tool. */
function translateTools(req: Request, ignored: string[]): { tools?: SamplingTool[]; toolChoice?: ToolChoice } | WireError {
  const choice = req.tool_choice;
  if (!req.tools || req.tools.length === 0) {
    if (choice != null) ignored.push('tool_choice');
    return {};
  }
  let tools = req.tools.map((t): SamplingTool => ({ name: t.name, inputSchema: { type: 'object', ...(t.parameters ?? { properties: {} }) }, ...(typeof t.description === 'string' && { description: t.description }) }));
  if (choice == null) return { tools };
  if (typeof choice === 'string') return { tools, toolChoice: { mode: choice } };
  if (choice.type !== 'function' || choice.name === undefined) {
    ignored.push(`tool_choice (${choice.type})`);
    return { tools };
  }
  tools = tools.filter((t) => t.name === choice.name);
  if (tools.length === 0) return invalidRequest(`tool_choice names "${choice.name}", which is not among the tools`, 'tool_choice.name');
  return { tools, toolChoice: { mode: 'required' } };
}

/** What a raw body asks that the console refuses outright: built-in tools, a stored conversation. */
function refused(body: Record<string, unknown>): WireError | undefined {
  if (body.conversation != null) return invalidRequest("conversations are not served by the console's gateway; send the input, or previous_response_id", 'conversation');
  if (body.prompt != null) return invalidRequest("stored prompts are not served by the console's gateway; send instructions and input", 'prompt');
  if (!Array.isArray(body.tools)) return undefined;
  const i = body.tools.findIndex((t) => isPlainObject(t) && t.type !== 'function');
  if (i < 0) return undefined;
  const type = JSON.stringify((body.tools[i] as Record<string, unknown>).type);
  return invalidRequest(`built-in tools (type ${type}) are not supported by the console's gateway; only function tools are`, `tools[${i}].type`);
}

/** The conversation: the previous response's, then the input's items; a WireError for the first bad one. */
function translateInput(req: Request, earlier: EarlierLookup): Build | WireError {
  const b: Build = { messages: [], system: [], ignored: [] };
  if (req.instructions) b.system.push(req.instructions);
  if (req.previous_response_id) {
    const found = earlier(req.previous_response_id, 'previous_response_id');
    if (isWireError(found)) return found;
    pushEarlier(b, found);
  }
  if (typeof req.input === 'string') b.messages.push({ role: 'user', content: [{ type: 'text', text: req.input }] });
  else {
    for (const [i, item] of (req.input ?? []).entries()) {
      const failed = addItem(b, item, `input[${i}]`, earlier);
      if (failed) return failed;
    }
  }
  if (b.messages.length === 0) return invalidRequest('input holds no message for the model', 'input');
  return b;
}

/** The fields the answer repeats, as they were asked. */
function echoOf(body: Record<string, unknown>): Record<string, unknown> {
  const echo: Record<string, unknown> = {};
  for (const key of ECHOED) if (body[key] !== undefined) echo[key] = body[key];
  return echo;
}

/** Fields of `text` and `store` the console does not honour, for `ignored`. */
function unhonoured(req: Request): string[] {
  const out: string[] = [];
  const format = req.text?.format?.type;
  if (format !== undefined && format !== 'text') out.push(`text.format (${format})`);
  if (req.text && Object.keys(req.text).some((k) => k !== 'format')) out.push('text');
  if (req.store === false) out.push('store (History keeps every call)');
  return out;
}

/** Every id is unknown when no lookup is given. */
const noEarlier: EarlierLookup = (id, param) => ({ status: 404, kind: 'not_found', message: `No response found with id '${id}'.`, param });

/**
 * Parses an OpenAI Responses request body.
 *
 * @returns the call, or a 400 invalid_request error naming the field as
 *   `param` (a built-in tool, a file, an image URL, a missing model…), or the lookup's 404 for a
 *   `previous_response_id` / `item_reference` the console never answered or History no longer holds
 */
export function parseResponsesRequest(body: unknown, ctx: ParseContext = {}): ParseOutcome {
  if (!isPlainObject(body)) return { ok: false, error: invalidRequest('the request body must be a JSON object') };
  const refusal = refused(body);
  if (refusal) return { ok: false, error: refusal };
  const parsed = Request.safeParse({ ...body, input: typedItems(body.input) }, ZOD_PARSE_OPTIONS);
  if (!parsed.success) return { ok: false, error: zodFailure(parsed.error, wordField) };
  const req = parsed.data;
  if (req.input == null && !req.previous_response_id) return { ok: false, error: invalidRequest("Missing required parameter: 'input'.", 'input') };
  const built = translateInput(req, ctx.earlier ?? noEarlier);
  if (isWireError(built)) return { ok: false, error: built };
  const ignored = [...ignoredFields(body, CONSUMED), ...unhonoured(req), ...built.ignored];
  const tools = translateTools(req, ignored);
  if (isWireError(tools)) return { ok: false, error: tools };

  const params: CreateMessageParams = {
    messages: built.messages,
    maxTokens: req.max_output_tokens ?? DEFAULT_MAX_TOKENS,
    modelPreferences: { hints: [{ name: req.model }] },
  };
  if (built.system.length > 0) params.systemPrompt = built.system.join('\n\n');
  if (typeof req.temperature === 'number') params.temperature = req.temperature;
  if (tools.tools) params.tools = tools.tools;
  if (tools.toolChoice) params.toolChoice = tools.toolChoice;
  const call: GatewayCall = { api: 'openai', params, requestedModel: req.model, stream: req.stream === true, ignored, echo: echoOf(body) };
  if (req.previous_response_id) call.previousResponseId = req.previous_response_id;
  return { ok: true, call };
}
