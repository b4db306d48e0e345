/**
 * `mcp-approval-console bridge install|uninstall --host <host> --server <name> [--file <path>] [--url-form]`
 * (parsed by app/cli/program.ts): "Route through the console" from the command line, the same as the Import panel's button and
 * its Undo (routes.ts). `--host` is a host format (claude-desktop, claude-code, windsurf, cursor,
 * vscode); the file is the host's standard one on this machine (main/servers/import/locations.ts),
 * or `--file`. `--url-form` writes the URL form (the console's loopback Streamable HTTP serving of
 * its own server `<name>`, at the gateway's configured port) instead of the bridge command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportFormat } from '../../shared/contract/servers.js';
import { ApiError } from '../../shared/contract/api.js';
import { standardLocations, type ImportEnvironment } from '../servers/import/locations.js';
import { bridgeHttpToken } from '../bridge/http-serving.js';
import { serverConfigFor } from '../bridge/run.js';
import { DEFAULT_GATEWAY_PORT, GATEWAY_FILE, GatewayFileSchema } from '../gateway/tokens.js';
import type { UrlRouteTarget } from './route.js';
import { createHostRouting, type HostRoutingDeps } from './routes.js';

/** Host formats by the name the command takes (`--host`). */
export const ROUTE_HOSTS: readonly ImportFormat[] = ['claude-desktop', 'claude-code', 'windsurf', 'cursor', 'vscode'];

/** An install / uninstall command, as app/cli/program.ts parsed it. */
export interface RouteCommand {
  action: 'install' | 'uninstall';
  host: ImportFormat;
  server: string;
  file?: string;
  /** `--url-form` (install only): the URL form. */
  how?: 'url';
}

/** The host's config file: `--file`, else the host's first standard location on this machine. */
export function hostFile(command: RouteCommand, env: ImportEnvironment): string {
  if (command.file) return command.file;
  return standardLocations(env).find((l) => l.format === command.host)!.path;
}

/**
 * Carries out the command; returns the line to print.
 * @throws Error with the reason in English (a broken or changed file, no such entry, no route)
 */
export async function runRouteCommand(command: RouteCommand, env: ImportEnvironment, deps: HostRoutingDeps): Promise<string> {
  const routing = createHostRouting(deps);
  const path = hostFile(command, env);
  try {
    if (command.action === 'install') {
      await routing.routeServer({ path, format: command.host, name: command.server, ...(command.how && { how: command.how }) });
      return `"${command.server}" in ${path} now runs through MCP Approval Console (previous file: ${path}.bak)`;
    }
    const route = (await routing.listRoutes({})).routes.find((r) => r.path === path && r.name === command.server);
    if (!route) throw new Error(`the console has no route of "${command.server}" in ${path}`);
    await routing.unrouteServer({ id: route.id });
    return `"${command.server}" in ${path} is back to its original entry`;
  } catch (err) {
    if (err instanceof ApiError) throw new Error(err.message, { cause: err }); // its English words
    throw err;
  }
}

/**
 * Where the URL form points when routing from the command line (the console may not be running):
 * the gateway's configured port (`MCP_CONSOLE_GATEWAY_PORT`, else `port` in gateway.json, else
 * 47615), the serving's token (created when missing), the servers of the console's mcp-servers.json.
 * @throws Error when the configured port is 0 (any free port: no fixed URL to write) or the token file cannot be made
 */
export function cliUrlTarget(userDataDir: string, env: NodeJS.ProcessEnv): UrlRouteTarget {
  const port = configuredGatewayPort(userDataDir, env);
  if (port === 0) throw new Error('the gateway port is 0 (any free port), so there is no fixed URL to write: set "port" in gateway.json');
  return {
    base: `http://127.0.0.1:${port}`,
    token: bridgeHttpToken(userDataDir),
    served: (name) => {
      try {
        serverConfigFor({ kind: 'named', name }, userDataDir);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** `MCP_CONSOLE_GATEWAY_PORT`, else `port` in gateway.json, else the default port (0: any free port). */
export function configuredGatewayPort(userDataDir: string, env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.MCP_CONSOLE_GATEWAY_PORT);
  if (env.MCP_CONSOLE_GATEWAY_PORT && Number.isInteger(fromEnv)) return fromEnv;
  try {
    const parsed = GatewayFileSchema.safeParse(JSON.parse(readFileSync(join(userDataDir, GATEWAY_FILE), 'utf8')));
    if (parsed.success && parsed.data.port !== undefined) return parsed.data.port;
  } catch {
    // no or unreadable gateway.json: the default
  }
  return DEFAULT_GATEWAY_PORT;
}
