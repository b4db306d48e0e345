/**
 * The web host: `node --import tsx app/web/cli.ts [--port N]`, or prebuilt as
 * `node out/web/cli.js` (`npm run build:web`; what `npm run start:web` runs: app/web/entry.ts,
 * which turns on the compile cache, with this file loaded as a chunk). Environment:
 * `MCP_CONSOLE_USER_DATA` (data folder), `MCP_CONSOLE_PORT` (default random),
 * `MCP_CONSOLE_DATABASE_URL` (a `postgres://` URL: this console is then an instance of the team on
 * that database, its queue and History shared: docs/team-queue.md; removed from the environment so no
 * server it runs inherits it). Options: `--port N`,
 * `--help` (app/web/options.ts).
 * When this installation's renderer is not built (right after `npm install`), it is built first
 * while the console already runs (app/web/renderer-build.ts): a bridge that started this console
 * headless has its server's first request queued, not refused.
 * Prints `MCP Approval Console is running at http://127.0.0.1:PORT/?token=…` on stdout once ready;
 * exits 0 after a clean shutdown on SIGINT/SIGTERM or `mcp-approval-console stop` (every request a
 * server waits on answered, every server closed; forced after 2 s), 1 when it cannot start, 2 on a
 * usage error.
 */
import os from 'node:os';
import { createConsole } from '../../main/console.js';
import { bundledWorkerSpec } from '../../main/offload/offload.js';
import { stderrLogger } from '../../main/ports.js';
import { TEAM_DATABASE_ENV, teamConsolePorts } from '../../main/team/console-ports.js';
import { tolerateClosedOutput, writeQuietly } from '../output-pipes.js';
import { bridgeLauncher, installRoot, rendererDir, webSecretStore } from './host-setup.js';
import { parseWebCliOptions, WEB_USAGE } from './options.js';
import { buildRenderer, rendererBuildOf } from './renderer-build.js';
import { runWebConsole, type RunningWebConsole } from './run.js';

/** The built renderer (out/renderer, or `MCP_CONSOLE_STATIC_DIR`). */
const staticDir = rendererDir();

async function main(): Promise<void> {
  tolerateClosedOutput();
  let options: ReturnType<typeof parseWebCliOptions>;
  try {
    options = parseWebCliOptions(process.argv.slice(2), process.env, process.platform, os.homedir());
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n(see --help)\n`);
    process.exit(2);
  }
  if (options.help) {
    writeQuietly(process.stdout, `${WEB_USAGE}\n`);
    return;
  }
  const aborter = new AbortController();
  const started: { running?: RunningWebConsole; team?: Awaited<ReturnType<typeof teamPorts>> } = {};
  let shuttingDown = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    // A terminal's Ctrl-C reaches both `npm start` and this process: later signals are ignored.
    if (shuttingDown) return;
    shuttingDown = true;
    writeQuietly(process.stderr, `${signal}: shutting down\n`);
    setTimeout(() => {
      writeQuietly(process.stderr, 'shutdown took longer than 2 s; exiting\n');
      process.exit(1);
    }, 2000).unref();
    if (!started.running) return aborter.abort(); // still starting (building the renderer): the start ends, then the process
    started.running
      .stop()
      .then(() => started.team?.team.close()) // after the console: its lease says it stopped once what it held is recorded
      .then(
        () => process.exit(0),
        (err: unknown) => {
          writeQuietly(process.stderr, `shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  const team = (started.team = await teamPorts());
  // This installation's own renderer is built when missing; one elsewhere (MCP_CONSOLE_STATIC_DIR) is not.
  const build = process.env.MCP_CONSOLE_STATIC_DIR ? undefined : rendererBuildOf(installRoot);
  started.running = await runWebConsole({
    ...options,
    staticDir,
    createConsole,
    print: (line) => writeQuietly(process.stdout, `${line}\n`),
    note: (line) => writeQuietly(process.stderr, `${line}\n`),
    signal: aborter.signal,
    ...(build && { buildRenderer: (signal: AbortSignal) => buildRenderer(build, staticDir, signal) }),
    ports: {
      logger: stderrLogger,
      secrets: webSecretStore(options.userDataDir),
      offloadWorker: bundledWorkerSpec(import.meta.url),
      bridgeLauncher: bridgeLauncher(),
      // `mcp-approval-console stop`: the same shutdown as SIGTERM.
      stop: () => shutdown('SIGTERM'),
      ...team,
    },
  }).catch(async (err: unknown) => {
    await team?.team.close();
    if (aborter.signal.aborted) process.exit(0); // stopped while starting
    throw err;
  });
}

/** The team's ports when MCP_CONSOLE_DATABASE_URL names its database (the variable is then removed from the environment). */
async function teamPorts(): Promise<Awaited<ReturnType<typeof teamConsolePorts>> | undefined> {
  const url = process.env[TEAM_DATABASE_ENV];
  delete process.env[TEAM_DATABASE_ENV];
  return url ? teamConsolePorts({ url, logger: stderrLogger }) : undefined;
}

main().catch((err: unknown) => {
  process.stderr.write(`MCP Approval Console could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
