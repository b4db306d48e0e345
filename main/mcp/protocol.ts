/**
 * The leaf every layer of main may import for the client's protocol facts: who the console is
 * (clientInfo), what it declares (capabilities), and the JSON-RPC error handlers throw. Imports
 * nothing of main's own, so no module needs the connection to build an error.
 */
import { ProtocolError } from '@modelcontextprotocol/client';

/** Client identity sent in initialize. */
export const CLIENT_INFO = { name: 'mcp-approval-console', title: 'MCP Approval Console', version: '0.1.0' };

/**
 * Capabilities the console declares, truthfully (only what works end to end):
 * S-CAP-1 `sampling`, S-CAP-2 `sampling.tools` (tools in sampling requests are reviewed, passed to
 * the model, and tool_use answers reviewed); `elicitation` form and URL modes (same queue);
 * `roots` with `listChanged` (folders the person picks per server). Not declared:
 * `sampling.context` (S-CAP-3, so `includeContext` is treated as "none"), tasks.
 */
export const CLIENT_CAPABILITIES = { sampling: { tools: {} }, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } as const;

/** Whether `sampling.tools` is declared (kept next to the capabilities it describes). */
export const SAMPLING_TOOLS_DECLARED = true;

/** Builds the JSON-RPC error a handler throws so the SDK answers `{code, message}` (and `data` when given). */
export function protocolError(code: number, message: string, data?: unknown): ProtocolError {
  return data === undefined ? new ProtocolError(code, message) : new ProtocolError(code, message, data);
}
