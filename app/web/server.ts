/**
 * The loopback web host: serves the built renderer and the same `ConsoleApi` as Electron's IPC,
 * over one WebSocket at `/api`, to a browser on this machine.
 *
 * Security model (each rule has a test in test/hosts/web-server.test.ts):
 * - binds 127.0.0.1 only;
 * - every request must carry `Host: 127.0.0.1:PORT` or `localhost:PORT` (DNS rebinding);
 * - the page (whatever path resolves to index.html) and the WebSocket need the random token (`?token=`),
 *   compared in constant time; hashed build assets are public code and need no token;
 * - the WebSocket upgrade also needs `Origin: http://127.0.0.1:PORT` exactly;
 * - strict CSP, nosniff, no-referrer, no framing; index.html is never cached;
 * - frames are capped (`maxPayload`) and parsed with zod before {@link dispatch}.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { ConsoleService } from '../../shared/contract/api.js';
import { rendererCsp } from '../csp.js';
import { tokenMatches } from '../../main/http/token.js';
import { generateToken, isAllowedHost, isAllowedOrigin, tokenFromUrl, TOKEN_PARAM } from './security.js';
import { resolveStaticFile, sendFile } from './static-files.js';
import { serveConnection } from './ws-protocol.js';

/** Options of {@link startWebHost}. */
export interface WebHostOptions {
  /** The console service every request is dispatched to. */
  service: ConsoleService;
  /** Absolute path of the built renderer (contains index.html and assets/). */
  staticDir: string;
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** The access token; default: 32 random bytes, base64url. Must be at least 16 characters. */
  token?: string;
  /** Largest accepted WebSocket frame in bytes; default 64 MiB (requests may carry images). */
  maxPayloadBytes?: number;
  /** Receives unexpected errors for logging. Default: ignore. */
  onError?: (err: unknown) => void;
}

/** A running web host. */
export interface WebHost {
  /** The page URL to open, token included: `http://127.0.0.1:PORT/?token=…`. */
  url: string;
  /** `http://127.0.0.1:PORT` — the only Origin the WebSocket accepts. */
  origin: string;
  port: number;
  token: string;
  /** The listening socket's address (always `127.0.0.1`, IPv4). */
  address: AddressInfo;
  /** Closes every WebSocket (1001), unsubscribes their events, and stops listening. */
  close(): Promise<void>;
}

/** Path of the API WebSocket. */
export const API_PATH = '/api';
/** Path of the tiny script that restores the token from sessionStorage after a reload. */
export const REAUTH_SCRIPT_PATH = '/__reauth.js';
/** sessionStorage key the renderer keeps the token under (renderer/api/token.ts uses the same). */
export const TOKEN_STORAGE_KEY = 'mcp-console-token';

const DEFAULT_MAX_PAYLOAD = 64 * 1024 * 1024;

/**
 * What one host keeps: its options and token, the WebSocket server, the page's file, and — once
 * listening — its port and the headers every response carries; the close under way, if any.
 */
interface HostState {
  readonly opts: WebHostOptions;
  readonly token: string;
  readonly onError: (err: unknown) => void;
  readonly wss: WebSocketServer;
  /** The page's file (index.html, real path), as the static lookup resolves `/`. */
  readonly pageFile: Promise<{ file: string; size: number } | null>;
  /** 0 until listening. */
  port: number;
  /** Empty until listening. */
  headers: Record<string, string>;
  closing: Promise<void> | null;
}

/**
 * Starts the web host on 127.0.0.1.
 * @returns once listening; see {@link WebHost}.
 * @throws Error when the port is taken or invalid, or the token is shorter than 16 characters.
 */
