/**
 * One MCP server connection through the v2 SDK client (`@modelcontextprotocol/client`): transport
 * (stdio or Streamable HTTP / legacy SSE), initialize with truthfully declared capabilities, the
 * tools list (refreshed on `notifications/tools/list_changed`), stderr tail, and the
 * `sampling/createMessage` handler that hands every request to the sampling pipeline.
 */
import {
  Client,
  ProtocolError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type CreateMessageResult as SdkCreateMessageResult,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { CreateMessageResult } from '../../shared/sampling.js';
import type { ProtocolEra, ServerStatus, ServerView, ToolView } from '../../shared/state.js';
import { isStdio, type ServerConfig } from '../config.js';
import type { ConsolePorts, Logger } from '../ports.js';

/** Client identity sent in initialize. */
export const CLIENT_INFO = { name: 'mcp-approval-console', title: 'MCP Approval Console', version: '0.1.0' };

/**
 * Capabilities the console declares (S-CAP-1: sampling). Only what works end to end is declared:
 * `sampling.tools` (S-CAP-2) and `sampling.context` (S-CAP-3) are not declared yet, so a request
 * carrying tools is refused with -32602 by intake validation.
 */
export const CLIENT_CAPABILITIES = { sampling: {} } as const;

/** Whether `sampling.tools` is declared (kept next to the capabilities it describes). */
export const SAMPLING_TOOLS_DECLARED = false;

/** Default timeout for client requests the person starts: they may wait on a person's review. */
export const DEFAULT_CALL_TIMEOUT_MS = 10 * 60_000;

/** Lines of stderr kept per server. */
const STDERR_LINES = 50;

/** A sampling request as the connection hands it over. */
export interface IncomingSampling {
  serverId: string;
  era: ProtocolEra;
  /** Raw params, not yet validated (intake does that). */
  params: unknown;
  /** Aborts when the server cancels (notifications/cancelled) or the connection closes. */
  signal: AbortSignal;
}

/** What a connection needs from the console. */
export interface ConnectionDeps {
  logger: Logger;
  nodeRuntime?: ConsolePorts['nodeRuntime'];
  /** Called whenever status, tools or stderr change. */
  onChange(): void;
  /**
   * Handles a sampling request; resolves with the result to send, or rejects with a
   * ProtocolError (-1 user rejected, -32602 invalid params).
   */
  onSampling(request: IncomingSampling): Promise<CreateMessageResult>;
}

/** A live connection. */
export interface ServerConnection {
  readonly id: string;
  view(): ServerView;
  /** Connects (again); resolves when ready or when it failed (status tells which). */
  connect(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls a tool. `timeoutMs` counts from the start and is reset by progress notifications.
   * @throws ProtocolError / SdkError from the SDK (timeouts, JSON-RPC errors), Error if not ready
   */
  callTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<{
    content: Array<Record<string, unknown>>;
    isError?: boolean;
    structuredContent?: unknown;
  }>;
  /** Number of client requests of ours in flight now (S-ASSOC-1). */
  inFlight(): number;
}

/** The command line or URL shown for a server. */
export function describeTarget(config: ServerConfig): string {
  return isStdio(config) ? [config.command, ...(config.args ?? [])].join(' ') : config.url;
}

/**
 * Creates (but does not start) a connection.
 * @param id the server's key in the config file
 */
export function createServerConnection(id: string, config: ServerConfig, deps: ConnectionDeps): ServerConnection {
  let client: Client | undefined;
  let status: ServerStatus = 'connecting';
  let error: string | undefined;
  let tools: ToolView[] = [];
  let stderr: string[] = [];
  let partialLine = '';
  let inFlight = 0;
  let generation = 0;
  const timeoutMs = config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;

  const setStatus = (next: ServerStatus, why?: string) => {
    status = next;
    error = why;
    deps.onChange();
  };

  const pushStderr = (chunk: string) => {
    const lines = (partialLine + chunk).split(/\r?\n/);
    partialLine = lines.pop() ?? '';
    stderr = [...stderr, ...lines.filter((l) => l.length > 0)].slice(-STDERR_LINES);
    deps.onChange();
  };

  const makeTransport = () => {
    if (isStdio(config)) {
      const runtime = config.command === 'node' ? deps.nodeRuntime : undefined;
      const transport = new StdioClientTransport({
        command: runtime?.command ?? config.command,
        args: config.args ?? [],
        env: { ...getDefaultEnvironment(), ...runtime?.env, ...config.env },
        cwd: config.cwd,
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (d: Buffer) => pushStderr(d.toString('utf8')));
      return transport;
    }
    const url = new URL(config.url);
    const requestInit = config.headers ? { headers: config.headers } : undefined;
    return config.type === 'sse'
      ? new SSEClientTransport(url, { requestInit })
      : new StreamableHTTPClientTransport(url, { requestInit });
  };

  const refreshTools = async (c: Client) => {
    try {
      const res = await c.listTools();
      tools = res.tools.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: t.inputSchema as Record<string, unknown>,
      }));
      deps.onChange();
    } catch (err) {
      deps.logger.warn('tools/list failed', { server: id, error: String(err) });
    }
  };

  async function connect(): Promise<void> {
    const mine = ++generation;
    await client?.close().catch(() => undefined);
    stderr = [];
    tools = [];
    setStatus('connecting');
    const protocol = config.protocol ?? 'legacy';
    const c = new Client(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      versionNegotiation: protocol === 'legacy' ? undefined : protocol === 'auto' ? { mode: 'auto' } : { mode: { pin: protocol } },
      listChanged: {
        tools: {
          onChanged: (err, list) => {
            if (err || !list) return void refreshTools(c);
            tools = list.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema as Record<string, unknown> }));
            deps.onChange();
          },
        },
      },
    });
    c.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      const era: ProtocolEra = c.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
      const result = await deps.onSampling({ serverId: id, era, params: request.params, signal: ctx.mcpReq.signal });
      // Our schema (shared/sampling.ts) is the spec's; the SDK re-validates the result on the way out.
      return result as SdkCreateMessageResult;
    });
    c.onclose = () => {
      if (mine !== generation || client !== c) return;
      const tail = stderr.at(-1);
      setStatus('disconnected', `connection closed${tail ? `: ${tail}` : ''}`);
    };
    client = c;
    try {
      await c.connect(makeTransport(), { timeout: 30_000 });
      if (mine !== generation) return;
      setStatus('ready');
      await refreshTools(c);
    } catch (err) {
      if (mine !== generation) return;
      setStatus('error', err instanceof Error ? err.message : String(err));
      deps.logger.warn('connect failed', { server: id, error: String(err) });
    }
  }

  return {
    id,
    view: () => ({
      id,
      transport: isStdio(config) ? 'stdio' : config.type === 'sse' ? 'sse' : 'http',
      target: describeTarget(config),
      status,
      error,
      stderrTail: stderr,
      tools,
      protocolVersion: client?.getNegotiatedProtocolVersion(),
      era: client?.getProtocolEra(),
      serverInfo: client?.getServerVersion(),
      inFlight,
    }),
    connect,
    async close() {
      generation++;
      const c = client;
      client = undefined;
      await c?.close().catch(() => undefined);
      setStatus('disconnected', 'closed by the console');
    },
    async callTool(name, args, options) {
      if (!client || status !== 'ready') throw new Error(`server "${id}" is not connected (${status})`);
      inFlight++;
      deps.onChange();
      try {
        const res = await client.callTool({ name, arguments: args }, { timeout: timeoutMs, resetTimeoutOnProgress: true, signal: options?.signal });
        return {
          content: (res.content ?? []) as Array<Record<string, unknown>>,
          isError: res.isError,
          structuredContent: res.structuredContent,
        };
      } finally {
        inFlight--;
        deps.onChange();
      }
    },
    inFlight: () => inFlight,
  };
}

/** Builds the JSON-RPC error a handler throws so the SDK answers `{code, message}`. */
export function protocolError(code: number, message: string): ProtocolError {
  return new ProtocolError(code, message);
}
