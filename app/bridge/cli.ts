/**
 * The `mcp-approval-console` command's entry on Node: `bridge …` (what an agent host launches in
 * place of an MCP server), `bridge install|uninstall`, `status`, `stop`, `open`, `doctor`, with
 * `--help` and `--version` (app/cli/program.ts; reference: docs/cli.md).
 *
 * Environment: `MCP_CONSOLE_USER_DATA` (the console's data folder, default as the console's),
 * `MCP_CONSOLE_BRIDGE_NO_LAUNCH=1` (a bridge never starts the console). When no console listens,
 * a bridge starts the web host headless from this install (`out/web/cli.js` beside a built
 * bridge, else `app/web/cli.ts` through tsx); its output goes to `console-headless.log` in the data
 * folder. Run from sources as `node --import tsx app/bridge/cli.ts …`, built as
 * `node out/web/bridge.js …`, installed as the `mcp-approval-console` bin
 * (scripts/mcp-approval-console.mjs); the packaged desktop app runs the bridge as `<app> bridge …`
 * (app/electron/main.ts).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LaunchSpec } from '../../main/bridge/launch.js';
import type { BridgeLauncher } from '../../main/ports.js';
import { openInBrowser } from '../cli/opener.js';
import { runCli } from '../cli/program.js';
import { webUserDataDir } from '../web/options.js';

/** Whether this file runs as the built bundle (out/web/bridge.js) rather than from sources. */
const built = /\/out\/web\/[^/]+$/.test(import.meta.url);
/** The installation's folder: two folders up from app/bridge/cli.ts and from out/web/bridge.js alike. */
const installRoot = fileURLToPath(new URL('../../', import.meta.url));

/** How this install starts the web host headless. */
function webHostLaunch(): LaunchSpec {
  if (built) return { command: process.execPath, args: [fileURLToPath(new URL('./cli.js', import.meta.url))] };
  return { command: process.execPath, args: ['--import', 'tsx', path.join(installRoot, 'app/web/cli.ts')], cwd: installRoot };
}

/** The package's `mcp-approval-console` script: what a host is told to launch. */
function bridgeLauncher(): BridgeLauncher {
  return { command: process.execPath, args: [path.join(installRoot, 'scripts/mcp-approval-console.mjs')] };
}

/** package.json's version. */
function version(): string {
  try {
    return (JSON.parse(readFileSync(path.join(installRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

runCli(process.argv.slice(2), {
  version: version(),
  userDataDir: webUserDataDir(process.env, process.platform, os.homedir()),
  platform: process.platform,
  env: process.env,
  cwd: process.cwd(),
  installRoot,
  nodeVersion: process.versions.node,
  launcher: bridgeLauncher(),
  consoleLaunch: webHostLaunch(),
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  openUrl: (url) => openInBrowser(url),
}).then(
  // Exit once what was written reached stdout (a pipe may be asynchronous); a bridge's exit also
  // ends every handle it leaves (its server, the channel). A host that closed its end: exit at once.
  (code) => {
    if (!process.stdout.writable) process.exit(code);
    process.stdout.once('error', () => process.exit(code));
    process.stdout.write('', () => process.exit(code));
  },
  (err: unknown) => {
    process.stderr.write(`mcp-approval-console: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
