/**
 * Prompt-based tool calling for models without native tool calling (the MCP
 * example client): every tool's name, description and arguments go into the system prompt, the
 * model is told to answer with ONLY a JSON object `{"tool": "...", "arguments": {...}}`, and that
 * reply is parsed into an MCP `tool_use` block. A reply that looks like a tool call but is not
 * valid JSON, mixes a tool call with prose, or names a tool that was not offered is NOT passed on
 * as a tool call: it stays text, marked under `_meta[PROMPT_TOOL_META_KEY]` so the review screen
 * shows the problem to the person.
 *
 * Pure: MCP params in, MCP params out (then converted by convert.ts like any request).
 */
import { PROMPT_TOOL_META_KEY } from '../../shared/contract/providers.js';
import { contentBlocks, type CreateMessageParams, type SamplingContent, type SamplingMessage, type SamplingTool } from '../../shared/contract/sampling.js';

/** `_meta` key of a text block whose tool-call reply could not be used: `{problem, message}` (defined in shared/contract/providers.ts for the renderer). */
export { PROMPT_TOOL_META_KEY };

/** Why a prompt-based tool reply was not turned into a tool call. */
export type PromptToolProblem = 'invalid-json' | 'unknown-tool' | 'mixed';

/** The outcome of parsing a reply: plain text, a tool call, or a problem to show. */
export type PromptToolReply =
  | { kind: 'text' }
  | { kind: 'tool_use'; name: string; input: Record<string, unknown> }
  | { kind: 'invalid'; problem: PromptToolProblem; message: string };

type JsonSchemaProps = Record<string, { description?: unknown; type?: unknown }>;

/** One tool as text (the `format_for_llm` shape of common MCP hosts, plus each argument's type). */
export function formatToolForPrompt(tool: SamplingTool): string {
  const schema = tool.inputSchema as { properties?: JsonSchemaProps; required?: unknown };
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const args = Object.entries(schema.properties ?? {}).map(([name, info]) => {
    const type = typeof info.type === 'string' ? `${info.type}, ` : '';
    const desc = typeof info.description === 'string' ? info.description : 'No description';
    return `- ${name} (${type}${required.includes(name) ? 'required' : 'optional'}): ${desc}`;
  });
  return [`Tool: ${tool.name}`, `Description: ${tool.description ?? 'No description'}`, `Arguments:${args.length ? `\n${args.join('\n')}` : ' none'}`].join('\n');
}

/**
 * The system-prompt section that describes the tools and the JSON reply format. `mode` is the
 * request's `toolChoice.mode`: `required` adds "you must use one of the tools".
 */
export function promptToolsInstructions(tools: readonly SamplingTool[], mode: 'auto' | 'required' = 'auto'): string {
  return [
    'You have access to these tools:',
    '',
    tools.map(formatToolForPrompt).join('\n\n'),
    '',
    mode === 'required' ? 'You must use one of these tools to answer.' : "Choose the appropriate tool based on the user's question. If no tool is needed, reply directly.",
    '',
    'IMPORTANT: When you need to use a tool, you must ONLY respond with the exact JSON object format below, nothing else:',
    '{',
    '    "tool": "tool-name",',
    '    "arguments": {',
    '        "argument-name": "value"',
    '    }',
    '}',
    '',
    'Please use only the tools that are explicitly defined above.',
  ].join('\n');
}

