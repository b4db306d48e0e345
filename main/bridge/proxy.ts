/**
 * The bridge's message-level proxy between the agent host (which runs the bridge as its stdio
 * server) and the real server (which sees the bridge as its client). Messages pass through
 * unchanged, ids included — initialize and capabilities, tools, resources and subscriptions,
 * prompts, completions, logging, list_changed notifications, progress, cancellation, ping —
 * except for:
 * - `initialize` (and a 2026-07-28 request's `_meta` client capabilities): the capabilities the
 *   server sees are the host's plus sampling (with tools), elicitation (form and URL) and roots
 *   ({@link bridgeCapabilities});
 * - the server's `sampling/createMessage`: always answered by the console (the link);
 * - `elicitation/create`: to the host when it declared elicitation in that mode, else the console;
 * - `roots/list`: to the host when it declared roots, else the console's roots for the server;
 * - `notifications/cancelled` for a request the console is answering: turned into the link's cancel;
 * - `notifications/elicitation/complete` for a URL elicitation the console showed: to the console;
 * - a host `tools/call` whose tool needs the protocol era the host did not open: refused by the
 *   server (the host never sees it) and called again, then always called, on a second session in
 *   that era (./era-sessions.ts).
 * The bridge originates no JSON-RPC request of its own here (2026-07-28 input rounds, which do,
 * are in ./input-rounds.ts; its requests to the host in ./host-requests.ts, all on ids of its own),
 * so the two id spaces never meet: server request ids go to the host as they are, and host request
 * ids to the server.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { BridgeCall, BridgeVia } from '../../shared/contract/bridge-protocol.js';
import { typedAbort } from '../mcp/server-requests.js';
import type { Logger } from '../ports.js';
import { RequestAbort, type McpRequestKind } from '../requests/incoming.js';
import type { ConsoleLink } from './console-link.js';
import { createBridgeEras, type BridgeEras } from './era-sessions.js';
import { createHostRequests, type HostRequests } from './host-requests.js';
import { createInputRounds, type InputRounds } from './input-rounds.js';
import { CLIENT_CAPABILITIES_META, CLIENT_INFO_META, PROTOCOL_VERSION_META, asObject, idKey, isModernVersion, type JsonRpcId, type Loose } from './messages.js';
import { bridgeCapabilities, CALL_METHODS, callOf, consoleKind, type ProxyState } from './routing.js';

/** What the proxy connects. */
export interface BridgeProxyOptions {
  /** Toward the agent host (a stdio server transport). */
  host: Transport;
  /** Toward the real server (a client transport: stdio, Streamable HTTP or SSE). */
  server: Transport;
  link: ConsoleLink;
  logger: Logger;
  /** Who answers sampling (see {@link ProxyState.samplingTo}); default the console. */
  samplingTo?: ProxyState['samplingTo'];
  /** Told when a host's client request (tools/call, prompts/get, resources/read) starts and ends. */
  onCall?(call: BridgeCall, phase: 'started' | 'ended'): void;
  /**
   * A fresh client transport to the same server (not started), for a second session in the
   * protocol era a tool needs (./era-sessions.ts); absent: none is opened, refusals pass through.
   */
  newServerTransport?(): Transport;
  /** How long such a session stays open without calls, in ms; default ERA_SESSION_IDLE_MS (5 min). */
  eraSessionIdleMs?: number;
}

/** The host's calls in flight, telling `onCall` of each start and end. */
class ObservedCalls extends Map<string, BridgeCall> {
  constructor(private readonly onCall?: BridgeProxyOptions['onCall']) {
    super();
  }

  override set(key: string, call: BridgeCall): this {
    if (!this.has(key)) this.onCall?.(call, 'started');
    return super.set(key, call);
  }

  override delete(key: string): boolean {
    const call = this.get(key);
    if (call) this.onCall?.(call, 'ended');
    return super.delete(key);
  }
}

/** A running proxy. */
export interface BridgeProxy {
  /** Resolves when either side closed (the other is closed too). */
  closed: Promise<void>;
  /** What is known of the host: its clientInfo and declared capabilities (after initialize). */
  host(): { via?: BridgeVia; capabilities?: Loose };
  /**
   * The console's roots for this server changed: the server is told
   * `notifications/roots/list_changed` when the console is its roots source (the host declared no
   * roots) and the session has started; otherwise nothing is sent.
   */
  consoleRootsChanged(): void;
  close(): Promise<void>;
}

