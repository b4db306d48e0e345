/**
 * The provider gateway's HTTP listener, on 127.0.0.1 only:
 *
 * - `POST /openai/v1/chat/completions` — the OpenAI Chat Completions API
 *   (`OPENAI_BASE_URL=http://127.0.0.1:<port>/openai/v1`);
 * - `POST /anthropic/v1/messages` — the Anthropic Messages API
 *   (`ANTHROPIC_BASE_URL=http://127.0.0.1:<port>/anthropic`).
 *
 * Before a byte of the body is read, every request must carry a gateway token (`Authorization:
 * Bearer …` as the OpenAI SDKs send it, or `x-api-key` as the Anthropic SDKs do; 401 otherwise),
 * a loopback `Host` (no DNS rebinding) and no `Origin` (no web page may call it; 403). The body is
 * capped (413). Errors are answered in the provider's own shape (main/gateway/wire). What happens
 * to an accepted call: main/gateway/call.ts. Paths under `/mcp/` go to the mounted service first
 * (the bridged servers on Streamable HTTP, main/bridge/http-serving.ts), which checks them itself.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderApi } from '../../shared/contract/gateway.js';
import type { Logger } from '../ports.js';
import type { ServerRequestRouter } from '../requests/router.js';
import { loopbackRefusal, readBody } from '../http/loopback.js';
import { handleCall } from './call.js';
import { sendError } from './respond.js';
import type { GatewayTokens, TokenHolder } from './tokens.js';
import { codecFor } from './wire/index.js';
import { bearerToken } from '../http/token.js';

/** Default cap on a call's body, in bytes (the sampling request cap, S-SIZE-1). */
export const DEFAULT_GATEWAY_BODY_BYTES = 25 * 1024 * 1024;

/** What the listener needs. */
export interface GatewayServerDeps {
  tokens: GatewayTokens;
  /** The console's one door of server requests; calls enter as `provider_call`. */
  requests: ServerRequestRouter;
  /** The body cap for calls queued under `serverId`, bytes (its `maxRequestBytes`, else the default). */
  maxBodyBytes(serverId: string): number;
  logger: Logger;
  now: () => number;
  /** ms without a write after which a streamed call gets a keep-alive; default GATEWAY_KEEPALIVE_MS (call.ts). */
  keepAliveMs?: number;
  /**
   * Another service on the same listener, consulted first for paths under `/mcp/` (before the
   * gateway's routing and token check; it makes its own checks): true when it answered.
   */
  mount?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
}

/** A listening gateway. */
export interface GatewayServer {
  port: number;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Stops listening and ends open calls' connections. */
  close(): Promise<void>;
}

const ROUTES: Record<string, ProviderApi> = {
  '/openai/v1/chat/completions': 'openai',
  '/anthropic/v1/messages': 'anthropic',
};

/**
 * Listens on 127.0.0.1:`port` (0: any free port).
 * @throws Error (as a rejected promise) when the port cannot be bound (e.g. EADDRINUSE)
 */
export async function startGatewayServer(deps: GatewayServerDeps, port: number): Promise<GatewayServer> {
  const server = createServer((req, res) => {
    void serve(deps, req, res, bound.port).catch((err: unknown) => {
      deps.logger.error('gateway call failed', { error: String(err) });
      if (!res.headersSent) sendError(res, 'openai', { status: 500, kind: 'api_error', message: 'internal error in the console' });
      else res.end();
    });
  });
  server.requestTimeout = 0; // a call may wait on a person for as long as the caller waits
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return { port: bound.port, url: `http://127.0.0.1:${bound.port}`, close: () => closeServer(server) };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** One HTTP request: checked, its body read, then handed to the call handler. */
async function serve(deps: GatewayServerDeps, req: IncomingMessage, res: ServerResponse, port: number): Promise<void> {
  const path = (req.url ?? '').split('?')[0] ?? '';
  if (deps.mount && path.startsWith('/mcp/') && (await deps.mount(req, res))) return;
  const api = ROUTES[path];
  const shape: ProviderApi = api ?? (path.startsWith('/anthropic') ? 'anthropic' : 'openai');
  const refusal = loopbackRefusal(req, port);
  if (refusal) return sendError(res, shape, { status: 403, kind: 'permission', message: refusal });
  if (!api || req.method !== 'POST') return sendError(res, shape, { status: 404, kind: 'not_found', message: `${req.method} ${path} is not served by the console's provider gateway` });
  const holder = authenticate(deps, req);
  if (!holder) return sendError(res, api, { status: 401, kind: 'authentication', message: 'invalid or missing gateway token (set the API key to a token of MCP Approval Console)' });
  const cap = deps.maxBodyBytes(holder.serverId);
  const body = await readBody(req, cap);
  if (body === 'too_large') return sendError(res, api, { status: 413, kind: 'too_large', message: `request body over ${cap} bytes` });
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return sendError(res, api, { status: 400, kind: 'invalid_request', message: 'the request body is not valid JSON' });
  }
  await handleCall({ requests: deps.requests, now: deps.now, logger: deps.logger, ...(deps.keepAliveMs !== undefined && { keepAliveMs: deps.keepAliveMs }) }, { codec: codecFor(api), holder, body: json, req, res });
}


/** The token's holder: `Authorization: Bearer <token>` or `x-api-key: <token>`. */
function authenticate(deps: GatewayServerDeps, req: IncomingMessage): TokenHolder | undefined {
  const bearer = bearerToken(req);
  const key = req.headers['x-api-key'];
  const token = bearer ?? (typeof key === 'string' ? key.trim() : undefined);
  return token ? deps.tokens.holder(token, deps.now()) : undefined;
}

