import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesktopSettingsService } from '../../main/settings/service.js';
import { DESKTOP_SETTINGS_FILE, loadDesktopSettings } from '../../main/settings/store.js';
import { createStateHub, type HubInitial } from '../../main/state-hub.js';
import { silentLogger } from '../../main/ports.js';
import { ApiError } from '../../shared/contract/api-error.js';
import { DEFAULT_DESKTOP_SETTINGS } from '../../shared/contract/desktop.js';
import { recordingPorts } from './helpers.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'desktop-settings-'));

function start(dir: string, rec = recordingPorts()) {
  const initial: HubInitial = {
    servers: [], calls: [], items: [], providers: [], notices: [],
    settings: { host: 'test', userDataDir: dir, serversConfigPath: '', providersConfigPath: '', historyPath: '' },
  };
  const hub = createStateHub(initial, () => {});
  const notices: string[] = [];
  const service = createDesktopSettingsService({ dir, hub, ports: rec.ports, logger: silentLogger, notify: (_l, m) => void notices.push(m) });
  return { hub, service, rec, notices, view: () => hub.get('desktop')! };
}

describe('desktop settings', () => {
  it('starts from the defaults when there is no file and publishes what the host supports', () => {
    const dir = tempDir();
    const t = start(dir);
    expect(t.service.current()).toEqual({ theme: 'system', language: 'system', notifications: true, sound: false, doNotDisturb: false, launchAtLogin: false });
    expect(t.view()).toMatchObject({ settings: DEFAULT_DESKTOP_SETTINGS, path: join(dir, DESKTOP_SETTINGS_FILE), supports: { nativeNotifications: true, tray: true, badge: true, launchAtLogin: true } });
    expect(t.rec.themes).toEqual(['system']);
    expect(existsSync(join(dir, DESKTOP_SETTINGS_FILE))).toBe(false);
  });

  it('the web host (no ports) supports none of the native parts and says why login start is missing', () => {
    const dir = tempDir();
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'web', userDataDir: dir, serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, () => {});
    const s = createDesktopSettingsService({ dir, hub, ports: {}, logger: silentLogger, notify: () => {} });
    expect(hub.get('desktop')).toMatchObject({
      supports: { nativeNotifications: false, tray: false, badge: false, launchAtLogin: false },
      launchAtLoginNote: 'Only the desktop app can start at login.',
      launchAtLoginNoteUi: { code: 'desktop.loginDesktopOnly' },
    });
    expect(() => s.update({ launchAtLogin: true })).toThrow(/not available/);
    // other settings still save
    expect(s.update({ theme: 'dark' }).theme).toBe('dark');
  });

  it('a change of one field is saved, keeps the others, applies the theme, and is read back by the next start', () => {
    const dir = tempDir();
    const t = start(dir);
    t.service.update({ sound: true });
    const after = t.service.update({ theme: 'dark' });
    expect(after).toEqual({ ...DEFAULT_DESKTOP_SETTINGS, sound: true, theme: 'dark' });
    expect(t.rec.themes).toEqual(['system', 'dark']);
    expect(t.view().settings).toEqual(after);
    expect(JSON.parse(readFileSync(join(dir, DESKTOP_SETTINGS_FILE), 'utf8'))).toEqual(after);
    const next = start(dir);
    expect(next.service.current()).toEqual(after);
    expect(next.rec.themes).toEqual(['dark']);
  });

  it('a broken file is reported and never written by a change from the UI; once fixed by hand, changes apply to it', () => {
    const dir = tempDir();
    const file = join(dir, DESKTOP_SETTINGS_FILE);
    writeFileSync(file, '{"theme": "purple"}');
    const t = start(dir);
    expect(t.service.current()).toEqual(DEFAULT_DESKTOP_SETTINGS);
    expect(t.notices[0]).toMatch(/desktop-settings\.json line 1, column \d+: theme: .*using defaults/);
    expect(t.view().problem).toBe(t.notices[0]);
    expect(() => t.service.update({ theme: 'light' })).toThrow(expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/theme/) }));
    expect(readFileSync(file, 'utf8')).toBe('{"theme": "purple"}');
    expect(existsSync(`${file}.bak`)).toBe(false);
    // Fixed by hand (with a field of the person's own): the next change applies on top of it.
    writeFileSync(file, '{\n    "note": "mine",\n    "theme": "dark"\n}\n');
    t.service.update({ notifications: false });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ note: 'mine', theme: 'dark', notifications: false });
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8'))).slice(0, 2)).toEqual(['note', 'theme']);
    expect(readFileSync(file, 'utf8')).toMatch(/^\{\n {4}"note"/); // the person's indentation
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe('{\n    "note": "mine",\n    "theme": "dark"\n}\n');
    expect(loadDesktopSettings(dir).problem).toBeUndefined();
  });

  it('not JSON at all is reported too', () => {
    const dir = tempDir();
    writeFileSync(join(dir, DESKTOP_SETTINGS_FILE), '{oops');
    expect(loadDesktopSettings(dir).problem).toMatch(/desktop-settings\.json line 1, column 2/);
  });

  it('refuses invalid values with invalid_input and saves nothing', () => {
    const dir = tempDir();
    const t = start(dir);
    const bad = { theme: 'purple' } as unknown as Parameters<typeof t.service.update>[0];
    expect(() => t.service.update(bad)).toThrow(ApiError);
    expect(existsSync(join(dir, DESKTOP_SETTINGS_FILE))).toBe(false);
  });

  it('launch at login over a broken settings file: refused before the login item is touched', () => {
    const dir = tempDir();
    const t = start(dir);
    writeFileSync(join(dir, DESKTOP_SETTINGS_FILE), '{"theme": 3}');
    expect(() => t.service.update({ launchAtLogin: true })).toThrow(/desktop-settings\.json/);
    expect(t.rec.loginItems).toEqual([false]); // only the start's re-apply
    expect(readFileSync(join(dir, DESKTOP_SETTINGS_FILE), 'utf8')).toBe('{"theme": 3}');
  });

  it('launch at login registers the login item first; when the OS refuses nothing is saved', () => {
    const dir = tempDir();
    const t = start(dir);
    expect(t.rec.loginItems).toEqual([false]); // re-applied at start
    t.service.update({ launchAtLogin: true });
    expect(t.rec.loginItems).toEqual([false, true]);

    const dir2 = tempDir();
    const failing = start(dir2, recordingPorts({ loginFails: false }));
    failing.rec.ports.loginItem!.set = () => {
      throw new Error('access denied');
    };
    let error: unknown;
    try {
      failing.service.update({ launchAtLogin: true });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('internal');
    expect((error as ApiError).message).toMatch(/access denied/);
    expect(failing.service.current().launchAtLogin).toBe(false);
    expect(existsSync(join(dir2, DESKTOP_SETTINGS_FILE))).toBe(false);
  });

  it('a refused update changes nothing: current() and the published state keep the settings in force, also after a hand edit', () => {
    const dir = tempDir();
    const t = start(dir);
    writeFileSync(join(dir, DESKTOP_SETTINGS_FILE), '{"theme": "dark", "sound": true}');
    const bad = { notifications: 'loud' } as unknown as Parameters<typeof t.service.update>[0];
    expect(() => t.service.update(bad)).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(t.service.current()).toEqual(DEFAULT_DESKTOP_SETTINGS);
    expect(t.view().settings).toEqual(t.service.current());
    // the OS refuses the login item: the same
    t.rec.ports.loginItem!.set = () => {
      throw new Error('access denied');
    };
    expect(() => t.service.update({ launchAtLogin: true })).toThrow(/access denied/);
    expect(t.service.current()).toEqual(DEFAULT_DESKTOP_SETTINGS);
    expect(t.view().settings).toEqual(t.service.current());
    expect(t.rec.themes).toEqual(['system']);
  });

  it('a file that cannot be written after the login item changed: the login item is put back, nothing else changes', () => {
    const dir = tempDir();
    const t = start(dir);
    writeFileSync(join(dir, DESKTOP_SETTINGS_FILE), '{}');
    mkdirSync(join(dir, `${DESKTOP_SETTINGS_FILE}.bak`, 'taken'), { recursive: true }); // the backup cannot be written (also for root)
    expect(() => t.service.update({ launchAtLogin: true })).toThrow(expect.objectContaining({ code: 'internal' }));
    expect(t.rec.loginItems).toEqual([false, true, false]);
    expect(t.service.current()).toEqual(DEFAULT_DESKTOP_SETTINGS);
    expect(t.view().settings).toEqual(DEFAULT_DESKTOP_SETTINGS);
  });

  it('a theme and login item edited by hand are applied with the next change, whatever it changes', () => {
    const dir = tempDir();
    const t = start(dir);
    writeFileSync(join(dir, DESKTOP_SETTINGS_FILE), '{"theme": "dark", "launchAtLogin": true}');
    const after = t.service.update({ sound: true });
    expect(after).toEqual({ ...DEFAULT_DESKTOP_SETTINGS, theme: 'dark', launchAtLogin: true, sound: true });
    expect(t.rec.themes).toEqual(['system', 'dark']);
    expect(t.rec.loginItems).toEqual([false, true]);
    expect(t.service.current()).toEqual(after);
    expect(t.view().settings).toEqual(after);
  });

  it('"launch at login" edited by hand where the build cannot start at login does not block other changes', () => {
    const dir = tempDir();
    const t = start(dir, recordingPorts({ loginSupported: false }));
    writeFileSync(join(dir, DESKTOP_SETTINGS_FILE), '{"launchAtLogin": true}');
    expect(t.service.update({ theme: 'light' })).toMatchObject({ theme: 'light', launchAtLogin: true });
    expect(t.rec.loginItems).toEqual([]);
    expect(t.rec.themes).toEqual(['system', 'light']);
  });

  it('where the build cannot start at login (e.g. not packaged), enabling is refused with the reason', () => {
    const dir = tempDir();
    const t = start(dir, recordingPorts({ loginSupported: false }));
    expect(t.view()).toMatchObject({
      supports: { launchAtLogin: false },
      launchAtLoginNote: 'Launch at login works in the installed app, not when run from the source tree.',
      launchAtLoginNoteUi: { code: 'desktop.loginFromSource' },
    });
    expect(t.rec.loginItems).toEqual([]);
    expect(() => t.service.update({ launchAtLogin: true })).toThrow(/works in the installed app/);
  });
});