/** Starts proxying between `opts.host` and `opts.server` (both transports are started here). */
export async function startBridgeProxy(opts: BridgeProxyOptions): Promise<BridgeProxy> {
  const state: ProxyState = { era: 'legacy', handled: new Map(), calls: new ObservedCalls(opts.onCall), ...(opts.samplingTo && { samplingTo: opts.samplingTo }) };
  const rounds = createInputRounds({ state, toHost: (m) => opts.host.send(m), toServer: (m) => opts.server.send(m), link: opts.link });
  const hostRequests = createHostRequests((m) => opts.host.send(m));
  const newTransport = opts.newServerTransport;
  const eras = newTransport && createBridgeEras({ state, link: opts.link, logger: opts.logger, hostRequests, toHost: (m) => opts.host.send(m), newTransport, ...(opts.eraSessionIdleMs !== undefined && { idleMs: opts.eraSessionIdleMs }) });
  const ctx: Ctx = { opts, state, rounds, hostRequests, ...(eras && { eras }) };
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing = false;
  const close = async () => {
    if (closing) return closed;
    closing = true;
    for (const abort of state.handled.values()) abort.abort(new RequestAbort('connection_closed'));
    rounds.close();
    hostRequests.close();
    opts.link.close();
    await Promise.allSettled([opts.server.close(), opts.host.close(), eras?.close()]);
    resolveClosed();
  };
  opts.host.onmessage = (m) => fromHost(m as Loose, ctx);
  opts.server.onmessage = (m) => fromServer(m as Loose, ctx);
  opts.host.onclose = () => void close();
  opts.server.onclose = () => void close();
  opts.server.onerror = (err) => opts.logger.warn('server transport error', { error: err.message });
  opts.host.onerror = (err) => opts.logger.warn('host transport error', { error: err.message });
  await opts.server.start();
  await opts.host.start();
  const consoleRootsChanged = () => {
    if (closing || !state.hostCaps || state.hostCaps.roots !== undefined) return;
    opts.server.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }).catch((err: unknown) => opts.logger.warn('could not tell the server its roots changed', { error: String(err) }));
  };
  return { closed, close, consoleRootsChanged, host: () => ({ ...(state.via && { via: state.via }), ...(state.hostCaps && { capabilities: state.hostCaps }) }) };
}

/** What both directions share. */
interface Ctx {
  opts: BridgeProxyOptions;
  state: ProxyState;
  rounds: InputRounds;
  hostRequests: HostRequests;
  /** Second sessions in the era a tool needs (absent: the proxy opens none). */
  eras?: BridgeEras;
}

/**
 * A message from the host: rewritten capabilities where it declares them, otherwise as it is; its
 * answers to the bridge's own requests and the calls of tools that run on a second session stay here.
 */
function fromHost(message: Loose, ctx: Ctx): void {
  const { state } = ctx;
  if (ctx.hostRequests.fromHost(message)) return;
  const params = asObject(message.params);
  let out = message;
  if (message.method === 'initialize' && message.id !== undefined && params) {
    state.hostCaps = asObject(params.capabilities) ?? {};
    state.via = viaOf(params.clientInfo) ?? state.via;
    state.initializeId = message.id as JsonRpcId;
    out = { ...message, params: { ...params, capabilities: bridgeCapabilities(state.hostCaps) } };
  } else if (params && message.method !== undefined) {
    out = withModernMeta(message, params, state);
  }
  if (message.id !== undefined && message.method !== undefined) {
    if (CALL_METHODS.has(message.method as string)) state.calls.set(idKey(message.id as JsonRpcId), callOf(message.method as string, message.id as JsonRpcId, params));
    if (ctx.eras?.fromHostCall(message)) return;
    out = ctx.rounds.fromHostRequest(out);
  } else if (message.method === 'notifications/cancelled') {
    if (ctx.eras?.fromHostCancel(message)) return;
    state.calls.delete(idKey(asObject(message.params)?.requestId as JsonRpcId));
    out = ctx.rounds.fromHostCancel(out);
  }
  ctx.opts.server.send(out as JSONRPCMessage).catch((err: unknown) => failToHost(message, err, ctx));
}

/** The host as `via` from a clientInfo object (name and version, trimmed), if it has a name. */
function viaOf(clientInfo: unknown): BridgeVia | undefined {
  const info = asObject(clientInfo);
  if (typeof info?.name !== 'string' || !info.name) return undefined;
  return { host: info.name.slice(0, 200), ...(typeof info.version === 'string' && { version: info.version.slice(0, 100) }) };
}

/**
 * A 2026-07-28 request or notification carries the client's capabilities (and version) in
 * `_meta`: the host's are recorded, and the server gets the bridge's.
 */
