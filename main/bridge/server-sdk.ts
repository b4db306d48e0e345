/**
 * The MCP server SDK for bridged servers' HTTP (http-serving.ts, http-sessions.ts), loaded at the
 * first request there: starting the console does not need it (the bench's `p5.start_overhead_ms`).
 */
type ServerSdk = typeof import('@modelcontextprotocol/server');

let loaded: Promise<ServerSdk> | undefined;

/** The `@modelcontextprotocol/server` module, imported once. */
export function serverSdk(): Promise<ServerSdk> {
  loaded ??= import('@modelcontextprotocol/server');
  return loaded;
}
