/**
 * What a host injects into main (main never imports `electron`; OS things come in
 * through small interfaces). The Electron host passes Electron-backed implementations, the web
 * host and the tests pass Node-backed ones.
 */
import type { SecretStore } from './secrets/secret-store.js';
import type { DesktopPorts } from './attention/ports.js';
import type { ProcessProbe } from './servers/leftover-processes.js';
import type { Offload, WorkerSpec } from './offload/offload.js';
import type { HistoryStore } from './store/history-api.js';
import type { Logger } from './logger.js';

export { silentLogger, stderrLogger, type Logger } from './logger.js';

/** What launches the bridge on this machine: an absolute executable and the arguments before `bridge`. */
export interface BridgeLauncher {
  command: string;
  args: string[];
}

/** Everything `createConsole` needs from its host. */
export interface ConsolePorts {
  /**
   * How this installation launches the sampling bridge (an absolute executable and the arguments
   * before `bridge`), written into a host's config by "Route through the console"; absent: routing
   * is refused with a clear error.
   */
  bridgeLauncher?: BridgeLauncher;
  /**
   * How the console asks the OS about server processes (main/servers/leftover-processes.ts);
   * default: /proc on Linux, `ps` on macOS, none elsewhere.
   */
  processProbe?: ProcessProbe;
  /** Which host runs the console (shown in settings; chooses nothing else). */
  host: 'electron' | 'web' | 'test';
  /** The per-user folder for config files and history (`app.getPath('userData')` in Electron). */
  userDataDir: string;
  logger?: Logger;
  /** Environment for `${env:NAME}` API-key references in providers.json; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Clock in epoch ms; injectable for tests. */
  now?: () => number;
  /**
   * How to run a stdio server whose command is `node`: the Node binary and extra env. In a Node host
   * this is `process.execPath`; in Electron it is the Electron binary with ELECTRON_RUN_AS_NODE=1.
   */
  nodeRuntime?: { command: string; env?: Record<string, string> };
  /**
   * Where API keys entered on the Providers screen are kept (Electron safeStorage, or the web
   * host's encrypted file). Without one, keys live in memory only and are forgotten on exit.
   */
  secrets?: SecretStore;
  /**
   * Desktop integration: native notifications, dock/taskbar badge, tray, login item,
   * native theme, window focus. The Electron host passes these; the web host passes none.
   */
  desktop?: DesktopPorts;
  /**
   * Opens a URL in the system browser (Electron: `shell.openExternal`); used for OAuth sign-in.
   * Absent in the web host, where the renderer opens the URL it gets back in a new tab.
   */
  openExternal?: (url: string) => Promise<void>;
  /**
   * Home folder and OS for finding other hosts' MCP configs to import (Claude Desktop, VS Code,
   * Cursor); defaults to `os.homedir()` and `process.platform`. Tests inject their own.
   */
  machine?: { home: string; platform: NodeJS.Platform };
  /**
   * The offload worker's code (main/offload): the bundled `offload-worker.js` beside the host's
   * entry. Default: the TypeScript worker when running from sources (tests, tsx), else none.
   * `null`: no worker; big payloads are then handled on the main thread.
   */
  offloadWorker?: WorkerSpec | null;
  /**
   * Opens the history store (main/store/history-api.ts) the console uses, e.g. a team's
   * PostgreSQL (`postgresHistory` in main/store/pg/store.ts). Absent: SQLite, `history.db` in
   * `userDataDir` (the desktop's). The console closes it at shutdown.
   * @throws (rejects) when it cannot be opened; the console then does not start
   */
  openHistory?(opts: { offload: Offload; logger: Logger }): Promise<HistoryStore>;
  /**
   * The team's database when this console is one instance of a team server (`serve --database`):
   * what the instances share lives there (main/team/database.ts). Absent: the desktop's files.
   * The host opens and closes it.
   */
  team?: import('./team/database.js').TeamDatabase;
  /**
   * The page's address with its token (`http://127.0.0.1:PORT/?token=…`) once the web host serves
   * it; told only to the command line's `status` over the owner-only bridge channel. Absent in the
   * desktop app.
   */
  pageAddress?(): string | undefined;
  /**
   * Shuts the console down as SIGTERM would (the command line's `stop`): the host's own graceful
   * shutdown. Absent: the desktop's `quit`, else `stop` is refused.
   */
  stop?(): void;
}
