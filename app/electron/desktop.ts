/**
 * The Electron implementations of main's {@link DesktopPorts}: thin wrappers over `Notification`,
 * `app.setBadgeCount` / the Windows taskbar overlay, `Tray` + `Menu`, login items and
 * `nativeTheme`. The decisions (what to notify, when, the menu's entries) live in main/attention
 * and are unit-tested there; this file only maps them onto Electron and is typechecked.
 */
import { app, Menu, nativeImage, nativeTheme, Notification, Tray, type BrowserWindow, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import type { DesktopPorts, TrayActionId, TrayModel } from '../../main/attention/ports.js';
import { autostartPath, setLinuxAutostart } from '../../main/settings/autostart-linux.js';
import { APP_TITLE } from '../../shared/contract/desktop.js';
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

/** Builds the ports. Call after `app.whenReady()`. */
export function createElectronDesktopPorts(opts: ElectronDesktopOptions): DesktopPorts {
  const mac = process.platform === 'darwin';
  const win = process.platform === 'win32';
  // Notifications are kept referenced until closed: a collected Notification loses its click handler.
  const live = new Set<Notification>();
  const appIcon = image(256, appIconPixels(256));
  const dot = image(32, badgeDotPixels(32), 2);
  // macOS menu bar: a template image (black + alpha, 16pt @2x) the system tints; elsewhere the colour icon, 32 px.
  const trayImage = (withDot: boolean) => {
    const img = image(32, trayIconPixels(32, { template: mac, dot: withDot && !mac }), mac ? 2 : 1);
    if (mac) img.setTemplateImage(true);
    return img;
  };
  let tray: Tray | null = null;
  let trayHandler: ((id: TrayActionId) => void) | null = null;
  let trayHasDot: boolean | null = null;

  const menuFrom = (model: TrayModel): Menu =>
    Menu.buildFromTemplate(
      model.menu.map((entry): MenuItemConstructorOptions => {
        if (entry.kind === 'separator') return { type: 'separator' };
        const click = () => trayHandler?.(entry.id);
        return entry.kind === 'checkbox'
          ? { type: 'checkbox', label: entry.label, checked: entry.checked, click }
          : { label: entry.label, enabled: entry.enabled, click };
      }),
    );

  const packagedExec = () => process.env.APPIMAGE || process.execPath;

  return {
    notices: opts.notices,
    notifier: {
      show(request, onReview) {
        if (!Notification.isSupported()) return;
        const n = new Notification({
          title: request.title,
          body: request.body,
          silent: request.silent,
          icon: appIcon,
          ...(mac || win ? { actions: [{ type: 'button' as const, text: 'Review' }] } : {}),
        });
        live.add(n);
        n.on('click', onReview);
        n.on('action', onReview);
        n.on('close', () => live.delete(n));
        n.on('failed', () => live.delete(n));
        n.show();
      },
    },
    badge: {
      setCount(count) {
        app.setBadgeCount(count); // macOS dock, Linux Unity launchers; a no-op elsewhere
        if (win) opts.window()?.setOverlayIcon(count > 0 ? dot : null, count > 0 ? `${count} waiting for review` : '');
      },
    },
    tray: {
      update(model) {
        const withDot = model.count > 0;
        if (!tray) {
          tray = new Tray(trayImage(withDot));
          trayHasDot = withDot;
          // Windows and most Linux panels: a left click opens the console; the menu is on right click.
          tray.on('click', () => trayHandler?.('open'));
        } else if (trayHasDot !== withDot) {
          tray.setImage(trayImage(withDot));
          trayHasDot = withDot;
        }
        tray.setToolTip(model.tooltip);
        if (mac) tray.setTitle(model.count > 0 ? String(model.count) : '');
        tray.setContextMenu(menuFrom(model));
      },
      onAction(handler) {
        trayHandler = handler;
      },
    },
    loginItem: {
      supported: () =>
        app.isPackaged ? { ok: true } : { ok: false, reason: 'Launch at login works in the installed app, not when run from the source tree.' },
      set(enabled) {
        if (process.platform === 'linux') {
          setLinuxAutostart(autostartPath(process.env, app.getPath('home')), enabled, { name: APP_TITLE, exec: [packagedExec()] });
        } else {
          app.setLoginItemSettings({ openAtLogin: enabled });
        }
      },
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
