/**
 * The bridges behind the loopback Streamable HTTP serving (./http-serving.ts), one per host
 * connection:
 * - 2025-era hosts are *sessionful*: `initialize` starts a bridge whose host side is a
 *   `WebStandardStreamableHTTPServerTransport` with an `mcp-session-id`; the session's later
 *   POSTs, its GET stream and its DELETE go to that transport. DELETE (or the server going away)
 *   closes the bridge, and with it the bridge's client side of the server.
 * - 2026-07-28 hosts are *per request*: each request gets a bridge of its own, whose host side is
 *   a `PerRequestHTTPServerTransport`; it closes once the answer is written (or the host hangs
 *   up). A stdio server is therefore started for each such request. Their notifications are
 *   accepted (202) and dropped: no bridge is waiting for them.
 */
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/client';
import type { InboundModernRoute, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { serverSdk } from './server-sdk.js';
import { hostSideOf } from './http-host.js';
import type { BridgeProxy } from './proxy.js';

/**
 * Starts a bridge of console server `name` toward `host`.
 * @throws Error when it cannot start (its message goes to the host; a numeric `status` on it is
 *   the HTTP status, else 502)
 */
export type StartBridge = (name: string, host: Transport) => Promise<BridgeProxy>;

/** One 2025-era host session. */
interface Session {
  name: string;
  transport: WebStandardStreamableHTTPServerTransport;
  proxy?: BridgeProxy;
  /** HTTP exchanges of this session being answered now (an open GET stream counts). */
  open: number;
  /** Epoch ms of the last exchange's start or end. */
  lastSeen: number;
}

/** What the pool is told. */
export interface BridgePoolOptions {
  start: StartBridge;
  /** Most sessions at once (a new one beyond is answered 503). */
  maxSessions: number;
  /** A session with no exchange open for this long is closed, ms. */
  idleMs: number;
  now(): number;
}

/** The live bridges. */
export interface BridgePool {
  /** Answers a 2025-era request of the host for server `name` (the body already parsed; `ended`: its HTTP response is over). */
  legacy(name: string, request: Request, parsedBody: unknown, ended: Promise<void>): Promise<Response>;
  /** Answers one 2026-07-28 request (or notification) for server `name`. */
  modern(name: string, route: InboundModernRoute, request: Request): Promise<Response>;
  /** Sessions now (initialized or starting). */
  sessions(): number;
  /** Closes every bridge (sessions and per-request ones) and refuses new ones. */
  close(): Promise<void>;
}

/** A JSON-RPC error answer (`id: null` unless given). */
export function jsonRpcError(status: number, code: number, message: string, id: string | number | null = null): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id }, { status });
}

/** The answer for a bridge that could not start: the error's `status` (else 502), -32603 and its message. */
function startFailure(err: unknown, id: string | number | null): Response {
  const status = (err as { status?: unknown }).status;
  return jsonRpcError(typeof status === 'number' ? status : 502, -32603, err instanceof Error ? err.message : String(err), id);
}

/** Creates the pool (an idle sweep runs every minute while it has sessions). */
export function createBridgePool(opts: BridgePoolOptions): BridgePool {
  const live = new Set<Session>();
  const byId = new Map<string, Session>();
  const perRequest = new Set<BridgeProxy>();
  let closed = false;
  const sweep = setInterval(() => {
    const now = opts.now();
    for (const s of live) if (s.open === 0 && now - s.lastSeen > opts.idleMs) void s.proxy?.close();
  }, Math.min(60_000, opts.idleMs));
  sweep.unref();
  const startSession = (name: string) => openSession(name, { ...opts, live, byId, closed: () => closed });
  return {
    async legacy(name, request, parsedBody, ended) {
      const sid = request.headers.get('mcp-session-id');
      if (sid !== null) {
        const session = byId.get(sid);
        if (!session || session.name !== name) return jsonRpcError(404, -32001, 'Session not found');
        return exchange(session, () => session.transport.handleRequest(request, { parsedBody }), ended, opts.now);
      }
      const { isInitializeRequest } = await serverSdk();
      if (request.method !== 'POST' || !isInitializeRequest(parsedBody)) return jsonRpcError(400, -32000, 'Bad Request: no mcp-session-id (send initialize first)');
      if (closed) return jsonRpcError(503, -32000, 'MCP Approval Console is closing');
      if (live.size >= opts.maxSessions) return jsonRpcError(503, -32000, `too many sessions (${opts.maxSessions}); end one (DELETE) first`);
      const started = await startSession(name);
      if (started instanceof Response) return started;
      return exchange(started, () => started.transport.handleRequest(request, { parsedBody }), ended, opts.now);
    },
    async modern(name, route, request) {
      if (route.messageKind === 'notification') return new Response(null, { status: 202 });
      if (closed) return jsonRpcError(503, -32000, 'MCP Approval Console is closing', route.message.id);
      const { PerRequestHTTPServerTransport } = await serverSdk();
      const transport = new PerRequestHTTPServerTransport({ classification: route.classification });
      let proxy: BridgeProxy;
      try {
        proxy = await opts.start(name, hostSideOf(transport, { onlyRequest: route.message.id }));
      } catch (err) {
        return startFailure(err, route.message.id);
      }
      perRequest.add(proxy);
      void proxy.closed.then(() => perRequest.delete(proxy));
      try {
        return await transport.handleMessage(route.message, { request });
      } catch (err) {
        await proxy.close();
        return jsonRpcError(502, -32603, `the bridge closed before answering: ${(err as Error).message}`, route.message.id);
      }
    },
    sessions: () => live.size,
    async close() {
      closed = true;
      clearInterval(sweep);
      await Promise.allSettled([...[...live].map((s) => s.proxy?.close()), ...[...perRequest].map((p) => p.close())]);
    },
  };
}

/** Starts a session's bridge; a Response when it could not start. */
async function openSession(name: string, ctx: BridgePoolOptions & { live: Set<Session>; byId: Map<string, Session>; closed(): boolean }): Promise<Session | Response> {
  const { WebStandardStreamableHTTPServerTransport } = await serverSdk();
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void ctx.byId.set(id, session),
    // DELETE: the session is gone at once; its bridge closes in the background.
    onsessionclosed: (id) => {
      ctx.byId.delete(id);
      ctx.live.delete(session);
    },
  });
  const session: Session = { name, transport, open: 0, lastSeen: ctx.now() };
  ctx.live.add(session);
  try {
    session.proxy = await ctx.start(name, hostSideOf(transport));
  } catch (err) {
    ctx.live.delete(session);
    return startFailure(err, null);
  }
  void session.proxy.closed.then(() => {
    ctx.live.delete(session);
    if (transport.sessionId !== undefined) ctx.byId.delete(transport.sessionId);
  });
  if (ctx.closed()) {
    await session.proxy.close();
    return jsonRpcError(503, -32000, 'MCP Approval Console is closing');
  }
  return session;
}

/** Runs one exchange of a session, counted open until `ended` (its HTTP response is over: a GET stream lasts while the host listens). */
function exchange(session: Session, run: () => Promise<Response>, ended: Promise<void>, now: () => number): Promise<Response> {
  session.open++;
  session.lastSeen = now();
  void ended.then(() => {
    session.open--;
    session.lastSeen = now();
  });
  return run();
}
