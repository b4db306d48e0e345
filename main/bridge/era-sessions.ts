/**
 * Second upstream sessions of the bridge, in the protocol era a tool needs. The bridge passes the
 * host's handshake through, so its session with the server speaks the host's era; but push-style
 * tools can ask only on 2025-11-25 and guard-style ones (`fastmcp` 4's `InputRequiredResult`) only
 * on 2026-07-28. So, as the console does for its own servers (main/mcp/era-sessions.ts):
 * - a host `tools/call` answered with a refusal that names the other era (main/mcp/era-needs.ts:
 *   a JSON-RPC error or an `isError` result; behind a 2026-07-28 host also a push refusal the
 *   tool caught and returned as its text) is not passed on: the tool is called again at once on a
 *   session of the server in the era it needs, and the host gets that call's answer under its own
 *   id — it never sees the refusal;
 * - the tool's era is remembered for this bridge run: its next calls go straight to that session.
 * The session is the bridge's own SDK client over a fresh transport to the same server (a second
 * process for a stdio server), declaring the bridge's capabilities; it opens on demand, closes
 * after {@link ERA_SESSION_IDLE_MS} without calls and when the bridge closes. The server's requests
 * on it go where the main session's go: sampling to the console; elicitation and roots embedded in
 * a 2026-07-28 round to a 2025-11-25 host that declared them (./host-requests.ts), else to the
 * console; pushed on a 2025-11-25 session behind a 2026-07-28 host (which cannot be pushed to), to
 * the console. The host's cancel and progress token follow the call.
 */
