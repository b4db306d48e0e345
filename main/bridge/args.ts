/**
 * What the bridge's command line (after `mcp-approval-console bridge`, parsed by app/cli/program.ts)
 * means, as pure functions:
 * - `bridge <name>`: the server `<name>` of the console's mcp-servers.json;
 * - `bridge [--name <id>] -- <command> <args…>`: a stdio server given in full;
 * - `bridge [--name <id>] --url <url> [--sse]`: a Streamable HTTP server (legacy SSE with `--sse`);
 * - with `--console <url>` (and `--token`, or `MCP_CONSOLE_TOKEN`): any of these reviewed on a team server.
 * The bridged server's id in the console (queue, history, rules, limits, roots) is `<name>`, or
 * `--name`, or else derived: from the command line the name people know the server by
 * ({@link nameFromCommand}), from a URL its host name.
 */
import { isIPv4 } from 'node:net';
import path from 'node:path';

/** Which server the bridge runs. */
export type BridgeTarget =
  | { kind: 'named'; name: string }
  | { kind: 'command'; command: string; args: string[] }
  | { kind: 'url'; url: string; sse: boolean };

/** The bridge's command line, understood. */
export interface BridgeArgs {
  target: BridgeTarget;
  /** The server's id in the console. */
  serverId: string;
  /**
   * Ids earlier versions derived for the same command line, when they differ from `serverId`:
   * the console applies rules and limits written under them to this server.
   */
  formerly?: string[];
  /** `--sampling host`: a host that declares sampling answers it itself (no review here); default the console. */
  samplingTo?: 'console' | 'host';
  /** `--console <url>` with its token: a team server reviews instead of the local console. */
  remote?: { url: string; token: string };
}

/** The options and operands of `bridge`, as the parser found them. */
export interface BridgeCommandLine {
  name?: string;
  url?: string;
  sse?: boolean;
  sampling?: 'console' | 'host';
  /** `--console`: a team server's address. */
  console?: string;
  /** `--token`, else the environment's `MCP_CONSOLE_TOKEN`: the token for `--console`. */
  token?: string;
  /** Operands before `--`. */
  operands: readonly string[];
  /** Everything after the first `--` (the server's own command line), when there is a `--`. */
  serverLine?: readonly string[];
  /** Folder relative script paths are resolved against (default: none, they are taken as they are). */
  cwd?: string;
}

/** Programs that run another program named by their first plain argument. */
const RUNNERS = new Set(['node', 'nodejs', 'npx', 'pnpx', 'bunx', 'bun', 'deno', 'uvx', 'uv', 'python', 'python3', 'py', 'pipx', 'npm', 'pnpm', 'yarn', 'tsx', 'ts-node', 'docker', 'podman', 'cmd']);
/** Runners whose program is a package (or image) to fetch, unless it is given as a local path. */
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'npm', 'pnpm', 'yarn', 'docker', 'podman']);
/** Runner subcommands skipped when looking for the program's name. */
const RUNNER_VERBS = new Set(['run', 'exec', 'dlx', 'x', 'tool', 'start', '/c', '/s', '/d']);
/** Runner options followed by a value that is not the program (`uvx --from git+… pkg`, `docker run -e K=V image`). */
const VALUE_OPTIONS = new Set([
  '--from',
  '--with',
  '--with-requirements',
  '--python',
  '--directory',
  '--project',
  '--package',
  '-p',
  '--import',
  '--require',
  '-r',
  '--loader',
  '--env',
  '-e',
  '--env-file',
  '--volume',
  '-v',
  '--name',
  '--workdir',
  '-w',
  '--network',
  '--config',
  '--index-url',
]);
/** File or module names that say nothing about the server: its folder names it instead. */
const GENERIC_NAMES = new Set(['index', 'main', 'server', 'cli', 'app', '__main__', '__init__', 'mcp', 'mcp_server', 'mcp-server', 'start', 'run', 'stdio', 'entry']);
/** Build and source folders skipped when a folder names the server (`weather/dist/index.js` → `weather`). */
const BUILD_FOLDERS = new Set(['dist', 'build', 'lib', 'out', 'src', 'bin', 'esm', 'cjs', 'scripts', 'server', '.', '..']);
/** Folders that hold everyone's things: a folder under them names a person or a system place, not a server. */
const SYSTEM_FOLDERS = new Set(['home', 'users', 'srv', 'opt', 'usr', 'local', 'tmp', 'var', 'root', 'mnt', 'volumes', '~']);

/** `text` reduced to letters, digits, `.`, `_` and `-` (other runs become `-`), at most 64 characters. */
export function tidy(text: string): string {
  return text.replace(/[^\w.-]+/g, '-').replace(/^-+/, '').slice(0, 64) || 'server';
}

