/**
 * 2026-07-28 input rounds (MRTR) through the bridge. A server of that era does not push sampling:
 * it answers `tools/call`, `prompts/get` or `resources/read` with an `input_required` result that
 * embeds its input requests; the client retries the request with `inputResponses` and the
 * server's `requestState`. The bridge fulfils the embedded requests that are the console's
 * (sampling always; elicitation and roots when the host did not declare them) and then:
 * - when none is left for the host, retries the request itself on a bridge id
 *   ({@link BRIDGE_ID_PREFIX}…), rounds and all, and hands the host the final result under its
 *   own id (its `notifications/cancelled` is translated to the retry's id);
 * - otherwise hands the host an `input_required` with only its own requests, keeps the console's
 *   answers by `requestState`, and merges them into the host's retry.
 * A failed or rejected console answer ends the host's request with that JSON-RPC error (MRTR has
 * no way to tell the server).
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { RequestAbort } from '../requests/incoming.js';
import type { ConsoleLink } from './console-link.js';
import { asObject, idKey, type JsonRpcId, type Loose } from './messages.js';
import { CALL_METHODS, consoleKind, type ProxyState } from './routing.js';

/** Prefix of the request ids the bridge uses for its own retries (never a host's). */
export const BRIDGE_ID_PREFIX = 'mcp-approval-console-bridge:';
/** Most input rounds the bridge drives for one host request. */
export const MAX_BRIDGE_ROUNDS = 10;


/** The input-round bookkeeping the proxy consults. */
export interface InputRounds {
  /** A host request on its way to the server: remembered (modern era), the console's stashed answers merged in. */
  fromHostRequest(message: Loose): Loose;
  /** A host's cancel: pointed at the bridge's retry when one runs for that request; console work aborted. */
  fromHostCancel(message: Loose): Loose;
  /** A server response: true when the bridge consumed it (an input round, or its own retry's answer). */
  fromServerResponse(message: Loose): boolean;
  close(): void;
}

/** A host request that may take input rounds. */
interface Open {
  hostId: JsonRpcId;
  method: string;
  /** Its params without `inputResponses` / `requestState`. */
  base: Loose;
  rounds: number;
  /** The bridge's retry in flight, if any. */
  retryKey?: string;
  abort: AbortController;
}

