/**
 * One MCP server connection through the v2 SDK client (`@modelcontextprotocol/client`): transport
 * (stdio or Streamable HTTP / legacy SSE), initialize with truthfully declared capabilities, the
 * tools list (refreshed on `notifications/tools/list_changed`), stderr tail, and the
 * `sampling/createMessage` handler that hands every request to the sampling pipeline.
 */
import {
  isInputRequiredResult,
  ProtocolError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type CreateMessageResult as SdkCreateMessageResult,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { CreateMessageResult } from '../../shared/sampling.js';
import type { CallRef, ProtocolEra, ServerStatus, ServerView, ToolView } from '../../shared/state.js';
import { isStdio, type ServerConfig } from '../config.js';
import type { ConsolePorts, Logger } from '../ports.js';
import { ConsoleClient, markHandlerEntered } from './console-client.js';
import type { EraCache } from './era-cache.js';
import type { ElicitResult } from '../../shared/elicitation.js';
import type { IncomingElicitation } from '../elicitation/queue.js';
import type { Root } from '../roots.js';

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

/** Most `input_required` rounds one call may take before the console gives up (MRTR). */
export const MAX_INPUT_ROUNDS = 10;

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
  /**
   * Aborts when the server cancels (notifications/cancelled), its request times out on our side,
   * or the connection closes. The reason says which.
   */
  signal: AbortSignal;
  /** The call it belongs to when the protocol says so (MRTR); legacy push leaves it unset. */
  call?: CallRef;
  /**
   * Sends `notifications/progress` for this request; present only when the server gave a
   * progressToken (a client may send progress only then).
   */
  progress?(message: string): void;
}

