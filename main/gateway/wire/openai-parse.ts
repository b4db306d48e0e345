/**
 * OpenAI Chat Completions request → MCP `CreateMessageParams`.
 *
 * system/developer messages become the system prompt; user parts become text, image (data: URLs
 * only) and audio blocks; assistant `tool_calls` become tool_use blocks; consecutive `tool`
 * messages become one user message of tool_result blocks (MCP forbids mixing tool_result with
 * other content, so a user message after them stays its own message).
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
import { DEFAULT_MAX_TOKENS, type ParseOutcome, type WireError } from './types.js';

const TextPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const ImagePart = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string(), detail: z.string().optional() }),
});
const AudioPart = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: z.string(), format: z.enum(['wav', 'mp3']) }),
});
const RefusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const UserPart = z.discriminatedUnion('type', [TextPart, ImagePart, AudioPart], {
  error: 'expected a content part of type "text", "image_url" or "input_audio"',
});
const TextContent = z.union([z.string(), z.array(TextPart)], {
  error: 'expected a string or an array of text parts',
});

const ToolCall = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const Message = z.discriminatedUnion(
  'role',
  [
    z.looseObject({ role: z.enum(['system', 'developer']), content: TextContent }),
    z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(UserPart)]) }),
    z.looseObject({
      role: z.literal('assistant'),
      content: z.union([z.string(), z.array(z.union([TextPart, RefusalPart]))]).nullish(),
      tool_calls: z.array(ToolCall).nullish(),
    }),
    z.looseObject({ role: z.literal('tool'), tool_call_id: z.string(), content: TextContent }),
  ],
  { error: 'expected a message with role "system", "developer", "user", "assistant" or "tool"' },
);
type Message = z.infer<typeof Message>;

const FunctionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string(),
    description: z.string().nullish(),
    parameters: z.looseObject({ type: z.literal('object') }).nullish(),
  }),
});

const ToolChoiceValue = z.union([
  z.enum(['auto', 'none', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
]);

const positiveInt = z.number().int().positive();

const Request = z.looseObject({
  model: z.string().min(1),
  messages: z.array(Message).min(1),
  max_tokens: positiveInt.nullish(),
  max_completion_tokens: positiveInt.nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  n: positiveInt.nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  tools: z.array(FunctionTool).nullish(),
  tool_choice: ToolChoiceValue.nullish(),
});
type Request = z.infer<typeof Request>;

/** The top-level fields this codec carries over; any other is listed in `ignored`. */
const CONSUMED = [
  'model', 'messages', 'max_tokens', 'max_completion_tokens', 'temperature', 'stop', 'n',
  'stream', 'stream_options', 'tools', 'tool_choice',
];

/** OpenAI's wording of a failed field. */
const wordField: FieldMessage = (param, message, missing) =>
  missing ? `Missing required parameter: '${param}'.` : `Invalid value for '${param}': ${message}`;

/** The text of a string or of text parts (joined with "\n"). */
function textOf(content: string | Array<{ text: string }>): string {
  return typeof content === 'string' ? content : content.map((p) => p.text).join('\n');
}

/** A user message's content as MCP blocks; a WireError for a refused image. */
function userBlocks(content: Extract<Message, { role: 'user' }>['content'], at: string): SamplingContent[] | WireError {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: SamplingContent[] = [];
  for (const [j, part] of content.entries()) {
    if (part.type === 'text') blocks.push({ type: 'text', text: part.text });
    else if (part.type === 'input_audio') {
      const mimeType = part.input_audio.format === 'wav' ? 'audio/wav' : 'audio/mpeg';
      blocks.push({ type: 'audio', data: part.input_audio.data, mimeType });
    } else {
      const image = parseDataUrl(part.image_url.url, `${at}.content[${j}].image_url`);
      if (isWireError(image)) return image;
      blocks.push({ type: 'image', ...image });
    }
  }
  return blocks;
}

