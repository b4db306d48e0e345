/**
 * One MCP server connection through the v2 SDK client (`@modelcontextprotocol/client`): transport
 * (transport.ts: stdio, Streamable HTTP or legacy SSE, wrapped by the protocol log), connect with
 * truthfully declared capabilities and the remembered era, what the server offers (catalog.ts,
 * refreshed on list_changed), stderr, automatic reconnection with backoff (backoff.ts), the
 * person's requests (`tools/call`, `prompts/get`, `resources/read`, with 2026-07-28 input rounds
 * driven by input-rounds.ts), and the handlers that hand every request the server makes of the
 * console (sampling, elicitation, roots) to its one door, in the envelope of server-requests.ts.
 */
import { Client, UnauthorizedError, type PriorDiscovery } from '@modelcontextprotocol/client';
import type { CallView, ReconnectView, ServerStatus, ServerView } from '../../shared/contract/state.js';
import { isStdio, type ServerConfig } from '../config.js';
import { MAX_RECONNECT_ATTEMPTS, reconnectDelay } from './backoff.js';
import { createCatalogKeeper, emptyCatalog, type Catalog } from './catalog.js';
import { checkToolOutput, roundDefinition } from './tool-output.js';
import { CLIENT_CAPABILITIES, CLIENT_INFO } from './protocol.js';
import type { CallOptions, ConnectionDeps, ServerConnection, ToolCallOutcome } from './connection-types.js';
import { requestWithInputRounds, type InputHandlers } from './input-rounds.js';
import { refusesLegacy } from './legacy-refusal.js';
import { ServerLog } from './protocol-log.js';
import { buildTransport, type BuiltTransport } from './transport.js';
import { embeddedRequestHandlers, handlePushedRequests } from './server-requests.js';
import { RequestAbort } from '../requests/incoming.js';
import { english, ui } from '../../shared/contract/ui-text.js';

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

type CatalogKeeper = ReturnType<typeof createCatalogKeeper>;

/** One connection's live state; the functions below read and change it. */
interface Live {
  readonly id: string;
  readonly config: ServerConfig;
  readonly deps: ConnectionDeps;
  readonly now: () => number;
  readonly log: ServerLog;
  /** Per-request timeout of the person's requests, ms (reset by progress). */
  readonly timeoutMs: number;
  readonly catalogKeeper: CatalogKeeper;
  readonly inputHandlers: InputHandlers;
  client?: Client;
  built?: BuiltTransport;
  /** Aborted when the current connection closes: ends MRTR input requests that belong to it. */
  connectionAbort: AbortController;
  status: ServerStatus;
  error?: string;
  catalog: Catalog;
  stderr: string[];
  partialLine: string;
  inFlight: number;
  /** Counts connection attempts: a late event of an older attempt is ignored. */
  generation: number;
  connectedAt?: number;
  reconnect?: ReconnectView;
  reconnectTimer?: NodeJS.Timeout;
  /** Closed by the console: no automatic reconnection. */
  closed: boolean;
}

/**
 * Creates (but does not start) a connection.
 * @param id the server's key in the config file
 */
export function createServerConnection(id: string, config: ServerConfig, deps: ConnectionDeps): ServerConnection {
  const now = deps.now ?? Date.now;
  const live: Live = {
    id,
    config,
    deps,
    now,
    log: new ServerLog(now),
    timeoutMs: config.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    catalogKeeper: createCatalogKeeper({
      serverId: id,
      logger: deps.logger,
      get: () => live.catalog,
      set: (next) => {
        live.catalog = next;
        deps.onChange();
      },
      current: () => live.client,
      onError: (err) => authLost(live, err),
    }),
    inputHandlers: embeddedRequestHandlers(id, deps.requests),
    connectionAbort: new AbortController(),
    status: 'connecting',
    catalog: emptyCatalog(),
    stderr: [],
    partialLine: '',
    inFlight: 0,
    generation: 0,
    closed: false,
  };
  return {
    id,
    log: live.log,
    view: () => viewOf(live),
    async connect() {
      live.closed = false;
      live.reconnect = undefined;
      await connectOnce(live, false);
    },
    close: () => closeConnection(live),
    callTool: (name, args, options) => callTool(live, name, args, options),
    getPrompt: (name, args, options) => getPrompt(live, name, args, options),
    readResource: (uri, options) => readResource(live, uri, options),
    inFlight: () => live.inFlight,
    notifyRootsChanged: () => notifyRootsChanged(live),
  };
}

function setStatus(live: Live, next: ServerStatus, why?: string): void {
  live.status = next;
  live.error = why;
  live.deps.onChange();
}

