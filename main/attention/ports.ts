/**
 * The OS things desktop life needs, as small interfaces main drives (main never imports
 * `electron`). The Electron host implements them in app/electron/desktop.ts; the web host passes
 * none (its renderer uses the browser's Notifications API and the tab title instead); tests pass
 * recording fakes.
 */
import type { ThemePreference } from '../../shared/contract/desktop.js';
import type { UiText } from '../../shared/contract/ui-text.js';

/** What one native notification shows. */
export interface NotificationRequest {
  title: string;
  body: string;
  /** True: no sound. */
  silent: boolean;
  /** The item "Review" opens; absent for the test notification. */
  itemId?: string;
}

/** Native notifications. */
export interface Notifier {
  /**
   * Shows a notification. `onReview` is called when the person clicks it or its "Review" action.
   * Must not throw (a platform without notifications ignores the call).
   */
  show(request: NotificationRequest, onReview: () => void): void;
}

/** The dock / taskbar badge. */
export interface BadgePort {
  /** Sets the count shown (0 clears it). */
  setCount(count: number): void;
}

/** One entry of the tray menu, as {@link buildTrayMenu} describes it. */
export type TrayMenuEntry =
  | { kind: 'action'; id: TrayActionId; label: string; enabled: boolean }
  | { kind: 'checkbox'; id: TrayActionId; label: string; checked: boolean }
  | { kind: 'separator' };

/** The tray menu's actions. */
export type TrayActionId = 'open' | 'pause-auto-approval' | 'do-not-disturb' | 'quit';

/** What the tray shows. */
export interface TrayModel {
  count: number;
  /** Hover text, e.g. "MCP Approval Console — 3 waiting". */
  tooltip: string;
  menu: TrayMenuEntry[];
}

/** The tray / menu-bar icon. */
export interface TrayPort {
  /** Shows (or refreshes) the icon, its count and menu. */
  update(model: TrayModel): void;
  /** Registers the one handler for menu clicks. */
  onAction(handler: (id: TrayActionId) => void): void;
}

/** Starting the app at login. */
export interface LoginItemPort {
  /** Whether this build can register itself (packaged desktop builds), with a reason (a message code) when not. */
  supported(): { ok: true } | { ok: false; reason: UiText };
  /** Registers (or removes) the app as a login item. @throws Error when the OS refuses. */
  set(enabled: boolean): void;
}

/** The host's native theme (Electron: `nativeTheme.themeSource`, which also drives `prefers-color-scheme`). */
export interface ThemePort {
  set(preference: ThemePreference): void;
}

/** Everything the desktop host offers; each part is optional. */
export interface DesktopPorts {
  notifier?: Notifier;
  badge?: BadgePort;
  tray?: TrayPort;
  loginItem?: LoginItemPort;
  theme?: ThemePort;
  /** Shows, restores and focuses the main window. */
  focusWindow?(): void;
  /** Quits the app (the tray's "Quit"). */
  quit?(): void;
  /** The OS's preferred languages (BCP 47 tags), most preferred first, for the language setting `system`. */
  locales?(): readonly string[];
  /** Things the host wants the person to know at start (shown as warning notices), e.g. no Node.js found. */
  notices?: string[];
}
