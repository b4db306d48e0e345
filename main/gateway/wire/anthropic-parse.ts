/**
 * Anthropic Messages request → MCP `CreateMessageParams`.
 *
 * `system` becomes the system prompt, followed by the text of any message of role `system` in
 * `messages` (some agent clients send notes that way after the first turn; the API itself refuses
 * them), in order — their paths are the call's `movedToSystem`; text, image (base64 sources only),
 * tool_use and tool_result blocks map one to one; thinking blocks are dropped (and listed in
 * `ignored`), as are `cache_control` marks (listed by path) and the top-level fields not carried
 * (`thinking`, `metadata`, …). A user message holding tool_result blocks and other blocks is
 * split in two (tool results first), as MCP forbids mixing tool_result with other content in one
 * message.
 */
import { z } from 'zod';
import type {
  CreateMessageParams,
  SamplingContent,
  SamplingMessage,
  SamplingTool,
  ToolChoice,
} from '../../../shared/contract/sampling.js';
import {
  ignoredFields,
  invalidRequest,
  isPlainObject,
  isWireError,
  parseDataUrl,
  zodFailure,
  ZOD_PARSE_OPTIONS,
  type FieldMessage,
} from './common.js';
import type { GatewayCall, ParseOutcome, WireError } from './types.js';

const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });
const ImageSource = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string() }),
  ],
  { error: 'expected an image source of type "base64"' },
);
const ImageBlock = z.looseObject({ type: z.literal('image'), source: ImageSource });
const ToolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
const ResultInner = z.discriminatedUnion('type', [TextBlock, ImageBlock], {
  error: 'expected a text or image block',
});
const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(ResultInner)]).optional(),
  is_error: z.boolean().optional(),
});
const ThinkingBlock = z.looseObject({ type: z.enum(['thinking', 'redacted_thinking']) });

const Block = z.discriminatedUnion('type', [TextBlock, ImageBlock, ToolUseBlock, ToolResultBlock, ThinkingBlock], {
  error: (issue) => {
    const type = isPlainObject(issue.input) ? JSON.stringify(issue.input.type) : undefined;
    return `unsupported content block type ${type ?? ''}; the console's gateway accepts text, image, tool_use, tool_result and thinking blocks`;
  },
});
type Block = z.infer<typeof Block>;

const Message = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(Block)]),
});

const Tool = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
});

const ToolChoiceValue = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto') }),
  z.looseObject({ type: z.literal('any') }),
  z.looseObject({ type: z.literal('tool'), name: z.string() }),
  z.looseObject({ type: z.literal('none') }),
]);
type ToolChoiceValue = z.infer<typeof ToolChoiceValue>;

const Request = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(Message).min(1, { error: 'at least one message is required' }),
  system: z.union([z.string(), z.array(TextBlock)]).optional(),
  temperature: z.number().min(0).max(1).optional(),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  tools: z.array(Tool).optional(),
  tool_choice: ToolChoiceValue.optional(),
});

/** The top-level fields this codec carries over; any other is listed in `ignored`. */
const CONSUMED = ['model', 'max_tokens', 'messages', 'system', 'temperature', 'stop_sequences', 'stream', 'tools', 'tool_choice'];

/** Anthropic's wording of a failed field, e.g. "max_tokens: Field required". */
const wordField: FieldMessage = (param, message) => `${param}: ${message}`;

/** An Anthropic image block as MCP image content; a WireError for a url source. */
function imageOf(block: z.infer<typeof ImageBlock>, param: string): SamplingContent | WireError {
  const { source } = block;
  if (source.type === 'url') {
    const refused = parseDataUrl(source.url, `${param}.source.url`);
    return isWireError(refused) ? refused : { type: 'image', ...refused };
  }
  return { type: 'image', data: source.data, mimeType: source.media_type };
}

/** One content block as an MCP block; null for a dropped thinking block. */
function blockOf(block: Block, param: string): SamplingContent | null | WireError {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return imageOf(block, param);
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'tool_result': {
      const inner = typeof block.content === 'string' ? [{ type: 'text' as const, text: block.content }] : (block.content ?? []);
      const content: SamplingContent[] = [];
      for (const [k, item] of inner.entries()) {
        const mapped = item.type === 'text' ? { type: 'text' as const, text: item.text } : imageOf(item, `${param}.content[${k}]`);
        if (isWireError(mapped)) return mapped;
        content.push(mapped);
      }
      const result: SamplingContent = { type: 'tool_result', toolUseId: block.tool_use_id, content };
      if (block.is_error !== undefined) result.isError = block.is_error;
      return result;
    }
    default:
      return null;
  }
}

/** What {@link translateMessages} makes: the MCP messages, and the system messages' texts and paths. */
interface Translated {
  messages: SamplingMessage[];
  system: string[];
  moved: string[];
}

/** A system message's text (its text blocks joined with "\n"); a WireError for another block in it. */
function systemTextOf(content: z.infer<typeof Message>['content'], param: string): string | WireError {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const [j, block] of content.entries()) {
    if (block.type !== 'text') return invalidRequest('a system message holds text blocks only', `${param}.content[${j}]`);
    texts.push(block.text);
  }
  return texts.join('\n');
}

