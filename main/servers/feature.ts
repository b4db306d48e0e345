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
import { createServerManager, type ServerManager } from './manager.js';
import { createOAuthService, type OAuthService } from './oauth/service.js';
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

/** The feature as createConsole uses it. */
export interface ServersFeature {
  methods: ServersMethods;
  /** Starts the watch and every enabled server's first connection. */
  start: () => Promise<void>;
  views: () => ServerView[];
  config: (serverId: string) => ServerConfig | undefined;
  /**
   * OAuth for a bridged HTTP server at `url` (its bridge asks for tokens over the channel): the
   * same sign-in as a connection of the console's own with that id, signed in on the Servers screen.
   */
  bridgeAuth: (serverId: string, url: string) => ConnectionAuth;
  /** Restart / Retry now. */
  restart: (serverId: string) => Promise<void>;
  dispose(): Promise<void>;
}

/** What the feature's steps share: its deps, the OAuth service, the server manager, and what import reads. */
interface FeatureState {
  readonly deps: ServersFeatureDeps;
  readonly oauth: OAuthService;
  readonly manager: ServerManager;
  readonly importDeps: ImportDeps;
}

/** Creates the feature; nothing connects until `start()`. */
export function createServersFeature(deps: ServersFeatureDeps): ServersFeature {
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
  const st: FeatureState = { deps, oauth, manager, importDeps };
  return {
    methods: serversMethods(st),
    start: () => manager.start(),
    views: (): ServerView[] => manager.views(),
    config: (serverId: string) => manager.config(serverId),
    bridgeAuth: (serverId: string, url: string) => oauth.forServer(serverId, { url })!,
    restart: (serverId: string) => manager.restart(serverId),
    async dispose() {
      await manager.dispose();
      await oauth.close();
    },
  };
}

/** The server's connection. @throws ApiError not_found (the server is disabled, or there is no such server) */
function connection(st: FeatureState, serverId: string): ServerConnection {
  const conn = st.deps.connections.get(serverId);
  if (!conn) throw new ApiError('not_found', ui(st.manager.config(serverId) ? 'error.serverDisabled' : 'error.noServer', { server: serverId }));
  return conn;
}

/** What to run once a sign-in or sign-out changed the server's tokens: restart its connection, when it has one. */
function reconnect(st: FeatureState, serverId: string): () => Promise<void> {
  return async () => {
    if (st.deps.connections.has(serverId)) await st.manager.restart(serverId);
  };
}

/** The Servers part of the ConsoleService. */
function serversMethods(st: FeatureState): ServersMethods {
  const { manager, oauth, importDeps, deps } = st;
  return {
    getServerEntry: async ({ serverId }) => manager.entry(serverId),
    saveServer: async ({ id, previousId, entry }) => manager.save({ id, previousId, entry }),
    removeServer: async ({ serverId }) => manager.remove(serverId),
    setServerEnabled: async ({ serverId, enabled }) => manager.setEnabled(serverId, enabled),
    duplicateServer: async ({ serverId, newId }) => ({ id: manager.duplicate(serverId, newId) }),
    getPrompt: async ({ serverId, name, arguments: args }) => {
      connection(st, serverId);
      return { callId: deps.calls.startPromptGet(serverId, name, args) };
    },
    readResource: async ({ serverId, uri }) => {
      connection(st, serverId);
      return { callId: deps.calls.startResourceRead(serverId, uri) };
    },
    getServerLog: async ({ serverId, query, limit }) => connection(st, serverId).log.page(query, limit),
    scanImports: async ({ workspaceFolder, file }) => scanImports({ workspaceFolder, file }, importDeps),
    importServers: async ({ workspaceFolder, file, selections, inputs }) => {
      const plan = planImport({ workspaceFolder, file }, selections, inputs, importDeps);
      if (plan.add.length) manager.addEntries(plan.add);
      return { imported: plan.add.map(([name]) => name), skipped: plan.skipped };
    },
    signIn: async ({ serverId }) => {
      if (!oauth.has(serverId)) connection(st, serverId); // a bridged HTTP server has OAuth without a connection here
      return oauth.signIn(serverId, reconnect(st, serverId));
    },
    signOut: async ({ serverId }) => oauth.signOut(serverId, reconnect(st, serverId)),
  };
}
