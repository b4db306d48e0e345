/**
 * Client requests the person starts (`tools/call`, `prompts/get`, `resources/read`) and
 * their outcomes. A sampling request always belongs to one of these (S-ASSOC-1): this tracker
 * answers "what is in flight to server X right now" and links items to their calls.
 */
import { argumentsLine } from '../../shared/domain/call-args.js';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/contract/api.js';
import type { CallRef, CallView, ClientRequestKind } from '../../shared/contract/state.js';
import { CALL_ITEM_IDS_KEPT } from '../../shared/contract/calls.js';
import type { MediaPayload } from '../../shared/contract/media-refs.js';
import { CALL_ELISION, elideMedia, payloadsFor } from '../../shared/domain/media-refs.js';
import type { StateHub } from '../state-hub.js';
import { InputDeclinedError, type ServerConnection } from './connection.js';
import { callsAgain } from './era-needs.js';
import { ui } from '../../shared/contract/ui-text.js';

/** Finished calls kept in state (the newest). */
const CALLS_KEPT = 100;

/** The tracker's operations. */
export interface CallTracker {
  /**
   * Starts `tools/call` on a server; returns its id at once, the outcome lands in state.
   * @throws ApiError not_found for an unknown server, invalid_state when it is not ready
   */
  startToolCall(serverId: string, name: string, args: Record<string, unknown>): string;
  /** Starts `prompts/get`; like startToolCall. The result lands in the call's `prompt`. */
  startPromptGet(serverId: string, name: string, args: Record<string, string>): string;
  /** Starts `resources/read`; like startToolCall. The result lands in the call's `resource`. */
  startResourceRead(serverId: string, uri: string): string;
  /**
   * Starts the finished call `callId` again: same server, kind, name and arguments (e.g. a
   * tools/call that failed with -32042 "URL elicitation required", after the person opened the
   * page). The new call records `rerunOf: callId`; the original keeps its outcome.
   * @returns the new call's id
   * @throws ApiError not_found for an unknown call (or one no longer kept), invalid_state while it
   *   still runs; startToolCall's errors for its server
   */
  rerun(callId: string): string;
  /** Calls in flight to `serverId`, oldest first. */
  inFlight(serverId: string): CallRef[];
  /** Records that a sampling item (or elicitation) arrived during these calls: each keeps the newest ids and counts all. */
  linkItem(callIds: string[], itemId: string): void;
  /**
   * The payloads of call `callId` that the `calls` slice holds by reference (big images, audio,
   * resource blobs and long texts of its result, shared/contract/media-refs.ts), by reference; unknown references
   * are left out.
   * @throws ApiError not_found for a call no longer kept
   */
  media(callId: string, refs: readonly string[]): MediaPayload[];
}

/** What {@link createCallTracker} needs. */
export interface CallTrackerDeps {
  hub: StateHub;
  now: () => number;
  connection(serverId: string): ServerConnection | undefined;
  /**
   * The connection a tool call goes to (the server's own, or a session in the era the tool needs,
   * ./era-sessions.ts); the server's own when absent.
   */
  route?(serverId: string, tool: string, primary: ServerConnection): Promise<ServerConnection>;
  /**
   * Sees every finished tool call (its error, or its result): returns what the call learned about
   * the era its tool needs, to show with it (./era-needs.ts), or undefined.
   */
  learn?(serverId: string, tool: string, outcome: { error?: { code?: number; message: string }; result?: CallView['result'] }): CallView['eraNeed'];
  /** Told after a call finished (succeeded, failed or declined), once state shows it; items still waiting inside it end (docs/history.md, "Drafts"). */
  onEnded?(call: CallView): void;
}

/** What one tracker keeps: the calls in state (running ones, and the newest {@link CALLS_KEPT} finished), oldest first. */
interface TrackerState {
  readonly deps: CallTrackerDeps;
  calls: CallView[];
}

/** Runs a recorded call on its connection; resolves with what to patch into the call. */
type RunCall = (conn: ServerConnection, call: CallRef) => Promise<Partial<CallView>>;

/** Creates the tracker over the console's connections. */
export function createCallTracker(deps: CallTrackerDeps): CallTracker {
  const st: TrackerState = { deps, calls: [] };
  return {
    startToolCall: (serverId, name, args) => startToolCall(st, serverId, name, args),
    startPromptGet: (serverId, name, args) => startPromptGet(st, serverId, name, args),
    startResourceRead: (serverId, uri) => startResourceRead(st, serverId, uri),
    rerun: (callId) => rerun(st, callId),
    inFlight: (serverId) =>
      st.calls.filter((c) => c.serverId === serverId && c.status === 'running').map((c) => callRef(c.id, c.kind, c.name, c.arguments)),
    linkItem(callIds, itemId) {
      st.calls = st.calls.map((c) => (callIds.includes(c.id) ? withItem(c, itemId) : c));
      publish(st);
    },
    media(callId, refs) {
      const call = st.calls.find((c) => c.id === callId);
      if (!call) throw new ApiError('not_found', ui('error.noCall', { id: callId, kept: CALLS_KEPT }));
      return payloadsFor(call, refs, CALL_ELISION);
    },
  };
}

