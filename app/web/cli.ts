/**
 * The web host: `node --import tsx app/web/cli.ts [--port N]`, or prebuilt as
 * `node out/web/cli.js` (`npm run build:web`; what `npm run start:web` runs: app/web/entry.ts,
 * which turns on the compile cache, with this file loaded as a chunk). Environment:
 * `MCP_CONSOLE_USER_DATA` (data folder), `MCP_CONSOLE_PORT` (default random).
 * Prints `MCP Approval Console is running at http://127.0.0.1:PORT/?token=…` on stdout once ready;
 * exits 0 after a clean shutdown on SIGINT/SIGTERM (every request a server waits on answered,
 * every server closed; forced after 2 s), 1 when it cannot start.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createConsole } from '../../main/console.js';
import { bundledWorkerSpec } from '../../main/offload/offload.js';
import { stderrLogger } from '../../main/ports.js';
import { createFileSecretStore } from '../../main/secrets/file-store.js';
import { tolerateClosedOutput, writeQuietly } from '../output-pipes.js';
import { parseWebCliOptions } from './options.js';
import { runWebConsole } from './run.js';

/**
 * The built renderer (out/renderer), found from this file whether it runs from source
 * (app/web/cli.ts, under tsx) or as the prebuilt bundle `npm start` runs (out/web/cli.js);
 * `MCP_CONSOLE_STATIC_DIR` overrides it (tests and benchmarks that build elsewhere).
 */
const staticDir =
  process.env.MCP_CONSOLE_STATIC_DIR ||
  fileURLToPath(new URL(/\/out\/web\/[^/]+$/.test(import.meta.url) ? '../renderer/' : '../../out/renderer/', import.meta.url));

/**
 * The web host's secret store: AES-256-GCM file in the user-data folder, keyed from
 * MCP_CONSOLE_SECRET_PASSPHRASE when set (the variable is then removed from this process's
 * environment so no child process inherits it), else from a 0600 key file.
 */
function webSecretStore(userDataDir: string) {
  const passphrase = process.env.MCP_CONSOLE_SECRET_PASSPHRASE || undefined;
  delete process.env.MCP_CONSOLE_SECRET_PASSPHRASE;
  return createFileSecretStore({ dir: userDataDir, ...(passphrase ? { passphrase } : {}) });
}

/**
 * How an agent host launches this installation's sampling bridge ("Route through the console"):
 * this Node executable and the package's `mcp-approval-console` script, by absolute path (two
 * folders up from app/web/cli.ts and from out/web/cli.js alike). Absent when the script is not
 * there (routing is then refused with a clear error).
 */
function bridgeLauncher(): { command: string; args: string[] } | undefined {
  const script = fileURLToPath(new URL('../../scripts/mcp-approval-console.mjs', import.meta.url));
  return existsSync(script) ? { command: process.execPath, args: [script] } : undefined;
}

async function main(): Promise<void> {
  tolerateClosedOutput();
  const options = parseWebCliOptions(process.argv.slice(2), process.env, process.platform, os.homedir());
  const running = await runWebConsole({
    ...options,
    staticDir,
    createConsole,
    print: (line) => writeQuietly(process.stdout, `${line}\n`),
    ports: { logger: stderrLogger, secrets: webSecretStore(options.userDataDir), offloadWorker: bundledWorkerSpec(import.meta.url), bridgeLauncher: bridgeLauncher() },
  });
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
    running.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        writeQuietly(process.stderr, `shutdown failed: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err: unknown) => {
  process.stderr.write(`MCP Approval Console could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
