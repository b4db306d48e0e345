/**
 * The MCP connection's source adapter for the one server-request envelope
 * (main/requests/incoming.ts): a request pushed by the server (2025-11-25 era, or a 2026-07-28
 * server that still pushes) and an input request embedded in an `input_required` result (MRTR)
 * become the same {@link IncomingServerRequest}. This is the one place that reads why the SDK
 * aborted a handler: a closed connection is the SDK's typed `ConnectionClosed` error; a server's
 * `notifications/cancelled` carries only free text, so its reason is read here, once, for the one
 * thing the protocol has no code for — that the server timed out.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallRef, ProtocolEra } from '../../shared/state.js';
import { RequestAbort, type IncomingServerRequest, type ServerRequestKind } from '../requests/incoming.js';

/**
 * The typed reason for an SDK handler's abort reason: a {@link RequestAbort} as it is; the SDK's
 * `ConnectionClosed` error → `connection_closed`; a server's cancel reason (a string) →
 * `server_timeout` when it says the request timed out, else `server_cancelled`.
 */
export function typedAbort(reason: unknown): RequestAbort {
  if (reason instanceof RequestAbort) return reason;
  if (reason instanceof SdkError && reason.code === SdkErrorCode.ConnectionClosed) return new RequestAbort('connection_closed');
  const text = typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : undefined;
  const lower = text?.toLowerCase() ?? '';
  const timedOut = lower.includes('timed out') || lower.includes('timeout');
  return new RequestAbort(timedOut ? 'server_timeout' : 'server_cancelled', text || undefined);
}

/** A signal that aborts when `signal` does, with the {@link typedAbort} of its reason. */
export function typedSignal(signal: AbortSignal): AbortSignal {
  if (signal.aborted) return AbortSignal.abort(typedAbort(signal.reason));
  const typed = new AbortController();
  signal.addEventListener('abort', () => typed.abort(typedAbort(signal.reason)), { once: true });
  return typed.signal;
}

/**
 * A request the server pushed (`sampling/createMessage`, `elicitation/create`, `roots/list`).
 * @param progressOf sends `notifications/progress` for it, when the server gave a progressToken
 */
export function pushedRequest<K extends ServerRequestKind>(
  kind: K,
  at: { serverId: string; era: ProtocolEra },
  params: unknown,
  signal: AbortSignal,
  notifyProgress?: (params: { progressToken: string | number; progress: number; message: string }) => Promise<unknown>,
): IncomingServerRequest<K> {
  const progress = notifyProgress && progressSender(params, notifyProgress);
  return { kind, source: 'mcp', serverId: at.serverId, era: at.era, params, signal: typedSignal(signal), ...(progress && { progress }) };
}

/** An input request embedded in a 2026-07-28 `input_required` result: always of the `modern` era, tied to its exact call. */
export function embeddedRequest<K extends ServerRequestKind>(kind: K, serverId: string, params: unknown, ctx: { call: CallRef; signal: AbortSignal }): IncomingServerRequest<K> {
  return { kind, source: 'mcp', serverId, era: 'modern', params, call: ctx.call, signal: typedSignal(ctx.signal) };
}

/**
 * `notifications/progress` for a request whose raw params carry `_meta.progressToken` (a client
 * may send progress only then); each call sends the next step with `message`. Undefined otherwise.
 */
function progressSender(
  params: unknown,
  notify: (params: { progressToken: string | number; progress: number; message: string }) => Promise<unknown>,
): ((message: string) => void) | undefined {
  const meta = typeof params === 'object' && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  const token = typeof meta === 'object' && meta !== null ? (meta as { progressToken?: unknown }).progressToken : undefined;
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  let step = 0;
  return (message) => {
    step += 1;
    void notify({ progressToken: token, progress: step, message });
  };
}
