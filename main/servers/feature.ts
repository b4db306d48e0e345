/**
 * The servers feature as `createConsole` wires it: the manager (config file ↔ connections), OAuth,
 * import, and the Servers part of the ConsoleService (config edits, prompts/get, resources/read,
 * logs, import, sign-in / sign-out). Keeps main/console.ts to a few lines for all of it.
 */
import { homedir } from 'node:os';
import { ApiError, type ConsoleService } from '../../shared/contract/api.js';
import type { Notice, ServerView } from '../../shared/contract/state.js';
import type { LoadedServers, ServerConfig } from '../config.js';
import type { CallTracker } from '../mcp/calls.js';
import type { ConnectionAuth, ServerConnection } from '../mcp/connection.js';
import type { ConsolePorts, Logger } from '../ports.js';
import { createMemorySecretStore } from '../secrets/secret-store.js';
import type { StateHub } from '../state-hub.js';
import { planImport, scanImports, type ImportDeps } from './import/scan.js';
import { createServerManager } from './manager.js';
import { createOAuthService } from './oauth/service.js';
import { ui } from '../../shared/contract/ui-text.js';

/** The API methods this feature implements. */
export type ServersMethods = Pick<
  ConsoleService,
  | 'getServerEntry'
  | 'saveServer'
  | 'removeServer'
  | 'setServerEnabled'
  | 'duplicateServer'
  | 'getPrompt'
  | 'readResource'
  | 'getServerLog'
  | 'scanImports'
  | 'importServers'
  | 'signIn'
  | 'signOut'
>;

/** What the feature needs from createConsole. */
export interface ServersFeatureDeps {
  ports: ConsolePorts;
  logger: Logger;
  now: () => number;
  env: Record<string, string | undefined>;
  loaded: LoadedServers;
  /** The console's connection map (shared with the call tracker and others). */
  connections: Map<string, ServerConnection>;
  hub: StateHub;
  calls: CallTracker;
  notify(level: Notice['level'], message: string): void;
  /** Publishes the servers slice. */
  onChange(): void;
  /** Creates a connection with the console's handlers and this server's OAuth. */
  create(id: string, config: ServerConfig, auth: ConnectionAuth | undefined): ServerConnection;
}

/** Creates the feature; nothing connects until `start()`. */
export function createServersFeature(deps: ServersFeatureDeps) {
  const oauth = createOAuthService({
    secrets: deps.ports.secrets ?? createMemorySecretStore(),
    openExternal: deps.ports.openExternal,
    logger: deps.logger,
    now: deps.now,
    onChange: deps.onChange,
  });
  const manager = createServerManager({
    path: deps.loaded.path,
    initial: deps.loaded,
    connections: deps.connections,
    create: (id, config) => deps.create(id, config, oauth.forServer(id, config)),
    onChange: deps.onChange,
    onProblems: (problems) => deps.hub.set('settings', { ...deps.hub.get('settings'), serversConfigProblems: problems ?? undefined }),
    notify: deps.notify,
    logger: deps.logger,
    home: deps.ports.machine?.home ?? homedir(),
  });
  if (deps.loaded.problems.length) deps.hub.set('settings', { ...deps.hub.get('settings'), serversConfigProblems: deps.loaded.problems });

  const importDeps: ImportDeps = {
    env: { home: deps.ports.machine?.home ?? homedir(), platform: deps.ports.machine?.platform ?? process.platform, env: deps.env },
    existing: () => manager.fileEntries(),
  };
  const connection = (serverId: string) => {
    const conn = deps.connections.get(serverId);
    if (!conn) throw new ApiError('not_found', ui(manager.config(serverId) ? 'error.serverDisabled' : 'error.noServer', { server: serverId }));
    return conn;
  };
  const reconnect = (serverId: string) => async () => {
    if (deps.connections.has(serverId)) await manager.restart(serverId);
  };

  const methods: ServersMethods = {
    getServerEntry: async ({ serverId }) => manager.entry(serverId),
    saveServer: async ({ id, previousId, entry }) => manager.save({ id, previousId, entry }),
    removeServer: async ({ serverId }) => manager.remove(serverId),
    setServerEnabled: async ({ serverId, enabled }) => manager.setEnabled(serverId, enabled),
    duplicateServer: async ({ serverId, newId }) => ({ id: manager.duplicate(serverId, newId) }),
    getPrompt: async ({ serverId, name, arguments: args }) => {
      connection(serverId);
      return { callId: deps.calls.startPromptGet(serverId, name, args) };
    },
    readResource: async ({ serverId, uri }) => {
      connection(serverId);
      return { callId: deps.calls.startResourceRead(serverId, uri) };
    },
    getServerLog: async ({ serverId, query, limit }) => connection(serverId).log.page(query, limit),
    scanImports: async ({ workspaceFolder, file }) => scanImports({ workspaceFolder, file }, importDeps),
    importServers: async ({ workspaceFolder, file, selections, inputs }) => {
      const plan = planImport({ workspaceFolder, file }, selections, inputs, importDeps);
      if (plan.add.length) manager.addEntries(plan.add);
      return { imported: plan.add.map(([name]) => name), skipped: plan.skipped };
    },
    signIn: async ({ serverId }) => {
      if (!oauth.has(serverId)) connection(serverId); // a bridged HTTP server has OAuth without a connection here
      return oauth.signIn(serverId, reconnect(serverId));
    },
    signOut: async ({ serverId }) => oauth.signOut(serverId, reconnect(serverId)),
  };

  return {
    methods,
    /** Starts the watch and every enabled server's first connection. */
    start: () => manager.start(),
    views: (): ServerView[] => manager.views(),
    config: (serverId: string) => manager.config(serverId),
    /**
     * OAuth for a bridged HTTP server at `url` (its bridge asks for tokens over the channel): the
     * same sign-in as a connection of the console's own with that id, signed in on the Servers screen.
     */
    bridgeAuth: (serverId: string, url: string) => oauth.forServer(serverId, { url })!,
    /** Restart / Retry now. */
    restart: (serverId: string) => manager.restart(serverId),
    async dispose() {
      await manager.dispose();
      await oauth.close();
    },
  };
}
