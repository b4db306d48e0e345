/**
 * The shapes around one MCP server connection (connection.ts): what it needs from the console
 * (ConnectionDeps: above all the door every server request enters through, in the one envelope of
 * main/requests/incoming.ts) and what it offers (ServerConnection).
 */
import type { AuthProvider } from '@modelcontextprotocol/client';
import type { CallRef, CallView, ServerAuthView, ServerView } from '../../shared/contract/state.js';
import type { Offload } from '../offload/offload.js';
import type { ServerConfig } from '../config.js';
import type { ConsolePorts, Logger } from '../ports.js';
import type { ServerRequestRouter } from '../requests/router.js';
import type { EraCache } from './era-cache.js';
import type { ServerLog } from './protocol-log.js';

/** OAuth for an HTTP server (main/servers/oauth): the transport's auth provider and what to show. */
export interface ConnectionAuth {
  /** Adds the bearer token and handles 401 (refresh, or UnauthorizedError → `needs_auth`). */
  provider: AuthProvider;
  view(): ServerAuthView | undefined;
}

/** What a connection needs from the console. */
export interface ConnectionDeps {
  logger: Logger;
  nodeRuntime?: ConsolePorts['nodeRuntime'];
  /** Where big stdio lines are parsed (main/offload); absent: inline. */
  offload?: Offload;
  /** Clock for logs and reconnect times (epoch ms); default Date.now. */
  now?: () => number;
  /** Called whenever status, lists or stderr change. */
  onChange(): void;
  /**
   * Where every request the server makes of the console goes (sampling, elicitation, roots; pushed
   * or embedded in an `input_required` result), wrapped by server-requests.ts; resolves with the
   * answer, or rejects with a ProtocolError (-1 user rejected, -32602 invalid params, …).
   */
  requests: ServerRequestRouter;
  /** `notifications/elicitation/complete` for a URL-mode elicitation. */
  onElicitationComplete?(serverId: string, elicitationId: string): void;
  /** A -32042 "URL elicitation required" error on a call: its URL elicitations for the person. */
  onUrlElicitationRequired?(serverId: string, elicitations: unknown[], call: CallRef): void;
  /** Remembered protocol eras (for `protocol: "auto"`); optional in tests. */
  eras?: EraCache;
  /** OAuth for HTTP servers; absent: no Authorization header is sent (config `headers` aside). */
  auth?: ConnectionAuth;
  /**
   * Environment added to a stdio server's launch, over its entry's `env` (the provider gateway's
   * base URLs and this server's token when the entry has `providerGateway`); absent: none.
   */
  launchEnv?(serverId: string, config: ServerConfig): Record<string, string> | undefined;
}

/** Options of a request the person starts. */
export interface CallOptions {
  call: CallRef;
  signal?: AbortSignal;
}

/** A `tools/call` result as the console keeps it. */
export interface ToolCallOutcome {
  content: Array<Record<string, unknown>>;
  isError?: boolean;
  structuredContent?: unknown;
}

/** A live connection. */
export interface ServerConnection {
  readonly id: string;
  /** The stderr and protocol logs (kept across reconnects). */
  readonly log: ServerLog;
  view(): ServerView;
  /** Connects (again) now, resetting automatic reconnection; resolves when ready or failed (status tells which). */
  connect(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls a tool. `timeoutMs` counts from the start and is reset by progress notifications.
   * @throws ProtocolError / SdkError from the SDK (timeouts, JSON-RPC errors), Error if not ready,
   *   InputDeclinedError when the person declined an MRTR input request
   */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolCallOutcome>;
  /** `prompts/get` with string arguments. @throws like callTool */
  getPrompt(name: string, args: Record<string, string>, options: CallOptions): Promise<NonNullable<CallView['prompt']>>;
  /** `resources/read` (bypassing the SDK's response cache). @throws like callTool */
  readResource(uri: string, options: CallOptions): Promise<NonNullable<CallView['resource']>>;
  /** Number of client requests of ours in flight now (S-ASSOC-1). */
  inFlight(): number;
  /** Sends `notifications/roots/list_changed` (when connected on the 2025 era; 2026-07-28 has no such notification). */
  notifyRootsChanged(): Promise<void>;
}
