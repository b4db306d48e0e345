/**
 * The host side of a bridge served over Streamable HTTP: wraps the SDK's server transport (a
 * session's, or one request's) so that the proxy (./proxy.ts) can use it as it uses stdio.
 * - `send` never rejects: a message the transport cannot place (its HTTP stream is gone) is
 *   reported through `onerror` and dropped, as a closed stdout would drop it.
 * - A message-level proxy does not know which host request a server notification belongs to,
 *   but HTTP must put it on that request's stream or on the session's GET stream. Progress is
 *   related by its `progressToken` (the host request that asked for it); in a single-request
 *   exchange (2026-07-28), everything is related to that request. The rest goes on the session's
 *   GET stream (server requests of the host included), as a server SDK does without a relation.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { asObject, idKey, type JsonRpcId, type Loose } from './messages.js';

/** Wraps `inner` (see the module). `onlyRequest`: the one host request of a per-request exchange. */
export function hostSideOf(inner: Transport, opts: { onlyRequest?: JsonRpcId } = {}): Transport {
  const byToken = new Map<string, JsonRpcId>(); // progress token key → host request id
  const outer: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    async send(message, options) {
      const m = message as Loose;
      const isResponse = m.method === undefined && m.id !== undefined;
      if (isResponse) forgetRequest(byToken, m.id as JsonRpcId);
      const related = options?.relatedRequestId ?? opts.onlyRequest ?? (isResponse ? undefined : progressRequest(m, byToken));
      try {
        await inner.send(message, related === undefined ? options : { ...options, relatedRequestId: related });
      } catch (err) {
        outer.onerror?.(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
  inner.onmessage = (message, extra) => {
    rememberProgress(message, byToken);
    outer.onmessage?.(message, extra);
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (err) => outer.onerror?.(err);
  return outer;
}

/** A host request that carries a progress token: remembered under it. */
function rememberProgress(message: JSONRPCMessage, byToken: Map<string, JsonRpcId>): void {
  const m = message as Loose;
  if (m.method === undefined || m.id === undefined) return;
  const token = asObject(asObject(m.params)?._meta)?.progressToken;
  if (typeof token === 'string' || typeof token === 'number') byToken.set(idKey(token), m.id as JsonRpcId);
}

/** The host request a server's progress notification belongs to, if known. */
function progressRequest(message: Loose, byToken: Map<string, JsonRpcId>): JsonRpcId | undefined {
  if (message.method !== 'notifications/progress') return undefined;
  const token = asObject(message.params)?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? byToken.get(idKey(token)) : undefined;
}

/** The host request `id` was answered: its progress token is forgotten. */
function forgetRequest(byToken: Map<string, JsonRpcId>, id: JsonRpcId): void {
  for (const [token, requestId] of byToken) if (idKey(requestId) === idKey(id)) byToken.delete(token);
}