/** Creates the bookkeeping over the proxy's state and its two senders. */
export function createInputRounds(deps: {
  state: ProxyState;
  toHost(message: JSONRPCMessage): Promise<void>;
  toServer(message: JSONRPCMessage): Promise<void>;
  link: ConsoleLink;
}): InputRounds {
  const open = new Map<string, Open>(); // by host id key
  const retries = new Map<string, Open>(); // by bridge id key
  const stashed = new Map<string, Loose>(); // console answers by requestState
  let nextRetry = 1;
  const finish = (o: Open) => {
    open.delete(idKey(o.hostId));
    deps.state.calls.delete(idKey(o.hostId));
    if (o.retryKey) retries.delete(o.retryKey);
  };
  const failHost = (o: Open, err: unknown) => {
    finish(o);
    if (o.abort.signal.aborted) return;
    const e = err as { code?: unknown; message?: unknown };
    void deps.toHost({ jsonrpc: '2.0', id: o.hostId, error: { code: typeof e.code === 'number' ? e.code : -32603, message: typeof e.message === 'string' ? e.message : String(err) } });
  };
  const round = (o: Open, result: Loose) => runRound(o, result, { ...deps, stashed, failHost, retry: (params) => retry(o, params) });
  const retry = (o: Open, params: Loose) => {
    const id = `${BRIDGE_ID_PREFIX}${nextRetry++}`;
    if (o.retryKey) retries.delete(o.retryKey);
    o.retryKey = idKey(id);
    retries.set(o.retryKey, o);
    void deps.toServer({ jsonrpc: '2.0', id, method: o.method, params } as JSONRPCMessage).catch((err: unknown) => failHost(o, err));
  };
  return {
    fromHostRequest(message) {
      if (deps.state.era !== 'modern' || !CALL_METHODS.has(message.method as string)) return message;
      const params = asObject(message.params) ?? {};
      const { inputResponses, requestState, ...base } = params;
      open.set(idKey(message.id as JsonRpcId), { hostId: message.id as JsonRpcId, method: message.method as string, base, rounds: 0, abort: new AbortController() });
      const mine = typeof requestState === 'string' ? stashed.get(requestState) : undefined;
      if (!mine) return message;
      stashed.delete(requestState as string);
      return { ...message, params: { ...params, inputResponses: { ...mine, ...asObject(inputResponses) } } };
    },
    fromHostCancel(message) {
      const params = asObject(message.params);
      const o = open.get(idKey(params?.requestId as JsonRpcId));
      if (!o) return message;
      o.abort.abort(new RequestAbort('server_cancelled', typeof params?.reason === 'string' ? params.reason : undefined));
      finish(o);
      return o.retryKey ? { ...message, params: { ...params, requestId: retryIdOf(o.retryKey) } } : message;
    },
    fromServerResponse(message) {
      const key = idKey(message.id as JsonRpcId);
      const o = retries.get(key) ?? open.get(key);
      if (!o) return false;
      const mineOnly = retries.has(key);
      const result = asObject(message.result);
      if (result?.resultType === 'input_required' && !o.abort.signal.aborted) {
        if (++o.rounds > MAX_BRIDGE_ROUNDS) failHost(o, { code: -32603, message: `the server asked for input ${o.rounds} times; the bridge stops after ${MAX_BRIDGE_ROUNDS} rounds` });
        else round(o, result);
        return true;
      }
      finish(o);
      if (!mineOnly) return false;
      if (!o.abort.signal.aborted) void deps.toHost({ ...message, id: o.hostId } as JSONRPCMessage);
      return true;
    },
    close() {
      for (const o of open.values()) o.abort.abort(new RequestAbort('connection_closed'));
      open.clear();
      retries.clear();
      stashed.clear();
    },
  };
}

/** The bridge id behind a retry key (`s:<id>`). */
function retryIdOf(key: string): string {
  return key.slice(2);
}

/** One `input_required` round: the console's requests fulfilled, then a retry or the host's share. */
async function runRound(
  o: Open,
  result: Loose,
  deps: { state: ProxyState; toHost(m: JSONRPCMessage): Promise<void>; link: ConsoleLink; stashed: Map<string, Loose>; failHost(o: Open, err: unknown): void; retry(params: Loose): void },
): Promise<void> {
  const requests = Object.entries(asObject(result.inputRequests) ?? {});
  const mine = requests.flatMap(([key, r]) => {
    const req = asObject(r);
    const kind = consoleKind(req?.method, asObject(req?.params), deps.state.hostCaps, deps.state.samplingTo);
    return kind ? [{ key, kind, params: req?.params ?? {} }] : [];
  });
  const theirs = requests.filter(([key]) => !mine.some((m) => m.key === key));
  if (mine.length === 0) return void deps.toHost({ jsonrpc: '2.0', id: o.hostId, result } as JSONRPCMessage);
  let answers: Loose;
  try {
    const via = deps.state.via;
    const call = deps.state.calls.get(idKey(o.hostId));
    const exact = call ? { calls: [call], exact: true } : {};
    const settled = await Promise.all(mine.map(async (m) => [m.key, await deps.link.request(m.kind, m.params, { era: 'modern', ...(via && { via }), ...exact, signal: o.abort.signal })] as const));
    answers = Object.fromEntries(settled);
  } catch (err) {
    return deps.failHost(o, err);
  }
  if (o.abort.signal.aborted) return;
  const requestState = result.requestState;
  if (theirs.length === 0) return deps.retry({ ...o.base, inputResponses: answers, ...(requestState !== undefined && { requestState }) });
  if (typeof requestState === 'string') deps.stashed.set(requestState, answers);
  void deps.toHost({ jsonrpc: '2.0', id: o.hostId, result: { ...result, inputRequests: Object.fromEntries(theirs) } } as JSONRPCMessage);
}
