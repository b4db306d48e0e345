/**
 * The bridge's command line (after `mcp-approval-console bridge`), as pure functions:
 * - `bridge <name>`: the server `<name>` of the console's mcp-servers.json;
 * - `bridge [--name <id>] -- <command> <args…>`: a stdio server given in full;
 * - `bridge [--name <id>] --url <url> [--sse]`: a Streamable HTTP server (legacy SSE with `--sse`).
 * The bridged server's id in the console (queue, history, rules, limits, roots) is `<name>`, or
 * `--name`, or else derived: from the command line the package or script name
 * ({@link nameFromCommand}), from a URL its host name.
 */

/** Which server the bridge runs. */
export type BridgeTarget =
  | { kind: 'named'; name: string }
  | { kind: 'command'; command: string; args: string[] }
  | { kind: 'url'; url: string; sse: boolean };

/** The parsed command line. */
export interface BridgeArgs {
  target: BridgeTarget;
  /** The server's id in the console. */
  serverId: string;
  /** `--sampling host`: a host that declares sampling answers it itself (no review here); default the console. */
  samplingTo?: 'console' | 'host';
}

/** Usage text of the bridge command. */
export const BRIDGE_USAGE =
  'usage: mcp-approval-console bridge [--sampling console|host] <name> | bridge [--name <id>] [--sampling console|host] -- <command> [args…] | bridge [--name <id>] [--sampling console|host] --url <url> [--sse]';

/** Programs that run another program named by their first plain argument. */
const RUNNERS = new Set(['node', 'nodejs', 'npx', 'bunx', 'bun', 'deno', 'uvx', 'uv', 'python', 'python3', 'py', 'pipx', 'pnpm', 'yarn', 'tsx', 'docker']);
/** Runner subcommands skipped when looking for the program's name. */
const RUNNER_VERBS = new Set(['run', 'exec', 'dlx', 'x', 'tool']);

/** `text` reduced to letters, digits, `.`, `_` and `-` (other runs become `-`), at most 64 characters. */
function tidy(text: string): string {
  return text.replace(/[^\w.-]+/g, '-').replace(/^-+/, '').slice(0, 64) || 'server';
}

/** The last path segment of `text`, without a version (`pkg@1.2`) or a script extension. */
function programName(text: string): string {
  const last = text.split(/[\\/]/).at(-1) ?? text;
  const unversioned = last.includes('@', 1) ? last.slice(0, last.indexOf('@', 1)) : last;
  return unversioned.replace(/\.(?:[cm]?js|ts|py|exe|cmd)$/i, '');
}

/**
 * The server id derived from a command line: for a runner (`npx`, `uvx`, `node`, `python` …) the
 * first argument that is neither an option nor a runner verb (`npx -y @scope/server-x@1` →
 * `server-x`, `node dist/index.js` → `index`); else the command's own name.
 */
export function nameFromCommand(command: string, args: readonly string[]): string {
  const own = programName(command).toLowerCase();
  if (!RUNNERS.has(own)) return tidy(programName(command));
  const target = args.find((a) => !a.startsWith('-') && !RUNNER_VERBS.has(a));
  return tidy(programName(target ?? command));
}

/**
 * Parses the arguments after `bridge`.
 * @throws Error with a one-line message (and the usage) for a missing or extra argument, an
 *   option without its value, or a URL that is not http(s)
 */
export function parseBridgeArgs(argv: readonly string[]): BridgeArgs {
  let name: string | undefined;
  let url: string | undefined;
  let sse = false;
  let samplingTo: BridgeArgs['samplingTo'];
  const plain: string[] = [];
  const withOptions = (parsed: BridgeArgs): BridgeArgs => (samplingTo ? { ...parsed, samplingTo } : parsed);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      const [command, ...args] = argv.slice(i + 1);
      if (!command) throw new Error(`nothing after --: ${BRIDGE_USAGE}`);
      if (url || plain.length > 0) throw new Error(`-- cannot follow --url or a server name: ${BRIDGE_USAGE}`);
      return withOptions({ target: { kind: 'command', command, args }, serverId: name ?? nameFromCommand(command, args) });
    }
    if (arg === '--name' || arg === '--url' || arg === '--sampling') {
      const value = argv[++i];
      if (!value) throw new Error(`${arg} needs a value: ${BRIDGE_USAGE}`);
      if (arg === '--name') name = tidy(value);
      else if (arg === '--url') url = value;
      else if (value === 'console' || value === 'host') samplingTo = value;
      else throw new Error(`--sampling is console or host, not ${JSON.stringify(value)}: ${BRIDGE_USAGE}`);
    } else if (arg === '--sse') sse = true;
    else if (arg.startsWith('-')) throw new Error(`unknown option ${JSON.stringify(arg)}: ${BRIDGE_USAGE}`);
    else plain.push(arg);
  }
  if (url) return withOptions({ target: urlTarget(url, sse, plain), serverId: name ?? tidy(new URL(url).hostname) });
  if (plain.length !== 1) throw new Error(plain.length === 0 ? BRIDGE_USAGE : `one server name expected, got ${plain.length}: ${BRIDGE_USAGE}`);
  return withOptions({ target: { kind: 'named', name: plain[0]! }, serverId: name ?? plain[0]! });
}

/** The `--url` target, checked. */
function urlTarget(url: string, sse: boolean, plain: string[]): BridgeTarget {
  if (plain.length > 0) throw new Error(`--url takes no server name: ${BRIDGE_USAGE}`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`invalid URL ${JSON.stringify(url)}: ${BRIDGE_USAGE}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`the URL must be http or https: ${JSON.stringify(url)}`);
  return { kind: 'url', url, sse };
}
