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
import { english, ui, type UiText } from '../../shared/contract/ui-text.js';

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
   * Applies and saves a change (only the given fields) to the settings as the file holds them now
   * (a hand edit since the last read counts, and is applied too: its theme and login item). The
   * login item is changed first; when the OS refuses, nothing is saved, and when the file then
   * cannot be written, the login item is put back. The update is all or nothing: the settings in
   * force (`current()`) and the published `desktop` slice change only when it succeeds (except a
   * login item that cannot be put back, which becomes the slice's login-item note).
   * @throws ApiError `invalid_input` for bad values or a change asking for "launch at login" where unsupported;
   *   `invalid_state` when desktop-settings.json is broken (nothing is changed or written);
   *   `internal` when the login item or the file cannot be written
   */
  update(change: DesktopSettingsChange): DesktopSettings;
}

/**
 * What the service keeps: the settings in force, the problem of the file (until a save), the note
 * about "launch at login" (why it is unavailable, or why updating the login item failed), and what
 * the host supports.
 */
interface SettingsState {
  readonly deps: DesktopSettingsDeps;
  /** desktop-settings.json. */
  readonly path: string;
  readonly loginSupport: { ok: true } | { ok: false; reason: UiText };
  readonly supports: DesktopSupports;
  settings: DesktopSettings;
  problem: string | undefined;
  loginNote: UiText | undefined;
}

/** Starts the service and publishes the first `desktop` slice. Never throws. */
export function createDesktopSettingsService(deps: DesktopSettingsDeps): DesktopSettingsService {
  const loaded = loadDesktopSettings(deps.dir);
  if (loaded.problem) deps.notify('warning', loaded.problem);
  if (loaded.note) deps.notify('info', loaded.note);

  const loginSupport = deps.ports.loginItem?.supported() ?? { ok: false as const, reason: ui('desktop.loginDesktopOnly') };
  const supports: DesktopSupports = {
    nativeNotifications: !!deps.ports.notifier,
    tray: !!deps.ports.tray,
    badge: !!deps.ports.badge,
    launchAtLogin: loginSupport.ok,
  };
  const st: SettingsState = { deps, path: loaded.path, loginSupport, supports, settings: loaded.value, problem: loaded.problem, loginNote: loginSupport.ok ? undefined : loginSupport.reason };
  applySaved(st);
  publish(st);
  return {
    current: () => st.settings,
    update: (change) => update(st, change),
  };
}

/** Sets the `desktop` slice: the settings, the file's path and problem, what the host supports, the login-item note. */
function publish(st: SettingsState): void {
  const view: DesktopView = { settings: st.settings, path: st.path, supports: st.supports };
  if (st.problem) view.problem = st.problem;
  if (st.loginNote) Object.assign(view, { launchAtLoginNote: english(st.loginNote), launchAtLoginNoteUi: st.loginNote });
  st.deps.hub.set('desktop', view);
}

/**
 * Applies what was saved: the theme always; the login item where supported (it re-points the
 * entry at this build, e.g. after an AppImage moved). A login item the OS refuses becomes the note.
 */
function applySaved(st: SettingsState): void {
  const { ports, logger } = st.deps;
  ports.theme?.set(st.settings.theme);
  if (st.loginSupport.ok && ports.loginItem) {
    try {
      ports.loginItem.set(st.settings.launchAtLogin);
    } catch (err) {
      st.loginNote = ui('desktop.loginUpdateFailed', { why: (err as Error).message });
      logger.warn('login item update failed', { error: String(err) });
    }
  }
}

/**
 * {@link DesktopSettingsService.update}: see there. Everything that can refuse (the file, the
 * values, the login item, the write) runs before the state is touched; what is applied (theme,
 * login item) is compared with the settings in force, so a hand edit in the file is applied too.
 */
function update(st: SettingsState, change: DesktopSettingsChange): DesktopSettings {
  const { deps } = st;
  // The change applies to the file as it is now (a hand edit since start counts); a broken
  // file refuses it before anything else happens (no login item change either).
  const fresh = loadDesktopSettings(deps.dir);
  if (fresh.problem) throw new ApiError('invalid_state', ui('error.nothingChanged', { problem: fresh.problem }));
  const given = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
  const parsed = DesktopSettingsSchema.safeParse({ ...fresh.value, ...given });
  if (!parsed.success) throw new ApiError('invalid_input', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const next = parsed.data;
  const before = st.settings;
  const loginChanged = next.launchAtLogin !== before.launchAtLogin && setLoginItem(st, next.launchAtLogin, change.launchAtLogin !== undefined);
  try {
    saveDesktopSettings(deps.dir, next);
  } catch (err) {
    if (loginChanged) putLoginItemBack(st, before.launchAtLogin);
    if (err instanceof ApiError) throw err; // a broken file: refused, with its problem
    throw new ApiError('internal', ui('error.couldNotSave', { path: st.path, why: (err as Error).message }));
  }
  st.problem = undefined;
  if (loginChanged) st.loginNote = undefined;
  if (next.theme !== before.theme) deps.ports.theme?.set(next.theme);
  st.settings = next;
  publish(st);
  return st.settings;
}

/**
 * Switches "launch at login" to `on` in the OS, where the host can. Where it cannot, switching it
 * off is fine (nothing to undo), and so is a value that came from the file rather than from the
 * person's change (`asked` false: nothing to apply, as at start).
 * @returns whether the OS login item was changed
 * @throws ApiError `invalid_input` when the person asks to switch on where unsupported; `internal` when the OS refuses
 */
function setLoginItem(st: SettingsState, on: boolean, asked: boolean): boolean {
  const { loginSupport } = st;
  const { loginItem } = st.deps.ports;
  if (!loginSupport.ok || !loginItem) {
    if (on && asked) throw new ApiError('invalid_input', ui('error.loginUnavailable', { why: loginSupport.ok ? ui('error.noLoginItems') : loginSupport.reason }));
    return false;
  }
  try {
    loginItem.set(on);
    return true;
  } catch (err) {
    throw new ApiError('internal', ui('error.loginRefused', { why: (err as Error).message }));
  }
}

/** Puts the OS login item back to `on` after the file could not be saved; a refusal becomes the note (and is logged). */
function putLoginItemBack(st: SettingsState, on: boolean): void {
  try {
    st.deps.ports.loginItem?.set(on);
  } catch (err) {
    st.loginNote = ui('desktop.loginUpdateFailed', { why: (err as Error).message });
    st.deps.logger.warn('login item update failed', { error: String(err) });
    publish(st);
  }
}