export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const token = opts.token ?? generateToken();
  if (token.length < 16) throw new Error('web host token must be at least 16 characters');
  const onError = opts.onError ?? (() => {});
  const wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD });
  wss.on('connection', (socket) => serveConnection(socket, opts.service, onError));

  const st: HostState = { opts, token, onError, wss, pageFile: resolveStaticFile(opts.staticDir, '/'), port: 0, headers: {}, closing: null };
  const server = http.createServer((req, res) => {
    handleHttp(st, req, res).catch((err: unknown) => {
      onError(err);
      if (!res.headersSent) res.writeHead(500, st.headers);
      res.end();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => handleUpgrade(st, req, socket, head));
  server.on('clientError', (_err, socket) => socket.destroy());

  await listen(server, opts.port ?? 0);
  const address = server.address() as AddressInfo;
  st.port = address.port;
  const origin = `http://127.0.0.1:${st.port}`;
  st.headers = securityHeaders(st.port);
  return {
    url: `${origin}/?${TOKEN_PARAM}=${encodeURIComponent(token)}`,
    origin,
    port: st.port,
    token,
    address,
    close: () => close(st, server),
  };
}

/**
 * Answers one HTTP request: Host checked, GET and HEAD only, `localhost:` redirected to
 * 127.0.0.1, the reauth script, then static files — the page only with the token, no other HTML.
 */
async function handleHttp(st: HostState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { port, headers, token } = st;
  if (!isAllowedHost(req.headers.host, port)) return plain(res, 403, 'Forbidden: unexpected Host header', headers);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return plain(res, 405, 'Method Not Allowed', { ...headers, Allow: 'GET, HEAD' });
  }
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  if (req.headers.host?.toLowerCase().startsWith('localhost:')) {
    // One origin only, so the page's WebSocket Origin always matches.
    res.writeHead(308, { ...headers, Location: `http://127.0.0.1:${port}${url.pathname}${url.search}` });
    return void res.end();
  }
  const headOnly = req.method === 'HEAD';
  if (url.pathname === REAUTH_SCRIPT_PATH) {
    res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
    return void res.end(headOnly ? undefined : REAUTH_SCRIPT);
  }
  const file = await resolveStaticFile(st.opts.staticDir, url.pathname);
  if (!file) return plain(res, 404, 'Not Found', headers);
  // The page is whatever resolves to index.html (`/`, `/index.html`, `/index.html/`, `//index.html`,
  // `/./index.html` …): decided on the file served, not on the spelling of the path. Other HTML: never.
  const isPage = file.file === (await st.pageFile)?.file;
  if (!isPage && file.file.toLowerCase().endsWith('.html')) return plain(res, 404, 'Not Found', headers);
  if (isPage && !tokenMatches(url.searchParams.get(TOKEN_PARAM), token)) {
    res.writeHead(401, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    return void res.end(headOnly ? undefined : UNAUTHORIZED_PAGE);
  }
  const cache = isPage ? 'no-store' : url.pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
  sendFile(res, file, { ...headers, 'Cache-Control': cache }, headOnly);
}

/** Upgrades a request to the API WebSocket when its Host, path, token and Origin are right; else answers the refusal and closes the socket. */
function handleUpgrade(st: HostState, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const { port, token, wss } = st;
  socket.on('error', st.onError);
  if (!isAllowedHost(req.headers.host, port)) return refuse(socket, 403, 'Forbidden');
  let pathname: string;
  try {
    pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  } catch {
    return refuse(socket, 400, 'Bad Request');
  }
  if (pathname !== API_PATH) return refuse(socket, 404, 'Not Found');
  if (!tokenMatches(tokenFromUrl(req.url), token)) return refuse(socket, 401, 'Unauthorized');
  if (!isAllowedOrigin(req.headers.origin, `http://127.0.0.1:${port}`)) return refuse(socket, 403, 'Forbidden');
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
}

/** Answers an upgrade with a bare HTTP status and closes the socket. */
function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/** Listens on 127.0.0.1:`port`. @throws (rejects) the server's error, e.g. EADDRINUSE */
function listen(server: http.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** {@link WebHost.close}: every WebSocket closed with 1001 (terminated after 1 s), then the server; the same promise on every call. */
function close(st: HostState, server: http.Server): Promise<void> {
  const { wss } = st;
  st.closing ??= new Promise<void>((resolve) => {
    for (const client of wss.clients) client.close(1001, 'host shutting down');
    wss.close();
    server.close(() => resolve());
    server.closeAllConnections();
    setTimeout(() => {
      for (const client of wss.clients) client.terminate();
    }, 1000).unref();
  });
  return st.closing;
}

/** Headers every HTTP response carries. */
function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': rendererCsp([`ws://127.0.0.1:${port}`]),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

/** Answers with a plain-text body and the host's headers (never cached). */
function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

/**
 * After the renderer strips `?token=` from the address bar, a reload arrives without it. This
 * script (same-origin, allowed by the CSP) puts the token kept in sessionStorage back once; it
 * never loops, because it does nothing when the URL already has a token.
 */
const REAUTH_SCRIPT = `(() => {
  try {
    const p = new URLSearchParams(location.search);
    const t = sessionStorage.getItem(${JSON.stringify(TOKEN_STORAGE_KEY)});
    if (t && !p.has(${JSON.stringify(TOKEN_PARAM)})) {
      p.set(${JSON.stringify(TOKEN_PARAM)}, t);
      location.replace('/?' + p.toString() + location.hash);
    }
  } catch {}
})();
`;

const UNAUTHORIZED_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP Approval Console</title>
<script src="${REAUTH_SCRIPT_PATH}"></script></head>
<body><h1>401 — access token required</h1>
<p>Open the address printed in the terminal that started the console (it ends with <code>?token=…</code>).</p>
</body></html>
`;
