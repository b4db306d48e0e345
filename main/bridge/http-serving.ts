/**
 * Serving bridged servers on loopback Streamable HTTP, for agent hosts that take a URL instead of
 * a command: `POST|GET|DELETE /mcp/<name>`, where `<name>` is an entry of the console's
 * mcp-servers.json, runs that server behind a bridge (./run.ts) exactly as `bridge <name>` would
 * over stdio — the host's requests pass through, the server's sampling (and elicitation / roots
 * the host did not declare) goes to the console's queue. How host connections map to bridges:
 * ./http-sessions.ts.
 *
 * The console mounts {@link BridgeHttpServing.handle} on a 127.0.0.1 `node:http` listener. Before
 * a byte of the body is read, each request must carry no `Origin` (no web page may call it; 403),
 * a loopback `Host` naming the listener's port (no DNS rebinding; 403) and `Authorization: Bearer
 * <token>` with the token of {@link bridgeHttpToken} (401). Errors are JSON-RPC error bodies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../ports.js';
import { serverSdk } from './server-sdk.js';
import { createBridgePool, type BridgePool, type StartBridge } from './http-sessions.js';
import { loopbackRefusal, readBody } from '../http/loopback.js';
import { bearerToken, tokenMatches } from '../http/token.js';
import { hangUpSignal, sendJsonRpcError, toWebRequest, writeWebResponse } from './http-web.js';
import { ownerToken } from './owner-file.js';
import { bridgeHttpTokenPath } from './paths.js';
import { runBridge, serverConfigFor } from './run.js';

/** The path prefix served; a server's URL is `<listener>/mcp/<name>` (name URI-encoded). */
export const MCP_PATH_PREFIX = '/mcp/';
/** Default cap on a request body, bytes (the sampling request cap). */
export const DEFAULT_BRIDGE_HTTP_BODY_BYTES = 25 * 1024 * 1024;
/** Default most host sessions at once. */
export const DEFAULT_MAX_SESSIONS = 64;
/** Default idle time after which a session with no open exchange is closed, ms (1 hour). */
export const DEFAULT_SESSION_IDLE_MS = 60 * 60 * 1000;

/** What the serving needs. */
export interface BridgeHttpServingOptions {
  /** The console's user-data folder (its mcp-servers.json; the bridges' channel). */
  userDataDir: string;
  logger: Logger;
  /** The token hosts must present (see {@link bridgeHttpToken}). */
  token: string;
  /** Environment the servers inherit (default the console's). */
  env?: NodeJS.ProcessEnv;
  maxBodyBytes?: number;
  maxSessions?: number;
  idleMs?: number;
  /** Clock, epoch ms; default Date.now. */
  now?(): number;
}

/** The mounted handler. */
export interface BridgeHttpServing {
  /**
   * Answers a request under `/mcp/`; false (nothing written) for any other path. Never rejects:
   * a failure is answered 500 (-32603).
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Host sessions open now. */
  sessions(): number;
  /** Closes every session's bridge (their servers' connections with them) and refuses new ones (503). */
  close(): Promise<void>;
}

/**
 * The loopback serving's token, from the owner-only file `bridge-http-token` in the user-data
 * folder (created on first use; kept across starts, since hosts' config files carry it).
 * @throws Error when the file cannot be read or created
 */
export function bridgeHttpToken(userDataDir: string): string {
  return ownerToken(bridgeHttpTokenPath(userDataDir));
}

