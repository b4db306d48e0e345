/**
 * Starts the real web host (`node --import tsx app/web/cli.ts`) with a fresh user-data folder and
 * returns its URL (with the access token) from the line it prints once ready.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const RUNNING = /MCP Approval Console is running at (http:\/\/127\.0\.0\.1:\d+\/\S*)/;

/** A running web host. `stop` ends the process this started and removes its data folder. */
export interface WebHostProcess {
  url: string;
  userDataDir: string;
  stop(): Promise<void>;
  /** SIGKILLs the host (a crash: no shutdown runs); the data folder is left in place. */
  kill(): Promise<void>;
  /** Everything the host wrote to stdout and stderr so far (all of it, for leak checks). */
  logs(): string;
}

/**
 * Spawns the web host and waits for its URL line. `opts.env` adds environment variables (e.g. an
 * OPENAI_COMPATIBLE_BASE_URL provider); `opts.servers` (the `mcpServers` object) is written to
 * `<userData>/mcp-servers.json` first, replacing the embedded default server; `opts.keepUserData`
 * leaves the data folder in place after `stop` (the caller removes it, e.g. after grepping it);
 * `opts.userDataDir` starts over an existing data folder (a restart) instead of a fresh one;
 * `opts.port` listens there instead of on a free port (a restart at the same address: the page's
 * origin, and so its storage, stays the same).
 * @throws Error when the renderer is not built, or the host exits or stays silent for `timeoutMs`
 *   (the error carries its stderr).
 */
export async function startWebHost(
  timeoutMs = 30_000,
  opts: { env?: Record<string, string>; servers?: Record<string, unknown>; keepUserData?: boolean; userDataDir?: string; port?: number } = {},
): Promise<WebHostProcess> {
  const staticDir = process.env.MCP_CONSOLE_STATIC_DIR || path.join(root, 'out/renderer');
  if (!existsSync(path.join(staticDir, 'index.html'))) throw new Error(`${staticDir} is missing: run \`npm run build\` first`);
  const userDataDir = opts.userDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mcp-console-web-e2e-'));
  if (opts.servers) writeFileSync(path.join(userDataDir, 'mcp-servers.json'), JSON.stringify({ mcpServers: opts.servers }, null, 2));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'app/web/cli.ts', '--port', String(opts.port ?? 0)], {
    cwd: root,
    env: { MCP_CONSOLE_GATEWAY_PORT: '0', ...process.env, ...opts.env, MCP_CONSOLE_USER_DATA: userDataDir }, // the gateway on any free port: hosts run side by side
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let allOutput = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.stderr!.on('data', (d: Buffer) => (allOutput += d.toString()));
  child.stdout!.on('data', (d: Buffer) => (allOutput += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => child.kill('SIGKILL'), 6000);
      await exited;
      clearTimeout(killTimer);
    }
    if (!opts.keepUserData) rmSync(userDataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`the web host printed no URL within ${timeoutMs} ms\n${stderr}`)), timeoutMs);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = RUNNING.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the web host exited (code ${child.exitCode})\n${stderr}`));
      });
    });
    const kill = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    };
    return { url, userDataDir, stop, kill, logs: () => allOutput };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A loopback TCP port free now (for a host that must come back at the same address). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
