/**
 * The MCP connection's source adapter for the one server-request envelope
 * (main/requests/incoming.ts): a request pushed by the server (2025-11-25 era, or a 2026-07-28
 * server that still pushes) and an input request embedded in an `input_required` result (MRTR)
 * become the same {@link IncomingServerRequest}. This is the one place that reads why the SDK
 * aborted a handler: a closed connection is the SDK's typed `ConnectionClosed` error; a server's
 * `notifications/cancelled` carries only free text, so its reason is read here, once, for the one
 * thing the protocol has no code for — that the server timed out.
 */
import { SdkError, SdkErrorCode, type Client, type CreateMessageResult as SdkCreateMessageResult } from '@modelcontextprotocol/client';
import type { CallRef, ProtocolEra } from '../../shared/contract/state.js';
import type { Logger } from '../ports.js';
import { RequestAbort, type IncomingServerRequest, type McpRequestKind } from '../requests/incoming.js';
import type { ServerRequestRouter } from '../requests/router.js';
import { InputDeclinedError, type InputHandlers } from './input-rounds.js';
import { protocolError } from './protocol.js';

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
export function pushedRequest<K extends McpRequestKind>(
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
export function embeddedRequest<K extends McpRequestKind>(kind: K, serverId: string, params: unknown, ctx: { call: CallRef; signal: AbortSignal }): IncomingServerRequest<K> {
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

/**
 * Registers on `client` the handlers of the requests a server pushes — `sampling/createMessage`,
 * `elicitation/create`, `roots/list` — each wrapped in the envelope and handed to `requests`.
 * A pushed sampling request reaches the console as it came, through the SDK's public fallback
 * handler rather than a registered one (which the SDK validates first, with its own message and
 * no trace): intake validates it once, records a refusal with its rule (S-…), and answers -32602
 * with a readable message. Any other unregistered method is answered -32601.
 */
export function handlePushedRequests(client: Client, serverId: string, requests: ServerRequestRouter, logger: Logger): void {
  const at = () => ({ serverId, era: (client.getProtocolEra() === 'modern' ? 'modern' : 'legacy') as ProtocolEra });
  client.fallbackRequestHandler = async (request, ctx) => {
    if (request.method !== 'sampling/createMessage') throw protocolError(-32601, 'Method not found');
    const notify = (params: { progressToken: string | number; progress: number; message: string }) =>
      ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch((err: unknown) => logger.warn('progress notification failed', { server: serverId, error: String(err) }));
    return (await requests.receive(pushedRequest('sampling', at(), request.params, ctx.mcpReq.signal, notify))) as SdkCreateMessageResult;
  };
  client.setRequestHandler('elicitation/create', async (request, ctx) => (await requests.receive(pushedRequest('elicitation', at(), request.params, ctx.mcpReq.signal))) as never);
  client.setRequestHandler('roots/list', (request, ctx) => requests.receive(pushedRequest('roots', at(), request.params, ctx.mcpReq.signal)));
}

/**
 * The handlers of input requests embedded in 2026-07-28 `input_required` results (MRTR), by
 * method, for input-rounds.ts: each enters `requests` in the envelope. A sampling rejection (-1)
 * becomes InputDeclinedError, so the call is not retried (S-MRTR-3); a declined elicitation is an
 * ordinary ElicitResult, sent back on the retry.
 */
export function embeddedRequestHandlers(serverId: string, requests: ServerRequestRouter): InputHandlers {
  return {
    'sampling/createMessage': async (params, ctx) => {
      try {
        return await requests.receive(embeddedRequest('sampling', serverId, params, ctx));
      } catch (err) {
        if ((err as { code?: number }).code === -1) {
          throw new InputDeclinedError('You declined the sampling request, so the call was not retried (MRTR has no rejection message: the server is not waiting).');
        }
        throw err;
      }
    },
    'roots/list': (params, ctx) => requests.receive(embeddedRequest('roots', serverId, params, ctx)),
    'elicitation/create': (params, ctx) => requests.receive(embeddedRequest('elicitation', serverId, params, ctx)),
  };
}