import { randomUUID } from 'node:crypto';
import { Client, ProtocolError, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { BridgeCall } from '../../shared/contract/bridge-protocol.js';
import type { ProtocolEra } from '../../shared/contract/primitives.js';
import { CLIENT_INFO } from '../mcp/protocol.js';
import { DEFAULT_CALL_TIMEOUT_MS } from '../mcp/connection.js';
import { recogniseCaughtRefusal, recogniseEraMismatch } from '../mcp/era-needs.js';
import { ERA_SESSION_IDLE_MS } from '../mcp/era-sessions.js';
import { requestWithInputRounds, type InputHandlers } from '../mcp/input-rounds.js';
import { roundDefinition } from '../mcp/tool-output.js';
import type { Logger } from '../ports.js';
import { RequestAbort, type McpRequestKind } from '../requests/incoming.js';
import type { ConsoleLink } from './console-link.js';
import type { HostRequests } from './host-requests.js';
import { asObject, CLIENT_CAPABILITIES_META, CLIENT_INFO_META, idKey, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION_META, type JsonRpcId, type Loose } from './messages.js';
import { bridgeCapabilities, callOf, consoleKind, type ProxyState } from './routing.js';

/** What the era sessions need from the proxy. */
export interface BridgeErasDeps {
  state: ProxyState;
  link: ConsoleLink;
  logger: Logger;
  hostRequests: HostRequests;
  toHost(message: JSONRPCMessage): Promise<void>;
  /** A fresh client transport to the same server (not started). */
  newTransport(): Transport;
  /** How long a session stays open without calls, in ms; default {@link ERA_SESSION_IDLE_MS}. */
  idleMs?: number;
}

/** The hooks the proxy calls. */
export interface BridgeEras {
  /** A host `tools/call`: true when taken (its tool is known to need the other era: it runs on a second session); else noted for its answer. */
  fromHostCall(message: Loose): boolean;
  /** A host's `notifications/cancelled`: true when it cancels a call running on a second session. */
  fromHostCancel(message: Loose): boolean;
  /** A server response: true when it refused a host call for its era, which now runs on a second session. */
  fromServerResponse(message: Loose): boolean;
  /** Closes every second session (their processes end) and ends the calls on them. */
  close(): Promise<void>;
}

/** A host `tools/call` as the bridge keeps it. */
interface HostCall {
  hostId: JsonRpcId;
  name: string;
  params: Loose;
}

/** One second session: its client (once connected), the tools it lists, the host calls on it. */
interface Session {
  era: ProtocolEra;
  client: Promise<{ client: Client; tools: Map<string, { inputSchema?: Record<string, unknown> }> }>;
  calls: Map<string, BridgeCall>;
  timer?: NodeJS.Timeout;
}

/** What the hooks keep. */
interface ErasState {
  readonly deps: BridgeErasDeps;
  /** Tool name → the era it needs, learned in this run. */
  readonly needs: Map<string, ProtocolEra>;
  readonly sessions: Map<ProtocolEra, Session>;
  /** Host calls sent to the main session, by id key, until answered. */
  readonly noted: Map<string, HostCall>;
  /** Host calls running on a second session, by id key. */
  readonly running: Map<string, AbortController>;
  closed: boolean;
}

/** Creates the hooks over the proxy's state. */
export function createBridgeEras(deps: BridgeErasDeps): BridgeEras {
  const st: ErasState = { deps, needs: new Map(), sessions: new Map(), noted: new Map(), running: new Map(), closed: false };
  return {
    fromHostCall: (message) => fromHostCall(st, message),
    fromHostCancel(message) {
      const key = idKey(asObject(message.params)?.requestId as JsonRpcId);
      st.noted.delete(key);
      const abort = st.running.get(key);
      abort?.abort(new RequestAbort('server_cancelled', String(asObject(message.params)?.reason ?? 'cancelled by the host')));
      return abort !== undefined;
    },
    fromServerResponse: (message) => fromServerResponse(st, message),
    async close() {
      st.closed = true;
      for (const abort of st.running.values()) abort.abort(new RequestAbort('connection_closed'));
      await Promise.all([...st.sessions.keys()].map((era) => closeSession(st, era)));
    },
  };
}

/** {@link BridgeEras.fromHostCall}. */
function fromHostCall(st: ErasState, message: Loose): boolean {
  const params = asObject(message.params) ?? {};
  if (message.method !== 'tools/call' || typeof params.name !== 'string') return false;
  const call: HostCall = { hostId: message.id as JsonRpcId, name: params.name, params };
  const need = st.needs.get(call.name);
  if (need && need !== st.deps.state.era && !st.closed) {
    void callAgain(st, need, call);
    return true;
  }
  st.noted.set(idKey(call.hostId), call);
  return false;
}

/** {@link BridgeEras.fromServerResponse}. */
function fromServerResponse(st: ErasState, message: Loose): boolean {
  const key = idKey(message.id as JsonRpcId);
  const call = st.noted.get(key);
  if (!call || message.method !== undefined) return false;
  st.noted.delete(key);
  const refusal = refusalOf(st.deps.state.era, message);
  if (!refusal || st.closed) return false;
  st.needs.set(call.name, refusal.needs);
  st.deps.logger.info('a tool needs the other protocol era: calling it again on a second session', { tool: call.name, era: refusal.needs, detail: refusal.detail });
  void callAgain(st, refusal.needs, call, message);
  return true;
}

/** The era a server's answer to a host call on the main session (of era `era`) says the tool needs, if it is the other one. */
function refusalOf(era: ProtocolEra, message: Loose): { needs: ProtocolEra; detail: string } | undefined {
  const error = asObject(message.error);
  const result = asObject(message.result);
  const found = error
    ? recogniseEraMismatch({ error: { code: typeof error.code === 'number' ? error.code : undefined, message: String(error.message ?? '') } })
    : recogniseEraMismatch({ result: result as { isError?: boolean; content?: unknown[] } }) ?? (era === 'modern' ? recogniseCaughtRefusal(result as { content?: unknown[] }) : undefined);
  return found && found.needs !== era ? found : undefined;
}

/**
 * Runs a host call on the session of `era` and answers the host under its own id. When that
 * session cannot be opened, the host gets `original` (the main session's answer) or that failure.
 */
async function callAgain(st: ErasState, era: ProtocolEra, call: HostCall, original?: Loose): Promise<void> {
  const { state, toHost } = st.deps;
  const key = idKey(call.hostId);
  const abort = new AbortController();
  st.running.set(key, abort);
  const ref = state.calls.get(key) ?? callOf('tools/call', call.hostId, call.params);
  let answer: Loose;
  try {
    const session = await sessionOf(st, era).catch((err: unknown) => {
      st.deps.logger.warn('could not open a second session', { era, error: String(err) });
      throw Object.assign(err instanceof Error ? err : new Error(String(err)), { unopened: true });
    });
    const result = await runOn(st, session, call, ref, abort.signal);
    // A 2026-07-28 host requires `resultType` on every result; a 2025-11-25 session's results have none.
    answer = { jsonrpc: '2.0', id: call.hostId, result: state.era === 'modern' ? { resultType: 'complete', ...result } : result };
  } catch (err) {
    answer = original && (err as { unopened?: boolean }).unopened ? original : { jsonrpc: '2.0', id: call.hostId, error: hostError(err) };
  } finally {
    st.running.delete(key);
  }
  state.calls.delete(key);
  if (!abort.signal.aborted) await toHost(answer as JSONRPCMessage).catch((err: unknown) => st.deps.logger.warn('could not answer the host', { error: String(err) }));
}

/** A thrown error as the JSON-RPC error the host gets (its code when numeric, else -32603). */
function hostError(err: unknown): Loose {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  return { code: typeof e.code === 'number' ? e.code : -32603, message: typeof e.message === 'string' ? e.message : String(err), ...(e.data !== undefined && { data: e.data }) };
}

/** The host call's params as the second session sends them: the host's `_meta` without the 2026-07-28 envelope and progress token (its client adds its own). */
function paramsFor(call: HostCall): Loose {
  const { _meta, inputResponses: _r, requestState: _s, ...rest } = call.params;
  const meta = { ...asObject(_meta) };
  for (const k of [CLIENT_CAPABILITIES_META, CLIENT_INFO_META, PROTOCOL_VERSION_META, 'progressToken']) delete meta[k];
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

/**
 * Calls the tool on `session`, driving 2026-07-28 input rounds; the host's progress token gets the
 * call's progress. A failed input request ends the call with that request's own error.
 * @returns the final `tools/call` result
 */
async function runOn(st: ErasState, session: Session, call: HostCall, ref: BridgeCall, signal: AbortSignal): Promise<Loose> {
  const { client, tools } = await session.client;
  const key = idKey(call.hostId);
  session.calls.set(key, ref);
  clearTimeout(session.timer);
  const token = asObject(call.params._meta)?.progressToken;
  const onprogress =
    typeof token === 'string' || typeof token === 'number'
      ? (p: { progress: number; total?: number; message?: string }) => void st.deps.toHost({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, ...p } }).catch(() => undefined)
      : undefined;
  let failure: unknown;
  const handlers = inputHandlers(st, session, (err) => (failure ??= err));
  try {
    return await requestWithInputRounds<Loose>(
      (params) => client.callTool(params as { name: string }, { allowInputRequired: true, timeout: DEFAULT_CALL_TIMEOUT_MS, resetTimeoutOnProgress: true, signal, onprogress, toolDefinition: roundDefinition(tools.get(call.name) as never, call.name) }),
      paramsFor(call),
      { call: ref, signal, handlers },
    );
  } catch (err) {
    throw failure ?? err;
  } finally {
    session.calls.delete(key);
    if (session.calls.size === 0) armIdle(st, session);
  }
}

/** The handlers of a round's embedded requests: each answered as {@link answer} says; a failure is noted first. */
function inputHandlers(st: ErasState, session: Session, noteFailure: (err: unknown) => void): InputHandlers {
  const handler = (method: string) => async (params: unknown, ctx: { call: BridgeCall; signal: AbortSignal }) => {
    try {
      return await answer(st, session, method, params, ctx.signal, ctx.call);
    } catch (err) {
      noteFailure(err);
      throw err;
    }
  };
  return { 'sampling/createMessage': handler('sampling/createMessage'), 'elicitation/create': handler('elicitation/create'), 'roots/list': handler('roots/list') };
}

/**
 * Answers a request the server made on a second session: the host answers what it declared (only
 * a 2025-11-25 host can be asked: requests embedded in a 2026-07-28 session's rounds); the console
 * answers the rest, tied to `call` when the request came in its round, else to the calls on the session.
 */
async function answer(st: ErasState, session: Session, method: string, params: unknown, signal: AbortSignal, call?: BridgeCall): Promise<Loose> {
  const { state, link, hostRequests } = st.deps;
  const hostCanBeAsked = session.era === 'modern' && state.era === 'legacy';
  const kind: McpRequestKind | undefined = hostCanBeAsked ? consoleKind(method, asObject(params), state.hostCaps, state.samplingTo) : consoleKind(method, asObject(params), undefined);
  if (!kind) return hostRequests.ask(method, forLegacyHost(method, params), signal);
  const calls = call ? [call] : [...session.calls.values()];
  return link.request(kind, params, { era: session.era, ...(state.via && { via: state.via }), calls, ...(call && { exact: true }), signal });
}

/**
 * An embedded request as a 2025-11-25 host takes it: a URL-mode elicitation gets the
 * `elicitationId` that era requires (2026-07-28 has none: a round's answer is tied to its round).
 */
function forLegacyHost(method: string, params: unknown): unknown {
  const p = asObject(params);
  if (method !== 'elicitation/create' || p?.mode !== 'url' || typeof p.elicitationId === 'string') return params;
  return { ...p, elicitationId: randomUUID() };
}

/** The open (or opening) session of `era`, opened now when there is none. @throws Error when it cannot connect */
async function sessionOf(st: ErasState, era: ProtocolEra): Promise<Session> {
  let session = st.sessions.get(era);
  if (!session) {
    session = openSession(st, era);
    st.sessions.set(era, session);
    const opened = session;
    opened.client.catch(() => st.sessions.get(era) === opened && st.sessions.delete(era));
  }
  await session.client;
  return session;
}

/** A new session of `era`: the bridge's client over a fresh transport, connected, its tools listed. */
function openSession(st: ErasState, era: ProtocolEra): Session {
  const { state } = st.deps;
  const info = state.via ? { name: state.via.host, version: state.via.version ?? '0' } : CLIENT_INFO;
  const client = new Client(info, {
    capabilities: bridgeCapabilities(state.hostCaps) as never,
    inputRequired: { autoFulfill: false },
    ...(era === 'modern' && { versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } } }),
  });
  const session: Session = { era, calls: new Map(), client: Promise.resolve(undefined as never) };
  // Requests pushed on a 2025-11-25 session: answered like the main session's (sampling through the SDK's fallback, unvalidated: the console's intake checks it).
  client.fallbackRequestHandler = async (request, ctx) => {
    if (request.method !== 'sampling/createMessage') throw new ProtocolError(-32601, 'Method not found');
    return (await answer(st, session, request.method, request.params, ctx.mcpReq.signal)) as never;
  };
  client.setRequestHandler('elicitation/create', async (request, ctx) => (await answer(st, session, 'elicitation/create', request.params, ctx.mcpReq.signal)) as never);
  client.setRequestHandler('roots/list', async (request, ctx) => (await answer(st, session, 'roots/list', request.params, ctx.mcpReq.signal)) as never);
  client.setNotificationHandler('notifications/elicitation/complete', (n) => st.deps.link.elicitationComplete(n.params.elicitationId));
  client.onclose = () => {
    if (st.sessions.get(era) === session) st.sessions.delete(era);
  };
  session.client = (async () => {
    await client.connect(st.deps.newTransport(), { timeout: 30_000 });
    const listed = await client.listTools().catch(() => ({ tools: [] as Array<{ name: string; inputSchema?: Record<string, unknown> }> }));
    return { client, tools: new Map(listed.tools.map((t) => [t.name, t])) };
  })();
  session.client.catch(() => client.close().catch(() => undefined));
  st.deps.logger.info('opened a second session in the era a tool needs', { era });
  return session;
}

/** Closes `session` after the idle time unless a call starts on it meanwhile. */
function armIdle(st: ErasState, session: Session): void {
  clearTimeout(session.timer);
  session.timer = setTimeout(() => {
    if (session.calls.size === 0 && st.sessions.get(session.era) === session) void closeSession(st, session.era);
  }, st.deps.idleMs ?? ERA_SESSION_IDLE_MS);
  session.timer.unref?.();
}

/** Closes the session of `era` (its stdio process ends with it). */
async function closeSession(st: ErasState, era: ProtocolEra): Promise<void> {
  const session = st.sessions.get(era);
  if (!session) return;
  st.sessions.delete(era);
  clearTimeout(session.timer);
  const opened = await session.client.catch(() => undefined);
  await opened?.client.close().catch(() => undefined);
}
