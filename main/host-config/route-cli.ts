/**
 * `mcp-approval-console bridge install|uninstall --host <host> --server <name> [--file <path>]`:
 * "Route through the console" from the command line, the same as the Import panel's button and
 * its Undo (routes.ts). `--host` is a host format (claude-desktop, claude-code, windsurf, cursor,
 * vscode); the file is the host's standard one on this machine (main/servers/import/locations.ts),
 * or `--file`.
 */
import type { ImportFormat } from '../../shared/contract/servers.js';
import { ApiError } from '../../shared/contract/api.js';
import { standardLocations, type ImportEnvironment } from '../servers/import/locations.js';
import { createHostRouting, type HostRoutingDeps } from './routes.js';

/** Host formats by the name the command takes. */
const HOSTS: readonly ImportFormat[] = ['claude-desktop', 'claude-code', 'windsurf', 'cursor', 'vscode'];

/** Usage of the two subcommands. */
export const ROUTE_USAGE = `usage: mcp-approval-console bridge install|uninstall --host ${HOSTS.join('|')} --server <name> [--file <path>]`;

/** A parsed install / uninstall command. */
export interface RouteCommand {
  action: 'install' | 'uninstall';
  host: ImportFormat;
  server: string;
  file?: string;
}

/**
 * Parses `install|uninstall` and its options.
 * @throws Error with the usage for an unknown host, a missing option or an unknown argument
 */
export function parseRouteCommand(argv: readonly string[]): RouteCommand {
  const [action, ...rest] = argv;
  if (action !== 'install' && action !== 'uninstall') throw new Error(ROUTE_USAGE);
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const key = rest[i]!;
    const value = rest[i + 1];
    if (!['--host', '--server', '--file'].includes(key) || value === undefined) throw new Error(`${key}: ${ROUTE_USAGE}`);
    options[key.slice(2)] = value;
  }
  const host = options.host as ImportFormat | undefined;
  if (!host || !HOSTS.includes(host) || !options.server) throw new Error(ROUTE_USAGE);
  return { action, host, server: options.server, ...(options.file && { file: options.file }) };
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
      await routing.routeServer({ path, format: command.host, name: command.server });
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
