/**
 * A tool's output schema, checked on its result — and only on a result. On 2026-07-28 a
 * `tools/call` may first be answered `input_required` (MRTR): that reply is not a tool result and
 * carries no `structuredContent`, so it must never meet the output-schema check. The SDK's
 * `callTool` checks every reply it gets when it knows the tool's schema (its own `tools/list`
 * cache), which refused the first round of a tool with an output schema — every `str`-returning
 * tool of Python's `mcp` and `fastmcp` — with -32600 before any input round was run. So each round
 * is sent with a tool definition that has no output schema (the SDK's public `toolDefinition`
 * option, which also feeds its header mirroring), and the final result is checked here, as the
 * SDK would have: same codes, same messages.
 */
import { fromJsonSchema, type JsonSchemaType, ProtocolError } from '@modelcontextprotocol/client';
import type { ToolView } from '../../shared/contract/server-views.js';

/** The definition each round of a call is sent with: the tool as listed, without its output schema. */
export function roundDefinition(tool: ToolView | undefined, name: string): { name: string; inputSchema: { type: 'object' } & Record<string, unknown> } {
  return { name, inputSchema: { type: 'object', ...(tool?.inputSchema ?? {}) } };
}

/**
 * Checks a final `tools/call` result against the tool's output schema (no schema, or an error
 * result: nothing to check).
 * @throws ProtocolError -32600 when structured content is missing; -32602 when it does not match
 */
export async function checkToolOutput(tool: ToolView | undefined, result: { isError?: boolean; structuredContent?: unknown }): Promise<void> {
  if (!tool?.outputSchema || result.isError) return;
  if (result.structuredContent === undefined) throw new ProtocolError(-32600, `Tool ${tool.name} has an output schema but did not return structured content`);
  const checked = await fromJsonSchema(tool.outputSchema as JsonSchemaType)['~standard'].validate(result.structuredContent);
  if (checked.issues) {
    const why = checked.issues.map((i) => i.message).join('; ');
    throw new ProtocolError(-32602, `Structured content does not match the tool's output schema: ${why}`);
  }
}
