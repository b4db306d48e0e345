/**
 * `mcp-approval-console bridge …`: the entry an agent host (Claude Desktop, VS Code, Cursor …)
 * launches in place of an MCP server. Toward the host it is a stdio MCP server; toward the real
 * server an MCP client; the server's sampling requests go to the running console's queue (its
 * elicitation and roots requests too, unless the host declared them), everything else passes
 * through unchanged.
 *
 *   mcp-approval-console bridge <name>                       the entry <name> of the console's mcp-servers.json
 *   mcp-approval-console bridge [--name <id>] -- <command> [args…]    a stdio server
 *   mcp-approval-console bridge [--name <id>] --url <url> [--sse]     a Streamable HTTP (or legacy SSE) server
 *   (each takes --sampling host: a host that declares sampling answers it itself, unreviewed here)
 *   mcp-approval-console bridge install|uninstall --host <host> --server <name> [--file <path>]
 *                        route a host's entry through the console in the host's own file, or undo it
 *                        (main/host-config/route-cli.ts)
 *
 * The server is named in the console by `<name>`, `--name`, or a name derived from the command
 * (package or script name) or the URL (host name): main/bridge/args.ts.
 * Environment: `MCP_CONSOLE_USER_DATA` (the console's data folder, default as the console's),
 * `MCP_CONSOLE_BRIDGE_NO_LAUNCH=1` (never start the console). When no console listens, the web
 * host is started headless from this install (`out/web/cli.js` beside a built bridge, else
 * `app/web/cli.ts` through tsx); its output goes to `console-headless.log` in the data folder. If
 * it cannot start, sampling is answered -32603 "MCP Approval Console is not running: …" and
 * everything else keeps working.
 * Run from sources as `node --import tsx app/bridge/cli.ts bridge …`, built as
 * `node out/web/bridge.js bridge …`, installed as the `mcp-approval-console` bin
 * (scripts/mcp-approval-console.mjs). Exits 0 when the host or the server closes, 2 on bad
 * arguments, 1 when the server cannot be started.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBridgeArgs, BRIDGE_USAGE } from '../../main/bridge/args.js';
import { HEADLESS_LOG_FILE, launchHeadlessConsole, type LaunchSpec } from '../../main/bridge/launch.js';
import { runBridge } from '../../main/bridge/run.js';
import type { BridgeLauncher, Logger } from '../../main/ports.js';
import { cliUrlTarget, parseRouteCommand, ROUTE_USAGE, runRouteCommand } from '../../main/host-config/route-cli.js';
import { defaultUserDataDir } from '../web/options.js';

/** Whether this file runs as the built bundle (out/web/bridge.js) rather than from sources. */
const built = /\/out\/web\/[^/]+$/.test(import.meta.url);

/** How this install starts the web host headless. */
function webHostLaunch(): LaunchSpec {
  if (built) return { command: process.execPath, args: [fileURLToPath(new URL('./cli.js', import.meta.url))] };
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return { command: process.execPath, args: ['--import', 'tsx', path.join(root, 'app/web/cli.ts')], cwd: root };
}

/** Warnings and errors as JSON lines on stderr (hosts keep a server's stderr in their logs). */
const logger: Logger = {
  info: () => undefined,
  warn: (message, data) => process.stderr.write(`${JSON.stringify({ level: 'warn', source: 'bridge', message, ...data })}\n`),
  error: (message, data) => process.stderr.write(`${JSON.stringify({ level: 'error', source: 'bridge', message, ...data })}\n`),
};

/** Starts the web host headless and says so on stderr (with its pid and log). */
async function launchHeadless(userDataDir: string): Promise<void> {
  const pid = await launchHeadlessConsole(webHostLaunch(), userDataDir);
  process.stderr.write(`${JSON.stringify({ level: 'info', source: 'bridge', message: 'started MCP Approval Console headless', pid, log: path.join(userDataDir, HEADLESS_LOG_FILE) })}\n`);
}

/** The package's `mcp-approval-console` script (two folders up from app/bridge/cli.ts and from out/web/bridge.js alike): what a host is told to launch. */
function bridgeLauncher(): BridgeLauncher {
  return { command: process.execPath, args: [fileURLToPath(new URL('../../scripts/mcp-approval-console.mjs', import.meta.url))] };
}

/** `bridge install|uninstall …`: routes a host's entry through the console, or undoes it. */
async function routeCommand(argv: string[], userDataDir: string): Promise<never> {
  let command: ReturnType<typeof parseRouteCommand>;
  try {
    command = parseRouteCommand(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  const env = { home: os.homedir(), platform: process.platform, env: process.env };
  try {
    process.stdout.write(`${await runRouteCommand(command, env, { dir: userDataDir, now: Date.now, logger, launcher: bridgeLauncher(), urlTarget: () => cliUrlTarget(userDataDir, process.env) })}\n`);
    process.exit(0);
  } catch (err) {
    process.stderr.write(`mcp-approval-console bridge ${command.action}: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'bridge') {
    process.stderr.write(`${BRIDGE_USAGE}\n${ROUTE_USAGE}\n`);
    process.exit(2);
  }
  const env = process.env;
  const userDataDir = env.MCP_CONSOLE_USER_DATA ? path.resolve(env.MCP_CONSOLE_USER_DATA) : defaultUserDataDir(process.platform, env, os.homedir());
  if (rest[0] === 'install' || rest[0] === 'uninstall') await routeCommand(rest, userDataDir);
  let args: ReturnType<typeof parseBridgeArgs>;
  try {
    args = parseBridgeArgs(rest);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  const noLaunch = env.MCP_CONSOLE_BRIDGE_NO_LAUNCH === '1';
  const proxy = await runBridge({
    userDataDir,
    target: args.target,
    serverId: args.serverId,
    ...(args.samplingTo && { samplingTo: args.samplingTo }),
    logger,
    ...(!noLaunch && { launch: () => launchHeadless(userDataDir) }),
  });
  const stop = () => void proxy.close();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await proxy.closed;
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`mcp-approval-console bridge: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
