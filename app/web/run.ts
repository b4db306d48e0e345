/**
 * Runs the console in the web host: creates the console, starts the loopback server, prints the
 * URL line, and shuts both down on request. Separate from cli.ts so tests can run it with a fake
 * console and capture the output.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ConsoleHandle } from '../../main/console.js';
import type { ConsolePorts } from '../../main/ports.js';
import { startWebHost, type WebHost } from './server.js';
import type { WebCliOptions } from './options.js';

/** Prefix of the line e2e tests parse; the URL (with `?token=`) follows it. */
export const RUNNING_LINE_PREFIX = 'MCP Approval Console is running at ';

/** What {@link runWebConsole} needs. */
export interface RunWebConsoleOptions extends WebCliOptions {
  /** Built renderer folder (must contain index.html). */
  staticDir: string;
  /** `createConsole` from main/console.ts (injectable for tests). */
  createConsole(ports: ConsolePorts): Promise<ConsoleHandle>;
  /** Where the running line goes (stdout). */
  print(line: string): void;
  /** Passed through to the console. */
  ports?: Partial<ConsolePorts>;
}

/** A running web console. `stop` closes the server, then disposes the console; idempotent. */
export interface RunningWebConsole {
  host: WebHost;
  stop(): Promise<void>;
}

/**
 * Starts everything and prints `MCP Approval Console is running at http://127.0.0.1:PORT/?token=…`.
 * @throws Error when the renderer is not built (`staticDir/index.html` missing: run
 *   `npm run build`), when the console fails to start, or when the port is taken; the console is
 *   disposed again if the server fails.
 */
export async function runWebConsole(opts: RunWebConsoleOptions): Promise<RunningWebConsole> {
  if (!existsSync(path.join(opts.staticDir, 'index.html'))) {
    throw new Error(`the renderer is not built (${path.join(opts.staticDir, 'index.html')} is missing): run \`npm run build\``);
  }
  mkdirSync(opts.userDataDir, { recursive: true });
  const handle = await opts.createConsole({
    nodeRuntime: { command: process.execPath },
    ...opts.ports,
    host: 'web',
    userDataDir: opts.userDataDir,
  });
  let host: WebHost;
  try {
    host = await startWebHost({ service: handle.service, staticDir: opts.staticDir, port: opts.port });
  } catch (err) {
    await handle.dispose().catch(() => {});
    throw err;
  }
  opts.print(`${RUNNING_LINE_PREFIX}${host.url}`);
  let stopping: Promise<void> | null = null;
  return {
    host,
    stop() {
      stopping ??= host.close().finally(() => handle.dispose());
      return stopping;
    },
  };
}
