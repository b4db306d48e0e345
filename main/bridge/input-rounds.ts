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
  /** Stops following the host request `hostId` (it is answered elsewhere: ./era-sessions.ts); its call stays open. */
  forget(hostId: JsonRpcId): void;
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

/** What {@link createInputRounds} needs: the proxy's state, its two senders and the link to the console. */
export interface InputRoundsDeps {
  state: ProxyState;
  toHost(message: JSONRPCMessage): Promise<void>;
  toServer(message: JSONRPCMessage): Promise<void>;
  link: ConsoleLink;
}

/**
 * What the bookkeeping keeps: the host requests that may take rounds (by host id key), the same
 * by the key of the bridge's retry in flight, the console's answers waiting for the host's retry
 * (by `requestState`), and the number of the next retry id.
 */
interface RoundsState {
  readonly deps: InputRoundsDeps;
  readonly open: Map<string, Open>;
  readonly retries: Map<string, Open>;
  readonly stashed: Map<string, Loose>;
  nextRetry: number;
}

/** Creates the bookkeeping over the proxy's state and its two senders. */
export function createInputRounds(deps: InputRoundsDeps): InputRounds {
  const st: RoundsState = { deps, open: new Map(), retries: new Map(), stashed: new Map(), nextRetry: 1 };
  return {
    fromHostRequest: (message) => fromHostRequest(st, message),
    fromHostCancel: (message) => fromHostCancel(st, message),
    fromServerResponse: (message) => fromServerResponse(st, message),
    forget(hostId) {
      const o = st.open.get(idKey(hostId));
      if (!o) return;
      st.open.delete(idKey(hostId));
      if (o.retryKey) st.retries.delete(o.retryKey);
    },
    close() {
      for (const o of st.open.values()) o.abort.abort(new RequestAbort('connection_closed'));
      st.open.clear();
      st.retries.clear();
      st.stashed.clear();
    },
  };
}

/** Forgets a host request (and its call, and its retry). */
function finish(st: RoundsState, o: Open): void {
  st.open.delete(idKey(o.hostId));
  st.deps.state.calls.delete(idKey(o.hostId));
  if (o.retryKey) st.retries.delete(o.retryKey);
}

/** Ends a host request with `err` as its JSON-RPC error (code -32603 unless `err` has a numeric one; its `data` kept); nothing is sent when it was aborted. */
function failHost(st: RoundsState, o: Open, err: unknown): void {
  finish(st, o);
  if (o.abort.signal.aborted) return;
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e.code === 'number' ? e.code : -32603;
  const message = typeof e.message === 'string' ? e.message : String(err);
  // The error's data (e.g. what a provider did: status, retry-after) reaches the host as it came.
  void st.deps.toHost({ jsonrpc: '2.0', id: o.hostId, error: { code, message, ...(e.data !== undefined && { data: e.data }) } });
}

/** Sends the request again on a new bridge id with `params`; a failed send fails the host request. */
function retry(st: RoundsState, o: Open, params: Loose): void {
  const id = `${BRIDGE_ID_PREFIX}${st.nextRetry++}`;
  if (o.retryKey) st.retries.delete(o.retryKey);
  o.retryKey = idKey(id);
  st.retries.set(o.retryKey, o);
  void st.deps.toServer({ jsonrpc: '2.0', id, method: o.method, params } as JSONRPCMessage).catch((err: unknown) => failHost(st, o, err));
}

/** {@link InputRounds.fromHostRequest}: a call of the modern era is remembered; the console's answers stashed under its `requestState` are merged in (the host's own win). */
function fromHostRequest(st: RoundsState, message: Loose): Loose {
  if (st.deps.state.era !== 'modern' || !CALL_METHODS.has(message.method as string)) return message;
  const params = asObject(message.params) ?? {};
  const { inputResponses, requestState, ...base } = params;
  st.open.set(idKey(message.id as JsonRpcId), { hostId: message.id as JsonRpcId, method: message.method as string, base, rounds: 0, abort: new AbortController() });
  const mine = typeof requestState === 'string' ? st.stashed.get(requestState) : undefined;
  if (!mine) return message;
  st.stashed.delete(requestState as string);
  return { ...message, params: { ...params, inputResponses: { ...mine, ...asObject(inputResponses) } } };
}

