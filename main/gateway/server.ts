/**
 * The provider gateway's HTTP listener, on 127.0.0.1 only, serving the endpoints of routes.ts:
 *
 * - OpenAI (`OPENAI_BASE_URL=http://127.0.0.1:<port>/openai/v1`): `POST /chat/completions`,
 *   `POST /responses` and `GET /responses/{id}`, `POST /embeddings`, `GET /models[/{id}]`;
 * - Anthropic (`ANTHROPIC_BASE_URL=http://127.0.0.1:<port>/anthropic`, with or without `/v1`
 *   after it): `POST /messages`, `POST /messages/count_tokens`, `GET /models[/{id}]`.
 *
 * An unknown path is a 404 naming the endpoints served; a served path asked with another method
 * is a 405 with `Allow`. `anthropic-version` and `anthropic-beta` headers are accepted (the betas
 * are listed as not carried over).
 *
 * Before a byte of the body is read, every request must carry a gateway token (`Authorization:
 * Bearer …` as the OpenAI SDKs send it, or `x-api-key` as the Anthropic SDKs do; 401 otherwise),
 * a loopback `Host` (no DNS rebinding) and no `Origin` (no web page may call it; 403) — on a team
 * server's listener ({@link gatewayHandler}) only the latter, its host having checked TLS. The body is
 * capped (413). Errors are answered in the provider's own shape (main/gateway/wire). What happens
 * to an accepted call: main/gateway/call.ts (embeddings: embeddings.ts). Paths under `/mcp/` go to the mounted service first
 * (the bridged servers on Streamable HTTP, main/bridge/http-serving.ts), which checks them itself.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderApi } from '../../shared/contract/gateway.js';
import type { Logger } from '../ports.js';
import type { ServerRequestRouter } from '../requests/router.js';
import { loopbackRefusal, readBody } from '../http/loopback.js';
import { handleCall, type CallContext } from './call.js';
import { countTokens } from './count-tokens.js';
import { handleEmbeddings } from './embeddings.js';
import { modelBody, modelsBody, type GatewayModel } from './models.js';
import { startOverhead } from './overhead.js';
import { sendError, sendJson } from './respond.js';
import { earlierAnswers, namedResponseIds, prefetchEntries, storedResponse, type ReadEntry } from './responses-history.js';
import { route, SERVED_ENDPOINTS, type Endpoint } from './routes.js';
import type { GatewayTokens, TokenHolder } from './tokens.js';
import { anthropicCodec, openAiCodec, responsesCodec, type WireCodec } from './wire/index.js';
import { bearerToken } from '../http/token.js';
import { HistoryUnavailableError } from '../store/history-api.js';

/** Default cap on a call's body, in bytes (the sampling request cap, S-SIZE-1). */
export const DEFAULT_GATEWAY_BODY_BYTES = 25 * 1024 * 1024;

/** What the listener needs. */
export interface GatewayServerDeps {
  tokens: GatewayTokens;
  /** The console's one door of server requests; calls enter as `provider_call`. */
  requests: ServerRequestRouter;
  /** The body cap for calls queued under `serverId`, bytes (its `maxRequestBytes`, else the default). */
  maxBodyBytes(serverId: string): number;
  /** The models a caller queued under `serverId` may ask for (main/gateway/models.ts). */
  models(serverId: string): GatewayModel[];
  /** Whether any provider makes embeddings (else an embeddings call is refused at once). */
  makesEmbeddings(): boolean;
  /** A History entry by id: the Responses API's `previous_response_id`, `item_reference` and `GET /responses/{id}`. */
  historyEntry: ReadEntry;
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

const CODECS: Record<Extract<Endpoint, { kind: 'call' }>['endpoint'], WireCodec> = {
  chat_completions: openAiCodec,
  responses: responsesCodec,
  messages: anthropicCodec,
};

/**
 * Why a request is refused before anything else (answered 403), or undefined: on loopback
 * {@link loopbackRefusal}; on a team server's listener, any `Origin` (no web page may call the
 * gateway; the host checked TLS or the proxy before).
 */
export type GatewayDoorCheck = (req: IncomingMessage) => string | undefined;

/** Refuses requests from web pages (any `Origin` header): the door check of a team server's listener. */
export const noWebPages: GatewayDoorCheck = (req) => (req.headers.origin !== undefined ? 'requests from web pages are refused' : undefined);

/**
 * The gateway's request handler, for a listener of the caller's (a team server serves it beside
 * its web UI): `door` runs first on every request. Never rejects: a failure is answered 500, a
 * team database that cannot be reached 503.
 */
export function gatewayHandler(deps: GatewayServerDeps, door: GatewayDoorCheck): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) => {
    startOverhead(res);
    return serve(deps, req, res, door).catch((err: unknown) => {
      deps.logger.error('gateway call failed', { error: String(err) });
      if (!res.headersSent) sendError(res, 'openai', { status: 500, kind: 'api_error', message: 'internal error in the console' });
      else res.end();
    });
  };
}

/**
 * Listens on 127.0.0.1:`port` (0: any free port).
 * @throws Error (as a rejected promise) when the port cannot be bound (e.g. EADDRINUSE)
 */
