/**
 * The `servers` slice of the console state (shared/contract/state.ts re-exports everything here): each
 * configured MCP server, its live connection and what it offers. Plain JSON data; times are epoch
 * ms. Kept apart from state.ts only to keep files small; state.ts is still the one contract.
 */
import type { ProtocolEra } from './primitives.js';
import type { UiText } from './ui-text.js';

/** Transport kinds the console speaks. */
export type TransportKind = 'stdio' | 'http' | 'sse';

/**
 * Connection status of one server. `disabled`: `"disabled": true` in the config (no connection);
 * `needs_auth`: an HTTP server answered 401 and the person has to sign in (OAuth).
 */
export type ServerStatus = 'connecting' | 'ready' | 'error' | 'disconnected' | 'disabled' | 'needs_auth';

/** A tool a server offers (from `tools/list`). */
export interface ToolView {
  name: string;
  title?: string;
  description?: string;
  /** JSON Schema of the arguments (`type: "object"`). */
  inputSchema: Record<string, unknown>;
  /** JSON Schema of the tool's `structuredContent`, when it declares one. */
  outputSchema?: Record<string, unknown>;
}

/** A prompt a server offers (from `prompts/list`). */
export interface PromptView {
  name: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; title?: string; description?: string; required: boolean }>;
}

/** A resource a server offers (from `resources/list`). */
export interface ResourceView {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, when the server says. */
  size?: number;
}

/** A resource template (from `resources/templates/list`): an RFC 6570 URI template. */
export interface ResourceTemplateView {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/**
 * Automatic reconnection after a crash or a dropped stream: `attempt` of `maxAttempts` (1-based)
 * is scheduled at `nextAt`; `gaveUp` once they are used up (only "Retry now" reconnects then).
 */
export interface ReconnectView {
  attempt: number;
  maxAttempts: number;
  nextAt?: number;
  gaveUp?: boolean;
}

/** OAuth state of an HTTP server. Tokens never appear here, only whether there are any. */
export interface ServerAuthView {
  /** `signed_in`: tokens are stored; `pending`: the browser is open on the authorization page. */
  status: 'signed_out' | 'pending' | 'signed_in';
  /** When the stored access token expires (epoch ms), if the server said. */
  expiresAt?: number;
  /** The last sign-in failure, readable. */
  error?: string;
}

/** One configured MCP server and its live connection. */
export interface ServerView {
  /** The key under `mcpServers` in the config file. */
  id: string;
  transport: TransportKind;
  /** What is connected to, for display: the command line or the URL. */
  target: string;
  status: ServerStatus;
  /** Why the connection failed or closed (status `error` / `disconnected`). */
  error?: string;
  /** The last lines the server wrote to stderr (stdio only), oldest first; at most 50. */
  stderrTail: string[];
  tools: ToolView[];
  protocolVersion?: string;
  era?: ProtocolEra;
  /**
   * Tools known to need a protocol era other than this connection's, by tool name: `learned`
   * from the server's failure, or set by the `person`; such tools are called on a second session
   * of that era (opened on demand, closed when idle).
   */
  toolEras?: Record<string, { needs: ProtocolEra; learned: 'failure' | 'person'; detail: string; at: number }>;
  serverInfo?: { name: string; version: string; title?: string };
  /** Client requests of ours (tools/call, …) in flight to this server now. */
  inFlight: number;
  /** Folders offered to this server as roots (`file://` URIs), picked by the person. */
  roots?: Array<{ uri: string; name?: string }>;
  /** Process id of a running stdio server. */
  pid?: number;
  /** The capabilities the server declared (as sent), once connected. */
  capabilities?: Record<string, unknown>;
  /** The server's `instructions`, if any. */
  instructions?: string;
  /** When the current connection became ready. */
  connectedAt?: number;
  prompts?: PromptView[];
  resources?: ResourceView[];
  resourceTemplates?: ResourceTemplateView[];
  /** Set while the console reconnects on its own (or gave up). */
  reconnect?: ReconnectView;
  /** OAuth state, for HTTP servers that asked for authorization. */
  auth?: ServerAuthView;
  /** Log entries written since start (the logs themselves come from `getServerLog`). */
  logTotals?: { protocol: number; stderr: number };
  /** The deprecated HTTP+SSE transport, or anything else the person should know about the entry (English). */
  warning?: string;
  /** `warning` as a message code. */
  warningUi?: UiText;
}