/** {@link InputRounds.fromHostCancel}: aborts the console's work for the request, forgets it, and points the cancel at the bridge's retry when one runs. */
function fromHostCancel(st: RoundsState, message: Loose): Loose {
  const params = asObject(message.params);
  const o = st.open.get(idKey(params?.requestId as JsonRpcId));
  if (!o) return message;
  o.abort.abort(new RequestAbort('server_cancelled', typeof params?.reason === 'string' ? params.reason : undefined));
  finish(st, o);
  return o.retryKey ? { ...message, params: { ...params, requestId: retryIdOf(o.retryKey) } } : message;
}

/**
 * {@link InputRounds.fromServerResponse}: an `input_required` for a known request runs a round (or
 * fails the host request past {@link MAX_BRIDGE_ROUNDS}); a final answer to the bridge's retry goes
 * to the host under its own id.
 */
function fromServerResponse(st: RoundsState, message: Loose): boolean {
  const key = idKey(message.id as JsonRpcId);
  const o = st.retries.get(key) ?? st.open.get(key);
  if (!o) return false;
  const mineOnly = st.retries.has(key);
  const result = asObject(message.result);
  if (result?.resultType === 'input_required' && !o.abort.signal.aborted) {
    if (++o.rounds > MAX_BRIDGE_ROUNDS) failHost(st, o, { code: -32603, message: `the server asked for input ${o.rounds} times; the bridge stops after ${MAX_BRIDGE_ROUNDS} rounds` });
    else void runRound(st, o, result);
    return true;
  }
  finish(st, o);
  if (!mineOnly) return false;
  if (!o.abort.signal.aborted) void st.deps.toHost({ ...message, id: o.hostId } as JSONRPCMessage);
  return true;
}

/** The bridge id behind a retry key (`s:<id>`). */
function retryIdOf(key: string): string {
  return key.slice(2);
}

/** One `input_required` round: the console's requests fulfilled, then a retry or the host's share. */
async function runRound(st: RoundsState, o: Open, result: Loose): Promise<void> {
  const { state, toHost, link } = st.deps;
  const requests = Object.entries(asObject(result.inputRequests) ?? {});
  const mine = requests.flatMap(([key, r]) => {
    const req = asObject(r);
    const kind = consoleKind(req?.method, asObject(req?.params), state.hostCaps, state.samplingTo);
    return kind ? [{ key, kind, params: req?.params ?? {} }] : [];
  });
  const theirs = requests.filter(([key]) => !mine.some((m) => m.key === key));
  if (mine.length === 0) return void toHost({ jsonrpc: '2.0', id: o.hostId, result } as JSONRPCMessage);
  let answers: Loose;
  try {
    const via = state.via;
    const call = state.calls.get(idKey(o.hostId));
    const exact = call ? { calls: [call], exact: true } : {};
    const settled = await Promise.all(mine.map(async (m) => [m.key, await link.request(m.kind, m.params, { era: 'modern', ...(via && { via }), ...exact, signal: o.abort.signal })] as const));
    answers = Object.fromEntries(settled);
  } catch (err) {
    return failHost(st, o, err);
  }
  if (o.abort.signal.aborted) return;
  const requestState = result.requestState;
  if (theirs.length === 0) return retry(st, o, { ...o.base, inputResponses: answers, ...(requestState !== undefined && { requestState }) });
  if (typeof requestState === 'string') st.stashed.set(requestState, answers);
  void toHost({ jsonrpc: '2.0', id: o.hostId, result: { ...result, inputRequests: Object.fromEntries(theirs) } } as JSONRPCMessage);
}