/** An assistant message's content and tool calls as MCP blocks; a WireError for bad arguments. */
function assistantBlocks(m: Extract<Message, { role: 'assistant' }>, at: string): SamplingContent[] | WireError {
  const blocks: SamplingContent[] = [];
  const text =
    typeof m.content === 'string'
      ? m.content
      : (m.content ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  if (text !== '') blocks.push({ type: 'text', text });
  for (const [k, call] of (m.tool_calls ?? []).entries()) {
    let input: unknown;
    try {
      input = JSON.parse(call.function.arguments);
    } catch {
      input = undefined;
    }
    if (!isPlainObject(input)) {
      return invalidRequest('tool call arguments must be a JSON object string', `${at}.tool_calls[${k}].function.arguments`);
    }
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  }
  if (blocks.length === 0) return invalidRequest('an assistant message needs content or tool_calls', `${at}.content`);
  return blocks;
}

/** The messages as MCP messages and the system prompt; a WireError for the first bad message. */
function translateMessages(messages: Message[]): { messages: SamplingMessage[]; system: string[] } | WireError {
  const out: SamplingMessage[] = [];
  const system: string[] = [];
  let toolResults: SamplingContent[] | undefined;
  for (const [i, m] of messages.entries()) {
    const at = `messages[${i}]`;
    if (m.role === 'system' || m.role === 'developer') {
      system.push(textOf(m.content));
      continue;
    }
    if (m.role === 'tool') {
      const block: SamplingContent = {
        type: 'tool_result',
        toolUseId: m.tool_call_id,
        content: [{ type: 'text', text: textOf(m.content) }],
      };
      if (toolResults) toolResults.push(block);
      else {
        toolResults = [block];
        out.push({ role: 'user', content: toolResults });
      }
      continue;
    }
    toolResults = undefined;
    if (m.role === 'user') {
      const blocks = userBlocks(m.content, at);
      if (isWireError(blocks)) return blocks;
      out.push({ role: 'user', content: blocks });
    } else {
      const blocks = assistantBlocks(m as Extract<Message, { role: 'assistant' }>, at);
      if (isWireError(blocks)) return blocks;
      out.push({ role: 'assistant', content: blocks });
    }
  }
  return { messages: out, system };
}

/** `tools` and `tool_choice` as MCP tools and toolChoice (a named choice keeps only that tool). */
function translateTools(req: Request): { tools?: SamplingTool[]; toolChoice?: ToolChoice } | WireError {
  if (!req.tools || req.tools.length === 0) return {};
  let tools: SamplingTool[] = req.tools.map(({ function: f }) => {
    const tool: SamplingTool = { name: f.name, inputSchema: f.parameters ?? { type: 'object', properties: {} } };
    if (typeof f.description === 'string') tool.description = f.description;
    return tool;
  });
  const choice = req.tool_choice;
  if (choice === undefined || choice === null) return { tools };
  if (typeof choice === 'string') return { tools, toolChoice: { mode: choice } };
  const name = choice.function.name;
  tools = tools.filter((t) => t.name === name);
  if (tools.length === 0) {
    return invalidRequest(`tool_choice names "${name}", which is not among the tools`, 'tool_choice.function.name');
  }
  return { tools, toolChoice: { mode: 'required' } };
}

/**
 * Parses an OpenAI Chat Completions request body.
 *
 * @returns the call (params with `maxTokens` from max_completion_tokens, max_tokens or
 *   {@link DEFAULT_MAX_TOKENS}), or a 400 invalid_request error naming the field as `param`
 *   (e.g. `messages[2].content[0].image_url` for an http image URL, `n` when n > 1).
 */
export function parseOpenAiRequest(body: unknown): ParseOutcome {
  if (!isPlainObject(body)) return { ok: false, error: invalidRequest('the request body must be a JSON object') };
  const parsed = Request.safeParse(body, ZOD_PARSE_OPTIONS);
  if (!parsed.success) return { ok: false, error: zodFailure(parsed.error, wordField) };
  const req = parsed.data;
  if (typeof req.n === 'number' && req.n > 1) {
    return { ok: false, error: invalidRequest("the console's gateway answers one choice only; n must be 1", 'n') };
  }
  const translated = translateMessages(req.messages);
  if (isWireError(translated)) return { ok: false, error: translated };
  const tools = translateTools(req);
  if (isWireError(tools)) return { ok: false, error: tools };
  const ignored = ignoredFields(body, CONSUMED);
  if (!tools.tools && req.tool_choice != null) ignored.push('tool_choice');

  const params: CreateMessageParams = {
    messages: translated.messages,
    maxTokens: req.max_completion_tokens ?? req.max_tokens ?? DEFAULT_MAX_TOKENS,
    modelPreferences: { hints: [{ name: req.model }] },
  };
  if (translated.system.length > 0) params.systemPrompt = translated.system.join('\n\n');
  if (typeof req.temperature === 'number') params.temperature = req.temperature;
  if (req.stop != null) params.stopSequences = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (tools.tools) params.tools = tools.tools;
  if (tools.toolChoice) params.toolChoice = tools.toolChoice;

  const stream = req.stream === true;
  const call = { api: 'openai' as const, params, requestedModel: req.model, stream, ignored };
  return { ok: true, call: stream ? { ...call, streamUsage: req.stream_options?.include_usage === true } : call };
}
