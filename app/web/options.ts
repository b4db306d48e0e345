/**
 * Settings of the web host's command line, from arguments and environment. Pure functions: the
 * caller passes argv, env, platform and home folder, so every rule is unit-tested.
 */
import path from 'node:path';

/** The folder name under the OS's per-user config location (same as Electron's userData). */
export const APP_DIR_NAME = 'mcp-approval-console';

/** What the web host CLI runs with. */
export interface WebCliOptions {
  /** Absolute per-user data folder (config files and history). */
  userDataDir: string;
  /** Port on 127.0.0.1; 0 = pick a free one. */
  port: number;
}

/**
 * The OS default user-data folder, matching Electron's `app.getPath('userData')`:
 * Linux `$XDG_CONFIG_HOME/mcp-approval-console` (default `~/.config/…`), macOS
 * `~/Library/Application Support/…`, Windows `%APPDATA%\…` (default `~\AppData\Roaming\…`).
 */
export function defaultUserDataDir(platform: NodeJS.Platform, env: Record<string, string | undefined>, home: string): string {
  if (platform === 'win32') return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  return path.posix.join(env.XDG_CONFIG_HOME || path.posix.join(home, '.config'), APP_DIR_NAME);
}

/** The user-data folder: `MCP_CONSOLE_USER_DATA` (resolved to absolute) or {@link defaultUserDataDir}. */
export function webUserDataDir(env: Record<string, string | undefined>, platform: NodeJS.Platform, home: string): string {
  return env.MCP_CONSOLE_USER_DATA ? path.resolve(env.MCP_CONSOLE_USER_DATA) : defaultUserDataDir(platform, env, home);
}

/**
 * Reads the options: user data from {@link webUserDataDir}; port from `--port N` / `--port=N`, else `MCP_CONSOLE_PORT`, else 0.
 * @throws Error with a one-line message for an invalid port (not an integer 0–65535), a `--port`
 *   without a value, or an unknown argument.
 */
export function parseWebCliOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  home: string,
): WebCliOptions {
  let portText: string | undefined = env.MCP_CONSOLE_PORT || undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--port') {
      const value = argv[++i];
      if (value === undefined) throw new Error('--port needs a value');
      portText = value;
    } else if (arg.startsWith('--port=')) {
      portText = arg.slice('--port='.length);
    } else {
      throw new Error(`unknown argument ${JSON.stringify(arg)} (usage: [--port N])`);
    }
  }
  const port = portText === undefined ? 0 : Number(portText);
  if (!/^\d+$/.test(portText ?? '0') || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port ${JSON.stringify(portText)}: expected an integer from 0 to 65535`);
  }
  return { userDataDir: webUserDataDir(env, platform, home), port };
}
