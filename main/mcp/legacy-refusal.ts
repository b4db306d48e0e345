/**
 * Whether a failed 2025-11-25 `initialize` means "this server does not speak 2025-11-25" — the
 * one case where `protocol: "auto"` goes on to negotiate 2026-07-28 (connection.ts). A server that
 * speaks only 2026-07-28 answers `initialize` with a JSON-RPC error: the v2 TypeScript SDK's
 * -32022 "Unsupported protocol version" (over stdio as a response, over Streamable HTTP as an HTTP
 * 400 whose body holds it), others -32601 "Method not found", -32600 or -32602; or it answers with
 * a 2026-07-28 version the handshake cannot accept. Failures that say nothing about the era — a
 * process that exits, a timeout, a refused connection, 401/403/404 — are not refusals: they are
 * shown as they are.
 */
import { ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';

/** JSON-RPC codes a server answers an `initialize` it does not serve with. */
const REFUSAL_CODES: ReadonlySet<number> = new Set([-32022, -32601, -32600, -32602]);

/** The first protocol version of the 2026-07-28 era. */
const MODERN_FROM = '2026-07-28';

/** The client's own error when `initialize` named a version it cannot take (`…not supported: <version>`). */
const UNSUPPORTED_ANSWER = "Server's protocol version is not supported: ";

/** The JSON-RPC error code an HTTP error's body holds, if it holds one. */
function codeInBody(text: unknown): number | undefined {
  if (typeof text !== 'string' || !text.trimStart().startsWith('{')) return undefined;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'number' ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `err`, thrown by a 2025-11-25 connect, says the server refuses that era (see the module
 * comment): a JSON-RPC refusal code, an HTTP 400 (with such a code in its body, or none), or an
 * `initialize` answered with a 2026-07-28 version.
 */
export function refusesLegacy(err: unknown): boolean {
  if (err instanceof ProtocolError) return REFUSAL_CODES.has(err.code);
  if (err instanceof SdkHttpError) {
    const code = codeInBody((err.data as { text?: unknown } | undefined)?.text);
    return code !== undefined ? REFUSAL_CODES.has(code) : err.status === 400;
  }
  if (!(err instanceof Error) || !err.message.startsWith(UNSUPPORTED_ANSWER)) return false;
  return err.message.slice(UNSUPPORTED_ANSWER.length).trim() >= MODERN_FROM;
}
