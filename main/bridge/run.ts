/**
 * Runs one bridge: finds the real server's config (the console's mcp-servers.json for a named
 * server, or the command line), opens the client transport to it (stdio, Streamable HTTP or
 * legacy SSE, as the console's own connections do), links to the console, and proxies between the
 * host's stdio and the server until either side closes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/client';
import { isStdio, parseServersConfig, SERVERS_CONFIG_FILE, type ServerConfig } from '../config.js';
import { ServerLog } from '../mcp/protocol-log.js';
import { buildTransport } from '../mcp/transport.js';
import type { Logger } from '../ports.js';
import type { BridgeTarget } from './args.js';
import { bridgeAuthProvider, type BridgeAuthProvider } from './auth.js';
import { startActivityReports } from './activity.js';
import { createConsoleLink, type RemoteConsole } from './console-link.js';
import { headersFromEnv } from './headers.js';
import { createHostStdioTransport } from './host-stdio.js';
import { startBridgeProxy, type BridgeProxy } from './proxy.js';

/** What a bridge runs with. */
export interface RunBridgeOptions {
  /** The console's user-data folder (its mcp-servers.json, the channel's socket and token). */
  userDataDir: string;
  target: BridgeTarget;
  /** The server's id in the console. */
  serverId: string;
  /** Ids earlier versions derived for the same server (their rules and limits apply to it). */
  formerly?: string[];
  logger: Logger;
  /** Starts the console headless when nobody listens (absent: never started). */
  launch?(): Promise<void>;
  /** Toward the host; default the process's stdin/stdout. */
  host?: Transport;
  /** Environment the server inherits (default the bridge's own: a host passes the server's env to it). */
  env?: NodeJS.ProcessEnv;
  /** Who answers sampling: the console (default), or a host that declares it (`--sampling host`). */
  samplingTo?: 'console' | 'host';
  /** A team server to ask instead of the local console (`--console <url> --token …`); nothing is launched then. */
  remote?: RemoteConsole;
}

/**
 * The server's config for `target` (an HTTP server with the headers of {@link BRIDGE_HEADERS_ENV} in `env`).
 * @throws Error when mcp-servers.json cannot be read or parsed, or has no entry `name`; when the headers variable is malformed
 */
export function serverConfigFor(target: BridgeTarget, userDataDir: string, env: NodeJS.ProcessEnv = {}): ServerConfig {
  if (target.kind === 'command') return { command: target.command, args: target.args };
  if (target.kind === 'url') {
    const headers = headersFromEnv(env);
    return { url: target.url, ...(target.sse && { type: 'sse' as const }), ...(headers && { headers }) };
  }
  const file = path.join(userDataDir, SERVERS_CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  const { servers, problems } = parseServersConfig(text, SERVERS_CONFIG_FILE);
  const config = servers[target.name];
  if (config) return config;
  throw new Error(`no server "${target.name}" in ${file}${problems.length > 0 ? ` (${problems.join('; ')})` : ''}`);
}

/** Only the string values of an environment. */
function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * Starts the bridge. The console is contacted in the background (and started when it is not
 * running); a failure there only affects the requests the console answers.
 * @throws Error when the server's config cannot be found, or its transport cannot start
 */
export async function runBridge(opts: RunBridgeOptions): Promise<BridgeProxy> {
  const base = serverConfigFor(opts.target, opts.userDataDir, opts.env ?? process.env);
  const config: ServerConfig = isStdio(base) ? { ...base, env: { ...stringEnv(opts.env ?? process.env), ...base.env } } : base;
  const started: { proxy?: BridgeProxy; auth?: BridgeAuthProvider } = {}; // the link may hear of a change once they run
  const link = createConsoleLink({
    dir: opts.userDataDir,
    serverId: opts.serverId,
    ...(opts.formerly && { formerly: opts.formerly }),
    via: () => started.proxy?.host().via,
    ...(opts.remote ? { remote: opts.remote } : opts.launch && { launch: opts.launch }),
    onRootsChanged: () => started.proxy?.consoleRootsChanged(),
    onSignedOut: () => started.auth?.forget(),
  });
  if (!isStdio(config)) started.auth = bridgeAuthProvider(link, config.url, opts.serverId);
  const log = new ServerLog();
  const transport = () =>
    buildTransport(config, {
      log,
      nodeRuntime: { command: process.execPath },
      onStderr: (chunk) => {
        process.stderr.write(chunk);
        log.addStderr(chunk);
      },
      // An HTTP server's OAuth: the token of the console's sign-in for it.
      ...(started.auth && { authProvider: started.auth }),
    }).transport;
  const server = transport(); // logged: the console shows the bridged server's protocol log
  const reports = startActivityReports({ log, send: (report) => link.report(report), via: () => started.proxy?.host().via });
  const proxy = await startBridgeProxy({
    host: opts.host ?? createHostStdioTransport(),
    server,
    link,
    logger: opts.logger,
    onCall: (call, phase) => reports.noteCall(call, phase),
    ...(opts.samplingTo && { samplingTo: opts.samplingTo }),
    // Second sessions in the era a tool needs: the same server, its traffic in the same log.
    newServerTransport: transport,
  });
  started.proxy = proxy;
  void proxy.closed.then(() => reports.stop());
  void link.warmUp();
  return proxy;
}
