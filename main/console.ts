/**
 * `createConsole(ports)`: wires config, MCP connections, the sampling pipeline, providers and the
 * history store into one {@link ConsoleService}. Hosts (app/electron, app/web) and tests call this;
 * the same core runs under every host (like MCP Inspector v2's environment split).
 */
import { createNotices } from './notices.js';
import { join } from 'node:path';
import { ApiError, type ConsoleEvent, type ConsoleService } from '../shared/api.js';
import type { ItemView, ProviderView } from '../shared/state.js';
import type { ModelSettings } from '../shared/providers.js';
import { ui } from '../shared/ui-text.js';
import { loadServersConfig } from './config.js';
import { PROVIDERS_CONFIG_FILE } from './llm/providers-config.js';
import { openProviderRegistry } from './llm/registry.js';
import { createMemorySecretStore } from './secrets/secret-store.js';
import { createCallTracker } from './mcp/calls.js';
import { createServerConnection, type ConnectionAuth, type ConnectionDeps, type ServerConnection } from './mcp/connection.js';
import { openEraNeeds, recogniseEraMismatch } from './mcp/era-needs.js';
import { createEraSessions } from './mcp/era-sessions.js';
import { openProcessRegistry, systemProcessProbe } from './servers/leftover-processes.js';
import { closeWithin, createServerRequestTracker } from './shutdown.js';
import { openEraCache } from './mcp/era-cache.js';
import { createServersFeature } from './servers/feature.js';
import { serverWaitFor } from '../shared/wait.js';
import { createElicitationQueue } from './elicitation/queue.js';
import { openRootsStore } from './roots.js';
import { silentLogger, type ConsolePorts } from './ports.js';
import { DEFAULT_MAX_TOOL_ROUNDS } from './sampling/intake.js';
import { createSamplingPipeline, type ProviderRegistry } from './sampling/pipeline.js';
import { createPolicyService } from './policy/policy.js';
import { createStateHub } from './state-hub.js';
import { openHistoryStore, whenDurable } from './store/history-store.js';
import { createOffload, sourceWorkerSpec } from './offload/offload.js';
import { createHistoryService } from './history/service.js';
import { createDesktopLife } from './attention/desktop-life.js';

/** File name of the history database inside the user-data folder. */
export const HISTORY_FILE = 'history.db';

/** Notices kept (newest). */


/** A running console. `dispose` closes every server connection and the history database. */
export interface ConsoleHandle {
  service: ConsoleService;
  /** Every queue item whole (both kinds, arrival order), as main holds it now: for tests and in-process tools. */
  items(): ItemView[];
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
  // Providers and their keys: keys only through the injected secret store.
  const secrets = ports.secrets ?? createMemorySecretStore();
  let publishProviders: (views: ProviderView[], settings: ModelSettings) => void = () => {};
  const providerRegistry = await openProviderRegistry({ path: join(dir, PROVIDERS_CONFIG_FILE), env, secrets, onChange: (v, s) => publishProviders(v, s) });
  // Big payloads (a 25 MB request) are parsed, validated, scanned and written on a worker thread.
  const offload = createOffload(ports.offloadWorker === undefined ? sourceWorkerSpec() : (ports.offloadWorker ?? undefined), logger);
  const history = openHistoryStore(historyPath, { offload });
  history.markInterrupted(now()); // requests a crash or quit left unfinished
  const roots = openRootsStore(dir);

  const hub = createStateHub({
    servers: [],
    calls: [],
    items: [],
    providers: providerRegistry.views(),
    modelSettings: providerRegistry.settings(),
    notices: [],
    settings: {
      host: ports.host,
      userDataDir: dir,
      serversConfigPath: servers.path,
      providersConfigPath: providersPath,
      historyPath,
      secretStore: { backend: secrets.backend, ...(secrets.warning ? { warning: secrets.warning } : {}), ...(secrets.warningUi ? { warningUi: secrets.warningUi } : {}) },
    },
  });
  publishProviders = (views, settings) => {
    hub.set('providers', views);
    hub.set('modelSettings', settings);
  };

  const notices = createNotices(hub, now);
  const notify = notices.notify;
  for (const p of [...servers.problems, ...providerRegistry.problems, ...(roots.problem ? [roots.problem] : [])]) notify('error', p);
  if (secrets.warning) notify('warning', secrets.warningUi ?? secrets.warning);
  if (servers.createdDefault) notify('info', ui('notice.createdDefault', { path: servers.path }));

  const registry: ProviderRegistry = providerRegistry;

