/**
 * One MCP server connection through the v2 SDK client (`@modelcontextprotocol/client`): transport
 * (transport.ts: stdio, Streamable HTTP or legacy SSE, wrapped by the protocol log), connect with
 * truthfully declared capabilities and the remembered era, what the server offers (catalog.ts,
 * refreshed on list_changed), stderr, automatic reconnection with backoff (backoff.ts), the
 * person's requests (`tools/call`, `prompts/get`, `resources/read`, with 2026-07-28 input rounds
 * driven by input-rounds.ts), and the handlers that hand every request the server makes of the
 * console (sampling, elicitation, roots) to its one door, in the envelope of server-requests.ts.
 */
import { Client, UnauthorizedError, type CreateMessageResult as SdkCreateMessageResult } from '@modelcontextprotocol/client';
import type { ProtocolEra, ReconnectView, ServerStatus } from '../../shared/state.js';
import { isStdio, type ServerConfig } from '../config.js';
import { MAX_RECONNECT_ATTEMPTS, reconnectDelay } from './backoff.js';
import { createCatalogKeeper, emptyCatalog, type Catalog } from './catalog.js';
import { checkToolOutput, roundDefinition } from './tool-output.js';
import { CLIENT_CAPABILITIES, CLIENT_INFO, protocolError } from './protocol.js';
import type { CallOptions, ConnectionDeps, ServerConnection } from './connection-types.js';
import { InputDeclinedError, requestWithInputRounds, type InputHandlers } from './input-rounds.js';
import { ServerLog } from './protocol-log.js';
import { buildTransport, type BuiltTransport } from './transport.js';
import { embeddedRequest, pushedRequest } from './server-requests.js';
import { RequestAbort } from '../requests/incoming.js';
import { english, ui } from '../../shared/ui-text.js';

/** The warning on a legacy HTTP+SSE entry. */
const SSE_DEPRECATED = ui('server.sseDeprecated');

export { InputDeclinedError, MAX_INPUT_ROUNDS } from './input-rounds.js';
export { CLIENT_CAPABILITIES, CLIENT_INFO, protocolError, SAMPLING_TOOLS_DECLARED } from './protocol.js';
export type { CallOptions, ConnectionAuth, ConnectionDeps, ServerConnection, ToolCallOutcome } from './connection-types.js';

/** Default timeout for client requests the person starts: they may wait on a person's review. */
export const DEFAULT_CALL_TIMEOUT_MS = 10 * 60_000;

/** Lines of stderr kept in state per server (the full log keeps 2,000: protocol-log.ts). */
const STDERR_LINES = 50;

/** The command line or URL shown for a server. */
export function describeTarget(config: ServerConfig): string {
  return isStdio(config) ? [config.command, ...(config.args ?? [])].join(' ') : config.url;
}

/**
 * Creates (but does not start) a connection.
 * @param id the server's key in the config file
 */