/** Keeps the server's stderr: whole lines to the log, the last STDERR_LINES in the view. */
function pushStderr(live: Live, chunk: string): void {
  const lines = (live.partialLine + chunk).split(/\r?\n/);
  live.partialLine = lines.pop() ?? '';
  const full = lines.filter((l) => l.length > 0);
  for (const l of full) live.log.addStderr(l);
  live.stderr = [...live.stderr, ...full].slice(-STDERR_LINES);
  live.deps.onChange();
}

/** A 401 that refreshing could not fix (or no tokens at all): the person has to sign in again. */
function authLost(live: Live, err: unknown): void {
  if (!live.deps.auth || !(err instanceof UnauthorizedError) || live.status === 'needs_auth') return;
  setStatus(live, 'needs_auth', 'The server requires you to sign in (OAuth).');
}

function cancelReconnect(live: Live): void {
  if (live.reconnectTimer) clearTimeout(live.reconnectTimer);
  live.reconnectTimer = undefined;
}

/** Schedules the next automatic attempt, or gives up after MAX_RECONNECT_ATTEMPTS. */
function scheduleReconnect(live: Live): void {
  if (live.closed) return;
  cancelReconnect(live);
  const attempt = (live.reconnect?.attempt ?? 0) + 1;
  if (attempt > MAX_RECONNECT_ATTEMPTS) {
    live.reconnect = { attempt: MAX_RECONNECT_ATTEMPTS, maxAttempts: MAX_RECONNECT_ATTEMPTS, gaveUp: true };
    live.deps.onChange();
    return;
  }
  const delay = reconnectDelay(attempt);
  live.reconnect = { attempt, maxAttempts: MAX_RECONNECT_ATTEMPTS, nextAt: live.now() + delay };
  live.deps.onChange();
  live.reconnectTimer = setTimeout(() => {
    live.reconnectTimer = undefined;
    void connectOnce(live, false);
  }, delay);
  live.reconnectTimer.unref?.();
}

/**
 * One connection attempt: a fresh client in the era the entry asks for. `protocol: "auto"` takes a
 * remembered verdict when there is one, else prefers 2025-11-25 ({@link openPreferringLegacy}).
 * On failure, a stale remembered era is forgotten and tried afresh once, OAuth asks for sign-in,
 * anything else is shown with the server's last stderr line and retried.
 */
async function connectOnce(live: Live, retryWithoutPrior: boolean): Promise<void> {
  const mine = ++live.generation;
  cancelReconnect(live);
  await live.client?.close().catch(() => undefined);
  live.stderr = [];
  live.catalog = emptyCatalog();
  live.connectedAt = undefined;
  setStatus(live, 'connecting');
  const protocol = live.config.protocol ?? 'auto';
  const target = describeTarget(live.config);
  const cached = protocol === 'auto' && !retryWithoutPrior ? live.deps.eras?.get(live.id, target, live.now()) : undefined;
  const prior = cached?.era === 'legacy' ? { kind: 'legacy' as const } : cached?.discover ? { kind: 'modern' as const, discover: cached.discover as never } : undefined;
  live.connectionAbort.abort(new RequestAbort('connection_closed'));
  live.connectionAbort = new AbortController();
  try {
    const c = protocol !== 'auto' || prior ? await openClient(live, mine, prior) : await openPreferringLegacy(live, mine);
    if (mine !== live.generation) return;
    if (protocol === 'auto') {
      live.deps.eras?.set(live.id, { era: c.getProtocolEra() ?? 'legacy', protocolVersion: c.getNegotiatedProtocolVersion(), target, at: live.now(), discover: c.getDiscoverResult() });
    }
    live.reconnect = undefined;
    live.connectedAt = live.now();
    setStatus(live, 'ready');
    await live.catalogKeeper.refreshAll(c);
  } catch (err) {
    if (mine !== live.generation) return;
    if (prior) {
      // The remembered era may be stale (the server was upgraded or downgraded): probe afresh.
      live.deps.eras?.forget(live.id);
      return connectOnce(live, true);
    }
    connectFailed(live, err);
  }
}

/**
 * A fresh transport and client of attempt `mine`, connected (with `prior`, the SDK's remembered
 * verdict, when given); it is the connection's client from the start.
 * @throws what the SDK's connect throws
 */
async function openClient(live: Live, mine: number, prior?: PriorDiscovery): Promise<Client> {
  const c = newClient(live, mine);
  live.client = c;
  live.built = buildTransport(live.config, { log: live.log, nodeRuntime: live.deps.nodeRuntime, extraEnv: live.deps.launchEnv?.(live.id, live.config), onStderr: (chunk) => pushStderr(live, chunk), authProvider: live.deps.auth?.provider, offload: live.deps.offload });
  await c.connect(live.built.transport, { timeout: 30_000, ...(prior ? { prior } : {}) });
  return c;
}