/**
 * Each call as the `calls` slice shows it: its big media, resource blobs and long texts by reference, made
 * once per call object (an unchanged call stays the same object, so the slice's patches leave it
 * out).
 */
const published = new WeakMap<CallView, CallView>();

/** `call` as the `calls` slice shows it (see {@link published}). */
function publishedCall(call: CallView): CallView {
  let shown = published.get(call);
  if (!shown) {
    shown = elideMedia(call, CALL_ELISION).value;
    published.set(call, shown);
  }
  return shown;
}

/** `call` with item `itemId` linked: its newest {@link CALL_ITEM_IDS_KEPT} ids kept, all of them counted. */
function withItem(call: CallView, itemId: string): CallView {
  const ids = [...call.samplingItemIds.slice(1 - CALL_ITEM_IDS_KEPT), itemId];
  return { ...call, samplingItemIds: ids, samplingItemCount: (call.samplingItemCount ?? call.samplingItemIds.length) + 1 };
}

/**
 * Keeps the running calls and the newest {@link CALLS_KEPT} finished ones, oldest first, and sets
 * the `calls` slice: those calls with their big media by reference (a screenshot tool's results
 * would otherwise be in every window's state; the Servers screen fetches them with `getCallMedia`).
 */
function publish(st: TrackerState): void {
  const running = st.calls.filter((c) => c.status === 'running');
  const done = st.calls.filter((c) => c.status !== 'running');
  st.calls = [...done.slice(-CALLS_KEPT), ...running].sort((a, b) => a.startedAt - b.startedAt);
  st.deps.hub.set('calls', st.calls.map(publishedCall));
}

/** Applies `change` to call `id` (when still kept), publishes, then tells `onEnded`. */
function ended(st: TrackerState, id: string, change: Partial<CallView>): void {
  st.calls = st.calls.map((c) => (c.id === id ? { ...c, ...change } : c));
  publish(st);
  const call = st.calls.find((c) => c.id === id);
  if (call) st.deps.onEnded?.(call);
}

/**
 * Records a new call and runs it; the outcome (from `run`) is patched in when it settles.
 * @returns the new call's id
 * @throws ApiError not_found for an unknown server, invalid_state when it is not ready
 */
function start(st: TrackerState, serverId: string, kind: ClientRequestKind, name: string, args: Record<string, unknown>, run: RunCall, rerunOf?: string): string {
  const { deps } = st;
  const conn = deps.connection(serverId);
  if (!conn) throw new ApiError('not_found', ui('error.noServer', { server: serverId }));
  if (conn.view().status !== 'ready') throw new ApiError('invalid_state', ui('error.serverNotReady', { server: serverId, status: conn.view().status }));
  const id = randomUUID();
  st.calls = [...st.calls, { id, serverId, kind, name, arguments: args, status: 'running', startedAt: deps.now(), samplingItemIds: [], ...(rerunOf && { rerunOf }) }];
  publish(st);
  run(conn, callRef(id, kind, name, args)).then(
    (outcome) => ended(st, id, { status: 'succeeded', endedAt: deps.now(), ...outcome }),
    (err: unknown) => ended(st, id, failedChange(err, deps.now())),
  );
  return id;
}

/**
 * What a call that threw becomes: `declined` for {@link InputDeclinedError}, else `failed`; the
 * error's message and numeric `code`, and the era it needs when the error carries one. `endedAt` in epoch ms.
 */
function failedChange(err: unknown, endedAt: number): Partial<CallView> {
  const code = typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : undefined;
  const status = err instanceof InputDeclinedError ? 'declined' : 'failed';
  const eraNeed = (err as { eraNeed?: CallView['eraNeed'] } | null)?.eraNeed;
  return { status, endedAt, error: { message: err instanceof Error ? err.message : String(err), code }, ...(eraNeed ? { eraNeed } : {}) };
}

/**
 * A tool call on the session its tool needs; a failure that names the era it needs says so on the
 * call. The framework's refusal of a guard-style tool on 2025-11-25 ({@link callsAgain}) is
 * answered at once, without asking: the tool (now known to need 2026-07-28) is called again on a
 * session of that era, and the call says it was (`eraNeed.calledAgain`).
 */
