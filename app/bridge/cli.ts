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
 * (scripts/mcp-approval-console.mjs); the packaged desktop app runs the same command as
 * `<app> bridge …` (app/bridge/command.ts). Exits 0 when the host or the server closes, 2 on bad
 * arguments, 1 when the server cannot be started.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BRIDGE_USAGE } from '../../main/bridge/args.js';
import type { LaunchSpec } from '../../main/bridge/launch.js';
import { ROUTE_USAGE } from '../../main/host-config/route-cli.js';
import type { BridgeLauncher } from '../../main/ports.js';
import { defaultUserDataDir } from '../web/options.js';
import { bridgeArgvOf, runBridgeCommand } from './command.js';

/** Whether this file runs as the built bundle (out/web/bridge.js) rather than from sources. */
const built = /\/out\/web\/[^/]+$/.test(import.meta.url);

/** How this install starts the web host headless. */
function webHostLaunch(): LaunchSpec {
  if (built) return { command: process.execPath, args: [fileURLToPath(new URL('./cli.js', import.meta.url))] };
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return { command: process.execPath, args: ['--import', 'tsx', path.join(root, 'app/web/cli.ts')], cwd: root };
}

/** The package's `mcp-approval-console` script (two folders up from app/bridge/cli.ts and from out/web/bridge.js alike): what a host is told to launch. */
function bridgeLauncher(): BridgeLauncher {
  return { command: process.execPath, args: [fileURLToPath(new URL('../../scripts/mcp-approval-console.mjs', import.meta.url))] };
}

async function main(): Promise<number> {
  const rest = bridgeArgvOf(process.argv, 2);
  if (!rest) {
    process.stderr.write(`${BRIDGE_USAGE}\n${ROUTE_USAGE}\n`);
    return 2;
  }
  const env = process.env;
  const userDataDir = env.MCP_CONSOLE_USER_DATA ? path.resolve(env.MCP_CONSOLE_USER_DATA) : defaultUserDataDir(process.platform, env, os.homedir());
  return runBridgeCommand(rest, { userDataDir, launcher: bridgeLauncher(), consoleLaunch: webHostLaunch(), env });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`mcp-approval-console bridge: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