/**
 * `protocol: "auto"` with nothing remembered: the 2025-11-25 `initialize` first. Today's servers
 * all speak it, and on it every style of tool can ask — push-style tools only there, and a
 * guard-style tool's refusal there is loud and is answered by calling it again on a 2026-07-28
 * session (../console/server-side.ts) — whereas on 2026-07-28 a push-style tool that catches its
 * own error fails silently. Only a server that refuses 2025-11-25 ({@link refusesLegacy}) is
 * then connected by the SDK's negotiation (`server/discover`), on 2026-07-28.
 * @throws the refusal's successor's error, or the first error when it was no refusal
 */
async function openPreferringLegacy(live: Live, mine: number): Promise<Client> {
  try {
    return await openClient(live, mine, { kind: 'legacy' });
  } catch (err) {
    if (mine !== live.generation || !refusesLegacy(err)) throw err;
    live.deps.logger.info('the server refused 2025-11-25; negotiating 2026-07-28', { server: live.id, error: String(err) });
    await live.client?.close().catch(() => undefined);
    return openClient(live, mine);
  }
}

/** A client for attempt `mine`: capabilities declared, the server's requests wired to the console's door, its close handled. */
function newClient(live: Live, mine: number): Client {
  const protocol = live.config.protocol ?? 'auto';
  const c = new Client(CLIENT_INFO, {
    capabilities: CLIENT_CAPABILITIES,
    // MRTR is driven by requestWithInputRounds so each input request is tied to its exact call.
    inputRequired: { autoFulfill: false },
    versionNegotiation: protocol === 'legacy' ? undefined : protocol === 'auto' ? { mode: 'auto' } : { mode: { pin: protocol } },
    listChanged: live.catalogKeeper.handlers(),
  });
  // Sampling, elicitation and roots pushed by the server (on MRTR they arrive embedded: inputHandlers).
  handlePushedRequests(c, live.id, live.deps.requests, live.deps.logger);
  c.setNotificationHandler('notifications/elicitation/complete', (n) => live.deps.onElicitationComplete?.(live.id, n.params.elicitationId));
  c.onclose = () => {
    // A close while connecting fails the connect itself (connectOnce handles it), e.g. a refused 2025 handshake.
    if (mine !== live.generation || live.client !== c || live.status === 'connecting') return;
    live.connectionAbort.abort(new RequestAbort('connection_closed'));
    const tail = live.stderr.at(-1);
    live.connectedAt = undefined;
    setStatus(live, 'disconnected', `connection closed${tail ? `: ${tail}` : ''}`);
    scheduleReconnect(live);
  };
  return c;
}

/** A failed attempt: OAuth sign-in needed, or the error with the server's last words on stderr (usually why: a missing key, a bad path…), then a retry. */
function connectFailed(live: Live, err: unknown): void {
  if (live.deps.auth && err instanceof UnauthorizedError) {
    live.reconnect = undefined;
    setStatus(live, 'needs_auth', 'The server requires you to sign in (OAuth).');
    return;
  }
  const tail = live.stderr.at(-1);
  setStatus(live, 'error', `${err instanceof Error ? err.message : String(err)}${tail ? ` — stderr: ${tail}` : ''}`);
  live.deps.logger.warn('connect failed', { server: live.id, error: String(err) });
  scheduleReconnect(live);
}

async function closeConnection(live: Live): Promise<void> {
  live.closed = true;
  live.generation++;
  cancelReconnect(live);
  live.reconnect = undefined;
  live.connectionAbort.abort(new RequestAbort('connection_closed'));
  const c = live.client;
  live.client = undefined;
  live.connectedAt = undefined;
  await c?.close().catch(() => undefined);
  setStatus(live, 'disconnected', 'closed by the console');
}

