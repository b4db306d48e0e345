/**
 * Client requests the person starts (`tools/call`, `prompts/get`, `resources/read`) and
 * their outcomes. A sampling request always belongs to one of these (S-ASSOC-1): this tracker
 * answers "what is in flight to server X right now" and links items to their calls.
 */
import { argumentsLine } from '../../shared/domain/call-args.js';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/contract/api.js';
import type { CallRef, CallView, ClientRequestKind } from '../../shared/contract/state.js';
import type { StateHub } from '../state-hub.js';
import { InputDeclinedError, type ServerConnection } from './connection.js';
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
  /** Records that a sampling item arrived during these calls. */
  linkItem(callIds: string[], itemId: string): void;
}

/** Creates the tracker over the console's connections. */
export function createCallTracker(deps: {
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
  /** Told after a call finished (succeeded, failed or declined), once state shows it; items still waiting inside it end (README, "Drafts"). */
  onEnded?(call: CallView): void;
}): CallTracker {
  let calls: CallView[] = [];

  const publish = () => {
    const running = calls.filter((c) => c.status === 'running');
    const done = calls.filter((c) => c.status !== 'running');
    calls = [...done.slice(-CALLS_KEPT), ...running].sort((a, b) => a.startedAt - b.startedAt);
    deps.hub.set('calls', calls);
  };

  const patch = (id: string, change: Partial<CallView>) => {
    calls = calls.map((c) => (c.id === id ? { ...c, ...change } : c));
    publish();
  };
  const ended = (id: string, change: Partial<CallView>) => {
    patch(id, change);
    const call = calls.find((c) => c.id === id);
    if (call) deps.onEnded?.(call);
  };

  /** Records a new call and runs it; the outcome (from `run`) is patched in when it settles. */
  const start = (
    serverId: string,
    kind: ClientRequestKind,
    name: string,
    args: Record<string, unknown>,
    run: (conn: ServerConnection, call: CallRef) => Promise<Partial<CallView>>,
    rerunOf?: string,
  ): string => {
    const conn = deps.connection(serverId);
    if (!conn) throw new ApiError('not_found', ui('error.noServer', { server: serverId }));
    if (conn.view().status !== 'ready') throw new ApiError('invalid_state', ui('error.serverNotReady', { server: serverId, status: conn.view().status }));
    const id = randomUUID();
    calls = [...calls, { id, serverId, kind, name, arguments: args, status: 'running', startedAt: deps.now(), samplingItemIds: [], ...(rerunOf && { rerunOf }) }];
    publish();
    run(conn, callRef(id, kind, name, args)).then(
      (outcome) => ended(id, { status: 'succeeded', endedAt: deps.now(), ...outcome }),
      (err: unknown) => {
        const code = typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : undefined;
        const status = err instanceof InputDeclinedError ? 'declined' : 'failed';
        const eraNeed = (err as { eraNeed?: CallView['eraNeed'] } | null)?.eraNeed;
        ended(id, { status, endedAt: deps.now(), error: { message: err instanceof Error ? err.message : String(err), code }, ...(eraNeed ? { eraNeed } : {}) });
      },
    );
    return id;
  };

  /** A tool call on the session its tool needs; a failure that names the era it needs says so on the call. */
  const runToolCall = async (serverId: string, name: string, args: Record<string, unknown>, primary: ServerConnection, call: CallRef): Promise<Partial<CallView>> => {
    const conn = deps.route ? await deps.route(serverId, name, primary) : primary;
    let result: CallView['result'];
    try {
      result = await conn.callTool(name, args, { call });
    } catch (err) {
      const code = typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : undefined;
      const eraNeed = deps.learn?.(serverId, name, { error: { code, message: err instanceof Error ? err.message : String(err) } });
      if (eraNeed) throw Object.assign(err instanceof Error ? err : new Error(String(err)), { eraNeed });
      throw err;
    }
    const eraNeed = result?.isError ? deps.learn?.(serverId, name, { result }) : undefined;
    return { result, ...(eraNeed ? { eraNeed } : {}) };
  };

  const startToolCall = (serverId: string, name: string, args: Record<string, unknown>, rerunOf?: string) =>
    start(serverId, 'tools/call', name, args, (conn, call) => runToolCall(serverId, name, args, conn, call), rerunOf);
  const startPromptGet = (serverId: string, name: string, args: Record<string, string>, rerunOf?: string) =>
    start(serverId, 'prompts/get', name, args, async (conn, call) => ({ prompt: await conn.getPrompt(name, args, { call }) }), rerunOf);
  const startResourceRead = (serverId: string, uri: string, rerunOf?: string) =>
    start(serverId, 'resources/read', uri, { uri }, async (conn, call) => ({ resource: await conn.readResource(uri, { call }) }), rerunOf);

  return {
    startToolCall: (serverId, name, args) => startToolCall(serverId, name, args),
    startPromptGet: (serverId, name, args) => startPromptGet(serverId, name, args),
    startResourceRead: (serverId, uri) => startResourceRead(serverId, uri),
    rerun(callId) {
      const old = calls.find((c) => c.id === callId);
      if (!old) throw new ApiError('not_found', ui('error.noCall', { id: callId, kept: CALLS_KEPT }));
      if (old.status === 'running') throw new ApiError('invalid_state', ui('error.callRunning', { id: callId }));
      const args = structuredClone(old.arguments);
      if (old.kind === 'prompts/get') return startPromptGet(old.serverId, old.name, args as Record<string, string>, callId);
      if (old.kind === 'resources/read') return startResourceRead(old.serverId, old.name, callId);
      return startToolCall(old.serverId, old.name, args, callId);
    },
    inFlight: (serverId) =>
      calls.filter((c) => c.serverId === serverId && c.status === 'running').map((c) => callRef(c.id, c.kind, c.name, c.arguments)),
    linkItem(callIds, itemId) {
      calls = calls.map((c) => (callIds.includes(c.id) ? { ...c, samplingItemIds: [...c.samplingItemIds, itemId] } : c));
      publish();
    },
  };
}

/** The reference sampling and elicitation items keep to the call they belong to. */
function callRef(callId: string, kind: ClientRequestKind, name: string, args: Record<string, unknown> | undefined): CallRef {
  const line = argumentsLine(args);
  return { callId, kind, name, ...(line ? { args: line } : {}) };
}
