/**
 * What `bridge …` does once its command line is understood (app/cli/program.ts parses it), whoever
 * launches it: the `mcp-approval-console` bin on Node (app/bridge/cli.ts) or the packaged desktop
 * app started as `<app> bridge …` (app/electron/main.ts). Runs one bridge, or `bridge
 * install|uninstall` (routing a host's entry), and resolves with the process's exit code: 0 when
 * the host or the server closed (or routing succeeded), 1 when the server could not be started or
 * routing failed.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BridgeArgs } from '../../main/bridge/args.js';
import { HEADLESS_LOG_FILE, launchHeadlessConsole, type LaunchSpec } from '../../main/bridge/launch.js';
import type { RemoteConsole } from '../../main/bridge/console-link.js';
import { runBridge } from '../../main/bridge/run.js';
import { cliUrlTarget, runRouteCommand, type RouteCommand } from '../../main/host-config/route-cli.js';
import type { BridgeLauncher, Logger } from '../../main/ports.js';

/** How this installation runs the bridge. */
export interface BridgeCommandOptions {
  /** The console's data folder (the desktop app's, or `MCP_CONSOLE_USER_DATA` / the default). */
  userDataDir: string;
  /** How a host launches this installation's bridge (written by `bridge install`). */
  launcher: BridgeLauncher;
  /** How the console is started when none runs (headless web host, or the desktop app). */
  consoleLaunch: LaunchSpec;
  env: NodeJS.ProcessEnv;
  /** Where lines for a person go (routing results); default stdout. */
  print?(line: string): void;
}

/** Warnings and errors as JSON lines on stderr (hosts keep a server's stderr in their logs). */
export const bridgeLogger: Logger = {
  info: () => undefined,
  warn: (message, data) => process.stderr.write(`${JSON.stringify({ level: 'warn', source: 'bridge', message, ...data })}\n`),
  error: (message, data) => process.stderr.write(`${JSON.stringify({ level: 'error', source: 'bridge', message, ...data })}\n`),
};

/**
 * The arguments after `bridge` when this process was started as `… bridge …`: `argv[first]` must
 * be `bridge` (1 for a packaged app `<app> bridge …`, 2 for `electron <appPath> bridge …`).
 * Undefined for any other start.
 */
export function bridgeArgvOf(argv: readonly string[], first: number): string[] | undefined {
  return argv[first] === 'bridge' ? argv.slice(first + 1) : undefined;
}

/**
 * Runs the bridge `args` describes until the host or the server closes; resolves with the exit
 * code (0 closed, 1 the server could not be started). Never rejects: errors are written to stderr.
 */
export async function runBridgeTarget(args: BridgeArgs, opts: BridgeCommandOptions): Promise<number> {
  const noLaunch = opts.env.MCP_CONSOLE_BRIDGE_NO_LAUNCH === '1';
  try {
    const proxy = await runBridge({
      userDataDir: opts.userDataDir,
      target: args.target,
      serverId: args.serverId,
      ...(args.formerly && { formerly: args.formerly }),
      ...(args.samplingTo && { samplingTo: args.samplingTo }),
      logger: bridgeLogger,
      ...(args.remote ? { remote: remoteConsole(args.remote, opts.env) } : !noLaunch && { launch: () => launchConsole(opts) }),
    });
    const stop = () => void proxy.close();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    await proxy.closed;
    return 0;
  } catch (err) {
    process.stderr.write(`mcp-approval-console bridge: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

/**
 * The team server a bridge asks (`--console`), with the CA certificates of `MCP_CONSOLE_CA_FILE`
 * when set (a team's own CA; NODE_EXTRA_CA_CERTS works too).
 * @throws Error when that file cannot be read
 */
function remoteConsole(remote: NonNullable<BridgeArgs['remote']>, env: NodeJS.ProcessEnv): RemoteConsole {
  const caFile = env.MCP_CONSOLE_CA_FILE;
  if (!caFile) return remote;
  try {
    return { ...remote, ca: readFileSync(caFile) };
  } catch (err) {
    throw new Error(`MCP_CONSOLE_CA_FILE: cannot read ${caFile}: ${(err as Error).message}`, { cause: err });
  }
}

/** Starts the console (none runs) and says so on stderr, with its pid and log. */
async function launchConsole(opts: BridgeCommandOptions): Promise<void> {
  const pid = await launchHeadlessConsole(opts.consoleLaunch, opts.userDataDir);
  process.stderr.write(`${JSON.stringify({ level: 'info', source: 'bridge', message: 'started MCP Approval Console', pid, log: path.join(opts.userDataDir, HEADLESS_LOG_FILE) })}\n`);
}

/** `bridge install|uninstall …`: routes a host's entry through the console, or undoes it; resolves 0 done, 1 failed (said on stderr). */
export async function runRoute(command: RouteCommand, opts: BridgeCommandOptions): Promise<number> {
  const env = { home: os.homedir(), platform: process.platform, env: opts.env };
  try {
    const out = await runRouteCommand(command, env, { dir: opts.userDataDir, now: Date.now, logger: bridgeLogger, launcher: opts.launcher, urlTarget: () => cliUrlTarget(opts.userDataDir, opts.env) });
    (opts.print ?? ((line: string) => process.stdout.write(`${line}\n`)))(out);
    return 0;
  } catch (err) {
    process.stderr.write(`mcp-approval-console bridge ${command.action}: ${(err as Error).message}\n`);
    return 1;
  }
}
