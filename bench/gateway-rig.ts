/**
 * What the gateway scenario runs, each in its own process: the loopback OpenAI-compatible fake
 * (sampling-rig.ts), the console as `npm start` runs it (the prebuilt web host, out/web/cli.js,
 * built first when missing or older than app/, main/ or shared/) with an `approve_all` rule for a
 * named gateway token, and Portkey's open-source gateway (`@portkey-ai/gateway`, its own
 * `build/start-server.js`) — both pointed at the same fake. Also the CPU time of a process by id.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import type { ConsoleApi } from '../shared/contract/api.js';
import { createWsClient } from '../renderer/api/ws-client.js';
import { providersFile } from './sampling-rig.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const RUNNING = /MCP Approval Console is running at (http:\/\/127\.0\.0\.1:\d+\/\S*)/;

/** The server id of the bench's named gateway token (`gateway:<name>`). */
export const BENCH_TOKEN_NAME = 'bench';

/** Newest modification time (ms) of the files under `dir`, skipping node_modules and dotfiles. */
function newestMtime(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * Builds out/web (the web host `npm start` runs) when it is missing or older than any source, as
 * scripts/start.mjs does. @throws Error when the build fails
 */
export function ensureWebBundle(): string {
  const built = path.join(ROOT, 'out/web/cli.js');
  const sources = Math.max(...['app', 'main', 'shared'].map((d) => newestMtime(path.join(ROOT, d))));
  if (existsSync(built) && existsSync(path.join(ROOT, 'out/web/offload-worker.js')) && statSync(built).mtimeMs >= sources) return built;
  console.log('  building the web host (out/web/cli.js) …');
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'app/web/vite.config.ts'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`web host build failed (exit ${r.status ?? r.signal})`);
  return built;
}

/** A child process the rig started, and how to stop it. */
interface Child {
  child: ChildProcess;
  /** Everything it printed, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Spawns Node with `args` and `env` added; stop = SIGTERM, then SIGKILL after 6 s. */
function spawnChild(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 6_000);
      await exited;
      clearTimeout(kill);
    },
  };
}

/** Resolves with the first match of `pattern` in what `c` prints. @throws Error when it exits or prints none within `timeoutMs` */
function waitForLine(c: Child, pattern: RegExp, what: string, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`${what} printed nothing matching ${pattern} in ${timeoutMs} ms\n${c.output()}`)), timeoutMs);
    const check = () => {
      const m = pattern.exec(c.output());
      if (m) done(undefined, m);
    };
    const onExit = () => done(new Error(`${what} exited (${c.child.exitCode ?? c.child.signalCode})\n${c.output()}`));
    function done(err?: Error, m?: RegExpExecArray) {
      clearTimeout(timer);
      c.child.stdout!.off('data', check);
      c.child.stderr!.off('data', check);
      c.child.off('exit', onExit);
      if (err) reject(err);
      else resolve(m!);
    }
    c.child.stdout!.on('data', check);
    c.child.stderr!.on('data', check);
    c.child.once('exit', onExit);
    check();
  });
}

/** A gateway under test: its OpenAI base URL, the API key and headers its callers send, its process. */
export interface GatewayUnderTest {
  /** The OpenAI SDK's `baseURL`. */
  baseURL: string;
  apiKey: string;
  headers?: Record<string, string>;
  pid: number;
  stop(): Promise<void>;
}

/** The console under test, with its API (a window: a socket subscribed to its state events). */
export interface ConsoleUnderTest extends GatewayUnderTest {
  api: ConsoleApi;
}

const HIGH_LIMITS = { requestsPerMinute: 100_000, maxWaiting: 100_000 };

/**
 * Starts the prebuilt web host over a fresh data folder whose only provider is `fakeBaseURL`, no
 * MCP servers, and an `approve_all` rule for the named token {@link BENCH_TOKEN_NAME} (limits
 * raised); creates that token through the API and connects a window. History is on (the default).
 * The page's static folder is an empty stand-in (the gateway needs no renderer build).
 * @throws Error when the host does not start or its gateway does not listen
 */
