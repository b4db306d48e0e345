/**
 * How an HTTP server's request headers reach the bridge: a leaf module, shared by the bridge
 * (run.ts) and "Route through the console" (main/host-config/route.ts), which writes them.
 */

/**
 * The environment variable that carries an HTTP server's request headers to the bridge, as a JSON
 * object of names to values ("Route through the console" moves an entry's `headers` here: an
 * environment is owner-only, a command line is visible to every user of the machine).
 */
export const BRIDGE_HEADERS_ENV = 'MCP_CONSOLE_BRIDGE_HEADERS';

/**
 * The headers in {@link BRIDGE_HEADERS_ENV}, or none.
 * @throws Error when the variable is set but is not a JSON object of strings
 */
export function headersFromEnv(env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  const raw = env[BRIDGE_HEADERS_ENV];
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw new Error(`${BRIDGE_HEADERS_ENV} must be a JSON object of header names to string values`);
  }
  return value as Record<string, string>;
}
