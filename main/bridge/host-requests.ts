/**
 * Requests the bridge itself puts to the host: the elicitation and roots requests embedded in the
 * `input_required` rounds of a 2026-07-28 second session (./era-sessions.ts), which a 2025-11-25
 * host that declared them answers as the server's pushed requests. Their ids are the bridge's own
 * ({@link HOST_REQUEST_PREFIX}…), never a server's, so the host's answers are told apart from the
 * answers it sends the server.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import { RequestAbort } from '../requests/incoming.js';
import { BRIDGE_ID_PREFIX } from './input-rounds.js';
import { asObject, idKey, type JsonRpcId, type Loose } from './messages.js';

/** Prefix of the ids of the bridge's requests to the host. */
export const HOST_REQUEST_PREFIX = `${BRIDGE_ID_PREFIX}host:`;

/** The bridge's requests to the host in flight. */
export interface HostRequests {
  /**
   * Puts `method` to the host and waits for its answer.
   * @returns the host's result
   * @throws ProtocolError with the host's JSON-RPC error; the signal's reason when it aborts (the
   *   host is then sent `notifications/cancelled`); RequestAbort `connection_closed` on close
   */
  ask(method: string, params: unknown, signal: AbortSignal): Promise<Loose>;
  /** A message from the host: true when it answers one of these requests (then it goes nowhere else). */
  fromHost(message: Loose): boolean;
  /** Ends every request in flight (the bridge closes). */
  close(): void;
}

/** Creates the bookkeeping; `toHost` sends a message to the host. */
export function createHostRequests(toHost: (message: JSONRPCMessage) => Promise<void>): HostRequests {
  const pending = new Map<string, { resolve(result: Loose): void; reject(err: unknown): void }>();
  let next = 1;
  return {
    ask(method, params, signal) {
      const id = `${HOST_REQUEST_PREFIX}${next++}`;
      const key = idKey(id);
      return new Promise<Loose>((resolve, reject) => {
        const onAbort = () => {
          pending.delete(key);
          void toHost({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String((signal.reason as Error | undefined)?.message ?? 'cancelled') } }).catch(() => undefined);
          reject(signal.reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        const settle = (fn: () => void) => {
          signal.removeEventListener('abort', onAbort);
          pending.delete(key);
          fn();
        };
        pending.set(key, { resolve: (r) => settle(() => resolve(r)), reject: (e) => settle(() => reject(e)) });
        toHost({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage).catch((err: unknown) => pending.get(key)?.reject(err));
      });
    },
    fromHost(message) {
      if (message.method !== undefined || message.id === undefined) return false;
      const waiting = pending.get(idKey(message.id as JsonRpcId));
      if (!waiting) return false;
      const error = asObject(message.error);
      if (error) waiting.reject(new ProtocolError(typeof error.code === 'number' ? error.code : -32603, typeof error.message === 'string' ? error.message : 'the host failed', error.data));
      else waiting.resolve(asObject(message.result) ?? {});
      return true;
    },
    close() {
      for (const waiting of [...pending.values()]) waiting.reject(new RequestAbort('connection_closed'));
      pending.clear();
    },
  };
}