/** The messages as MCP messages (tool results split off, system messages set apart), adding dropped blocks to `ignored`. */
function translateMessages(messages: z.infer<typeof Message>[], ignored: string[]): Translated | WireError {
  const out: SamplingMessage[] = [];
  const system: string[] = [];
  const moved: string[] = [];
  for (const [i, m] of messages.entries()) {
    if (m.role === 'system') {
      const text = systemTextOf(m.content, `messages[${i}]`);
      if (isWireError(text)) return text;
      system.push(text);
      moved.push(`messages[${i}]`);
      continue;
    }
    const role = m.role;
    if (typeof m.content === 'string') {
      out.push({ role, content: [{ type: 'text', text: m.content }] });
      continue;
    }
    const results: SamplingContent[] = [];
    const others: SamplingContent[] = [];
    for (const [j, block] of m.content.entries()) {
      const param = `messages[${i}].content[${j}]`;
      const mapped = blockOf(block, param);
      if (isWireError(mapped)) return mapped;
      if (mapped === null) ignored.push(`${param} (${block.type})`);
      else if (mapped.type === 'tool_result' && role === 'assistant') {
        return invalidRequest('tool_result blocks belong in user messages', param);
      } else if (mapped.type === 'tool_use' && role === 'user') {
        return invalidRequest('tool_use blocks belong in assistant messages', param);
      } else (mapped.type === 'tool_result' ? results : others).push(mapped);
    }
    if (results.length > 0) out.push({ role: 'user', content: results });
    if (others.length > 0) out.push({ role, content: others });
  }
  return { messages: out, system, moved };
}

/**
 * The paths of the `cache_control` marks in a raw body (system blocks, message blocks and the
 * blocks inside tool results, tools): the console does not carry prompt caching over.
 */
function cacheMarks(body: Record<string, unknown>): string[] {
  const marks: string[] = [];
  const scan = (value: unknown, param: string) => {
    if (!Array.isArray(value)) return;
    for (const [i, item] of value.entries()) {
      if (!isPlainObject(item)) continue;
      if (item.cache_control != null) marks.push(`${param}[${i}].cache_control`);
      if (param.endsWith('.content') && item.type === 'tool_result') scan(item.content, `${param}[${i}].content`);
    }
  };
  scan(body.system, 'system');
  scan(body.tools, 'tools');
  if (Array.isArray(body.messages)) for (const [i, m] of body.messages.entries()) if (isPlainObject(m)) scan(m.content, `messages[${i}].content`);
  return marks;
}

/** `tool_choice` as an MCP mode; `tool` keeps only the named tool. */
function translateTools(tools: SamplingTool[], choice: ToolChoiceValue | undefined): { tools: SamplingTool[]; toolChoice?: ToolChoice } | WireError {
  if (!choice || choice.type === 'auto') return choice ? { tools, toolChoice: { mode: 'auto' } } : { tools };
  if (choice.type === 'none') return { tools, toolChoice: { mode: 'none' } };
  if (choice.type === 'any') return { tools, toolChoice: { mode: 'required' } };
  const only = tools.filter((t) => t.name === choice.name);
  if (only.length === 0) return invalidRequest(`tool_choice names "${choice.name}", which is not among the tools`, 'tool_choice.name');
  return { tools: only, toolChoice: { mode: 'required' } };
}

/** The index of the first server tool (a `type` other than "custom") in a raw `tools` value. */
function serverToolIndex(tools: unknown): number {
  if (!Array.isArray(tools)) return -1;
  return tools.findIndex((t) => isPlainObject(t) && t.type !== undefined && t.type !== null && t.type !== 'custom');
}

/**
 * Parses an Anthropic Messages request body.
 *
 * @returns the call, or a 400 invalid_request error naming the field as `param` (e.g.
 *   "max_tokens: Field required", a url image source, a server tool, an unsupported block type).
 */
export function parseAnthropicRequest(body: unknown): ParseOutcome {
  if (!isPlainObject(body)) return { ok: false, error: invalidRequest('the request body must be a JSON object') };
  const server = serverToolIndex(body.tools);
  if (server >= 0) {
    const type = JSON.stringify((body.tools as Array<Record<string, unknown>>)[server]?.type);
    return { ok: false, error: invalidRequest(`server tools (type ${type}) are not supported by the console's gateway`, `tools[${server}].type`) };
  }
  const parsed = Request.safeParse(body, ZOD_PARSE_OPTIONS);
  if (!parsed.success) return { ok: false, error: zodFailure(parsed.error, wordField) };
  const req = parsed.data;
  const ignored = [...ignoredFields(body, CONSUMED), ...cacheMarks(body)];
  const translated = translateMessages(req.messages, ignored);
  if (isWireError(translated)) return { ok: false, error: translated };
  if (translated.messages.length === 0) return { ok: false, error: invalidRequest('messages: at least one user or assistant message is required', 'messages') };

  const params: CreateMessageParams = {
    messages: translated.messages,
    maxTokens: req.max_tokens,
    modelPreferences: { hints: [{ name: req.model }] },
  };
  const top = typeof req.system === 'string' ? req.system : req.system?.map((b) => b.text).join('\n\n');
  const system = [...(top ? [top] : []), ...translated.system].join('\n\n');
  if (system !== '') params.systemPrompt = system;
  if (req.temperature !== undefined) params.temperature = req.temperature;
  if (req.stop_sequences !== undefined && req.stop_sequences.length > 0) params.stopSequences = req.stop_sequences;
  if (req.tools && req.tools.length > 0) {
    const declared = req.tools.map((t): SamplingTool => {
      const tool: SamplingTool = { name: t.name, inputSchema: t.input_schema };
      if (t.description !== undefined) tool.description = t.description;
      return tool;
    });
    const tools = translateTools(declared, req.tool_choice);
    if (isWireError(tools)) return { ok: false, error: tools };
    params.tools = tools.tools;
    if (tools.toolChoice) params.toolChoice = tools.toolChoice;
  } else if (req.tool_choice) ignored.push('tool_choice');

  const call: GatewayCall = { api: 'anthropic', params, requestedModel: req.model, stream: req.stream === true, ignored };
  if (translated.moved.length > 0) call.movedToSystem = translated.moved;
  return { ok: true, call };
}
