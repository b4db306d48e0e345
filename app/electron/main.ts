/**
 * The Electron main process (loaded by entry.ts, built to out/main/index.js, ESM). Thin on purpose: the checks live in
 * sender-check.ts and ipc.ts (tested without Electron); this file only wires them to Electron.
 *
 * - one instance (`requestSingleInstanceLock`); a second start focuses the existing window;
 * - the window's size, position and maximized state remembered (`window-state.json`), fitted to
 *   the displays present; desktop life (notifications, badge, tray, login item, native theme)
 *   through main's DesktopPorts (desktop.ts);
 * - `command: "node"` servers: Electron as Node in development, the system's Node.js in packaged
 *   builds, whose runAsNode fuse is off (node-runtime.ts);
 * - `createConsole({host: 'electron', userDataDir: app.getPath('userData'), nodeRuntime: Electron
 *   as Node})`, disposed before quitting;
 * - one window: contextIsolation, sandbox, no nodeIntegration, webSecurity, preload
 *   out/preload/index.cjs; CSP header on every response; permissions denied (except clipboard
 *   writes); webviews and navigation away from the app's page refused; `window.open` of an
 *   http(s) URL (a link in rendered markdown) goes to the system browser, anything else is refused;
 * - IPC only from that window's top frame showing the app's page;
 * - started as `<app> bridge …` (a host's routed entry), it runs the sampling bridge instead and
 *   opens no window (bridge-mode.ts, app/bridge/command.ts); routing writes that launcher.
 */
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session, shell, type WebContents } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { nativeTheme, screen } from 'electron';
import { fitWindowState, loadWindowState, MIN_WINDOW, saveWindowState, windowStateFrom } from '../../main/settings/window-state.js';
import { createElectronDesktopPorts } from './desktop.js';
import { resolveNodeRuntime } from './node-runtime.js';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import { stderrLogger } from '../../main/ports.js';
import { bundledWorkerSpec } from '../../main/offload/offload.js';
import { rendererCsp } from '../csp.js';
import { forwardEvents, registerIpcHandlers } from './ipc.js';
import { createSafeStorageSecretStore } from './secrets.js';
import { bridgeArgvOf } from '../bridge/command.js';
import { runCli } from '../cli/program.js';
import { electronBridgeLaunch } from './bridge-mode.js';
import { isExternalWebUrl, isTrustedIpcEvent, isTrustedSender, type ExpectedRenderer } from './sender-check.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, '../preload/index.cjs');
const indexHtmlPath = path.join(here, '../renderer/index.html');
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const expected: ExpectedRenderer = devUrl ? { kind: 'dev', url: devUrl } : { kind: 'file', indexHtmlPath };

const bridgeLaunch = electronBridgeLaunch({ isPackaged: app.isPackaged, execPath: process.execPath, appPath: app.getAppPath() });

let mainWindow: BrowserWindow | null = null;
let consoleHandle: ConsoleHandle | null = null;
let disposed = false;

function mainWebContents(): WebContents | null {
  return mainWindow && !mainWindow.isDestroyed() ? mainWindow.webContents : null;
}

function hardenSession(): void {
  const devOrigin = devUrl ? new URL(devUrl).origin : null;
  const csp = devOrigin
    ? // The dev server needs its HMR socket and React refresh's inline preamble.
      rendererCsp([devOrigin.replace(/^http/, 'ws')]).replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
    : rendererCsp();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => callback(permission === 'clipboard-sanitized-write'));
  session.defaultSession.setPermissionCheckHandler((_wc, permission) => permission === 'clipboard-sanitized-write');
}

/** Saves the window's normal bounds and maximized state (debounced while it moves; at once on close). */
function rememberWindowState(win: BrowserWindow): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(timer);
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return;
    try {
      saveWindowState(app.getPath('userData'), windowStateFrom(win.getNormalBounds(), win.isMaximized()));
    } catch (err) {
      stderrLogger.warn('could not save the window state', { error: String(err) });
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', save);
}