export async function startConsoleProcess(fakeBaseURL: string, opts: { env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<ConsoleUnderTest> {
  const entry = ensureWebBundle();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-bench-gateway-'));
  const staticDir = path.join(dir, 'static');
  const userData = path.join(dir, 'data');
  for (const d of [staticDir, userData]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>bench</title>');
  writeFileSync(path.join(userData, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
  writeFileSync(path.join(userData, 'providers.json'), providersFile(fakeBaseURL));
  const serverId = `gateway:${BENCH_TOKEN_NAME}`;
  const rules = { version: 1, global: HIGH_LIMITS, servers: { [serverId]: { limits: HIGH_LIMITS, rules: [{ id: 'all', name: 'Bench: send unattended', action: { kind: 'approve_all' } }] } } };
  writeFileSync(path.join(userData, 'rules.json'), JSON.stringify(rules));
  const host = spawnChild([...(opts.nodeArgs ?? []), entry, '--port', '0'], { MCP_CONSOLE_USER_DATA: userData, MCP_CONSOLE_STATIC_DIR: staticDir, MCP_CONSOLE_GATEWAY_PORT: '0', ...opts.env });
  let client: ReturnType<typeof createWsClient> | undefined;
  const stop = async () => {
    client?.close();
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const page = new URL((await waitForLine(host, RUNNING, 'the web host', 60_000))[1]!);
    client = createWsClient({
      url: `ws://${page.host}/api?token=${encodeURIComponent(page.searchParams.get('token') ?? '')}`,
      createSocket: (u) => new WebSocket(u, { origin: page.origin, maxPayload: 1024 * 2 ** 20 }) as never,
    });
    const { token } = await client.api.createGatewayToken({ name: BENCH_TOKEN_NAME });
    const state = await client.api.getState({});
    if (state.policy?.problems?.length) throw new Error(`the console refused the bench's rules: ${state.policy.problems.join('; ')}`);
    const url = state.gateway?.url;
    if (!url) throw new Error(`the console's gateway is not listening\n${host.output()}`);
    return { baseURL: `${url}/openai/v1`, apiKey: token, pid: host.child.pid!, api: client.api, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A free loopback port (bound and released; Portkey takes a fixed `--port=`). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Portkey's package version, for the figures' notes. */
export function portkeyVersion(): string {
  return (JSON.parse(readFileSync(require.resolve('@portkey-ai/gateway/package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Starts Portkey's open-source gateway (`node build/start-server.js --port=N --headless`, its
 * documented Node start) and points its callers at `fakeBaseURL` the way its docs say for an
 * OpenAI-compatible host: `x-portkey-provider: openai` and `x-portkey-custom-host`.
 * @throws Error when it does not start within 60 s
 */
export async function startPortkey(fakeBaseURL: string): Promise<GatewayUnderTest> {
  const script = path.join(path.dirname(require.resolve('@portkey-ai/gateway/package.json')), 'build/start-server.js');
  const port = await freePort();
  const child = spawnChild([script, `--port=${port}`, '--headless'], { NODE_ENV: 'production' });
  try {
    await waitForLine(child, /Ready for connections/, 'Portkey', 60_000);
  } catch (err) {
    await child.stop();
    throw err;
  }
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    apiKey: 'k',
    headers: { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': fakeBaseURL },
    pid: child.child.pid!,
    stop: () => child.stop(),
  };
}

const TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/**
 * CPU time (user + system, ms) process `pid` has used so far, its threads included: from
 * /proc/<pid>/stat on Linux (clock-tick resolution), else `ps -o time=` (second resolution).
 */
export function processCpuMs(pid: number): number {
  if (process.platform === 'linux') {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S; // utime, stime (fields 14, 15)
  }
  const out = spawnSync('ps', ['-o', 'time=', '-p', String(pid)]).stdout.toString().trim();
  return out.split(/[:.-]/).map(Number).reduce((acc, n) => acc * 60 + n, 0) * 1000;
}