function viewOf(live: Live): ServerView {
  const { config, client, status } = live;
  const ready = status === 'ready';
  return {
    id: live.id,
    transport: isStdio(config) ? 'stdio' : config.type === 'sse' ? 'sse' : 'http',
    target: describeTarget(config),
    status,
    error: live.error,
    stderrTail: live.stderr,
    tools: live.catalog.tools,
    prompts: live.catalog.prompts,
    resources: live.catalog.resources,
    resourceTemplates: live.catalog.resourceTemplates,
    protocolVersion: client?.getNegotiatedProtocolVersion(),
    era: client?.getProtocolEra(),
    serverInfo: client?.getServerVersion(),
    capabilities: ready ? (client?.getServerCapabilities() as Record<string, unknown> | undefined) : undefined,
    instructions: ready ? client?.getInstructions() : undefined,
    inFlight: live.inFlight,
    pid: ready ? (live.built?.stdio?.pid ?? undefined) : undefined,
    connectedAt: live.connectedAt,
    reconnect: live.reconnect,
    auth: live.deps.auth?.view(),
    logTotals: { protocol: live.log.protocol.total, stderr: live.log.stderr.total },
    ...(!isStdio(config) && config.type === 'sse' && { warning: english(SSE_DEPRECATED), warningUi: SSE_DEPRECATED }),
  };
}

/**
 * Runs one of the person's requests on the ready client, counting it in flight. A -32042 "URL
 * elicitation required" error hands its URL elicitations to the queue before it is rethrown.
 * @throws Error when the server is not connected; what `what` throws
 */
async function run<T>(live: Live, what: (c: Client, signal: AbortSignal) => Promise<T>, options: CallOptions): Promise<T> {
  const c = live.client;
  if (!c || live.status !== 'ready') throw new Error(`server "${live.id}" is not connected (${live.status})`);
  live.inFlight++;
  live.deps.onChange();
  try {
    const abort = live.connectionAbort.signal;
    return await what(c, options.signal ? AbortSignal.any([options.signal, abort]) : abort);
  } catch (err) {
    authLost(live, err);
    const e = err as { code?: number; data?: { elicitations?: unknown[] } };
    if (e.code === -32042 && Array.isArray(e.data?.elicitations)) live.deps.onUrlElicitationRequired?.(live.id, e.data.elicitations, options.call);
    throw err;
  } finally {
    live.inFlight--;
    live.deps.onChange();
  }
}

/** The SDK request options of the person's requests: the timeout (reset by progress), their signal, and input_required allowed. */
const requestOptions = (live: Live, signal?: AbortSignal) => ({ timeout: live.timeoutMs, resetTimeoutOnProgress: true, signal, allowInputRequired: true });

async function callTool(live: Live, name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolCallOutcome> {
  const tool = live.catalog.tools.find((t) => t.name === name);
  const res = await run(
    live,
    async (c, signal) => {
      const final = await requestWithInputRounds<{ content?: unknown[]; isError?: boolean; structuredContent?: unknown }>(
        // Each round without the output schema: an input_required reply is not a result (tool-output.ts).
        (params) => c.callTool(params as { name: string }, { ...requestOptions(live, options.signal), toolDefinition: roundDefinition(tool, name) }),
        { name, arguments: args },
        { call: options.call, signal, handlers: live.inputHandlers },
      );
      await checkToolOutput(tool, final);
      return final;
    },
    options,
  );
  return { content: (res.content ?? []) as Array<Record<string, unknown>>, isError: res.isError, structuredContent: res.structuredContent };
}

async function getPrompt(live: Live, name: string, args: Record<string, string>, options: CallOptions): Promise<NonNullable<CallView['prompt']>> {
  const res = await run(
    live,
    (c, signal) =>
      requestWithInputRounds<{ description?: string; messages: Array<{ role: string; content: unknown }> }>(
        (params) => c.getPrompt(params as { name: string }, requestOptions(live, options.signal)),
        { name, arguments: args },
        { call: options.call, signal, handlers: live.inputHandlers },
      ),
    options,
  );
  return { description: res.description, messages: res.messages.map((m) => ({ role: m.role, content: m.content as Record<string, unknown> })) };
}

async function readResource(live: Live, uri: string, options: CallOptions): Promise<NonNullable<CallView['resource']>> {
  const res = await run(
    live,
    (c, signal) =>
      requestWithInputRounds<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>(
        (params) => c.readResource(params as { uri: string }, { ...requestOptions(live, options.signal), cacheMode: 'bypass' }),
        { uri },
        { call: options.call, signal, handlers: live.inputHandlers },
      ),
    options,
  );
  return { contents: res.contents.map((x) => ({ uri: x.uri, mimeType: x.mimeType, text: x.text, blob: x.blob })) };
}

/**
 * Sends `notifications/roots/list_changed` when connected on the 2025 era. 2026-07-28 has no such
 * notification (the SDK refuses to send it): MRTR servers ask for the roots inside each
 * input_required round, so they always get the current list.
 */
async function notifyRootsChanged(live: Live): Promise<void> {
  const c = live.client;
  if (c && live.status === 'ready' && c.getProtocolEra() !== 'modern') await c.sendRootsListChanged();
}
