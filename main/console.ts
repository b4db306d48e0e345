/**
 * `createConsole(ports)`: wires config, MCP connections, the sampling pipeline, providers and the
 * history store into one {@link ConsoleService}. Hosts (app/electron, app/web) and tests call this;
 * the same core runs under every host (like MCP Inspector v2's environment split).
 */
import { join } from 'node:path';
import { ApiError, type ConsoleEvent, type ConsoleService } from '../shared/api.js';
import type { Notice } from '../shared/state.js';
import { loadServersConfig } from './config.js';
import { loadProvidersConfig, PROVIDERS_CONFIG_FILE } from './llm/providers-config.js';
import type { LlmProvider } from './llm/provider.js';
import { createCallTracker } from './mcp/calls.js';
import { createServerConnection, type ServerConnection } from './mcp/connection.js';
import { openEraCache } from './mcp/era-cache.js';
import { silentLogger, type ConsolePorts } from './ports.js';
import { DEFAULT_MAX_TOOL_ROUNDS } from './sampling/intake.js';
import { createSamplingPipeline, type ProviderRegistry } from './sampling/pipeline.js';
import { createStateHub } from './state-hub.js';
import { openHistoryStore } from './store/history-store.js';

/** File name of the history database inside the user-data folder. */
export const HISTORY_FILE = 'history.db';

/** Notices kept (newest). */
const NOTICES_KEPT = 20;

/** A running console. `dispose` closes every server connection and the history database. */
export interface ConsoleHandle {
  service: ConsoleService;
  /** Resolves when every enabled server has finished its first connection attempt. */
  ready: Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Starts the console: reads config from `ports.userDataDir` (creating the embedded default),
 * opens history, and starts connecting every enabled server (without waiting for them).
 * @throws Error when the history database cannot be opened (e.g. written by a newer version)
 */
export async function createConsole(ports: ConsolePorts): Promise<ConsoleHandle> {
  const logger = ports.logger ?? silentLogger;
  const now = ports.now ?? Date.now;
  const env = ports.env ?? process.env;
  const dir = ports.userDataDir;
  const historyPath = join(dir, HISTORY_FILE);
  const servers = loadServersConfig(dir);
  const providersPath = join(dir, PROVIDERS_CONFIG_FILE);
  const providerConfig = loadProvidersConfig(providersPath, env);
  const history = openHistoryStore(historyPath);

  const hub = createStateHub({
    servers: [],
    calls: [],
    items: [],
    providers: providerConfig.providers.map((p) => p.view),
    notices: [],
    settings: {
      host: ports.host,
      userDataDir: dir,
      serversConfigPath: servers.path,
      providersConfigPath: providersPath,
      historyPath,
    },
  });

  const notify = (level: Notice['level'], message: string) => {
    const notice: Notice = { id: `${now()}-${Math.random().toString(36).slice(2, 8)}`, level, message, at: now() };
    hub.set('notices', [...hub.get('notices'), notice].slice(-NOTICES_KEPT));
  };
  for (const p of [...servers.problems, ...providerConfig.problems]) notify('error', p);
  if (servers.createdDefault) notify('info', `Created ${servers.path} with the embedded default server (server-everything).`);

  const providers: LlmProvider[] = providerConfig.providers;
  const registry: ProviderRegistry = {
    list: () => providers,
    get: (id) => providers.find((p) => p.view.id === id),
    defaultModel: () => providerConfig.defaultModel,
  };

  const eras = openEraCache(dir);
  const connections = new Map<string, ServerConnection>();
  const publishServers = () => hub.set('servers', [...connections.values()].map((c) => c.view()));
  const calls = createCallTracker({ hub, now, connection: (id) => connections.get(id) });

  const pipeline = createSamplingPipeline({
    hub,
    history,
    providers: registry,
    logger,
    now,
    inFlightCalls: (serverId) => calls.inFlight(serverId),
    onRefused: (serverId, message) => notify('warning', `Refused a sampling request from "${serverId}": ${message}`),
    onQueued: (item) => calls.linkItem(item.association.calls.map((c) => c.callId), item.id),
    maxToolRounds: (serverId) => servers.servers[serverId]?.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS,
  });

  for (const [id, config] of Object.entries(servers.servers)) {
    if (config.disabled) continue;
    connections.set(
      id,
      createServerConnection(id, config, {
        logger,
        nodeRuntime: ports.nodeRuntime,
        onChange: publishServers,
        onSampling: (request) => pipeline.handle(request),
        eras,
        samplingIntake: (serverId, raw) => pipeline.intake(serverId, raw),
        samplingRefusedBySdk: (serverId, raw, message) => pipeline.refusedBySdk(serverId, raw, message),
      }),
    );
  }
  publishServers();
  const ready = Promise.all([...connections.values()].map((c) => c.connect())).then(() => undefined);

  const listeners = new Set<(event: ConsoleEvent) => void>();
  hub.subscribe((e) => listeners.forEach((l) => l(e)));

  const service: ConsoleService = {
    getState: async () => hub.snapshot(),
    callTool: async ({ serverId, name, arguments: args }) => ({ callId: calls.startToolCall(serverId, name, args) }),
    approveRequest: ({ itemId, params, model }) => pipeline.approveRequest(itemId, params, model),
    rejectRequest: async ({ itemId, reason }) => pipeline.rejectRequest(itemId, reason),
    cancelGeneration: async ({ itemId }) => pipeline.cancelGeneration(itemId),
    regenerate: ({ itemId }) => pipeline.regenerate(itemId),
    approveResponse: async ({ itemId, result }) => pipeline.approveResponse(itemId, result),
    rejectResponse: async ({ itemId, reason }) => pipeline.rejectResponse(itemId, reason),
    dismissItem: async ({ itemId }) => pipeline.dismiss(itemId),
    restartServer: async ({ serverId }) => {
      const conn = connections.get(serverId);
      if (!conn) throw new ApiError('not_found', `no server "${serverId}"`);
      await conn.connect();
    },
    listHistory: async (input) => history.list(input),
    getHistoryEntry: async ({ id }) => history.get(id),
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  return {
    service,
    ready,
    async dispose() {
      pipeline.cancelAll('The console is shutting down');
      await Promise.all([...connections.values()].map((c) => c.close()));
      hub.flush();
      history.close();
    },
  };
}
