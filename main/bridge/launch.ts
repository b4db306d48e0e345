/**
 * Starting the console headless for a bridge that found nobody listening: the web host runs
 * detached (it outlives the bridge and serves later bridges and the person's browser), its output
 * goes to an owner-only log in the user-data folder, and the bridge waits until the console
 * listens on the channel's socket — or reports why it could not start.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { bridgeSocketPath } from './paths.js';

/** File in the user-data folder that receives the headless console's stdout and stderr. */
export const HEADLESS_LOG_FILE = 'console-headless.log';
/** How long the console may take to listen, in ms. */
export const LAUNCH_TIMEOUT_MS = 30_000;
/** File in the user-data folder that one launching bridge holds while the console starts. */
export const LAUNCH_LOCK_FILE = 'console-launch.lock';
/** How often the socket is tried while waiting, in ms. */
const POLL_MS = 150;

/** How to start the console: a program, its arguments, its folder, extra environment. */
export interface LaunchSpec {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/** Whether something accepts connections on the socket (or pipe) at `socketPath`. */
export function canConnect(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Starts the console headless on `userDataDir` (passed as `MCP_CONSOLE_USER_DATA`) and waits
 * until it listens for bridges.
 * Only one bridge at a time starts it (the launch lock); the others wait for it to listen.
 * @returns the started console's process id (undefined when another bridge started it)
 * @throws Error naming why: the program could not be run, it exited (with the last line of its
 *   log, e.g. "the renderer is not built …"), or it did not listen within `timeoutMs`
 */
export async function launchHeadlessConsole(spec: LaunchSpec, userDataDir: string, timeoutMs = LAUNCH_TIMEOUT_MS): Promise<number | undefined> {
  mkdirSync(userDataDir, { recursive: true });
  // A host starts all its servers at once: one bridge starts the console, the others wait for it.
  const lock = path.join(userDataDir, LAUNCH_LOCK_FILE);
  if (!takeLaunchLock(lock, timeoutMs)) {
    if (await listensWithin(bridgeSocketPath(userDataDir), timeoutMs)) return undefined;
    throw new Error(`another bridge was starting the console, and it did not listen within ${Math.round(timeoutMs / 1000)} s (see ${path.join(userDataDir, HEADLESS_LOG_FILE)})`);
  }
  try {
    return await spawnAndWait(spec, userDataDir, timeoutMs);
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Starts the console and waits until it listens (see {@link launchHeadlessConsole}). */
async function spawnAndWait(spec: LaunchSpec, userDataDir: string, timeoutMs: number): Promise<number | undefined> {
  const logPath = path.join(userDataDir, HEADLESS_LOG_FILE);
  const fd = openSync(logPath, 'a', 0o600);
  const logStart = statSync(logPath).size;
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, ...spec.env, MCP_CONSOLE_USER_DATA: userDataDir },
    windowsHide: true,
  });
  closeSync(fd);
  const socketPath = bridgeSocketPath(userDataDir);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(`it could not be run (${err.message})`));
    child.once('exit', (code, signal) => resolve(`it exited (${code ?? signal}): ${lastLine(logPath, logStart)}`));
  });
  const until = Date.now() + timeoutMs;
  let outcome: string | undefined;
  void exited.then((why) => (outcome = why));
  while (outcome === undefined) {
    if (await canConnect(socketPath)) {
      child.unref();
      return child.pid;
    }
    if (Date.now() > until) {
      child.unref();
      throw new Error(`the console was started but did not listen within ${Math.round(timeoutMs / 1000)} s (see ${logPath})`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`the console could not be started: ${outcome}`);
}

/**
 * Takes the launch lock (an owner-only file created exclusively): true when this bridge may start
 * the console. A lock older than `staleMs` (its bridge died while launching) is replaced.
 */
export function takeLaunchLock(lock: string, staleMs: number): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const since = lockAge(lock);
      if (since === undefined) continue; // removed meanwhile: try again
      if (since <= staleMs) return false;
      rmSync(lock, { force: true });
    }
  }
  return false;
}

/** How long ago the lock was taken, in ms; undefined when it is gone. */
function lockAge(lock: string): number | undefined {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether something listens on `socketPath` within `timeoutMs`. */
async function listensWithin(socketPath: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() <= until) {
    if (await canConnect(socketPath)) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}

/** The last non-empty line the launched console wrote to its log (after `from` bytes), trimmed to 500 characters. */
function lastLine(logPath: string, from: number): string {
  try {
    const text = readFileSync(logPath).subarray(from).toString('utf8');
    const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
    return (lines.at(-1) ?? 'no output').slice(0, 500);
  } catch {
    return 'no output';
  }
}
