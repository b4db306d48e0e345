/**
 * The Electron implementations of main's {@link DesktopPorts}: thin wrappers over `Notification`,
 * `app.setBadgeCount` / the Windows taskbar overlay, `Tray` + `Menu`, login items and
 * `nativeTheme`. The decisions (what to notify, when, the menu's entries) live in main/attention
 * and are unit-tested there; this file only maps them onto Electron and is typechecked.
 */
import { app, Menu, nativeImage, nativeTheme, Notification, Tray, type BrowserWindow, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import type { DesktopPorts, NotificationRequest, TrayActionId, TrayModel } from '../../main/attention/ports.js';
import { autostartPath, setLinuxAutostart } from '../../main/settings/autostart-linux.js';
import { APP_TITLE } from '../../shared/contract/desktop.js';
import { ui } from '../../shared/contract/ui-text.js';
import { appIconPixels, badgeDotPixels, encodePng, trayIconPixels } from './icon-art.js';

/** What the ports need from the host's window management. */
export interface ElectronDesktopOptions {
  /** The main window, if open. */
  window(): BrowserWindow | null;
  /** Shows (creating it when closed), restores and focuses the main window. */
  showWindow(): void;
  /** Quits the app. */
  quit(): void;
  /** Things to tell the person at start (e.g. no Node.js found). */
  notices?: string[];
}

const image = (size: number, pixels: Buffer, scaleFactor = 1): NativeImage => nativeImage.createFromBuffer(encodePng(size, pixels), { scaleFactor });

/**
 * What the ports keep: the platform, the notifications still shown (kept referenced until closed:
 * a collected Notification loses its click handler), the icons, and the tray with its handler and
 * whether its icon has the dot.
 */
interface PortsState {
  readonly opts: ElectronDesktopOptions;
  readonly mac: boolean;
  readonly win: boolean;
  readonly live: Set<Notification>;
  readonly appIcon: NativeImage;
  readonly dot: NativeImage;
  tray: Tray | null;
  trayHandler: ((id: TrayActionId) => void) | null;
  trayHasDot: boolean | null;
}

/** Builds the ports. Call after `app.whenReady()`. */
export function createElectronDesktopPorts(opts: ElectronDesktopOptions): DesktopPorts {
  const st: PortsState = {
    opts,
    mac: process.platform === 'darwin',
    win: process.platform === 'win32',
    live: new Set(),
    appIcon: image(256, appIconPixels(256)),
    dot: image(32, badgeDotPixels(32), 2),
    tray: null,
    trayHandler: null,
    trayHasDot: null,
  };
  return {
    notices: opts.notices,
    notifier: { show: (request, onReview) => showNotification(st, request, onReview) },
    badge: { setCount: (count) => setBadge(st, count) },
    tray: {
      update: (model) => updateTray(st, model),
      onAction(handler) {
        st.trayHandler = handler;
      },
    },
    loginItem: {
      supported: () => (app.isPackaged ? { ok: true } : { ok: false, reason: ui('desktop.loginFromSource') }),
      set: setLoginItem,
    },
    theme: {
      set(preference) {
        nativeTheme.themeSource = preference;
      },
    },
    focusWindow: () => opts.showWindow(),
    quit: () => opts.quit(),
    locales: () => app.getPreferredSystemLanguages(),
  };
}

/** The tray icon. macOS menu bar: a template image (black + alpha, 16pt @2x) the system tints; elsewhere the colour icon, 32 px, with the dot when asked. */
function trayImage(mac: boolean, withDot: boolean): NativeImage {
  const img = image(32, trayIconPixels(32, { template: mac, dot: withDot && !mac }), mac ? 2 : 1);
  if (mac) img.setTemplateImage(true);
  return img;
}

/** The tray's context menu; a click goes to the registered handler. */
function menuFrom(st: PortsState, model: TrayModel): Menu {
  return Menu.buildFromTemplate(
    model.menu.map((entry): MenuItemConstructorOptions => {
      if (entry.kind === 'separator') return { type: 'separator' };
      const click = () => st.trayHandler?.(entry.id);
      return entry.kind === 'checkbox' ? { type: 'checkbox', label: entry.label, checked: entry.checked, click } : { label: entry.label, enabled: entry.enabled, click };
    }),
  );
}

/** The notifier's `show`: a native notification with a "Review" button on macOS and Windows; nothing where notifications are unsupported. */
function showNotification(st: PortsState, request: NotificationRequest, onReview: () => void): void {
  if (!Notification.isSupported()) return;
  const { live } = st;
  const n = new Notification({
    title: request.title,
    body: request.body,
    silent: request.silent,
    icon: st.appIcon,
    ...(st.mac || st.win ? { actions: [{ type: 'button' as const, text: 'Review' }] } : {}),
  });
  live.add(n);
  n.on('click', onReview);
  n.on('action', onReview);
  n.on('close', () => live.delete(n));
  n.on('failed', () => live.delete(n));
  n.show();
}

/** The badge's `setCount`: the app badge, and on Windows the taskbar overlay dot. */
function setBadge(st: PortsState, count: number): void {
  app.setBadgeCount(count); // macOS dock, Linux Unity launchers; a no-op elsewhere
  if (st.win) st.opts.window()?.setOverlayIcon(count > 0 ? st.dot : null, count > 0 ? `${count} waiting for review` : '');
}

/** The tray's `update`: creates the tray on first use; the icon is replaced only when the dot comes or goes. */
function updateTray(st: PortsState, model: TrayModel): void {
  const withDot = model.count > 0;
  if (!st.tray) {
    st.tray = new Tray(trayImage(st.mac, withDot));
    st.trayHasDot = withDot;
    // Windows and most Linux panels: a left click opens the console; the menu is on right click.
    st.tray.on('click', () => st.trayHandler?.('open'));
  } else if (st.trayHasDot !== withDot) {
    st.tray.setImage(trayImage(st.mac, withDot));
    st.trayHasDot = withDot;
  }
  st.tray.setToolTip(model.tooltip);
  if (st.mac) st.tray.setTitle(model.count > 0 ? String(model.count) : '');
  st.tray.setContextMenu(menuFrom(st, model));
}

/** The login item's `set`: an XDG autostart entry on Linux (pointing at the AppImage when run from one), the OS login item elsewhere. */
function setLoginItem(enabled: boolean): void {
  if (process.platform === 'linux') {
    const packagedExec = process.env.APPIMAGE || process.execPath;
    setLinuxAutostart(autostartPath(process.env, app.getPath('home')), enabled, { name: APP_TITLE, exec: [packagedExec] });
  } else {
    app.setLoginItemSettings({ openAtLogin: enabled });
  }
}
