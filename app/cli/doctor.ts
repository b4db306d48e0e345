/**
 * `mcp-approval-console doctor`: checks what the console needs on this machine, each with what to
 * do about a problem — the Node.js version, the renderer built, the data folder writable, the
 * provider gateway's port free, the secret store readable (and, on Linux, the keyring the desktop
 * app uses), and whether a console runs. Reads and probes only: the one thing written is a
 * scratch file in the data folder, removed at once.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { askConsole } from '../../main/bridge/control.js';
import { GATEWAY_FILE } from '../../main/gateway/tokens.js';
import { configuredGatewayPort } from '../../main/host-config/route-cli.js';
import { createFileSecretStore, SECRETS_FILE } from '../../main/secrets/file-store.js';
import type { ConsoleCommandContext } from './console-commands.js';
import { EXIT } from './exit-codes.js';

/** What `doctor` runs with besides the console commands' context. */
export interface DoctorContext extends ConsoleCommandContext {
  /** The installation's folder (package.json, out/renderer). */
  installRoot: string;
  /** The Node.js version running the command (`process.versions.node`). */
  nodeVersion: string;
}

/** One check's outcome: `fail` makes `doctor` exit 1, `warn` does not. */
export interface DoctorCheck {
  id: 'node' | 'renderer' | 'data_folder' | 'gateway_port' | 'secrets' | 'keychain' | 'console';
  status: 'ok' | 'warn' | 'fail';
  /** What was found, one line. */
  summary: string;
  /** What to do about it (warn and fail). */
  fix?: string;
}

/** `[major, minor]` of a version like `22.12.0` or a range like `>=22.12`. */
function majorMinor(text: string): [number, number] {
  const m = /(\d+)(?:\.(\d+))?/.exec(text);
  return [Number(m?.[1] ?? 0), Number(m?.[2] ?? 0)];
}

