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
  /**
   * Builds the renderer into `staticDir` when its index.html is missing (this installation's own
   * out/renderer, app/web/renderer-build.ts); absent: a missing renderer is an error.
   */
  buildRenderer?(signal: AbortSignal): Promise<void>;
  /** Where progress lines go (stderr): the renderer being built. */
  note?(line: string): void;
  /** Aborts a start still under way (a renderer build): the console is disposed and the start rejects. */
  signal?: AbortSignal;
}

/** A running web console. `stop` closes the server, then disposes the console; idempotent. */
export interface RunningWebConsole {
  host: WebHost;
  stop(): Promise<void>;
}

/**
 * Starts everything and prints `MCP Approval Console is running at http://127.0.0.1:PORT/?token=…`.
 * Without a built renderer and with `buildRenderer`, the console starts first — bridges reach it
 * and their servers' requests wait in its queue — and the page is served once the build is done.
 * @throws Error when the renderer is not built and cannot be (`staticDir/index.html` missing: run
 *   `npm run build`), when the console fails to start, when the port is taken, or when `signal`
 *   aborted the start; the console is disposed again if anything after it fails
 */
export async function runWebConsole(opts: RunWebConsoleOptions): Promise<RunningWebConsole> {
  const index = path.join(opts.staticDir, 'index.html');
  const unbuilt = !existsSync(index);
  if (unbuilt && !opts.buildRenderer) {
    throw new Error(`the renderer is not built (${index} is missing): run \`npm run build\``);
  }
  mkdirSync(opts.userDataDir, { recursive: true });
  const page: { address?: string } = {}; // known once the page is served
  const handle = await opts.createConsole({
    nodeRuntime: { command: process.execPath },
    ...opts.ports,
    host: 'web',
    userDataDir: opts.userDataDir,
    pageAddress: () => page.address,
  });
  let host: WebHost;
  try {
    if (unbuilt) await buildPage(opts, index);
    opts.signal?.throwIfAborted();
    host = await startWebHost({ service: handle.service, staticDir: opts.staticDir, port: opts.port });
  } catch (err) {
    await handle.dispose().catch(() => {});
    throw err;
  }
  page.address = host.url;
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

/** Builds the missing renderer, saying so. @throws Error naming the build's failure and what to do */
async function buildPage(opts: RunWebConsoleOptions, index: string): Promise<void> {
  opts.note?.(`The renderer is not built yet (${index}): building it now; requests wait in the queue meanwhile…`);
  try {
    await opts.buildRenderer!(opts.signal ?? new AbortController().signal);
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    throw new Error(`the renderer is not built and building it failed (${err instanceof Error ? err.message : String(err)}): run \`npm run build\``, { cause: err });
  }
  opts.note?.('The renderer is built.');
}