  const eras = openEraCache(dir);
  const connections = new Map<string, ServerConnection>();
  const eraNeeds = openEraNeeds(dir);
  const eraSessions = createEraSessions({
    needs: eraNeeds,
    logger,
    open: (serverId, era) => {
      const config = serversFeature.config(serverId);
      if (!config) return undefined;
      // Pinned to the era the tool needs; it does not touch the server's remembered era, nor the Servers screen.
      return createServerConnection(serverId, { ...config, protocol: era === 'legacy' ? 'legacy' : '2026-07-28' }, { ...connectionDeps(authOf.get(serverId)), eras: undefined, onChange: () => processes.sync(runningProcesses()) });
    },
  });
  // Stdio servers a killed console left running are ended before new ones start.
  const processes = openProcessRegistry(dir, ports.processProbe ?? systemProcessProbe());
  const leftovers = await processes.endLeftovers();
  if (leftovers.length > 0) notify('info', ui('notice.endedLeftovers', { count: leftovers.length, names: [...new Set(leftovers)].join(', ') }));
  /** The stdio server processes running now, by pid (the servers' own and their second sessions). */
  const runningProcesses = (): Map<number, string> => {
    const out = new Map<number, string>();
    for (const c of [...connections.values(), ...eraSessions.connections()]) {
      const pid = c.view().pid;
      if (pid !== undefined) out.set(pid, c.id);
    }
    return out;
  };
  const publishServers = () => {
    hub.set('servers', serversFeature.views().map((v) => ({ ...v, roots: roots.list(v.id), toolEras: eraNeeds.forServer(v.id) })));
    processes.sync(runningProcesses());
  };
  const calls = createCallTracker({
    hub,
    now,
    connection: (id) => connections.get(id),
    route: (serverId, tool, primary) => eraSessions.forTool(serverId, tool, primary),
    learn: (serverId, tool, outcome) => {
      const mismatch = recogniseEraMismatch(outcome);
      if (!mismatch) return undefined;
      if (eraNeeds.get(serverId, tool)?.needs !== mismatch.needs) {
        eraNeeds.set(serverId, tool, { needs: mismatch.needs, learned: 'failure', detail: mismatch.detail, at: now() });
        publishServers();
      }
      return mismatch;
    },
    // An item still waiting inside a call that ended leaves the queue's "awaiting" at once (its draft stays).
    onEnded: (call) => {
      pipeline.callEnded(call.id);
      elicitations.callEnded(call.id);
    },
  });

  const elicitations = createElicitationQueue({
    hub,
    history,
    now,
    inFlightCalls: (serverId) => calls.inFlight(serverId),
    onQueued: (item) => calls.linkItem(item.association.calls.map((c) => c.callId), item.id),
    serverWait: (serverId, era, at) => serverWaitFor(era, at, serversFeature.config(serverId)?.serverTimeoutMs),
    // The server's elicitation policy: always ask, or always decline (never accept).
    decide: (serverId) => policy.decideElicitation(serverId),
  });

  // Rules, limits, prices and redaction: model prices from the providers' model facts;
  // today's (UTC) token and spend totals start from history, so a restart keeps them.
  const policy = createPolicyService({ dir, hub, logger, now, offload, priceOf: (model) => providerRegistry.priceOf(model), usageSince: (from) => history.usageSince(from) });

  const pipeline = createSamplingPipeline({
    hub,
    history: policy.historySink(history),
    providers: registry,
    logger,
    now,
    inFlightCalls: (serverId) => calls.inFlight(serverId),
    onRefused: (serverId, why, refusal) => {
      // Rate-limited requests are counted on the Rules screen instead: a flood must not flood notices.
      if (refusal.kind !== 'rate_limited') notify('warning', ui('notice.refused', { server: serverId, why }), 'sampling_refused');
    },
    onQueued: (item) => calls.linkItem(item.association.calls.map((c) => c.callId), item.id),
    maxToolRounds: (serverId) => serversFeature.config(serverId)?.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS,
    limits: (serverId) => {
      const config = serversFeature.config(serverId);
      return config && { maxRequestBytes: config.maxRequestBytes, maxMediaBytes: config.maxMediaBytes };
    },
    policy: policy.policy,
    offload,
    serverWait: (serverId, era, at) => serverWaitFor(era, at, serversFeature.config(serverId)?.serverTimeoutMs),
  });

  // Servers: mcp-servers.json ↔ connections (live reload), OAuth, import; see main/servers.
  const serversFeature = createServersFeature({
    ports,
    logger,
    now,
    env,
    loaded: servers,
    connections,
    hub,
    calls,
    notify,
    onChange: publishServers,
    create: (id, config, auth) => {
      authOf.set(id, auth);
      void eraSessions.close(id); // a new connection (config changed, restart): second sessions follow it
      return createServerConnection(id, config, connectionDeps(auth));
    },
  });
  /** The console's handlers for a server connection (its own, or a second session in another era). */
  function connectionDeps(auth: ConnectionAuth | undefined): ConnectionDeps {
    return {
      logger,
      nodeRuntime: ports.nodeRuntime,
      offload,
      now,
      onChange: publishServers,
      onSampling: (request) => serverRequests.track(whenDurable(history, pipeline.handle(request))),
      onElicitation: (request) => serverRequests.track(whenDurable(history, elicitations.handle(request))),
      onElicitationComplete: (serverId, elicitationId) => elicitations.complete(serverId, elicitationId),
      onUrlElicitationRequired: (serverId, list, call) => elicitations.fromUrlError(serverId, connections.get(serverId)?.view().era ?? 'legacy', list, call),
      roots: (serverId) => roots.list(serverId),
      eras,
      auth,
    };
  }
  const authOf = new Map<string, ConnectionAuth | undefined>();
  const serverRequests = createServerRequestTracker();
  publishServers();
  const ready = serversFeature.start();