/** Creates the handler (no listener of its own). */
export function createBridgeHttpServing(opts: BridgeHttpServingOptions): BridgeHttpServing {
  const start: StartBridge = async (name, host) => {
    try {
      serverConfigFor({ kind: 'named', name }, opts.userDataDir);
    } catch (err) {
      throw Object.assign(new Error((err as Error).message), { status: 404 }); // before anything starts
    }
    return runBridge({ target: { kind: 'named', name }, serverId: name, host, userDataDir: opts.userDataDir, logger: opts.logger, env: opts.env ?? process.env });
  };
  const now = opts.now ?? Date.now;
  const pool = createBridgePool({ start, maxSessions: opts.maxSessions ?? DEFAULT_MAX_SESSIONS, idleMs: opts.idleMs ?? DEFAULT_SESSION_IDLE_MS, now });
  const ctx: ServeCtx = { token: opts.token, pool, maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_BRIDGE_HTTP_BODY_BYTES };
  return {
    async handle(req, res) {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (!path.startsWith(MCP_PATH_PREFIX)) return false;
      try {
        await serve(ctx, path, req, res);
      } catch (err) {
        opts.logger.error('bridged HTTP request failed', { error: String(err) });
        if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'internal error in the console');
        else res.end();
      }
      return true;
    },
    sessions: () => pool.sessions(),
    close: () => pool.close(),
  };
}

/** What one request is served with. */
interface ServeCtx {
  token: string;
  pool: BridgePool;
  maxBodyBytes: number;
}

/** One request under `/mcp/`: checked, its body read and classified by era, then handed to the pool. */
async function serve(ctx: ServeCtx, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refusal = refuse(req, ctx.token);
  if (refusal) return sendJsonRpcError(res, refusal.status, -32000, refusal.message, refusal.headers);
  const name = serverNameOf(path);
  if (name === undefined) return sendJsonRpcError(res, 404, -32000, `${path} names no server: use ${MCP_PATH_PREFIX}<name of a server in the console>`);
  const method = req.method ?? 'GET';
  if (!['GET', 'POST', 'DELETE'].includes(method)) return sendJsonRpcError(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
  const { classifyInboundRequest, isJsonContentType } = await serverSdk();
  if (method === 'POST' && !isJsonContentType(req.headers['content-type'] ?? null)) return sendJsonRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  const body = await readBody(req, ctx.maxBodyBytes);
  if (body === 'too_large') return sendJsonRpcError(res, 413, -32000, `request body over ${ctx.maxBodyBytes} bytes`);
  let parsed: unknown;
  try {
    parsed = method === 'POST' ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    return sendJsonRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
  }
  const request = toWebRequest(req, body, hangUpSignal(res));
  const route = classifyInboundRequest({ httpMethod: method, body: parsed, ...protocolHeaders(req) });
  if (route.kind === 'reject') return sendJsonRpcError(res, route.httpStatus, route.code, route.message);
  const ended = new Promise<void>((resolve) => res.once('close', () => resolve()));
  const response = route.kind === 'modern' ? await ctx.pool.modern(name, route, request) : await ctx.pool.legacy(name, request, parsed, ended);
  await writeWebResponse(res, response);
}

/** Why a request is refused before anything else: a web page's `Origin` or a foreign `Host` (403), no or a wrong token (401). */
function refuse(req: IncomingMessage, token: string): { status: number; message: string; headers?: Record<string, string> } | undefined {
  const refusal = loopbackRefusal(req, req.socket.localPort ?? 0);
  if (refusal) return { status: 403, message: refusal };
  if (!tokenMatches(bearerToken(req), token)) {
    return { status: 401, message: 'invalid or missing token: send Authorization: Bearer <the token in the console user-data folder, bridge-http-token>', headers: { 'www-authenticate': 'Bearer' } };
  }
  return undefined;
}

/** The server name in `/mcp/<name>` (URI-decoded); undefined when empty, malformed or holding a `/`. */
function serverNameOf(path: string): string | undefined {
  try {
    const name = decodeURIComponent(path.slice(MCP_PATH_PREFIX.length));
    return name && !name.includes('/') ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The protocol headers the SDK's era classification reads. */
function protocolHeaders(req: IncomingMessage): { protocolVersionHeader?: string; mcpMethodHeader?: string; mcpNameHeader?: string } {
  const one = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const version = one('mcp-protocol-version');
  const method = one('mcp-method');
  const mcpName = one('mcp-name');
  return { ...(version !== undefined && { protocolVersionHeader: version }), ...(method !== undefined && { mcpMethodHeader: method }), ...(mcpName !== undefined && { mcpNameHeader: mcpName }) };
}