function withModernMeta(message: Loose, params: Loose, state: ProxyState): Loose {
  const meta = asObject(params._meta);
  const caps = asObject(meta?.[CLIENT_CAPABILITIES_META]);
  const version = meta?.[PROTOCOL_VERSION_META];
  if (typeof version === 'string' && isModernVersion(version)) state.era = 'modern';
  state.via = viaOf(meta?.[CLIENT_INFO_META]) ?? state.via;
  if (!meta || !caps) return message;
  state.hostCaps = caps;
  return { ...message, params: { ...params, _meta: { ...meta, [CLIENT_CAPABILITIES_META]: bridgeCapabilities(caps) } } };
}

/** The server could not be sent a host request: the host gets a JSON-RPC error for it. */
function failToHost(message: Loose, err: unknown, ctx: Ctx): void {
  ctx.opts.logger.warn('could not send to the server', { method: message.method, error: String(err) });
  if (message.id === undefined || message.method === undefined) return;
  void ctx.opts.host.send({ jsonrpc: '2.0', id: message.id as JsonRpcId, error: { code: -32603, message: `the bridge could not reach the server: ${err instanceof Error ? err.message : String(err)}` } });
}

/** A message from the server: its requests of the client are routed, everything else passes. */
function fromServer(message: Loose, ctx: Ctx): void {
  const { state, opts } = ctx;
  if (message.method !== undefined && message.id !== undefined) {
    const kind = consoleKind(message.method, asObject(message.params), state.hostCaps, state.samplingTo);
    if (kind) return answerFromConsole(kind, message, ctx);
  } else if (message.method === 'notifications/cancelled') {
    const params = asObject(message.params);
    const abort = state.handled.get(idKey(params?.requestId as JsonRpcId));
    if (abort) return abort.abort(typedAbort(typeof params?.reason === 'string' ? params.reason : undefined));
  } else if (message.method === 'notifications/elicitation/complete' && asObject(asObject(state.hostCaps?.elicitation))?.url === undefined) {
    // A URL elicitation the console showed (the host never saw it): the console marks it completed.
    const elicitationId = asObject(message.params)?.elicitationId;
    if (typeof elicitationId === 'string' && elicitationId) opts.link.elicitationComplete(elicitationId);
    return;
  } else if (message.id !== undefined && message.method === undefined) {
    if (state.initializeId !== undefined && idKey(message.id as JsonRpcId) === idKey(state.initializeId)) noteInitialized(message, ctx);
    if (ctx.eras?.fromServerResponse(message)) return ctx.rounds.forget(message.id as JsonRpcId);
    if (ctx.rounds.fromServerResponse(message)) return;
    state.calls.delete(idKey(message.id as JsonRpcId));
  }
  void opts.host.send(message as JSONRPCMessage);
}

/** The initialize result: the negotiated version sets the era and the HTTP transport's version header. */
function noteInitialized(message: Loose, ctx: Ctx): void {
  const version = asObject(message.result)?.protocolVersion;
  if (typeof version !== 'string') return;
  ctx.state.era = isModernVersion(version) ? 'modern' : 'legacy';
  ctx.opts.server.setProtocolVersion?.(version);
}

/** Answers a server request through the console; nothing is sent after the server cancelled it. */
function answerFromConsole(kind: McpRequestKind, message: Loose, ctx: Ctx): void {
  const { state, opts } = ctx;
  const id = message.id as JsonRpcId;
  const key = idKey(id);
  const abort = new AbortController();
  state.handled.set(key, abort);
  const params = message.params ?? {};
  const token = asObject(asObject(params)?._meta)?.progressToken;
  let step = 0;
  const onProgress =
    typeof token === 'string' || typeof token === 'number'
      ? (text: string) => void opts.server.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: ++step, message: text } })
      : undefined;
  opts.link
    .request(kind, params, { era: state.era, ...(state.via && { via: state.via }), calls: [...state.calls.values()], signal: abort.signal, ...(onProgress && { onProgress }) })
    .then(
      (result) => opts.server.send({ jsonrpc: '2.0', id, result } as JSONRPCMessage),
      (err: unknown) => {
        if (abort.signal.aborted) return;
        const e = err as { code?: unknown; message?: unknown; data?: unknown };
        const code = typeof e.code === 'number' ? e.code : -32603;
        return opts.server.send({ jsonrpc: '2.0', id, error: { code, message: typeof e.message === 'string' ? e.message : String(err), ...(e.data !== undefined && { data: e.data }) } });
      },
    )
    .catch((err: unknown) => opts.logger.warn('could not answer the server', { method: message.method, error: String(err) }))
    .finally(() => state.handled.delete(key));
}