/** Thrown when a 2026-07-28 call ends because the person declined an input request (S-MRTR-3). */
export class InputDeclinedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputDeclinedError';
  }
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
  /** Handles an elicitation request (form or URL mode) through the queue; resolves with the answer. */
  onElicitation?(request: IncomingElicitation): Promise<ElicitResult>;
  /** `notifications/elicitation/complete` for a URL-mode elicitation. */
  onElicitationComplete?(serverId: string, elicitationId: string): void;
  /** A -32042 "URL elicitation required" error on a call: its URL elicitations for the person. */
  onUrlElicitationRequired?(serverId: string, elicitations: unknown[], call: CallRef): void;
  /** The roots offered to this server (`roots/list`). */
  roots?(serverId: string): Root[];
  /** Remembered protocol eras (for `protocol: "auto"`); optional in tests. */
  eras?: EraCache;
  /** Intake gate, run before the SDK's own validation (records refusals; see ConsoleClient). */
  samplingIntake(serverId: string, rawParams: unknown): void;
  /** Records a request the SDK refused although the gate passed it. */
  samplingRefusedBySdk(serverId: string, rawParams: unknown, message: string): void;
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
  callTool(name: string, args: Record<string, unknown>, options: { call: CallRef; signal?: AbortSignal }): Promise<{
    content: Array<Record<string, unknown>>;
    isError?: boolean;
    structuredContent?: unknown;
  }>;
  /** Number of client requests of ours in flight now (S-ASSOC-1). */
  inFlight(): number;
  /** Sends `notifications/roots/list_changed` (when connected). */
  notifyRootsChanged(): Promise<void>;
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
  let client: ConsoleClient | undefined;
  /** Aborted when the current connection closes: ends MRTR input requests that belong to it. */
  let connectionAbort = new AbortController();
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

  const refreshTools = async (c: ConsoleClient) => {
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

  async function connect(retryWithoutPrior = false): Promise<void> {
    const mine = ++generation;
    await client?.close().catch(() => undefined);
    stderr = [];
    tools = [];
    setStatus('connecting');
    const protocol = config.protocol ?? 'auto';
    const target = describeTarget(config);
    const cached = protocol === 'auto' && !retryWithoutPrior ? deps.eras?.get(id, target, Date.now()) : undefined;
    const prior = cached?.era === 'legacy' ? { kind: 'legacy' as const } : cached?.discover ? { kind: 'modern' as const, discover: cached.discover as never } : undefined;
    connectionAbort.abort(new Error('connection closed'));
    connectionAbort = new AbortController();
    const c = new ConsoleClient(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      // MRTR is driven by callTool below so each input request is tied to its exact call.
      inputRequired: { autoFulfill: false },
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
    c.samplingGate = {
      intake: (raw) => deps.samplingIntake(id, raw),
      onSdkRefusal: (raw, message) => deps.samplingRefusedBySdk(id, raw, message),
    };
    c.setRequestHandler('sampling/createMessage', async (request, ctx) => {
      markHandlerEntered(ctx);
      const era: ProtocolEra = c.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
      const progressToken = request.params._meta?.progressToken;
      let step = 0;
      const progress =
        progressToken === undefined
          ? undefined
          : (message: string) => {
              step += 1;
              void ctx.mcpReq
                .notify({ method: 'notifications/progress', params: { progressToken, progress: step, message } })
                .catch((err: unknown) => deps.logger.warn('progress notification failed', { server: id, error: String(err) }));
            };
      const result = await deps.onSampling({ serverId: id, era, params: request.params, signal: ctx.mcpReq.signal, progress });
      // Our schema (shared/sampling.ts) is the spec's; the SDK re-validates the result on the way out.
      return result as SdkCreateMessageResult;
    });
    // Elicitation and roots (both eras; on MRTR they arrive embedded, see callWithInputRounds).
    c.setRequestHandler('elicitation/create', async (request, ctx) => {
      if (!deps.onElicitation) throw protocolError(-32601, 'elicitation is not available');
      const era: ProtocolEra = c.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
      return (await deps.onElicitation({ serverId: id, era, params: request.params, signal: ctx.mcpReq.signal })) as never;
    });
    c.setRequestHandler('roots/list', async () => ({ roots: deps.roots?.(id) ?? [] }));
    c.setNotificationHandler('notifications/elicitation/complete', (n) => deps.onElicitationComplete?.(id, n.params.elicitationId));
    c.onclose = () => {
      if (mine !== generation || client !== c) return;
      connectionAbort.abort(new Error('connection closed'));
      const tail = stderr.at(-1);
      setStatus('disconnected', `connection closed${tail ? `: ${tail}` : ''}`);
    };
    client = c;
    try {
      await c.connect(makeTransport(), { timeout: 30_000, ...(prior ? { prior } : {}) });
      if (mine !== generation) return;
      if (protocol === 'auto') {
        deps.eras?.set(id, { era: c.getProtocolEra() ?? 'legacy', protocolVersion: c.getNegotiatedProtocolVersion(), target, at: Date.now(), discover: c.getDiscoverResult() });
      }
      setStatus('ready');
      await refreshTools(c);
    } catch (err) {
      if (mine !== generation) return;
      if (prior) {
        // The remembered era may be stale (the server was upgraded or downgraded): probe afresh.
        deps.eras?.forget(id);
        return connect(true);
      }
      setStatus('error', err instanceof Error ? err.message : String(err));
      deps.logger.warn('connect failed', { server: id, error: String(err) });
    }
  }

  /**
   * tools/call, driving 2026-07-28 `input_required` rounds by hand (S-MRTR-1): every embedded
   * sampling request goes through the same queue with its exact call, then the call is retried on a
   * fresh id with `inputResponses` and the untouched `requestState`. If the person declines, the
   * call is not retried (S-MRTR-3) and ends with {@link InputDeclinedError}.
   */
  async function callWithInputRounds(c: ConsoleClient, name: string, args: Record<string, unknown>, call: CallRef, signal?: AbortSignal) {
    let params: Record<string, unknown> = { name, arguments: args };
    const options = { timeout: timeoutMs, resetTimeoutOnProgress: true, signal, allowInputRequired: true };
    for (let round = 1; ; round++) {
      const res: unknown = await c.callTool(params as { name: string }, options);
      if (!isInputRequiredResult(res)) return res as { content?: unknown[]; isError?: boolean; structuredContent?: unknown };
      if (round > MAX_INPUT_ROUNDS) throw new Error(`the server asked for input ${round} times; the console stops after ${MAX_INPUT_ROUNDS} rounds`);
      const requests = Object.entries(res.inputRequests ?? {});
      const declared = ['sampling/createMessage', 'elicitation/create', 'roots/list'];
      const undeclared = requests.find(([, r]) => !declared.includes(r.method));
      if (undeclared) {
        throw new Error(`S-MRTR-2: the server asked for ${undeclared[1].method} (input "${undeclared[0]}"), a capability this console did not declare; the call was not retried`);
      }
      const callSignal = signal ? AbortSignal.any([signal, connectionAbort.signal]) : connectionAbort.signal;
      const settled = await Promise.allSettled(
        requests.map(async ([key, r]): Promise<readonly [string, unknown]> => {
          if (r.method === 'roots/list') return [key, { roots: deps.roots?.(id) ?? [] }];
          if (r.method === 'elicitation/create') {
            if (!deps.onElicitation) throw new Error('elicitation is not available');
            // A decline is an ordinary ElicitResult on MRTR (S-MRTR-3): it is sent back on the retry.
            return [key, await deps.onElicitation({ serverId: id, era: 'modern', params: r.params, signal: callSignal, call })];
          }
          deps.samplingIntake(id, r.params);
          const result = await deps.onSampling({ serverId: id, era: 'modern', params: r.params, signal: callSignal, call });
          return [key, result] as const;
        }),
      );
      const failed = settled.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed) {
        const err = failed.reason as { code?: number; message?: string };
        if (err.code === -1) throw new InputDeclinedError('You declined the sampling request, so the call was not retried (MRTR has no rejection message: the server is not waiting).');
        throw new Error(`The server's input request could not be fulfilled (${err.message ?? String(err)}); the call was not retried.`);
      }
      const inputResponses = Object.fromEntries(settled.map((o) => (o as PromiseFulfilledResult<readonly [string, unknown]>).value));
      params = { name, arguments: args, inputResponses, requestState: res.requestState };
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
    connect: () => connect(),
    async close() {
      generation++;
      connectionAbort.abort(new Error('connection closed'));
      const c = client;
      client = undefined;
      await c?.close().catch(() => undefined);
      setStatus('disconnected', 'closed by the console');
    },
    async callTool(name, args, options) {
      const c = client;
      if (!c || status !== 'ready') throw new Error(`server "${id}" is not connected (${status})`);
      inFlight++;
      deps.onChange();
      try {
        const res = await callWithInputRounds(c, name, args, options.call, options.signal).catch((err: unknown) => {
          const e = err as { code?: number; data?: { elicitations?: unknown[] } };
          if (e.code === -32042 && Array.isArray(e.data?.elicitations)) deps.onUrlElicitationRequired?.(id, e.data.elicitations, options.call);
          throw err;
        });
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
    async notifyRootsChanged() {
      if (client && status === 'ready') await client.sendRootsListChanged();
    },
  };
}

/** Builds the JSON-RPC error a handler throws so the SDK answers `{code, message}`. */
export function protocolError(code: number, message: string): ProtocolError {
  return new ProtocolError(code, message);
}