  // Desktop life: desktop settings, notifications, badge, tray.
  const desktop = createDesktopLife({ dir, hub, ports: ports.desktop, logger, now, notify, setAutoApprovalPaused: (paused) => policy.setPaused(paused) });

  const historyService = createHistoryService({ store: history, userDataDir: dir, now, logger, notify, reopenDraft: (entry) => pipeline.reopenDraft(entry) });

  const listeners = new Set<(event: ConsoleEvent) => void>();
  hub.subscribe((e) => listeners.forEach((l) => l(e)));

  const service: ConsoleService = {
    getState: async () => hub.snapshot(),
    getItem: async ({ id }) => {
      const found = hub.published(id);
      if (!found) throw new ApiError('not_found', ui('error.noItem', { id }));
      return found;
    },
    callTool: async ({ serverId, name, arguments: args }) => ({ callId: calls.startToolCall(serverId, name, args) }),
    rerunCall: async ({ callId }) => ({ callId: calls.rerun(callId) }),
    dismissNotice: async ({ id }) => notices.dismiss(id),
    setToolEra: async ({ serverId, tool, era }) => {
      eraNeeds.set(serverId, tool, era ? { needs: era, learned: 'person', detail: 'set on the Servers screen', at: now() } : undefined);
      publishServers();
    },
    approveRequest: ({ itemId, params, model }) => pipeline.approveRequest(itemId, params, model),
    rejectRequest: async ({ itemId, reason }) => pipeline.rejectRequest(itemId, reason),
    cancelGeneration: async ({ itemId }) => pipeline.cancelGeneration(itemId),
    regenerate: ({ itemId }) => pipeline.regenerate(itemId),
    approveResponse: async ({ itemId, result }) => pipeline.approveResponse(itemId, result),
    rejectResponse: async ({ itemId, reason }) => pipeline.rejectResponse(itemId, reason),
    dismissItem: async ({ itemId }) => {
      if (!elicitations.dismiss(itemId)) pipeline.dismiss(itemId);
    },
    saveDraft: async ({ itemId, draft }) => {
      if (draft.form && elicitations.saveDraft(itemId, draft.form)) return;
      pipeline.saveDraft(itemId, draft);
    },
    respondElicitation: async ({ itemId, action, content }) => elicitations.respond(itemId, action, content),
    setServerRoots: async ({ serverId, folders }) => {
      const conn = connections.get(serverId);
      if (!conn) throw new ApiError('not_found', ui('error.noServer', { server: serverId }));
      const list = roots.set(serverId, folders);
      publishServers();
      await conn.notifyRootsChanged();
      return { roots: list };
    },
    restartServer: async ({ serverId }) => serversFeature.restart(serverId),
    ...serversFeature.methods,
    listHistory: async (input) => history.list(input),
    getHistoryEntry: async ({ id }) => history.get(id),
    saveProvider: (input) => providerRegistry.save(input),
    removeProvider: ({ id }) => providerRegistry.remove(id),
    testProvider: (input) => providerRegistry.test(input),
    listProviderModels: async (input) => ({ models: await providerRegistry.listModels(input) }),
    saveModelSettings: (input) => providerRegistry.saveModelSettings(input),
    saveRules: async ({ rules }) => void policy.saveRules(rules),
    setAutoApprovalPaused: async ({ paused }) => policy.setPaused(paused),
    exportRules: async () => policy.exportRules(),
    importRules: async ({ text }) => ({ rules: Object.values(policy.importRules(text).servers).reduce((n, s) => n + s.rules.length, 0) }),
    setKeepOriginal: async ({ itemId, keep }) => policy.setKeepOriginal(itemId, keep),
    ...historyService.methods,
    ...desktop.methods,
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  return {
    service,
    items: () => hub.items(),
    ready,
    async dispose() {
      desktop.dispose();
      // Every request a server waits on is answered (a clear error) before its connection closes.
      pipeline.cancelAll(ui('outcome.shuttingDown'));
      elicitations.cancelAll(ui('outcome.shuttingDown'));
      await serverRequests.answered();
      policy.close();
      const pids = [...connections.values(), ...eraSessions.connections()].map((c) => c.view().pid).filter((pid): pid is number => pid !== undefined);
      await closeWithin(Promise.all([eraSessions.closeAll(), serversFeature.dispose()]), pids);
      processes.sync(new Map()); // closed cleanly: nothing left behind
      hub.flush();
      historyService.dispose();
      history.close();
      await offload.close();
    },
  };
}