/** The last path segment of `text`, without a version (`pkg@1.2`) or a script extension. */
function programName(text: string): string {
  const last = text.split(/[\\/]/).at(-1) ?? text;
  const unversioned = last.includes('@', 1) ? last.slice(0, last.indexOf('@', 1)) : last;
  return unversioned.replace(/\.(?:[cm]?js|ts|py|exe|cmd)$/i, '');
}

/** The runners and their verbs as the bridge knew them before it knew packages and folders. */
const FORMER_RUNNERS = new Set(['node', 'nodejs', 'npx', 'bunx', 'bun', 'deno', 'uvx', 'uv', 'python', 'python3', 'py', 'pipx', 'pnpm', 'yarn', 'tsx', 'docker']);
const FORMER_VERBS = new Set(['run', 'exec', 'dlx', 'x', 'tool']);

/**
 * The name the bridge gave a command line before it knew packages and folders (`node
 * …/server-everything/dist/index.js` → `index`, `python /srv/weather/server.py` → `server`).
 * Kept so rules and limits written under those names still apply ({@link BridgeArgs.formerly}).
 */
export function formerNameFromCommand(command: string, args: readonly string[]): string {
  if (!FORMER_RUNNERS.has(programName(command).toLowerCase())) return tidy(programName(command));
  const target = args.find((a) => !a.startsWith('-') && !FORMER_VERBS.has(a));
  return tidy(programName(target ?? command));
}

/** The runner's program: `python -m <module>`, else its first argument that is not an option, an option's value or a runner verb. */
function runnerTarget(args: readonly string[]): { module: string } | { program: string; cwd?: string } | undefined {
  let cwd: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-m' && args[i + 1]) return { module: args[i + 1]! };
    if (VALUE_OPTIONS.has(arg)) {
      if (arg === '--directory' || arg === '--workdir' || arg === '-w') cwd = args[i + 1];
      i++;
      continue;
    }
    if (arg.startsWith('-') || RUNNER_VERBS.has(arg.toLowerCase())) continue;
    return { program: arg, ...(cwd && { cwd }) };
  }
  return undefined;
}

/** The package a path inside `node_modules` belongs to (`…/node_modules/@scope/pkg/dist/x.js` → `pkg`; a `.bin` link → its own name). */
function packageOfPath(segments: readonly string[]): string | undefined {
  const at = segments.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const first = segments[at + 1];
  if (!first) return undefined;
  if (first === '.bin') return segments[at + 2] && programName(segments[at + 2]!);
  return first.startsWith('@') ? segments[at + 2] : first;
}

/**
 * The name of a script path: its package when under node_modules; its own name unless generic;
 * else the nearest folder that is neither a build folder nor a system or home folder; else its own name.
 */
function scriptName(program: string, cwd: string | undefined): string {
  const full = cwd && !path.isAbsolute(program) && !/^[a-z]:[\\/]/i.test(program) ? `${cwd}/${program}` : program;
  const segments = full.split(/[\\/]+/).filter((s) => s && !/^[a-z]:$/i.test(s));
  const pkg = packageOfPath(segments);
  if (pkg) return pkg;
  const own = programName(program);
  if (!GENERIC_NAMES.has(own.toLowerCase())) return own;
  for (let i = segments.length - 2; i >= 0; i--) {
    const folder = segments[i]!.toLowerCase();
    if (BUILD_FOLDERS.has(folder)) continue;
    const parent = segments[i - 1]?.toLowerCase();
    if (SYSTEM_FOLDERS.has(folder) || parent === 'home' || parent === 'users') break; // a home folder: a person's name
    return segments[i]!;
  }
  return own;
}

/** A package spec's name: `@scope/pkg@1` → `pkg`, `npm:pkg` / `jsr:@s/pkg` → `pkg`, `ghcr.io/org/image:tag` → `image`. */
function packageName(spec: string, runner: string): string {
  const bare = spec.replace(/^(?:npm|jsr|pypi):/i, '');
  const name = programName(bare);
  return runner === 'docker' || runner === 'podman' ? name.replace(/:[^:]*$/, '') : name;
}

/**
 * The server id derived from a command line, the name people know the server by:
 * - a package runner (`npx`, `uvx`, `bunx`, `pnpm dlx`, `pipx run`, `docker run` …): the package
 *   or image (`npx -y @scope/server-x@1` → `server-x`, `uvx mcp-server-fetch` → `mcp-server-fetch`);
 * - `python -m <module>`: the module's first part that is not generic (`weather.server` → `weather`);
 * - a script run by `node`, `python`, `tsx`, `uv run` …: the package it lies in under
 *   `node_modules` (`node …/node_modules/@modelcontextprotocol/server-everything/dist/index.js` →
 *   `server-everything`), else its own name (`weather.py` → `weather`), else, for a name that says
 *   nothing (`index`, `main`, `server` …), the nearest folder that is not a build folder
 *   (`/srv/weather/dist/index.js` → `weather`); relative paths are placed in `cwd` when given;
 * - any other program: its own name.
 */
