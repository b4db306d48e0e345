// `npm start [-- --web] [-- --port N]` / `npm run start:web [-- --port N]`; `-- --help` says so.
// Options are parsed with Node's util.parseArgs: an unknown one is a usage error (stderr, exit 2).
//
// 1. Builds the renderer (`vite build --config renderer/vite.config.ts` → out/renderer) when
//    out/renderer/index.html is missing or older than any file under renderer/ or shared/.
// 2. Without `--web`, and when the Electron binary is installed: `electron-vite build`, then runs
//    Electron on the app. The binary check reads node_modules/electron/path.txt and the file it
//    names instead of requiring the electron package, because that tries to *download* the binary
//    when it is missing.
// 3. Otherwise prints one line saying so and runs the web host from its prebuilt bundle
//    (`node out/web/cli.js`, built by `vite build --ssr app/web/cli.ts` when missing or older than
//    any file under app/, main/ or shared/ — the tsx loader cost seconds of every start), with
//    stdio inherited and SIGINT/SIGTERM forwarded (and SIGTERM sent when this wrapper's parent,
//    e.g. npm, goes away without passing a signal on); exits with the child's code.
// `--port N` is passed to the web host (the desktop app has no port).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

const USAGE = `Usage: npm start [-- options]      (npm run start:web [-- options] = npm start -- --web)

Builds what is stale (the renderer; the desktop app, or the browser host), then runs MCP Approval
Console: the desktop app when Electron is installed, else the browser host, which prints its
address (with its token).

Options:
  --web        run the browser host even when Electron is installed
  --port <n>   the browser host's port on 127.0.0.1 (default: MCP_CONSOLE_PORT, else any free port)
  -h, --help   show this help

The command line for a running console: npx mcp-approval-console --help (status, open, stop, doctor, bridge).`;

/** The options, or exit 2 with the problem on stderr. */
function options() {
  try {
    return parseArgs({ args: process.argv.slice(2), options: { web: { type: 'boolean' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (err) {
    console.error(`error: ${err.message.split('\n')[0]}\n(see npm start -- --help)`);
    process.exit(2);
  }
}

const opts = options();
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const webOnly = opts.web === true;
const passArgs = opts.port === undefined ? [] : ['--port', opts.port];

/** Newest modification time (ms) of the files under `dir`, skipping node_modules and dotfiles. */
function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether out/web/cli.js is missing or older than any source of the web host. */
function webBundleIsStale() {
  const built = path.join(root, 'out/web/cli.js');
  if (!existsSync(built) || !existsSync(path.join(root, 'out/web/offload-worker.js'))) return true;
  const sources = Math.max(...['app', 'main', 'shared'].map((d) => newestMtime(path.join(root, d))));
  return statSync(built).mtimeMs < sources;
}

function rendererIsStale() {
  const built = path.join(root, 'out/renderer/index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(newestMtime(path.join(root, 'renderer')), newestMtime(path.join(root, 'shared')));
  return statSync(built).mtimeMs < sources;
}

/** Runs a Node script of a dependency synchronously; exits on failure. */
function runNode(scriptPath, scriptArgs, what) {
  const result = spawnSync(process.execPath, [scriptPath, ...scriptArgs], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${what} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

/** The Electron executable if it is installed, else null (never downloads). */
function electronBinary() {
  try {
    const dir = path.dirname(require.resolve('electron/package.json'));
    const pathFile = path.join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const rel = readFileSync(pathFile, 'utf8').trim();
    const base = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(dir, 'dist');
    const exe = path.join(base, rel);
    return rel && existsSync(exe) ? exe : null;
  } catch {
    return null;
  }
}

/**
 * Runs `command` with inherited stdio, forwards SIGINT/SIGTERM (SIGHUP as SIGTERM), exits with its
 * code. When this wrapper's parent goes away — `npm` got SIGTERM and exits without passing it on,
 * leaving this process to init — the child is stopped as if this process got SIGTERM.
 */
function runForeground(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  const stop = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
  process.on('SIGHUP', () => stop('SIGTERM'));
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(orphaned);
      stop('SIGTERM');
    }
  }, 200);
  child.on('exit', () => clearInterval(orphaned));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  child.on('error', (err) => {
    console.error(`could not start ${command}: ${err.message}`);
    process.exit(1);
  });
}

if (rendererIsStale()) {
  console.log('Building the renderer (out/renderer)…');
  runNode(path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'), ['build', '--config', 'renderer/vite.config.ts'], 'vite build');
}

const electron = webOnly ? null : electronBinary();
if (electron) {
  runNode(path.join(path.dirname(require.resolve('electron-vite/package.json')), 'bin/electron-vite.js'), ['build'], 'electron-vite build');
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  if (opts.port !== undefined) console.log('--port applies to the browser host (npm start -- --web); the desktop app has no port.');
  runForeground(electron, ['.'], env);
} else {
  if (!webOnly) console.log('The Electron binary is not installed, so the console runs in the browser host.');
  if (webBundleIsStale()) {
    console.log('Building the web host (out/web/cli.js)…');
    runNode(path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'), ['build', '--config', 'app/web/vite.config.ts'], 'web host build');
  }
  runForeground(process.execPath, ['out/web/cli.js', ...passArgs]);
}
