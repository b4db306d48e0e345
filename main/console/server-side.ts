/**
 * The console's server side, one step of `createConsole` (main/console.ts): the MCP connections
 * of mcp-servers.json (live reload, OAuth, import: main/servers), second sessions in the other
 * protocol era for tools that need it, the person's calls, the stdio processes it runs, and the
 * `servers` slice.
 */
import type { ServerConfig } from '../config.js';
import { createCallTracker, type CallTracker } from '../mcp/calls.js';
import { createServerConnection, type ConnectionAuth, type ConnectionDeps, type ServerConnection } from '../mcp/connection.js';
import { openEraCache } from '../mcp/era-cache.js';
import { openEraNeeds, recogniseEraMismatch } from '../mcp/era-needs.js';
import { createEraSessions, type EraSessions } from '../mcp/era-sessions.js';
import { createServersFeature } from '../servers/feature.js';
import { openProcessRegistry, systemProcessProbe, type ProcessRegistry } from '../servers/leftover-processes.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { GatewaySide } from './gateway-side.js';
import type { Foundation } from './foundation.js';
import type { RequestSide } from './request-side.js';

/** The server side's services. */
export interface ServerSide {
  connections: Map<string, ServerConnection>;
  eraNeeds: ReturnType<typeof openEraNeeds>;
  eraSessions: EraSessions;
  processes: ProcessRegistry;
  calls: CallTracker;
  feature: ReturnType<typeof createServersFeature>;
  /** Publishes the `servers` slice (with each server's roots and tool eras) and the running processes. */
  publishServers(): void;
  /** Told after each `publishServers` (e.g. the bridged servers' sign-ins, which change with it). */
  afterPublish: Set<() => void>;
}

/**
 * Creates the server side (not yet connecting: `feature.start()` does). Stdio servers a killed
 * console left running are ended first.
 * @param onCallEnded told when one of the person's calls ended (its waiting items end with it)
 */
export async function createServerSide(f: Foundation, req: RequestSide, onCallEnded: (callId: string) => void, gateway?: Pick<GatewaySide, 'launchEnv' | 'publish'>): Promise<ServerSide> {
  const connections = new Map<string, ServerConnection>();
  const eras = openEraCache(f.dir);
  const eraNeeds = openEraNeeds(f.dir);
  const processes = openProcessRegistry(f.dir, f.ports.processProbe ?? systemProcessProbe());
  const leftovers = await processes.endLeftovers();
  if (leftovers.length > 0) f.notify('info', ui('notice.endedLeftovers', { count: leftovers.length, names: [...new Set(leftovers)].join(', ') }));
  const authOf = new Map<string, ConnectionAuth | undefined>();
  // The servers feature and the era sessions open connections for each other: both are reached through `side`.
  const side = { connections, eraNeeds, processes, publishServers, afterPublish: new Set() } as ServerSide;

  /** The console's handlers for a server connection (its own, or a second session in another era). */
  function connectionDeps(auth: ConnectionAuth | undefined): ConnectionDeps {
    return {
      logger: f.logger,
      nodeRuntime: f.ports.nodeRuntime,
      offload: f.offload,
      now: f.now,
      onChange: publishServers,
      requests: req.requests,
      onElicitationComplete: (serverId, elicitationId) => req.elicitations.complete(serverId, elicitationId),
      onUrlElicitationRequired: (serverId, list, call) => req.elicitations.fromUrlError(serverId, connections.get(serverId)?.view().era ?? 'legacy', list, call),
      eras,
      auth,
      ...(gateway && { launchEnv: gateway.launchEnv }),
    };
  }
  function publishServers(): void {
    f.hub.set('servers', side.feature.views().map((v) => ({ ...v, roots: f.roots.list(v.id), toolEras: eraNeeds.forServer(v.id) })));
    processes.sync(runningProcesses(side));
    gateway?.publish();
    for (const after of side.afterPublish) after();
  }
  side.eraSessions = createEraSessions({
    needs: eraNeeds,
    logger: f.logger,
    open: (serverId, era) => {
      const config = side.feature.config(serverId);
      if (!config) return undefined;
      // Pinned to the era the tool needs; it does not touch the server's remembered era, nor the Servers screen.
      const pinned: ServerConfig = { ...config, protocol: era === 'legacy' ? 'legacy' : '2026-07-28' };
      return createServerConnection(serverId, pinned, { ...connectionDeps(authOf.get(serverId)), eras: undefined, onChange: () => processes.sync(runningProcesses(side)) });
    },
  });
  side.calls = callTracker(f, side, onCallEnded);
  // Servers: mcp-servers.json ↔ connections (live reload), OAuth, import; see main/servers.
  side.feature = createServersFeature({
    ports: f.ports,
    logger: f.logger,
    now: f.now,
    env: f.env,
    loaded: f.servers,
    connections,
    hub: f.hub,
    calls: side.calls,
    notify: f.notify,
    onChange: publishServers,
    create: (id, config, auth) => {
      authOf.set(id, auth);
      void side.eraSessions.close(id); // a new connection (config changed, restart): second sessions follow it
      return createServerConnection(id, config, connectionDeps(auth));
    },
  });
  return side;
}

/** The person's calls, routed to the session of the era a tool needs; an era mismatch a call reveals is learned. */
function callTracker(f: Foundation, side: ServerSide, onCallEnded: (callId: string) => void): CallTracker {
  return createCallTracker({
    hub: f.hub,
    now: f.now,
    connection: (id) => side.connections.get(id),
    route: (serverId, tool, primary) => side.eraSessions.forTool(serverId, tool, primary),
    learn: (serverId, tool, outcome) => {
      const mismatch = recogniseEraMismatch(outcome);
      if (!mismatch) return undefined;
      if (side.eraNeeds.get(serverId, tool)?.needs !== mismatch.needs) {
        side.eraNeeds.set(serverId, tool, { needs: mismatch.needs, learned: 'failure', detail: mismatch.detail, at: f.now() });
        side.publishServers();
      }
      return mismatch;
    },
    // An item still waiting inside a call that ended leaves the queue's "awaiting" at once (its draft stays).
    onEnded: (call) => onCallEnded(call.id),
  });
}

/** The stdio server processes running now, by pid (the servers' own and their second sessions). */
function runningProcesses(side: ServerSide): Map<number, string> {
  const out = new Map<number, string>();
  for (const c of [...side.connections.values(), ...side.eraSessions.connections()]) {
    const pid = c.view().pid;
    if (pid !== undefined) out.set(pid, c.id);
  }
  return out;
}
