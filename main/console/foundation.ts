/**
 * The first step of `createConsole` (main/console.ts): what every other part stands on — the
 * user-data folder's files (servers config, providers and their keys, history, roots), the
 * offload worker, the state hub with its first slices, and the notices.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelSettings } from '../../shared/contract/providers.js';
import type { ProviderView } from '../../shared/contract/state.js';
import { ui, type UiText } from '../../shared/contract/ui-text.js';
import { loadServersConfig, type LoadedServers } from '../config.js';
import { PROVIDERS_CONFIG_FILE } from '../llm/providers-config.js';
import { openProviderRegistry } from '../llm/registry.js';
import { createNotices, type Notices } from '../notices.js';
import { createOffload, sourceWorkerSpec, type Offload } from '../offload/offload.js';
import { silentLogger, type ConsolePorts, type Logger } from '../ports.js';
import { openRootsStore } from '../roots.js';
import { createMemorySecretStore, type SecretStore } from '../secrets/secret-store.js';
import { createStateHub, type StateHub } from '../state-hub.js';
import { openHistoryStore, type HistoryStore } from '../store/history-store.js';
import { systemProcessProbe } from '../servers/leftover-processes.js';
import { lockDataFolder, type FolderLock } from './folder-lock.js';
import { openConsoleAuditTrail } from '../audit/open.js';
import type { AuditTrail } from '../audit/trail.js';

/** File name of the history database inside the user-data folder. */
export const HISTORY_FILE = 'history.db';

/** What the other parts of the console stand on. Times are epoch ms. */
export interface Foundation {
  ports: ConsolePorts;
  logger: Logger;
  now: () => number;
  env: NodeJS.ProcessEnv;
  /** The user-data folder. */
  dir: string;
  /** mcp-servers.json as loaded at start (with its problems). */
  servers: LoadedServers;
  secrets: SecretStore;
  providerRegistry: Awaited<ReturnType<typeof openProviderRegistry>>;
  offload: Offload;
  history: HistoryStore;
  /** The audit trail (main/audit): the team database's when `ports.team` is given, else audit.db in the folder. */
  audit: AuditTrail;
  /** History's and the audit trail's durability barrier together: what the console awaits before answering a caller. */
  durable(): Promise<void>;
  roots: ReturnType<typeof openRootsStore>;
  hub: StateHub;
  notices: Notices;
  notify: Notices['notify'];
  /** This console's hold on the data folder (released at shutdown). */
  folderLock: FolderLock;
}

/**
 * Opens the files and services of `ports.userDataDir` (creating the embedded default servers
 * config), marks requests a crash left unfinished as interrupted (not on a team), and tells the person about
 * problems found in the files.
 * @throws Error when another console runs on the same folder (main/console/folder-lock.ts), or the
 *   history database cannot be opened (e.g. written by a newer version)
 */
export async function openFoundation(ports: ConsolePorts): Promise<Foundation> {
  const logger = ports.logger ?? silentLogger;
  const now = ports.now ?? Date.now;
  const dir = ports.userDataDir;
  const env = ports.env ?? process.env;
  mkdirSync(dir, { recursive: true });
  const folderLock = lockDataFolder(dir, ports.processProbe ?? systemProcessProbe());
  const servers = loadServersConfig(dir);
  // Providers and their keys: keys only through the injected secret store.
  const secrets = ports.secrets ?? createMemorySecretStore();
  let publishProviders: (views: ProviderView[], settings: ModelSettings) => void = () => {};
  const providerRegistry = await openProviderRegistry({ path: join(dir, PROVIDERS_CONFIG_FILE), env, secrets, onChange: (v, s) => publishProviders(v, s) });
  // Big payloads (a 25 MB request) are parsed, validated, scanned and written on a worker thread.
  const offload = createOffload(ports.offloadWorker === undefined ? sourceWorkerSpec() : (ports.offloadWorker ?? undefined), logger);
  const history = ports.openHistory ? await ports.openHistory({ offload, logger }) : openHistoryStore(join(dir, HISTORY_FILE), { offload });
  // Requests a crash or quit left unfinished. On a team the database is shared: only what gone
  // instances left is ended, by a survivor (main/team/failover.ts).
  if (!ports.team) await history.markInterrupted(now());
  const audit = openConsoleAuditTrail({ dir, ...(ports.team && { team: ports.team }), logger, now });
  const durable = async () => void (await Promise.all([history.durable(), audit.durable()]));
  const roots = openRootsStore(dir);
  const hub = createStateHub(initialState(ports, servers, providerRegistry, secrets));
  publishProviders = (views, settings) => {
    hub.set('providers', views);
    hub.set('modelSettings', settings);
  };
  const notices = createNotices(hub, now);
  const fileProblems: Array<string | UiText> = [...servers.problems, ...providerRegistry.problems, ...(roots.problem ? [roots.problem] : [])];
  for (const p of fileProblems) notices.notify('error', p);
  if (secrets.warning) notices.notify('warning', secrets.warningUi ?? secrets.warning);
  if (servers.createdDefault) notices.notify('info', ui('notice.createdDefault', { path: servers.path }));
  return { ports, logger, now, env, dir, servers, secrets, providerRegistry, offload, history, audit, durable, roots, hub, notices, notify: notices.notify, folderLock };
}

/** The state at start: no servers or items yet, the providers, and where the files are. */
function initialState(ports: ConsolePorts, servers: LoadedServers, providers: Foundation['providerRegistry'], secrets: SecretStore): Parameters<typeof createStateHub>[0] {
  const dir = ports.userDataDir;
  return {
    servers: [],
    calls: [],
    items: [],
    providers: providers.views(),
    modelSettings: providers.settings(),
    notices: [],
    settings: {
      host: ports.host,
      userDataDir: dir,
      serversConfigPath: servers.path,
      providersConfigPath: join(dir, PROVIDERS_CONFIG_FILE),
      historyPath: join(dir, HISTORY_FILE),
      secretStore: {
        backend: secrets.backend,
        ...(secrets.backendUi ? { backendUi: secrets.backendUi } : {}),
        ...(secrets.warning ? { warning: secrets.warning } : {}),
        ...(secrets.warningUi ? { warningUi: secrets.warningUi } : {}),
      },
    },
  };
}