async function runToolCall(st: TrackerState, serverId: string, name: string, args: Record<string, unknown>, primary: ServerConnection, call: CallRef): Promise<Partial<CallView>> {
  const { route } = st.deps;
  const conn = route ? await route(serverId, name, primary) : primary;
  try {
    return await callOnce(st, serverId, name, args, conn, call);
  } catch (err) {
    const eraNeed = (err as { eraNeed?: CallView['eraNeed'] }).eraNeed;
    const error = { code: errorCode(err), message: err instanceof Error ? err.message : String(err) };
    if (!route || !eraNeed || eraNeed.needs === conn.view().era || !callsAgain({ error })) throw err;
    const again = await route(serverId, name, primary);
    if (again === conn) throw err;
    const calledAgain = { ...eraNeed, calledAgain: true };
    try {
      return { ...(await callOnce(st, serverId, name, args, again, call)), eraNeed: calledAgain };
    } catch (second) {
      // The second call's own failure is the outcome; the call still says it was made again.
      throw Object.assign(second instanceof Error ? second : new Error(String(second)), { eraNeed: (second as { eraNeed?: CallView['eraNeed'] }).eraNeed ?? calledAgain });
    }
  }
}

/** One tool call on `conn`; a failure that names the era it needs carries it (`eraNeed`), as in {@link runToolCall}. */
async function callOnce(st: TrackerState, serverId: string, name: string, args: Record<string, unknown>, conn: ServerConnection, call: CallRef): Promise<Partial<CallView>> {
  try {
    return withEraNeed(st, serverId, name, await conn.callTool(name, args, { call }));
  } catch (err) {
    const eraNeed = st.deps.learn?.(serverId, name, { error: { code: errorCode(err), message: err instanceof Error ? err.message : String(err) } });
    if (eraNeed) throw Object.assign(err instanceof Error ? err : new Error(String(err)), { eraNeed });
    throw err;
  }
}

/** A finished call's result, with the era its tool needs when the result is an `isError` that names one. */
function withEraNeed(st: TrackerState, serverId: string, name: string, result: CallView['result']): Partial<CallView> {
  const eraNeed = result?.isError ? st.deps.learn?.(serverId, name, { result }) : undefined;
  return { result, ...(eraNeed ? { eraNeed } : {}) };
}

/** The numeric JSON-RPC `code` of an error, if it has one. */
function errorCode(err: unknown): number | undefined {
  return typeof (err as { code?: unknown } | null)?.code === 'number' ? (err as { code: number }).code : undefined;
}

/** {@link CallTracker.startToolCall}, `rerunOf` recorded on the call when given. */
function startToolCall(st: TrackerState, serverId: string, name: string, args: Record<string, unknown>, rerunOf?: string): string {
  return start(st, serverId, 'tools/call', name, args, (conn, call) => runToolCall(st, serverId, name, args, conn, call), rerunOf);
}

/** {@link CallTracker.startPromptGet}, `rerunOf` recorded on the call when given. */
function startPromptGet(st: TrackerState, serverId: string, name: string, args: Record<string, string>, rerunOf?: string): string {
  return start(st, serverId, 'prompts/get', name, args, async (conn, call) => ({ prompt: await conn.getPrompt(name, args, { call }) }), rerunOf);
}

/** {@link CallTracker.startResourceRead}, `rerunOf` recorded on the call when given. */
function startResourceRead(st: TrackerState, serverId: string, uri: string, rerunOf?: string): string {
  return start(st, serverId, 'resources/read', uri, { uri }, async (conn, call) => ({ resource: await conn.readResource(uri, { call }) }), rerunOf);
}

/** {@link CallTracker.rerun}: starts the finished call again with a copy of its arguments. */
function rerun(st: TrackerState, callId: string): string {
  const old = st.calls.find((c) => c.id === callId);
  if (!old) throw new ApiError('not_found', ui('error.noCall', { id: callId, kept: CALLS_KEPT }));
  if (old.status === 'running') throw new ApiError('invalid_state', ui('error.callRunning', { id: callId }));
  const args = structuredClone(old.arguments);
  if (old.kind === 'prompts/get') return startPromptGet(st, old.serverId, old.name, args as Record<string, string>, callId);
  if (old.kind === 'resources/read') return startResourceRead(st, old.serverId, old.name, callId);
  return startToolCall(st, old.serverId, old.name, args, callId);
}

/** The reference sampling and elicitation items keep to the call they belong to. */
function callRef(callId: string, kind: ClientRequestKind, name: string, args: Record<string, unknown> | undefined): CallRef {
  const line = argumentsLine(args);
  return { callId, kind, name, ...(line ? { args: line } : {}) };
}
