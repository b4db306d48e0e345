/**
 * A team server's one listener (`mcp-approval-console serve`): the web UI, the provider gateway
 * and the bridges' channel on one address, so operators and load balancers deal with one port.
 *
 * - `/` and `/assets/…`: the built renderer (public code; the page asks `/auth/session` and shows
 *   the sign-in screen until a session exists);
 * - `/auth/session`, `/auth/sign-in`, `/auth/sign-out`: the sign-in (team-sign-in.ts);
 *   `/auth/oidc/start`, `/auth/oidc/callback`: OpenID Connect (team-oidc.ts);
 * - `/api` (WebSocket): the same `ConsoleApi` as the loopback web host, for a signed-in session
 *   from a page of the public origin only; connections whose session ends are closed (4401);
 * - `/openai/…`, `/anthropic/…`: the provider gateway (a gateway token per call);
 * - `/bridge` (WebSocket): developers' bridges (`bridge --console <url>`), a token each, no web pages;
 * - `/healthz` (GET, HEAD): 200 while this instance reaches the team's database, else 503, for load
 *   balancers — answered before the TLS-proxy check, since their health checks come without
 *   `X-Forwarded-Proto` and not always from the proxy's address.
 *
 * TLS: served from certificate files, or (`--behind-tls-proxy`) plain HTTP taken only from the
 * proxy's addresses and only with `X-Forwarded-Proto: https`: everything else but the health check
 * is refused (403) before routing. Where and how it listens is decided by listen-policy.ts.
 */
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ConsoleService } from '../../shared/contract/api.js';
import { BRIDGE_MAX_LINE_BYTES } from '../../shared/contract/bridge-protocol.js';
import type { RemoteCaller } from '../../main/bridge/listener.js';
import { BRIDGE_CHANNEL_PATH } from '../../main/bridge/remote-channel.js';
import { bearerToken } from '../../main/http/token.js';
import { HistoryUnavailableError } from '../../main/store/history-api.js';
import type { Principal, TeamAuth } from '../../main/team/auth.js';
import type { OidcClient } from '../../main/team/oidc.js';
import { rendererCsp } from '../csp.js';
import { proxyMatcher, type ListenPlan } from './listen-policy.js';
import { resolveStaticFile, sendFile } from './static-files.js';
import { attemptLimiter, clientAddress, handleSignIn, isAuthPath, sessionIdOf, type SignInContext } from './team-sign-in.js';
import { handleOidc, isOidcPath } from './team-oidc.js';
import { serveConnection } from './ws-protocol.js';
import { API_PATH } from './server.js';

/** Close code of a UI connection whose session ended (signed out, replaced admin token, expired). */
export const SESSION_ENDED_CLOSE = 4401;
/** How often open UI connections' sessions are checked again (expiry), in ms. */
export const SESSION_RECHECK_MS = 60_000;
/** Path of the load balancers' health check. */
export const HEALTH_PATH = '/healthz';

const DEFAULT_MAX_PAYLOAD = 64 * 1024 * 1024;