function toolResultText(block: Extract<SamplingContent, { type: 'tool_result' }>, name: string): string {
  const inner = block.content
    .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${b.type}]`))
    .join('\n');
  const body = inner || (block.structuredContent !== undefined ? JSON.stringify(block.structuredContent) : '(no output)');
  return block.isError ? `Tool "${name}" reported an error:\n${body}` : `Result of tool "${name}":\n${body}`;
}

/**
 * Rewrites a request with tools for a model without native tool calling: tools and toolChoice
 * removed, the tool section appended to the system prompt, earlier `tool_use` blocks written as
 * the JSON the model is asked to produce, `tool_result` blocks as user text ("Result of tool …").
 * With `toolChoice.mode: "none"` the tools are not described at all. Params without tools are
 * returned unchanged.
 */
export function toPromptToolParams(params: CreateMessageParams): CreateMessageParams {
  const tools = params.tools ?? [];
  const hasHistory = params.messages.some((m) => contentBlocks<SamplingContent>(m.content).some((b) => b.type === 'tool_use' || b.type === 'tool_result'));
  if (tools.length === 0 && !hasHistory) return params;
  const names = new Map<string, string>();
  const messages: SamplingMessage[] = params.messages.map((m) => {
    const blocks = contentBlocks<SamplingContent>(m.content).map((b): SamplingContent => {
      if (b.type === 'tool_use') {
        names.set(b.id, b.name);
        return { type: 'text', text: JSON.stringify({ tool: b.name, arguments: b.input }, null, 2) };
      }
      if (b.type === 'tool_result') return { type: 'text', text: toolResultText(b, names.get(b.toolUseId) ?? 'unknown') };
      return b;
    });
    return { ...m, content: blocks.length === 1 ? blocks[0]! : blocks };
  });
  const { tools: _tools, toolChoice, ...rest } = params;
  const mode = toolChoice?.mode ?? 'auto';
  const section = tools.length > 0 && mode !== 'none' ? promptToolsInstructions(tools, mode === 'required' ? 'required' : 'auto') : '';
  const systemPrompt = [params.systemPrompt ?? '', section].filter((s) => s !== '').join('\n\n');
  return { ...rest, messages, ...(systemPrompt ? { systemPrompt } : {}) };
}

/** Strips one surrounding ``` / ```json fence. */
function unfence(text: string): string {
  const m = /^```[a-zA-Z]*[^\S\n]*\n([\s\S]*?)\n?```$/.exec(text);
  return m ? m[1]!.trim() : text;
}

/**
 * Parses a model's reply to a prompt-based tool request.
 * - not JSON-looking and no `"tool"` key: `text` (the model answered directly);
 * - the whole reply (optionally in a ``` fence) is `{"tool": "<offered tool>", "arguments": {…}}`:
 *   `tool_use` (`arguments` may be omitted: `{}`);
 * - starts like JSON but does not parse, or `arguments` is not an object: `invalid-json`;
 * - a `"tool": …` object inside other prose: `mixed`;
 * - names a tool that was not offered: `unknown-tool`.
 * A JSON object without a `tool` key is an ordinary (JSON) answer: `text`.
 */
export function parsePromptToolReply(text: string, tools: readonly SamplingTool[]): PromptToolReply {
  const body = unfence(text.trim());
  const offered = tools.map((t) => t.name);
  const looksLikeCall = /"tool"\s*:/.test(body);
  if (!body.startsWith('{')) {
    if (!looksLikeCall) return { kind: 'text' };
    return { kind: 'invalid', problem: 'mixed', message: 'The reply mixes a JSON tool call with other text, so it was not treated as a tool call. Edit it, or regenerate.' };
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    if (!looksLikeCall) return { kind: 'text' };
    const why = e instanceof Error ? e.message : String(e);
    return { kind: 'invalid', problem: 'invalid-json', message: `The reply looks like a tool call but is not valid JSON (${why}). It was not treated as a tool call.` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('tool' in json)) return { kind: 'text' };
  const call = json as { tool: unknown; arguments?: unknown };
  if (typeof call.tool !== 'string') return { kind: 'invalid', problem: 'invalid-json', message: 'The reply\'s "tool" is not a string, so it was not treated as a tool call.' };
  const args = call.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { kind: 'invalid', problem: 'invalid-json', message: `The tool call's "arguments" is not a JSON object, so it was not treated as a tool call.` };
  }
  if (!offered.includes(call.tool)) {
    return {
      kind: 'invalid',
      problem: 'unknown-tool',
      message: `The reply calls a tool named "${call.tool}", which was not offered (offered: ${offered.map((n) => `"${n}"`).join(', ') || 'none'}). It was not treated as a tool call.`,
    };
  }
  return { kind: 'tool_use', name: call.tool, input: args as Record<string, unknown> };
}