export async function startGatewayServer(deps: GatewayServerDeps, port: number): Promise<GatewayServer> {
  const handle = gatewayHandler(deps, (req) => loopbackRefusal(req, bound.port));
  const server = createServer((req, res) => void handle(req, res));
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

/** One HTTP request: checked, routed, its body read, then handed to its endpoint. */
async function serve(deps: GatewayServerDeps, req: IncomingMessage, res: ServerResponse, door: GatewayDoorCheck): Promise<void> {
  const path = (req.url ?? '').split('?')[0] ?? '';
  if (deps.mount && path.startsWith('/mcp/') && (await deps.mount(req, res))) return;
  const routed = route(req.method, path);
  const { shape, endpoint } = routed;
  const refusal = door(req);
  if (refusal) return sendError(res, shape, { status: 403, kind: 'permission', message: refusal });
  if (!endpoint) return notServed(res, shape, `${req.method} ${path}`, routed.allow);
  const holder = await authenticate(deps, req).catch((err: unknown) => {
    if (!(err instanceof HistoryUnavailableError)) throw err;
    return 'unreachable' as const;
  });
  if (holder === 'unreachable') return sendError(res, shape, { status: 503, kind: 'overloaded', message: "the console's team database cannot be reached; try again shortly", retryAfterSeconds: 1 });
  if (!holder) return sendError(res, shape, { status: 401, kind: 'authentication', message: 'invalid or missing gateway token (set the API key to a token of MCP Approval Console)' });
  if (holder.personal?.callers && !holder.personal.callers.includes('gateway')) {
    return sendError(res, shape, { status: 403, kind: 'permission', message: `the personal token ${holder.personal.name} may not call the provider gateway (its scope is ${holder.personal.callers.join(', ')})` });
  }
  if (endpoint.kind === 'models') return answerModels(deps, res, endpoint, holder);
  if (endpoint.kind === 'response') return answerStored(deps, res, endpoint.id, holder);
  const body = await readJson(deps, req, res, shape, holder);
  if (body === undefined) return;
  if (endpoint.kind === 'count_tokens') {
    const counted = countTokens(body.json);
    return counted.ok ? sendJson(res, counted.body) : sendError(res, 'anthropic', counted.error);
  }
  const ctx: CallContext = { requests: deps.requests, now: deps.now, logger: deps.logger, ...(deps.keepAliveMs !== undefined && { keepAliveMs: deps.keepAliveMs }) };
  const call = { holder, body: body.json, req, res };
  if (endpoint.kind === 'embeddings') {
    if (!deps.makesEmbeddings()) return sendError(res, 'openai', { status: 400, kind: 'invalid_request', message: "none of the console's providers makes embeddings (add an OpenAI, OpenAI-compatible or Google provider)", param: 'model' });
    return handleEmbeddings(ctx, call);
  }
  const earlier = endpoint.endpoint === 'responses' ? { earlier: earlierAnswers(await prefetchEntries(deps.historyEntry, namedResponseIds(body.json)), holder.serverId) } : {};
  await handleCall(ctx, { ...call, codec: CODECS[endpoint.endpoint], ...earlier });
}

/** 404 for a path the gateway does not serve (naming those it does), 405 with `Allow` for a served path asked with another method. */
function notServed(res: ServerResponse, shape: ProviderApi, asked: string, allow: 'GET' | 'POST' | undefined): void {
  if (allow) {
    res.setHeader('allow', allow);
    return sendError(res, shape, { status: 405, kind: 'invalid_request', message: `${asked}: this path is served for ${allow} only` });
  }
  const message = `${asked} is not served by the console's provider gateway; it serves ${SERVED_ENDPOINTS.join(', ')} (Anthropic's also without /v1)`;
  sendError(res, shape, { status: 404, kind: 'not_found', message }, { endpoints: SERVED_ENDPOINTS });
}

/** The body as JSON, or undefined once a 413 (over the caller's cap) or 400 (not JSON) was answered. */
async function readJson(deps: GatewayServerDeps, req: IncomingMessage, res: ServerResponse, shape: ProviderApi, holder: TokenHolder): Promise<{ json: unknown } | undefined> {
  const cap = deps.maxBodyBytes(holder.serverId);
  const body = await readBody(req, cap);
  if (body === 'too_large') return void sendError(res, shape, { status: 413, kind: 'too_large', message: `request body over ${cap} bytes` });
  try {
    return { json: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return void sendError(res, shape, { status: 400, kind: 'invalid_request', message: 'the request body is not valid JSON' });
  }
}

/** `GET …/models` and `GET …/models/{id}` in the API's shape (404 for a model the caller may not ask for). */
function answerModels(deps: GatewayServerDeps, res: ServerResponse, endpoint: Extract<Endpoint, { kind: 'models' }>, holder: TokenHolder): void {
  const models = deps.models(holder.serverId);
  if (endpoint.id === undefined) return sendJson(res, modelsBody(endpoint.api, models));
  const model = models.find((m) => m.id === endpoint.id);
  if (!model) return sendError(res, endpoint.api, { status: 404, kind: 'not_found', message: `The model '${endpoint.id}' is not among the console's models`, param: 'model' });
  sendJson(res, modelBody(endpoint.api, model));
}

/** `GET /openai/v1/responses/{id}`: the response rebuilt from History, or its 404. */
async function answerStored(deps: GatewayServerDeps, res: ServerResponse, id: string, holder: TokenHolder): Promise<void> {
  const stored = storedResponse(await prefetchEntries(deps.historyEntry, [id]), holder.serverId, id);
  if ('error' in stored) return sendError(res, 'openai', stored.error);
  sendJson(res, stored.body);
}

/** The token's holder: `Authorization: Bearer <token>` or `x-api-key: <token>`. */
async function authenticate(deps: GatewayServerDeps, req: IncomingMessage): Promise<TokenHolder | undefined> {
  const bearer = bearerToken(req);
  const key = req.headers['x-api-key'];
  const token = bearer ?? (typeof key === 'string' ? key.trim() : undefined);
  return token ? deps.tokens.holder(token, deps.now()) : undefined;
}

