/**
 * "Launch at login" on Linux, where Electron's `app.setLoginItemSettings` does nothing: an XDG
 * autostart entry (`$XDG_CONFIG_HOME/autostart/<id>.desktop`, default `~/.config/autostart`), the
 * freedesktop.org way every desktop environment honours. Plain Node, so it is unit-tested.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The desktop entry's file name (without `.desktop`). */
export const AUTOSTART_ID = 'mcp-approval-console';

/** Where the autostart entry lives for this user. */
export function autostartPath(env: Record<string, string | undefined>, home: string): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(base, 'autostart', `${AUTOSTART_ID}.desktop`);
}

/**
 * Quotes one argument of a desktop entry's `Exec` key (Desktop Entry Specification, "The Exec
 * key"): arguments with reserved characters are double-quoted, with `"`, `` ` ``, `$` and `\`
 * escaped by a backslash.
 */
export function quoteExecArg(arg: string): string {
  if (!/[\s"'\\`$<>|&;*?#()~]/.test(arg) && arg.length > 0) return arg;
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

/** The text of the autostart entry that runs `exec` (program and arguments). */
export function desktopEntry(name: string, exec: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    `Name=${name.replace(/[\r\n]/g, ' ')}`,
    `Exec=${exec.map(quoteExecArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Whether an autostart entry exists at `path` and is not disabled (`Hidden=true`). */
export function linuxAutostartEnabled(path: string): boolean {
  if (!existsSync(path)) return false;
  return !/^Hidden\s*=\s*true\s*$/im.test(readFileSync(path, 'utf8'));
}

/**
 * Creates (enabled) or removes (disabled) the autostart entry at `path`.
 * @throws Error when the file cannot be written or removed
 */
export function setLinuxAutostart(path: string, enabled: boolean, entry: { name: string; exec: readonly string[] }): void {
  if (!enabled) {
    rmSync(path, { force: true });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, desktopEntry(entry.name, entry.exec), { mode: 0o644 });
}
