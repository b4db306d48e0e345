/**
 * The bridge side, one step of `createConsole` (main/console.ts): the console's end of the local
 * channel bridges talk to (main/bridge/listener.ts). A bridged server's requests enter the one
 * door (`requests`) with source `bridge`, under the server id the bridge names (its entry's name
 * in mcp-servers.json for `bridge <name>`, else its `--name` or the name derived from its command
 * or URL: main/bridge/args.ts).
 */
import { createBridgeActivityStore, type BridgeActivityStore } from '../bridge/activity-store.js';
import { startBridgeListener, type BridgeListener } from '../bridge/listener.js';
import type { ConsoleStatus } from '../../shared/contract/bridge-protocol.js';
import type { BridgedServerView } from '../../shared/contract/state.js';
import type { ConnectionAuth } from '../mcp/connection-types.js';
import type { Foundation } from './foundation.js';
import type { RequestSide } from './request-side.js';
import { ui } from '../../shared/contract/ui-text.js';

/** The bridge side's handle. */
export interface BridgeSide {
  /** The listener, when this console listens (another console on the same folder may). */
  listener?: BridgeListener;
  /** Publishes the `bridged` slice again (e.g. a bridged server's sign-in changed). */
  publish(): void;
  /** What the bridged servers did: their logs (`getServerLog`) and recent host calls. */
  activity: BridgeActivityStore;
  /** Ends the requests still under review with a clear error to their bridges and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts listening for bridges. Never throws: a failure (a file in the socket's way) is a notice,
 * and the console runs without bridges.
 */
export async function startBridgeSide(f: Foundation, req: RequestSide, servers: { bridgeAuth(serverId: string, url: string): ConnectionAuth }): Promise<BridgeSide> {
  try {
    // The `bridged` slice: which servers hosts run through the bridge now (the Servers screen lists
    // them). A bridge can only say hello once the listener is there, so `listener` is set by then.
    // A bridged HTTP server's sign-in shows on its row once it turned out to use OAuth (the
    // server refused a request for want of a token, or the console holds one for it).
    const auths = new Map<string, ConnectionAuth & { since: number }>();
    const waiting = new Set<string>(); // listed as waiting for sign-in since their bridge ended
    const token = async (serverId: string, url: string, refresh?: { wwwAuthenticate?: string }) => {
      const auth = servers.bridgeAuth(serverId, url);
      try {
        const answer = await bridgeToken(auth, url, refresh);
        if (answer.accessToken) auths.set(serverId, { ...auth, since: f.now() });
        return answer;
      } catch (err) {
        auths.set(serverId, { ...auth, since: f.now() });
        throw err;
      } finally {
        queueMicrotask(publish);
      }
    };
    const activity = createBridgeActivityStore(f.now);
    const startedAt = f.now();
    const stop = f.ports.stop ?? f.ports.desktop?.quit;
    const focus = f.ports.desktop?.focusWindow;
    const publish = () => f.hub.set('bridged', bridgedRows(listener?.connected() ?? [], auths, waiting, (serverId) => f.roots.list(serverId)).map((b) => withCalls(b, activity)));
    const listener = await startBridgeListener({
      dir: f.dir,
      requests: req.requests,
      logger: f.logger,
      now: f.now,
      onChange: () => queueMicrotask(publish),
      onElicitationComplete: (serverId, elicitationId) => req.elicitations.complete(serverId, elicitationId),
      auth: token,
      onActivity: (serverId, report) => {
        activity.add(serverId, report);
        if (report.calls.length > 0) queueMicrotask(publish);
      },
      onFormerNames: (serverId, formerly) => req.formerNames.note(serverId, formerly),
      status: () => consoleStatus(f, startedAt),
      ...(stop && { stop }),
      show: () => {
        focus?.();
        return focus !== undefined;
      },
    });
    return { ...(listener && { listener }), publish, activity, close: async () => listener?.close() };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    f.logger.warn('bridges cannot reach this console', { error: message });
    f.notify('warning', ui('notice.bridgeUnreachable', { why: message }));
    return { publish: () => undefined, activity: createBridgeActivityStore(f.now), close: async () => undefined };
  }
}

/** What `mcp-approval-console status` is told: this process, its page, servers (its own, then bridged), requests waiting on a person. */
function consoleStatus(f: Foundation, startedAt: number): Omit<ConsoleStatus, 'type' | 'stopping' | 'shown'> {
  const { hub } = f; // slices, not a snapshot: no item is projected for this
  const address = f.ports.pageAddress?.();
  const gateway = hub.get('gateway')?.url;
  const servers: ConsoleStatus['servers'] = [
    ...hub.get('servers').map((s) => ({ id: s.id, source: 'console' as const, status: s.status })),
    ...(hub.get('bridged') ?? []).filter((b) => !b.disconnected).map((b) => ({ id: b.serverId, source: 'bridge' as const, status: 'connected', ...(b.via && { via: b.via.host }) })),
  ];
  return {
    pid: process.pid,
    host: f.ports.host,
    dataDir: f.dir,
    startedAt,
    ...(address && { address }),
    servers,
    waiting: hub.get('attention')?.count ?? 0,
    ...(gateway && { gateway }),
  };
}

/**
 * The access token of the console's sign-in for a bridged server; with `refresh` (the server
 * refused the last one) refreshed first, as a connection of the console's own would be.
 * @throws UnauthorizedError when nobody signed in, or the sign-in can no longer be refreshed
 */
async function bridgeToken(auth: ConnectionAuth, url: string, refresh?: { wwwAuthenticate?: string }): Promise<{ accessToken?: string }> {
  if (refresh) {
    const response = new Response(null, { status: 401, headers: refresh.wwwAuthenticate ? { 'www-authenticate': refresh.wwwAuthenticate } : {} });
    await auth.provider.onUnauthorized?.({ response, serverUrl: new URL(url), fetchFn: fetch });
  }
  const accessToken = await auth.provider.token();
  return accessToken ? { accessToken } : {};
}

/**
 * The bridged servers connected now (with their sign-in and the console's roots for them), then
 * those gone that need sign-in — and, once signed in, stay listed (the host has to restart them)
 * until a bridge of theirs connects. `waiting` holds the ids of the latter; updated here.
 */
function bridgedRows(
  connected: BridgedServerView[],
  auths: Map<string, ConnectionAuth & { since: number }>,
  waiting: Set<string>,
  roots: (serverId: string) => BridgedServerView['roots'],
): BridgedServerView[] {
  const authOf = (a: ConnectionAuth) => a.view() ?? { status: 'signed_out' as const };
  const rows: BridgedServerView[] = connected.map((b) => {
    waiting.delete(b.serverId);
    const known = auths.get(b.serverId);
    return { ...b, roots: roots(b.serverId), ...(known && { auth: authOf(known) }) };
  });
  for (const [serverId, a] of auths) {
    if (rows.some((r) => r.serverId === serverId)) continue;
    const auth = authOf(a);
    if (auth.status !== 'signed_in') waiting.add(serverId);
    if (waiting.has(serverId)) rows.push({ serverId, since: a.since, pending: 0, auth, disconnected: true });
  }
  return rows;
}

/** A bridged row with its recent host calls, when it has any. */
function withCalls(row: BridgedServerView, activity: BridgeActivityStore): BridgedServerView {
  const calls = activity.calls(row.serverId);
  return calls.length > 0 ? { ...row, calls } : row;
}