export function createServerConnection(id: string, config: ServerConfig, deps: ConnectionDeps): ServerConnection {
  const now = deps.now ?? Date.now;
  const log = new ServerLog(now);
  let client: Client | undefined;
  let built: BuiltTransport | undefined;
  /** Aborted when the current connection closes: ends MRTR input requests that belong to it. */
  let connectionAbort = new AbortController();
  let status: ServerStatus = 'connecting';
  let error: string | undefined;
  let catalog: Catalog = emptyCatalog();
  let stderr: string[] = [];
  let partialLine = '';
  let inFlight = 0;
  let generation = 0;
  let connectedAt: number | undefined;
  let reconnect: ReconnectView | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const timeoutMs = config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;

  const setStatus = (next: ServerStatus, why?: string) => {
    status = next;
    error = why;
    deps.onChange();
  };

  const pushStderr = (chunk: string) => {
    const lines = (partialLine + chunk).split(/\r?\n/);
    partialLine = lines.pop() ?? '';
    const full = lines.filter((l) => l.length > 0);
    for (const l of full) log.addStderr(l);
    stderr = [...stderr, ...full].slice(-STDERR_LINES);
    deps.onChange();
  };

  const catalogKeeper = createCatalogKeeper({
    serverId: id,
    logger: deps.logger,
    get: () => catalog,
    set: (next) => {
      catalog = next;
      deps.onChange();
    },
    current: () => client,
    onError: (err) => authLost(err),
  });

  /** A 401 that refreshing could not fix (or no tokens at all): the person has to sign in again. */
  function authLost(err: unknown): void {
    if (!deps.auth || !(err instanceof UnauthorizedError) || status === 'needs_auth') return;
    setStatus('needs_auth', 'The server requires you to sign in (OAuth).');
  }

  const cancelReconnect = () => {
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
  };

  /** Schedules the next automatic attempt, or gives up after MAX_RECONNECT_ATTEMPTS. */
  const scheduleReconnect = () => {
    if (closed) return;
    cancelReconnect();
    const attempt = (reconnect?.attempt ?? 0) + 1;
    if (attempt > MAX_RECONNECT_ATTEMPTS) {
      reconnect = { attempt: MAX_RECONNECT_ATTEMPTS, maxAttempts: MAX_RECONNECT_ATTEMPTS, gaveUp: true };
      deps.onChange();
      return;
    }
    const delay = reconnectDelay(attempt);
    reconnect = { attempt, maxAttempts: MAX_RECONNECT_ATTEMPTS, nextAt: now() + delay };
    deps.onChange();
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connectOnce(false);
    }, delay);
    reconnectTimer.unref?.();
  };

  /** The handlers of embedded MRTR input requests (2026-07-28), by method: each enters the console's one door. */
  const inputHandlers: InputHandlers = {
    'sampling/createMessage': async (params, ctx) => {
      try {
        return await deps.requests.receive(embeddedRequest('sampling', id, params, ctx));
      } catch (err) {
        if ((err as { code?: number }).code === -1) {
          throw new InputDeclinedError('You declined the sampling request, so the call was not retried (MRTR has no rejection message: the server is not waiting).');
        }
        throw err;
      }
    },
    'roots/list': (params, ctx) => deps.requests.receive(embeddedRequest('roots', id, params, ctx)),
    // A decline is an ordinary ElicitResult on MRTR (S-MRTR-3): it is sent back on the retry.
    'elicitation/create': (params, ctx) => deps.requests.receive(embeddedRequest('elicitation', id, params, ctx)),
  };

  async function connectOnce(retryWithoutPrior: boolean): Promise<void> {
    const mine = ++generation;
    cancelReconnect();
    await client?.close().catch(() => undefined);
    stderr = [];
    catalog = emptyCatalog();
    connectedAt = undefined;
    setStatus('connecting');
    const protocol = config.protocol ?? 'auto';
    const target = describeTarget(config);
    const cached = protocol === 'auto' && !retryWithoutPrior ? deps.eras?.get(id, target, now()) : undefined;
    const prior = cached?.era === 'legacy' ? { kind: 'legacy' as const } : cached?.discover ? { kind: 'modern' as const, discover: cached.discover as never } : undefined;
    connectionAbort.abort(new RequestAbort('connection_closed'));
    connectionAbort = new AbortController();
    const c = new Client(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      // MRTR is driven by requestWithInputRounds so each input request is tied to its exact call.
      inputRequired: { autoFulfill: false },
      versionNegotiation: protocol === 'legacy' ? undefined : protocol === 'auto' ? { mode: 'auto' } : { mode: { pin: protocol } },
      listChanged: catalogKeeper.handlers(),
    });
    const at = () => ({ serverId: id, era: (c.getProtocolEra() === 'modern' ? 'modern' : 'legacy') as ProtocolEra });
    // A pushed sampling request (2025-11-25 era) reaches the console as it came, through the SDK's
    // public fallback handler rather than a registered one (which the SDK validates first, with its
    // own message and no trace): intake validates it once, records a refusal with its rule (S-…),
    // and answers -32602 with a readable message. No other method has a fallback.
    c.fallbackRequestHandler = async (request, ctx) => {
      if (request.method !== 'sampling/createMessage') throw protocolError(-32601, 'Method not found');
      const notify = (params: { progressToken: string | number; progress: number; message: string }) =>
        ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch((err: unknown) => deps.logger.warn('progress notification failed', { server: id, error: String(err) }));
      return (await deps.requests.receive(pushedRequest('sampling', at(), request.params, ctx.mcpReq.signal, notify))) as SdkCreateMessageResult;
    };
    // Elicitation and roots (both eras; on MRTR they arrive embedded, see inputHandlers).
    c.setRequestHandler('elicitation/create', async (request, ctx) => (await deps.requests.receive(pushedRequest('elicitation', at(), request.params, ctx.mcpReq.signal))) as never);
    c.setRequestHandler('roots/list', (request, ctx) => deps.requests.receive(pushedRequest('roots', at(), request.params, ctx.mcpReq.signal)));
    c.setNotificationHandler('notifications/elicitation/complete', (n) => deps.onElicitationComplete?.(id, n.params.elicitationId));
    c.onclose = () => {
      if (mine !== generation || client !== c) return;
      connectionAbort.abort(new RequestAbort('connection_closed'));
      const tail = stderr.at(-1);
      connectedAt = undefined;
      setStatus('disconnected', `connection closed${tail ? `: ${tail}` : ''}`);
      scheduleReconnect();
    };
    client = c;
    try {
      built = buildTransport(config, { log, nodeRuntime: deps.nodeRuntime, onStderr: pushStderr, authProvider: deps.auth?.provider, offload: deps.offload });
      await c.connect(built.transport, { timeout: 30_000, ...(prior ? { prior } : {}) });
      if (mine !== generation) return;
      if (protocol === 'auto') {
        deps.eras?.set(id, { era: c.getProtocolEra() ?? 'legacy', protocolVersion: c.getNegotiatedProtocolVersion(), target, at: now(), discover: c.getDiscoverResult() });
      }
      reconnect = undefined;
      connectedAt = now();
      setStatus('ready');
      await catalogKeeper.refreshAll(c);
    } catch (err) {
      if (mine !== generation) return;
      if (prior) {
        // The remembered era may be stale (the server was upgraded or downgraded): probe afresh.
        deps.eras?.forget(id);
        return connectOnce(true);
      }
      if (deps.auth && err instanceof UnauthorizedError) {
        reconnect = undefined;
        setStatus('needs_auth', 'The server requires you to sign in (OAuth).');
        return;
      }
      // The server's last words on stderr usually say why (a missing key, a bad path…).
      const tail = stderr.at(-1);
      setStatus('error', `${err instanceof Error ? err.message : String(err)}${tail ? ` — stderr: ${tail}` : ''}`);
      deps.logger.warn('connect failed', { server: id, error: String(err) });
      scheduleReconnect();
    }
  }

  /**
   * Runs one of the person's requests on the ready client, counting it in flight. A -32042 "URL
   * elicitation required" error hands its URL elicitations to the queue before it is rethrown.
   */
  async function run<T>(what: (c: Client, signal: AbortSignal) => Promise<T>, options: CallOptions): Promise<T> {
    const c = client;
    if (!c || status !== 'ready') throw new Error(`server "${id}" is not connected (${status})`);
    inFlight++;
    deps.onChange();
    try {
      return await what(c, options.signal ? AbortSignal.any([options.signal, connectionAbort.signal]) : connectionAbort.signal);
    } catch (err) {
      authLost(err);
      const e = err as { code?: number; data?: { elicitations?: unknown[] } };
      if (e.code === -32042 && Array.isArray(e.data?.elicitations)) deps.onUrlElicitationRequired?.(id, e.data.elicitations, options.call);
      throw err;
    } finally {
      inFlight--;
      deps.onChange();
    }
  }
  const requestOptions = (signal?: AbortSignal) => ({ timeout: timeoutMs, resetTimeoutOnProgress: true, signal, allowInputRequired: true });

  return {
    id,
    log,
    view: () => ({
      id,
      transport: isStdio(config) ? 'stdio' : config.type === 'sse' ? 'sse' : 'http',
      target: describeTarget(config),
      status,
      error,
      stderrTail: stderr,
      tools: catalog.tools,
      prompts: catalog.prompts,
      resources: catalog.resources,
      resourceTemplates: catalog.resourceTemplates,
      protocolVersion: client?.getNegotiatedProtocolVersion(),
      era: client?.getProtocolEra(),
      serverInfo: client?.getServerVersion(),
      capabilities: status === 'ready' ? (client?.getServerCapabilities() as Record<string, unknown> | undefined) : undefined,
      instructions: status === 'ready' ? client?.getInstructions() : undefined,
      inFlight,
      pid: status === 'ready' ? (built?.stdio?.pid ?? undefined) : undefined,
      connectedAt,
      reconnect,
      auth: deps.auth?.view(),
      logTotals: { protocol: log.protocol.total, stderr: log.stderr.total },
      ...(!isStdio(config) && config.type === 'sse' && { warning: english(SSE_DEPRECATED), warningUi: SSE_DEPRECATED }),
    }),
    async connect() {
      closed = false;
      reconnect = undefined;
      await connectOnce(false);
    },
    async close() {
      closed = true;
      generation++;
      cancelReconnect();
      reconnect = undefined;
      connectionAbort.abort(new RequestAbort('connection_closed'));
      const c = client;
      client = undefined;
      connectedAt = undefined;
      await c?.close().catch(() => undefined);
      setStatus('disconnected', 'closed by the console');
    },
    async callTool(name, args, options) {
      const tool = catalog.tools.find((t) => t.name === name);
      const res = await run(
        async (c, signal) => {
          const final = await requestWithInputRounds<{ content?: unknown[]; isError?: boolean; structuredContent?: unknown }>(
            // Each round without the output schema: an input_required reply is not a result (tool-output.ts).
            (params) => c.callTool(params as { name: string }, { ...requestOptions(options.signal), toolDefinition: roundDefinition(tool, name) }),
            { name, arguments: args },
            { call: options.call, signal, handlers: inputHandlers },
          );
          await checkToolOutput(tool, final);
          return final;
        },
        options,
      );
      return { content: (res.content ?? []) as Array<Record<string, unknown>>, isError: res.isError, structuredContent: res.structuredContent };
    },
    async getPrompt(name, args, options) {
      const res = await run(
        (c, signal) =>
          requestWithInputRounds<{ description?: string; messages: Array<{ role: string; content: unknown }> }>(
            (params) => c.getPrompt(params as { name: string }, requestOptions(options.signal)),
            { name, arguments: args },
            { call: options.call, signal, handlers: inputHandlers },
          ),
        options,
      );
      return { description: res.description, messages: res.messages.map((m) => ({ role: m.role, content: m.content as Record<string, unknown> })) };
    },
    async readResource(uri, options) {
      const res = await run(
        (c, signal) =>
          requestWithInputRounds<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>(
            (params) => c.readResource(params as { uri: string }, { ...requestOptions(options.signal), cacheMode: 'bypass' }),
            { uri },
            { call: options.call, signal, handlers: inputHandlers },
          ),
        options,
      );
      return { contents: res.contents.map((x) => ({ uri: x.uri, mimeType: x.mimeType, text: x.text, blob: x.blob })) };
    },
    inFlight: () => inFlight,
    async notifyRootsChanged() {
      // 2026-07-28 has no such notification (the SDK refuses to send it): MRTR servers ask for the
      // roots inside each input_required round, so they always get the current list.
      if (client && status === 'ready' && client.getProtocolEra() !== 'modern') await client.sendRootsListChanged();
    },
  };
}