/** The Node.js version against package.json's `engines.node` (a `>=major.minor` range). */
function checkNode(ctx: DoctorContext): DoctorCheck {
  let range = '>=22.12';
  try {
    range = (JSON.parse(readFileSync(path.join(ctx.installRoot, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node ?? range;
  } catch {
    // no package.json beside the install: the default range
  }
  const [haveMajor, haveMinor] = majorMinor(ctx.nodeVersion);
  const [needMajor, needMinor] = majorMinor(range);
  const ok = haveMajor > needMajor || (haveMajor === needMajor && haveMinor >= needMinor);
  return ok
    ? { id: 'node', status: 'ok', summary: `Node.js ${ctx.nodeVersion} (needs ${range})` }
    : {
        id: 'node',
        status: 'fail',
        summary: `Node.js ${ctx.nodeVersion} is too old (needs ${range})`,
        fix: `install Node.js ${range.replace(/^>=/, '')} or newer (https://nodejs.org/) and run mcp-approval-console with it (\`npm start\` and \`npx mcp-approval-console\` in this folder use the project's own)`,
      };
}

/** Whether out/renderer/index.html is there; when not, whether the console can build it at its start (vite installed). */
function checkRenderer(ctx: DoctorContext): DoctorCheck {
  const index = path.join(ctx.installRoot, 'out/renderer/index.html');
  if (existsSync(index)) return { id: 'renderer', status: 'ok', summary: `renderer built (${path.dirname(index)})` };
  let canBuild = false;
  try {
    createRequire(path.join(ctx.installRoot, 'package.json')).resolve('vite/package.json');
    canBuild = true;
  } catch {
    // vite is a dev dependency: absent after `npm install --omit=dev`
  }
  return canBuild
    ? { id: 'renderer', status: 'warn', summary: 'the renderer is not built yet', fix: 'nothing to do: the console builds it when it first starts (a few seconds); or run `npm run build` now' }
    : { id: 'renderer', status: 'fail', summary: 'the renderer is not built, and the tools to build it are not installed', fix: 'run `npm install` (with dev dependencies), then `npm run build`' };
}

/** Whether the data folder can be created and written (a scratch file, removed at once). */
function checkDataFolder(ctx: DoctorContext): DoctorCheck {
  const dir = ctx.userDataDir;
  const scratch = path.join(dir, `.doctor-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(scratch, 'doctor\n', { mode: 0o600 });
    rmSync(scratch, { force: true });
    return { id: 'data_folder', status: 'ok', summary: `data folder writable (${dir})` };
  } catch (err) {
    return {
      id: 'data_folder',
      status: 'fail',
      summary: `cannot write the data folder ${dir}: ${(err as Error).message}`,
      fix: 'make the folder yours and writable (e.g. `chown -R "$USER"` it), or use another one with MCP_CONSOLE_USER_DATA or --data-dir',
    };
  }
}

/** Whether something can listen on 127.0.0.1:`port` now: undefined when it can, else the error's code. */
function portProblem(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(undefined)));
  });
}

/** Whether the gateway's configured port is free (or used by the console that runs on this folder). */
async function checkGatewayPort(ctx: DoctorContext, runningGateway: string | undefined): Promise<DoctorCheck> {
  const port = configuredGatewayPort(ctx.userDataDir, ctx.env);
  if (port === 0) return { id: 'gateway_port', status: 'ok', summary: 'gateway port: any free port (port 0)' };
  if (runningGateway === `http://127.0.0.1:${port}`) return { id: 'gateway_port', status: 'ok', summary: `gateway port ${port} is in use by the running console` };
  const problem = await portProblem(port);
  if (!problem) return { id: 'gateway_port', status: 'ok', summary: `gateway port ${port} is free` };
  const where = path.join(ctx.userDataDir, GATEWAY_FILE);
  return {
    id: 'gateway_port',
    status: 'fail',
    summary: problem === 'EADDRINUSE' ? `gateway port ${port} is taken by another program` : `cannot listen on gateway port ${port} (${problem})`,
    fix: `stop the program that uses it, or set another "port" in ${where} (0: any free port) or MCP_CONSOLE_GATEWAY_PORT`,
  };
}

/** Whether the browser host's secret store opens and decrypts a stored key (the key file, or MCP_CONSOLE_SECRET_PASSPHRASE). */
async function checkSecrets(ctx: DoctorContext): Promise<DoctorCheck> {
  const dir = ctx.userDataDir;
  const file = path.join(dir, SECRETS_FILE);
  try {
    const passphrase = ctx.env.MCP_CONSOLE_SECRET_PASSPHRASE || undefined;
    const store = createFileSecretStore({ dir, ...(passphrase && { passphrase }) });
    if (!existsSync(file)) return { id: 'secrets', status: 'ok', summary: 'secret store: no API keys stored yet' };
    const names = Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { entries?: Record<string, unknown> }).entries ?? {});
    if (names.length > 0) await store.get(names[0]!);
    return { id: 'secrets', status: 'ok', summary: `secret store readable (${names.length} ${names.length === 1 ? 'key' : 'keys'} in ${file})` };
  } catch (err) {
    return {
      id: 'secrets',
      status: 'fail',
      summary: `secret store: ${(err as Error).message}`,
      fix: `set MCP_CONSOLE_SECRET_PASSPHRASE to the passphrase the keys were stored with; or move ${file} away and enter the API keys again on the Providers screen`,
    };
  }
}

/** Linux: whether the desktop app can reach a keyring (libsecret or KWallet over a D-Bus session); elsewhere the OS keychain is always there. */
function checkKeychain(ctx: DoctorContext): DoctorCheck | undefined {
  if (ctx.platform !== 'linux') return undefined;
  if (ctx.env.DBUS_SESSION_BUS_ADDRESS) return { id: 'keychain', status: 'ok', summary: "keyring: a D-Bus session is there for the desktop app's OS keychain" };
  return {
    id: 'keychain',
    status: 'warn',
    summary: 'keyring: no D-Bus session, so the desktop app would keep API keys with a fixed key (basic_text)',
    fix: 'run the desktop app in a desktop session with GNOME Keyring or KWallet; the browser host (`npm start` without Electron) uses its own encrypted file',
  };
}

/** Runs every check; `console` first (the gateway check needs to know the console's port). */
export async function runDoctorChecks(ctx: DoctorContext): Promise<DoctorCheck[]> {
  let consoleCheck: DoctorCheck;
  let gateway: string | undefined;
  try {
    const status = await askConsole(ctx.userDataDir, 'status', { platform: ctx.platform });
    gateway = status.gateway;
    consoleCheck = { id: 'console', status: 'ok', summary: `a console is running on the data folder (pid ${status.pid})` };
  } catch {
    consoleCheck = { id: 'console', status: 'ok', summary: 'no console is running on the data folder' };
  }
  const keychain = checkKeychain(ctx);
  return [checkNode(ctx), checkRenderer(ctx), checkDataFolder(ctx), await checkGatewayPort(ctx, gateway), await checkSecrets(ctx), ...(keychain ? [keychain] : []), consoleCheck];
}

/**
 * `doctor`: prints each check (with what to do about a problem).
 * @returns 0 when no check failed (warnings allowed), 1 otherwise
 */
export async function doctorCommand(ctx: DoctorContext, opts: { json: boolean }): Promise<number> {
  const checks = await runDoctorChecks(ctx);
  if (opts.json) ctx.out(`${JSON.stringify({ dataDir: ctx.userDataDir, checks }, null, 2)}\n`);
  else {
    const mark = { ok: '[ok]  ', warn: '[warn]', fail: '[FAIL]' } as const;
    for (const c of checks) ctx.out(`${mark[c.status]} ${c.summary}\n${c.fix ? `       → ${c.fix}\n` : ''}`);
  }
  return checks.some((c) => c.status === 'fail') ? EXIT.failure : EXIT.ok;
}
