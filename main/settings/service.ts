/**
 * The desktop settings service: loads `desktop-settings.json`, applies the settings to the host
 * (native theme, login item), publishes the `desktop` slice, and saves changes the person makes.
 */
import { ApiError } from '../../shared/contract/api-error.js';
import { DesktopSettingsSchema, type DesktopSettings, type DesktopSettingsChange, type DesktopSupports, type DesktopView } from '../../shared/contract/desktop.js';
import type { DesktopPorts } from '../attention/ports.js';
import type { Logger } from '../ports.js';
import type { StateHub } from '../state-hub.js';
import { loadDesktopSettings, saveDesktopSettings } from './store.js';
import { ui } from '../../shared/contract/ui-text.js';

/** What {@link createDesktopSettingsService} needs. */
export interface DesktopSettingsDeps {
  /** The user-data folder. */
  dir: string;
  hub: StateHub;
  ports: DesktopPorts;
  logger: Logger;
  /** Tells the person something (a notice), e.g. a broken settings file. */
  notify(level: 'info' | 'warning' | 'error', message: string): void;
}

/** The running service. */
export interface DesktopSettingsService {
  current(): DesktopSettings;
  /**
   * Applies and saves a change (only the given fields) to the settings as the file holds them now.
   * The login item is changed first; when the OS refuses, nothing is saved.
   * @throws ApiError `invalid_input` for bad values or "launch at login" where unsupported;
   *   `invalid_state` when desktop-settings.json is broken (nothing is changed or written);
   *   `internal` when the login item or the file cannot be written
   */
  update(change: DesktopSettingsChange): DesktopSettings;
}

/** Starts the service and publishes the first `desktop` slice. Never throws. */
export function createDesktopSettingsService(deps: DesktopSettingsDeps): DesktopSettingsService {
  const loaded = loadDesktopSettings(deps.dir);
  let settings = loaded.value;
  let problem = loaded.problem;
  let loginNote: string | undefined;
  if (problem) deps.notify('warning', problem);
  if (loaded.note) deps.notify('info', loaded.note);

  const loginSupport = deps.ports.loginItem?.supported() ?? { ok: false as const, reason: 'Only the desktop app can start at login.' };
  const supports: DesktopSupports = {
    nativeNotifications: !!deps.ports.notifier,
    tray: !!deps.ports.tray,
    badge: !!deps.ports.badge,
    launchAtLogin: loginSupport.ok,
  };
  if (!loginSupport.ok) loginNote = loginSupport.reason;

  const publish = () => {
    const view: DesktopView = { settings, path: loaded.path, supports };
    if (problem) view.problem = problem;
    if (loginNote) view.launchAtLoginNote = loginNote;
    deps.hub.set('desktop', view);
  };

  // Apply what was saved: the theme always; the login item where supported (it re-points the
  // entry at this build, e.g. after an AppImage moved).
  deps.ports.theme?.set(settings.theme);
  if (loginSupport.ok && deps.ports.loginItem) {
    try {
      deps.ports.loginItem.set(settings.launchAtLogin);
    } catch (err) {
      loginNote = `Could not update the login item: ${(err as Error).message}`;
      deps.logger.warn('login item update failed', { error: String(err) });
    }
  }
  publish();

  return {
    current: () => settings,
    update(change) {
      // The change applies to the file as it is now (a hand edit since start counts); a broken
      // file refuses it before anything else happens (no login item change either).
      const fresh = loadDesktopSettings(deps.dir);
      if (fresh.problem) throw new ApiError('invalid_state', ui('error.nothingChanged', { problem: fresh.problem }));
      settings = fresh.value;
      const given = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
      const parsed = DesktopSettingsSchema.safeParse({ ...settings, ...given });
      if (!parsed.success) throw new ApiError('invalid_input', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const next = parsed.data;
      if (next.launchAtLogin !== settings.launchAtLogin) {
        if (!loginSupport.ok || !deps.ports.loginItem) {
          if (next.launchAtLogin) throw new ApiError('invalid_input', ui('error.loginUnavailable', { why: loginSupport.ok ? ui('error.noLoginItems') : loginSupport.reason }));
        } else {
          try {
            deps.ports.loginItem.set(next.launchAtLogin);
            loginNote = undefined;
          } catch (err) {
            throw new ApiError('internal', ui('error.loginRefused', { why: (err as Error).message }));
          }
        }
      }
      try {
        saveDesktopSettings(deps.dir, next);
      } catch (err) {
        if (err instanceof ApiError) throw err; // a broken file: refused, with its problem
        throw new ApiError('internal', ui('error.couldNotSave', { path: loaded.path, why: (err as Error).message }));
      }
      problem = undefined;
      if (next.theme !== settings.theme) deps.ports.theme?.set(next.theme);
      settings = next;
      publish();
      return settings;
    },
  };
}