/** Shows the main window — re-created when closed (macOS keeps running without one) — restored and focused. */
function showWindow(): void {
  if (!consoleHandle) return;
  if (!mainWindow) {
    mainWindow = createWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  if (!mainWindow.isVisible()) mainWindow.show();
  mainWindow.focus();
}

function createWindow(): BrowserWindow {
  const bounds = fitWindowState(loadWindowState(app.getPath('userData')).value, screen.getAllDisplays().map((d) => d.workArea));
  const win = new BrowserWindow({
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    width: bounds.width,
    height: bounds.height,
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    show: false,
    // The theme's page background, so no white flash before the renderer paints in dark mode.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#15181d' : '#f4f5f7',
    title: 'MCP Approval Console',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  });
  win.once('ready-to-show', () => {
    if (bounds.maximized) win.maximize();
    win.show();
  });
  rememberWindowState(win);
  // Links in server-supplied markdown open in the system browser (http/https only, never in-app).
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const guard = (event: { url: string; preventDefault(): void }) => {
    if (!isTrustedSender(event.url, expected)) event.preventDefault();
  };
  win.webContents.on('will-navigate', guard);
  win.webContents.on('will-frame-navigate', guard);
  win.webContents.on('will-redirect', guard);
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  if (devUrl) void win.loadURL(devUrl);
  else void win.loadFile(indexHtmlPath);
  return win;
}

async function start(): Promise<void> {
  hardenSession();
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  const nodeChoice = resolveNodeRuntime({
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    env: process.env,
    platform: process.platform,
    home: app.getPath('home'),
    exists: (file) => existsSync(file),
  });
  stderrLogger.info('node runtime for "command": "node" servers', { source: nodeChoice.source, command: nodeChoice.runtime.command });
  const desktop = createElectronDesktopPorts({
    window: () => mainWindow,
    showWindow,
    quit: () => app.quit(),
    notices: nodeChoice.problem ? [nodeChoice.problem] : [],
  });
  try {
    consoleHandle = await createConsole({
      host: 'electron',
      userDataDir: app.getPath('userData'),
      logger: stderrLogger,
      nodeRuntime: nodeChoice.runtime,
      offloadWorker: bundledWorkerSpec(import.meta.url),
      bridgeLauncher: bridgeLaunch.launcher,
      desktop,
      // API keys through safeStorage (OS keychain); warns when Linux falls back to basic_text.
      secrets: createSafeStorageSecretStore(safeStorage, app.getPath('userData')),
      // OAuth sign-in opens the authorization page in the system browser (http/https only).
      openExternal: async (url) => {
        if (!isExternalWebUrl(url)) throw new Error('only http(s) URLs are opened');
        await shell.openExternal(url);
      },
    });
  } catch (err) {
    dialog.showErrorBox('MCP Approval Console could not start', err instanceof Error ? err.message : String(err));
    disposed = true;
    app.exit(1);
    return;
  }
  registerIpcHandlers({
    ipcMain,
    service: consoleHandle.service,
    isTrusted: (event) => isTrustedIpcEvent(event, mainWebContents(), expected),
    onRefused: (url) => stderrLogger.warn('refused IPC from untrusted sender', { url }),
  });
  forwardEvents(consoleHandle.service, mainWebContents);
  mainWindow = createWindow();
}

/** Runs as a host's bridge: no window, no single-instance lock (each bridged server has its own), exit with the bridge. */
function runAsBridge(rest: string[]): void {
  app.dock?.hide();
  app.disableHardwareAcceleration();
  const env = process.env;
  void runCli(['bridge', ...rest], {
    version: app.getVersion(),
    userDataDir: app.getPath('userData'),
    platform: process.platform,
    env,
    cwd: process.cwd(),
    installRoot: app.getAppPath(),
    nodeVersion: process.versions.node,
    launcher: bridgeLaunch.launcher,
    consoleLaunch: bridgeLaunch.consoleLaunch,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    openUrl: async (url) => (isExternalWebUrl(url) ? (await shell.openExternal(url), true) : false),
  }).then((code) => app.exit(code));
}

const bridgeArgv = bridgeArgvOf(process.argv, bridgeLaunch.bridgeArgIndex);
if (bridgeArgv) {
  runAsBridge(bridgeArgv);
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => showWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (consoleHandle && !mainWindow) mainWindow = createWindow();
  });
  app.on('will-quit', (event) => {
    if (disposed || !consoleHandle) return;
    event.preventDefault();
    const handle = consoleHandle;
    void handle
      .dispose()
      .catch((err: unknown) => stderrLogger.error('dispose failed', { error: String(err) }))
      .finally(() => {
        disposed = true;
        app.quit();
      });
  });
  void app.whenReady().then(start);
}
