/**
 * Settings of the web host's command line, from arguments and environment. Pure functions: the
 * caller passes argv, env, platform and home folder, so every rule is unit-tested.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';

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

/** The web host's help (`--help`). */
export const WEB_USAGE = `Usage: node out/web/cli.js [--port <n>]   (built and run by: npm run start:web -- [--port <n>])

Runs MCP Approval Console in the browser host. Prints its address, with its token, once it serves:
  MCP Approval Console is running at http://127.0.0.1:PORT/?token=…

Options:
  --port <n>   port on 127.0.0.1, 0 = any free port (default: MCP_CONSOLE_PORT, else 0)
  -h, --help   show this help

Environment: MCP_CONSOLE_USER_DATA (data folder), MCP_CONSOLE_PORT,
MCP_CONSOLE_SECRET_PASSPHRASE (key of the API-key store), MCP_CONSOLE_STATIC_DIR (a built renderer elsewhere).
Exit codes: 0 stopped cleanly, 1 could not start, 2 usage error.`;

/**
 * Reads the options (Node's `util.parseArgs`): user data from {@link webUserDataDir}; port from
 * `--port N` / `--port=N`, else `MCP_CONSOLE_PORT`, else 0; `help` for `--help` / `-h`.
 * @throws Error with a one-line message for an invalid port (not an integer 0–65535), a `--port`
 *   without a value, or an unknown argument.
 */
export function parseWebCliOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform,
  home: string,
): WebCliOptions & { help?: true } {
  let values: { port?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new Error(`${(err as Error).message.split('\n')[0]} (usage: [--port N])`, { cause: err });
  }
  const portText = values.port ?? (env.MCP_CONSOLE_PORT || undefined);
  const port = portText === undefined ? 0 : Number(portText);
  if (!/^\d+$/.test(portText ?? '0') || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port ${JSON.stringify(portText)}: expected an integer from 0 to 65535`);
  }
  return { userDataDir: webUserDataDir(env, platform, home), port, ...(values.help && { help: true as const }) };
}
