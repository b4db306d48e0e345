/**
 * The gateway side, one step of `createConsole` (main/console.ts): the provider gateway
 * (main/gateway) listening on 127.0.0.1, its tokens, the environment a `providerGateway` server
 * is launched with, the `gateway` slice of the state, and the token methods of the API.
 *
 * Port: `MCP_CONSOLE_GATEWAY_PORT` in the console's environment, else `port` in gateway.json, else
 * 47615; when that port is taken the gateway takes any free one for this run and says so (servers
 * launched with it are given the address in use). It never listens beyond loopback.
 *
 * `MCP_CONSOLE_GATEWAY_KEEPALIVE_MS` sets how long a streamed call may stay silent before it gets a
 * keep-alive (default GATEWAY_KEEPALIVE_MS in main/gateway/call.ts).
 *
 * The same listener serves the bridged servers on Streamable HTTP at `/mcp/<name>`
 * (main/bridge/http-serving.ts, with its own token file `bridge-http-token`).
 *
 * On a team server (`ports.team`) the named tokens are the team's (main/team/tokens.ts) and the
 * gateway's endpoints are also handed to the team server's own listener ({@link GatewaySide.handle});
 * people's personal tokens are used like named ones and made through the personal-token methods.
 */
import { ApiError, type ConsoleService } from '../../shared/contract/api.js';
import type { GatewayView } from '../../shared/contract/gateway.js';
import { ui } from '../../shared/contract/ui-text.js';
import { isStdio, type ServerConfig } from '../config.js';
import { bridgeHttpToken, createBridgeHttpServing } from '../bridge/http-serving.js';
import { modelCatalog } from '../gateway/models.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_GATEWAY_BODY_BYTES, gatewayHandler, noWebPages, startGatewayServer, type GatewayServer } from '../gateway/server.js';
import { openGatewayTokens, type GatewayTokens, type TokenHolder } from '../gateway/tokens.js';
import { openTeamGatewayTokens } from '../team/tokens.js';
import { personalTokenMethods, teamPersonalTokens, type PersonalTokenMethods } from '../team/personal-tokens.js';
import type { Foundation } from './foundation.js';
import type { RequestSide, ServerLinks } from './request-side.js';

/** The gateway side's handle. */
export interface GatewaySide {
  /**
   * The gateway's endpoints for a team server's own listener (answers requests from web pages
   * 403; the listener checked TLS first); the loopback listener keeps serving too.
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Who holds a gateway token (a developer's bridge authenticates with a named one). @throws (rejects) HistoryUnavailableError as {@link GatewayTokens.holder} */
  holder(token: string): Promise<TokenHolder | undefined>;
  /** Environment a stdio server is launched with when its entry has `providerGateway` (else undefined). */
  launchEnv(serverId: string, config: ServerConfig): Record<string, string> | undefined;
  /** Publishes the `gateway` slice again (servers config changed). */
  publish(): void;
  /** Whether personal token `id` may still be used (a team server's; false elsewhere). @throws (rejects) HistoryUnavailableError */
  personalTokenValid(id: string): Promise<boolean>;
  methods: Pick<ConsoleService, 'createGatewayToken' | 'revealGatewayToken' | 'revokeGatewayToken'> & PersonalTokenMethods;
  /** Where bridged servers are served on Streamable HTTP (`base`: `http://127.0.0.1:<port>`) and their token; undefined when not listening. */
  bridgeHttp(): { base: string; token: string } | undefined;
  close(): Promise<void>;
}

/** `keepAliveMs` from `MCP_CONSOLE_GATEWAY_KEEPALIVE_MS` when it is a whole number of ms ≥ 10; else nothing (the default). */
function keepAliveOf(env: Record<string, string | undefined>): { keepAliveMs?: number } {
  const ms = Number(env.MCP_CONSOLE_GATEWAY_KEEPALIVE_MS);
  return Number.isInteger(ms) && ms >= 10 ? { keepAliveMs: ms } : {};
}

/** The environment variables the OpenAI and Anthropic SDKs (TypeScript and Python) read. */
export function gatewayEnv(url: string, token: string): Record<string, string> {
  return { OPENAI_BASE_URL: `${url}/openai/v1`, OPENAI_API_KEY: token, ANTHROPIC_BASE_URL: `${url}/anthropic`, ANTHROPIC_API_KEY: token };
}

/**
 * Opens the tokens and starts listening. Never throws: a port that cannot be bound is a notice,
 * and the console runs without the gateway (launched servers then get no gateway environment).
 */