/** What {@link startTeamHost} needs. */
export interface TeamHostOptions {
  plan: ListenPlan;
  /** The built renderer (index.html, assets/). */
  staticDir: string;
  auth: TeamAuth;
  /** OpenID Connect sign-in, when configured. */
  oidc?: OidcClient;
  /** The console service a signed-in principal's connection talks to. */
  serviceFor(principal: Principal): ConsoleService;
  /** The provider gateway's endpoints; absent: 404. */
  gateway?(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Developers' bridges: who a token names (rejects HistoryUnavailableError while the database is unreachable), and taking one in. */
  bridges?: { authenticate(token: string): Promise<RemoteCaller | undefined>; accept(socket: WebSocket, caller: RemoteCaller): void };
  /** Whether this instance reaches the team's database now (`/healthz`). */
  healthy?(): boolean;
  /** Largest UI WebSocket frame, bytes; default 64 MiB. */
  maxPayloadBytes?: number;
  onError?(err: unknown): void;
}

/** A listening team server. */
export interface TeamHost {
  /** The public address's origin (the page people open). */
  url: string;
  port: number;
  address: AddressInfo;
  /** Closes every WebSocket (1001) and stops listening. Idempotent. */
  close(): Promise<void>;
}

/** What one host keeps. */
interface HostState {
  readonly opts: TeamHostOptions;
  readonly onError: (err: unknown) => void;
  readonly ui: WebSocketServer;
  readonly bridges: WebSocketServer;
  readonly pageFile: Promise<{ file: string; size: number } | null>;
  readonly trusted?: (address: string | undefined) => boolean;
  /** Open UI connections and the session each was opened with. */
  readonly sessions: Map<WebSocket, string>;
  origin: string;
  secure: boolean;
  headers: Record<string, string>;
  signIn: SignInContext;
}

/**
 * Starts listening as `opts.plan` says.
 * @throws Error when the certificate or key file cannot be read or is not PEM, or the address
 *   cannot be bound (EADDRINUSE, EADDRNOTAVAIL)
 */
export async function startTeamHost(opts: TeamHostOptions): Promise<TeamHost> {
  const { plan } = opts;
  const onError = opts.onError ?? (() => undefined);
  const ui = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD });
  const bridges = new WebSocketServer({ noServer: true, maxPayload: BRIDGE_MAX_LINE_BYTES });
  const st: HostState = {
    opts,
    onError,
    ui,
    bridges,
    pageFile: resolveStaticFile(opts.staticDir, '/'),
    ...(plan.proxy && { trusted: proxyMatcher(plan.proxy.trusted) }),
    sessions: new Map(),
    origin: '',
    secure: false,
    headers: {},
    signIn: undefined as unknown as SignInContext, // set once listening (the origin is known then)
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) =>
    handleHttp(st, req, res).catch((err: unknown) => {
      onError(err);
      if (!res.headersSent) res.writeHead(500, st.headers);
      res.end();
    });
  const server = plan.tls ? https.createServer({ ...readTls(plan.tls) }, onRequest) : http.createServer(onRequest);
  server.requestTimeout = 0; // a gateway call may wait on a person for as long as its caller waits
  server.headersTimeout = 30_000;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void handleUpgrade(st, req, socket, head).catch(onError));
  server.on('clientError', (_err, socket) => socket.destroy());
  await listen(server, plan.host, plan.port);
  const address = server.address() as AddressInfo;
  st.origin = plan.publicUrl ?? `${plan.tls ? 'https' : 'http'}://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  st.secure = st.origin.startsWith('https:');
  st.headers = securityHeaders(st.origin);
  st.signIn = { auth: opts.auth, origin: st.origin, secure: st.secure, limiter: attemptLimiter(), ...(opts.oidc && { oidc: opts.oidc }), clientOf: (req) => clientAddress(req, plan.proxy !== undefined), headers: st.headers };
  const stopWatching = watchSessions(st);
  let closing: Promise<void> | undefined;
  return {
    url: st.origin,
    port: address.port,
    address,
    close: () => (closing ??= close(st, server, stopWatching)),
  };
}

/** The certificate chain and key. @throws Error naming the file that cannot be read or is not PEM */
function readTls(files: { certFile: string; keyFile: string }): { cert: Buffer; key: Buffer } {
  const read = (file: string, what: string) => {
    let pem: Buffer;
    try {
      pem = readFileSync(file);
    } catch (err) {
      throw new Error(`cannot read the TLS ${what} ${file}: ${(err as Error).message}`, { cause: err });
    }
    if (!pem.includes('-----BEGIN ')) throw new Error(`the TLS ${what} ${file} is not a PEM file`);
    return pem;
  };
  return { cert: read(files.certFile, 'certificate'), key: read(files.keyFile, 'key') };
}

/** Why a request may not be taken at all (plain HTTP not from the TLS proxy), or undefined. */
function doorRefusal(st: HostState, req: IncomingMessage): string | undefined {
  if (!st.trusted) return undefined;
  if (!st.trusted(req.socket.remoteAddress)) return 'Forbidden: plain HTTP is accepted only from the TLS proxy (--trusted-proxy)';
  const proto = req.headers['x-forwarded-proto'];
  if (typeof proto !== 'string' || proto.trim().toLowerCase() !== 'https') return 'Forbidden: the TLS proxy must send X-Forwarded-Proto: https';
  return undefined;
}

/** One HTTP request: health, then the door, then the gateway, the sign-in, or the renderer's files. */
async function handleHttp(st: HostState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  // Load balancers check health over plain HTTP, without X-Forwarded-Proto and maybe from elsewhere; it says only "ok" or not.
  if (path === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
    const up = st.opts.healthy?.() !== false;
    return plain(res, up ? 200 : 503, up ? 'ok' : 'database unreachable', st.headers);
  }
  const refusal = doorRefusal(st, req);
  if (refusal) return plain(res, 403, refusal, st.headers);
  if (path === '/openai' || path.startsWith('/openai/') || path === '/anthropic' || path.startsWith('/anthropic/')) {
    if (st.opts.gateway) return st.opts.gateway(req, res);
    return plain(res, 404, 'Not Found', st.headers);
  }
  if (isAuthPath(path)) return handleSignIn(st.signIn, req, res, path);
  if (isOidcPath(path)) return handleOidcRequest(st.signIn, req, res, path);
  if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method Not Allowed', { ...st.headers, Allow: 'GET, HEAD' });
  const file = await resolveStaticFile(st.opts.staticDir, path);
  if (!file) return plain(res, 404, 'Not Found', st.headers);
  const isPage = file.file === (await st.pageFile)?.file;
  if (!isPage && file.file.toLowerCase().endsWith('.html')) return plain(res, 404, 'Not Found', st.headers);
  const cache = isPage ? 'no-store' : path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
  sendFile(res, file, { ...st.headers, 'Cache-Control': cache }, req.method === 'HEAD');
}

/** An OpenID Connect request; 503 while the team database cannot be reached. */
async function handleOidcRequest(ctx: SignInContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  try {
    await handleOidc(ctx, req, res, path);
  } catch (err) {
    if (!(err instanceof HistoryUnavailableError)) throw err;
    plain(res, 503, "the console's team database cannot be reached; try again shortly", ctx.headers);
  }
}

/** A WebSocket upgrade: the UI's `/api` (a session from the public origin) or a bridge's `/bridge` (a token, no web page). */
async function handleUpgrade(st: HostState, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  socket.on('error', st.onError);
  if (doorRefusal(st, req)) return refuse(socket, 403, 'Forbidden');
  const path = (req.url ?? '/').split('?')[0];
  try {
    if (path === API_PATH) return await upgradeUi(st, req, socket, head);
    if (path === BRIDGE_CHANNEL_PATH && st.opts.bridges) return await upgradeBridge(st, st.opts.bridges, req, socket, head);
  } catch (err) {
    if (!(err instanceof HistoryUnavailableError)) throw err;
    return refuse(socket, 503, 'Service Unavailable');
  }
  refuse(socket, 404, 'Not Found');
}

/** The UI's WebSocket: Origin first (cross-site WebSocket hijacking), then the session cookie. */
async function upgradeUi(st: HostState, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  if (req.headers.origin !== st.origin) return refuse(socket, 403, 'Forbidden');
  const id = sessionIdOf(req, st.secure);
  const principal = id ? await st.opts.auth.session(id) : undefined;
  if (!id || !principal) return refuse(socket, 401, 'Unauthorized');
  st.ui.handleUpgrade(req, socket, head, (ws) => {
    st.sessions.set(ws, id);
    ws.on('close', () => st.sessions.delete(ws));
    serveConnection(ws, st.opts.serviceFor(principal), st.onError);
  });
}

/** A developer's bridge: no web page may open it; its token as `Authorization: Bearer`. */
async function upgradeBridge(st: HostState, bridges: NonNullable<TeamHostOptions['bridges']>, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  if (req.headers.origin !== undefined) return refuse(socket, 403, 'Forbidden');
  const token = bearerToken(req);
  const caller = token ? await bridges.authenticate(token) : undefined;
  if (!caller) return refuse(socket, 401, 'Unauthorized');
  st.bridges.handleUpgrade(req, socket, head, (ws) => bridges.accept(ws, caller));
}

/**
 * Checks the open UI connections' sessions again whenever sessions ended somewhere (and every
 * {@link SESSION_RECHECK_MS}): one whose session is gone is closed with {@link SESSION_ENDED_CLOSE}.
 * While the database cannot be reached, connections stay open. Returns the stop.
 */
function watchSessions(st: HostState): () => void {
  let checking = false;
  const check = () => {
    if (checking || st.sessions.size === 0) return;
    checking = true;
    const open = [...st.sessions];
    void Promise.all(
      open.map(async ([ws, id]) => {
        const principal = await st.opts.auth.session(id).catch(() => 'unknown' as const);
        if (principal === undefined) ws.close(SESSION_ENDED_CLOSE, 'session ended');
      }),
    ).finally(() => (checking = false));
  };
  const off = st.opts.auth.onSessionsEnded(check);
  const timer = setInterval(check, SESSION_RECHECK_MS);
  timer.unref?.();
  return () => {
    off();
    clearInterval(timer);
  };
}

/** Answers an upgrade with a bare status and closes the socket. */
function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

function listen(server: http.Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function close(st: HostState, server: http.Server, stopWatching: () => void): Promise<void> {
  stopWatching();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const wss of [st.ui, st.bridges]) {
    for (const client of wss.clients) client.close(1001, 'server shutting down');
    wss.close();
  }
  server.closeAllConnections();
  setTimeout(() => {
    for (const wss of [st.ui, st.bridges]) for (const client of wss.clients) client.terminate();
  }, 1000).unref();
  await closed;
}

/** Headers every response carries; HSTS when the public address is https. */
function securityHeaders(origin: string): Record<string, string> {
  const wsOrigin = origin.replace(/^http/, 'ws');
  return {
    'Content-Security-Policy': rendererCsp([wsOrigin]),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ...(origin.startsWith('https:') && { 'Strict-Transport-Security': 'max-age=31536000' }),
  };
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}
