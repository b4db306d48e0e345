/**
 * What the renderer-scale scenario needs around the browser: a built renderer, the real web host
 * (`app/web/cli.ts` in its own process, like `npm run start:web`) with a prepared user-data folder,
 * and a Node client of the host's WebSocket API (the renderer's own ws-client over `ws`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import type { ConsoleApi } from '../shared/contract/api.js';
import { createWsClient } from '../renderer/api/ws-client.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNNING = /MCP Approval Console is running at (http:\/\/127\.0\.0\.1:\d+\/\S*)/;

/** Newest modification time (ms) of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** A built renderer folder, and how to remove it when the scenario built it. */
export interface BuiltRenderer {
  dir: string;
  /** Where it came from, for the figures' note. */
  source: 'MCP_CONSOLE_STATIC_DIR' | 'out/renderer' | 'built for this run';
  cleanup(): void;
}

/**
 * The renderer to serve: `MCP_CONSOLE_STATIC_DIR` when set; else `out/renderer` when it is newer
 * than every file under renderer/ and shared/; else a fresh `vite build` into a temp folder
 * (out/renderer is never written: other runs may be serving it).
 * @throws Error when the build fails
 */
export function rendererBuild(): BuiltRenderer {
  const fromEnv = process.env.MCP_CONSOLE_STATIC_DIR;
  if (fromEnv) {
    if (!existsSync(path.join(fromEnv, 'index.html'))) throw new Error(`MCP_CONSOLE_STATIC_DIR=${fromEnv} has no index.html`);
    return { dir: fromEnv, source: 'MCP_CONSOLE_STATIC_DIR', cleanup: () => {} };
  }
  const out = path.join(ROOT, 'out/renderer');
  const index = path.join(out, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(newestMtime(path.join(ROOT, 'renderer')), newestMtime(path.join(ROOT, 'shared')))) {
    return { dir: out, source: 'out/renderer', cleanup: () => {} };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-bench-renderer-'));
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
  console.log(`  building the renderer into ${dir} …`);
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status ?? r.signal})`);
  return { dir, source: 'built for this run', cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A running web host and a Node client of its API. */
export interface BenchWebHost {
  /** The page URL with its token. */
  url: string;
  api: ConsoleApi;
  /** Everything the host printed (for error messages). */
  logs(): string;
  /** Closes the client, stops the host (SIGTERM, then SIGKILL after 6 s) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts `app/web/cli.ts` with a fresh user-data folder holding `files` (name → JSON value, e.g.
 * `mcp-servers.json`, `rules.json`) and serving `staticDir`, then connects a client.
 * @throws Error when the host exits or prints no URL within `timeoutMs`
 */
export async function startBenchWebHost(staticDir: string, files: Record<string, unknown>, timeoutMs = 60_000): Promise<BenchWebHost> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-bench-web-'));
  for (const [name, value] of Object.entries(files)) writeFileSync(path.join(userDataDir, name), JSON.stringify(value));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'app/web/cli.ts', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, MCP_CONSOLE_USER_DATA: userDataDir, MCP_CONSOLE_STATIC_DIR: staticDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let client: ReturnType<typeof createWsClient> | undefined;
  const stop = async () => {
    client?.close();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 6_000);
      await exited;
      clearTimeout(kill);
    }
    rmSync(userDataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the web host printed no URL in ${timeoutMs} ms\n${output}`)), timeoutMs);
      child.stdout!.on('data', () => {
        const m = RUNNING.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the web host exited (${child.exitCode ?? child.signalCode})\n${output}`));
      });
    });
    const page = new URL(url);
    const token = page.searchParams.get('token') ?? '';
    client = createWsClient({
      url: `ws://${page.host}/api?token=${encodeURIComponent(token)}`,
      createSocket: (u) => new WebSocket(u, { origin: page.origin, maxPayload: 1024 * 2 ** 20 }) as never,
    });
    return { url, api: client.api, logs: () => output, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Polls `check` every `everyMs` until it returns a value other than undefined. @throws Error after `timeoutMs` with `what` */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
