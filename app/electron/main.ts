/**
 * The Electron main entry (built to out/main/index.js, ESM). Thin on purpose: the checks live in
 * sender-check.ts and ipc.ts (tested without Electron); this file only wires them to Electron.
 *
 * - one instance (`requestSingleInstanceLock`); a second start focuses the existing window;
 * - `createConsole({host: 'electron', userDataDir: app.getPath('userData'), nodeRuntime: Electron
 *   as Node})`, disposed before quitting;
 * - one window: contextIsolation, sandbox, no nodeIntegration, webSecurity, preload
 *   out/preload/index.cjs; CSP header on every response; permissions denied (except clipboard
 *   writes); webviews and navigation away from the app's page refused; `window.open` of an
 *   http(s) URL (a link in rendered markdown) goes to the system browser, anything else is refused;
 * - IPC only from that window's top frame showing the app's page.
 */
import { app, BrowserWindow, dialog, ipcMain, safeStorage, session, shell, type WebContents } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import { stderrLogger } from '../../main/ports.js';
import { rendererCsp } from '../csp.js';
import { forwardEvents, registerIpcHandlers } from './ipc.js';
import { createSafeStorageSecretStore } from './secrets.js';
import { isExternalWebUrl, isTrustedIpcEvent, isTrustedSender, type ExpectedRenderer } from './sender-check.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, '../preload/index.cjs');
const indexHtmlPath = path.join(here, '../renderer/index.html');
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const expected: ExpectedRenderer = devUrl ? { kind: 'dev', url: devUrl } : { kind: 'file', indexHtmlPath };

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

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
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
  win.once('ready-to-show', () => win.show());
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
  try {
    consoleHandle = await createConsole({
      host: 'electron',
      userDataDir: app.getPath('userData'),
      logger: stderrLogger,
      nodeRuntime: { command: process.execPath, env: { ELECTRON_RUN_AS_NODE: '1' } },
      // API keys through safeStorage (OS keychain); warns when Linux falls back to basic_text.
      secrets: createSafeStorageSecretStore(safeStorage, app.getPath('userData')),
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

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
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