export function nameFromCommand(command: string, args: readonly string[], cwd?: string): string {
  const runner = programName(command).toLowerCase();
  if (!RUNNERS.has(runner)) return tidy(scriptName(command, cwd));
  const target = runnerTarget(args);
  if (!target) return tidy(programName(command));
  if ('module' in target) {
    const parts = target.module.split('.');
    return tidy(parts.find((p, i) => i === parts.length - 1 || !GENERIC_NAMES.has(p.toLowerCase())) ?? target.module);
  }
  const isPath = PACKAGE_RUNNERS.has(runner) ? /^(?:\.{1,2}[\\/]|[\\/~]|[a-z]:[\\/])/i.test(target.program) : /[\\/]/.test(target.program) || /\.(?:[cm]?js|ts|py)$/i.test(target.program);
  if (!isPath || /^(?:npm|jsr|pypi):/i.test(target.program)) return tidy(packageName(target.program, runner));
  return tidy(scriptName(target.program, target.cwd ?? cwd));
}

/**
 * What `bridge`'s options and operands mean.
 * @throws Error with a one-line message for a server name and a `--` or `--url` together, more
 *   than one server name, nothing after `--`, or a URL that is not http(s)
 */
export function bridgeArgsFrom(line: BridgeCommandLine): BridgeArgs {
  const name = line.name === undefined ? undefined : tidy(line.name);
  const remote = remoteOf(line);
  const withOptions = (parsed: BridgeArgs): BridgeArgs => ({ ...parsed, ...(line.sampling && { samplingTo: line.sampling }), ...(remote && { remote }) });
  if (line.serverLine) {
    const [command, ...args] = line.serverLine;
    if (!command) throw new Error('nothing after --: give the server\'s command line, e.g. "bridge -- npx -y @modelcontextprotocol/server-everything"');
    if (line.url || line.operands.length > 0) throw new Error('-- cannot follow --url or a server name');
    if (name) return withOptions({ target: { kind: 'command', command, args }, serverId: name });
    const serverId = nameFromCommand(command, args, line.cwd);
    const former = formerNameFromCommand(command, args);
    return withOptions({ target: { kind: 'command', command, args }, serverId, ...(former !== serverId && { formerly: [former] }) });
  }
  if (line.url) return withOptions({ target: urlTarget(line.url, line.sse ?? false, line.operands), serverId: name ?? tidy(new URL(line.url).hostname) });
  if (line.sse) throw new Error('--sse goes with --url');
  if (line.operands.length !== 1) throw new Error(line.operands.length === 0 ? 'name a server of mcp-servers.json, or give --url or -- <command>' : `one server name expected, got ${line.operands.length}`);
  return withOptions({ target: { kind: 'named', name: line.operands[0]! }, serverId: name ?? line.operands[0]! });
}

/** Host names that are this machine (a token may go there over plain http). */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `--console <url>` and its token, checked: an http(s) address, https unless it is this machine
 * (the token would cross the network in the clear), and a token.
 * @throws Error with a one-line message for a bad address, plain http to another machine, a
 *   token without `--console`, or `--console` without a token
 */
function remoteOf(line: BridgeCommandLine): BridgeArgs['remote'] {
  if (line.console === undefined) {
    if (line.token !== undefined) throw new Error('--token goes with --console');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(line.console);
  } catch {
    throw new Error(`invalid --console address ${JSON.stringify(line.console)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`--console must be an https address: ${JSON.stringify(line.console)}`);
  if (url.protocol === 'http:' && !LOOPBACK_NAMES.has(url.hostname) && !(isIPv4(url.hostname) && url.hostname.startsWith('127.'))) {
    throw new Error(`--console must be https to reach another machine (the token would cross the network in the clear): ${JSON.stringify(line.console)}`);
  }
  const token = line.token?.trim();
  if (!token) throw new Error('--console needs a token: --token <token>, or MCP_CONSOLE_TOKEN in the environment (a gateway token made on the team server)');
  return { url: url.origin, token };
}

/** The `--url` target, checked. */
function urlTarget(url: string, sse: boolean, operands: readonly string[]): BridgeTarget {
  if (operands.length > 0) throw new Error('--url takes no server name');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`invalid URL ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`the URL must be http or https: ${JSON.stringify(url)}`);
  return { kind: 'url', url, sse };
}
