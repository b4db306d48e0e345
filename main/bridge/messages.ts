/**
 * Small helpers for JSON-RPC messages as the bridge sees them: loose objects it forwards
 * unchanged, read only where it must (method, id, a few params).
 */

/** A JSON object whose fields the bridge reads loosely. */
export type Loose = Record<string, unknown>;

/** A JSON-RPC request id. */
export type JsonRpcId = string | number;

/** `_meta` key of a 2026-07-28 request carrying the client's capabilities. */
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';
/** `_meta` key of a 2026-07-28 request carrying the client's clientInfo. */
export const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';
/** `_meta` key of a 2026-07-28 request carrying the protocol version. */
export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
/** First protocol version of the 2026-07-28 era (results embed input requests; no pushed ones expected). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** `value` when it is a plain JSON object, else undefined. */
export function asObject(value: unknown): Loose | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : undefined;
}

/** A map key for a JSON-RPC id that keeps `1` and `"1"` apart. */
export function idKey(id: JsonRpcId | undefined): string {
  return typeof id === 'number' ? `n:${id}` : `s:${String(id)}`;
}

/** Whether a protocol version (YYYY-MM-DD) is of the 2026-07-28 era or later. */
export function isModernVersion(version: string): boolean {
  return version >= MODERN_PROTOCOL_VERSION;
}