export async function startGatewaySide(f: Foundation, req: RequestSide, links: Pick<ServerLinks, 'serverConfig'> & { serverIds(): string[] }): Promise<GatewaySide> {
  // A team server keeps the named tokens in its database (hashes only); the desktop in gateway.json and the secret store.
  const team = f.ports.team;
  const tokens = team ? await openTeamGatewayTokens({ conn: team.conn, notifier: team.notifier, dir: f.dir, logger: f.logger, audit: f.audit }) : openGatewayTokens(f.dir, f.secrets, f.audit);
  if (tokens.problem) f.notify('error', ui('notice.gatewayFile', { why: tokens.problem }));
  let publish = () => {};
  tokens.onChange?.(() => publish()); // made, revoked or used on another instance
  const token = bridgeToken(f);
  const serving = token === undefined ? undefined : createBridgeHttpServing({ userDataDir: f.dir, logger: f.logger, env: f.env, token });
  const deps = {
    // A named token's use shows in Settings: the slice is published again after each of its calls.
    tokens: { ...tokens, holder: async (token: string, at: number) => notedUse(await tokens.holder(token, at), () => queueMicrotask(publish)) },
    requests: req.requests,
    maxBodyBytes: (serverId: string) => links.serverConfig(serverId)?.maxRequestBytes ?? DEFAULT_GATEWAY_BODY_BYTES,
    models: (serverId: string) => modelCatalog(f.providerRegistry.views(), f.providerRegistry.settings().servers[serverId]),
    makesEmbeddings: () => f.providerRegistry.list().some((p) => p.embed !== undefined),
    historyEntry: (id: string) => f.history.get(id),
    logger: f.logger,
    now: f.now,
    ...keepAliveOf(f.env),
    ...(serving && { mount: serving.handle }),
  };
  const wanted = Number(f.env.MCP_CONSOLE_GATEWAY_PORT ?? tokens.port());
  const listening = await listen(f, deps, wanted);
  const server = listening.server;
  let last = '';
  publish = () => {
    const view = viewOf(server, listening.error, tokens, links, team ? f.ports.pageAddress?.() : undefined);
    const json = JSON.stringify(view);
    if (json !== last) f.hub.set('gateway', view);
    last = json;
  };
  publish();
  const changed = <T>(value: T): T => (publish(), value);
  const remote = gatewayHandler(deps, noWebPages);
  const personal = team ? teamPersonalTokens(team.conn) : undefined;
  const personalMethods = team && personal ? personalTokenMethods({ conn: team.conn, notifier: team.notifier, tokens: personal, audit: f.audit, logger: f.logger, now: f.now }) : desktopPersonalTokens;
  return {
    handle: remote,
    personalTokenValid: async (id) => (personal ? personal.valid(id) : false),
    holder: (token) => tokens.holder(token, f.now()),
    launchEnv: (serverId, config) => (server && isStdio(config) && config.providerGateway ? gatewayEnv(server.url, tokens.forServer(serverId)) : undefined),
    publish,
    bridgeHttp: () => (server && token !== undefined ? { base: server.url, token } : undefined),
    methods: {
      createGatewayToken: async ({ name }) => changed({ token: await tokens.create(name, f.now()) }),
      revealGatewayToken: async ({ name }) => ({ token: await tokens.reveal(name) }),
      revokeGatewayToken: async ({ name }) => changed(await tokens.revoke(name)),
      ...personalMethods,
    },
    close: async () => {
      tokens.close?.();
      await serving?.close();
      await server?.close();
    },
  };
}

/** The desktop has no people: personal tokens are a team server's. */
const desktopPersonalTokens: PersonalTokenMethods = {
  createPersonalToken: () => Promise.reject(new ApiError('invalid_state', ui('error.teamOnly'))),
  listPersonalTokens: async () => ({ tokens: [] }),
  revokePersonalToken: () => Promise.reject(new ApiError('invalid_state', ui('error.teamOnly'))),
};

/** The token of the bridged servers' Streamable HTTP serving; undefined (with a warning: not served) when its file cannot be made. */
function bridgeToken(f: Foundation): string | undefined {
  try {
    return bridgeHttpToken(f.dir);
  } catch (err) {
    f.logger.warn('bridged servers are not served on Streamable HTTP', { error: String(err) });
    return undefined;
  }
}

/** Binds `wanted`, else any free port (the port was taken), else nothing (with the reason). */
async function listen(f: Foundation, deps: Parameters<typeof startGatewayServer>[0], wanted: number): Promise<{ server?: GatewayServer; error?: string }> {
  let failure: unknown;
  try {
    return { server: await startGatewayServer(deps, Number.isInteger(wanted) && wanted >= 0 && wanted <= 65_535 ? wanted : 0) };
  } catch (err) {
    failure = err;
  }
  if ((failure as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    try {
      const server = await startGatewayServer(deps, 0);
      f.notify('info', ui('notice.gatewayPortTaken', { wanted, port: server.port }));
      return { server };
    } catch (err) {
      failure = err;
    }
  }
  const why = failure instanceof Error ? failure.message : String(failure);
  f.logger.warn('the provider gateway is not listening', { error: why });
  f.notify('warning', ui('notice.gatewayNotListening', { why }));
  return { error: why };
}

function notedUse<T extends { caller: { kind: string } } | undefined>(holder: T, onUse: () => void): T {
  if (holder?.caller.kind === 'token') onUse();
  return holder;
}

/** The `gateway` slice; `teamUrl`: a team server's public address, without a trailing `/` (programs elsewhere call the gateway there; tokens are shown once). */
function viewOf(server: GatewayServer | undefined, error: string | undefined, tokens: GatewayTokens, links: Pick<ServerLinks, 'serverConfig'> & { serverIds(): string[] }, teamUrl?: string): GatewayView {
  const servers = links.serverIds().filter((id) => {
    const config = links.serverConfig(id);
    return config !== undefined && isStdio(config) && config.providerGateway === true;
  });
  const team = tokens.shownOnce ? { team: { ...(teamUrl && { url: teamUrl }) } } : {};
  if (!server) return { listening: false, ...(error && { error }), servers, tokens: tokens.views(), ...team };
  return { listening: true, url: server.url, openaiBaseUrl: `${server.url}/openai/v1`, anthropicBaseUrl: `${server.url}/anthropic`, servers, tokens: tokens.views(), ...team };
}
