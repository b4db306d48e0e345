/**
 * `createConsole(ports)`: wires config, MCP connections, the sampling pipeline, providers and the
 * history store into one {@link ConsoleService}, in named steps (main/console/): the foundation
 * (files, hub, notices), the request side (policy, pipeline, elicitation, the one door of server
 * requests), the server side (connections, calls, processes), then desktop life and history.
 * Hosts (app/electron, app/web) and tests call this; the same core runs under every host (like
 * MCP Inspector v2's environment split).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type { ConsoleEvent, ConsoleService } from '../shared/contract/api.js';
import { ApiError } from '../shared/contract/api.js';
import type { ItemView } from '../shared/contract/state.js';
import { ui } from '../shared/contract/ui-text.js';
import { elideMedia, payloadsFor } from '../shared/domain/media-refs.js';
import { createDesktopLife } from './attention/desktop-life.js';
import type { RemoteCaller } from './bridge/listener.js';
import { startBridgeSide, type BridgeSide } from './console/bridge-side.js';
import { openFoundation, type Foundation } from './console/foundation.js';
import { startGatewaySide, type GatewaySide } from './console/gateway-side.js';
import { createRequestSide, type RequestSide } from './console/request-side.js';
import { createServerSide, type ServerSide } from './console/server-side.js';
import { createTeamSide, type TeamConnections, type TeamSide } from './console/team-side.js';
import { keepDraftInHistory } from './history/kept-drafts.js';
import { createHistoryService } from './history/service.js';
import { auditMethods } from './audit/methods.js';
import { startAuditService } from './audit/service.js';
import type { AuditTrail } from './audit/trail.js';
import { peopleAdmin } from './team/people-admin.js';
import { desktopPeopleMethods, teamPeopleMethods, type PeopleMethods } from './team/people-service.js';
import { teamPeople } from './team/people.js';
import type { ServersMethods } from './servers/feature.js';
import { createHostRouting, type HostRoutingMethods } from './host-config/routes.js';
import type { ConsolePorts } from './ports.js';
import { closeWithin } from './shutdown.js';
import type { StateHub } from './state-hub.js';

export { HISTORY_FILE } from './console/foundation.js';

/**
 * What a team server's own listener serves besides the UI (app/web/team-host.ts): the provider
 * gateway's endpoints, who a token names, and bridges connected from other machines.
 */
export interface RemoteDoors {
  /** The gateway's endpoints (requests from web pages refused; a gateway token per call). */
  gateway(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Who a named gateway token belongs to (a developer's bridge shows one), else undefined. @throws (rejects) HistoryUnavailableError while the team's database cannot be reached */
  caller(token: string): Promise<RemoteCaller | undefined>;
  /** Takes a bridge connected over a WebSocket whose token was checked (closed at once when this console does not listen for bridges). */
  bridge(socket: WebSocket, caller: RemoteCaller): void;
  /** The console's audit trail (the team's), for what the host records itself: sign-ins and sign-outs. */
  audit: Pick<AuditTrail, 'record' | 'durable'>;
}

/** A running console. `dispose` closes every server connection and the history database. */
export interface ConsoleHandle {
  service: ConsoleService;
  /** Present on a team server (`ports.team`): see {@link RemoteDoors}. */
  remote?: RemoteDoors;
  /** Present on a team server: a UI connection's service for a signed-in person (claims, who is online): see {@link TeamConnections}. */
  connections?: TeamConnections;
  /** Every queue item whole (both kinds, arrival order), as main holds it now: for tests and in-process tools. */
  items(): ItemView[];
  /** Resolves when every enabled server has finished its first connection attempt. */
  ready: Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Starts the console: reads config from `ports.userDataDir` (creating the embedded default),
 * opens history, and starts connecting every enabled server (without waiting for them).
 * @throws Error when another console runs on the same data folder, or the history database cannot
 *   be opened (e.g. written by a newer version)
 */
export async function createConsole(ports: ConsolePorts): Promise<ConsoleHandle> {
  const f = await openFoundation(ports);
  // On a team, the items the request side holds are shared through the team's queue.
  const team = ports.team ? createTeamSide(f, ports.team) : undefined;
  // The request side reaches the servers only while it handles a request, when they exist.
  let servers: ServerSide | undefined = undefined;
  const req = createRequestSide(team?.foundation ?? f, {
    inFlightCalls: (serverId) => servers?.calls.inFlight(serverId) ?? [],
    linkItem: (callIds, itemId) => servers?.calls.linkItem(callIds, itemId),
    serverConfig: (serverId) => servers?.feature.config(serverId),
  });
  if (team) req.requests = team.guard(req.requests); // refused at once while the team database cannot be reached
  await req.policy.ready; // today's totals from history, before any request can arrive
  // The provider gateway listens before servers start, so a `providerGateway` server is launched with its address.
  const gateway = await startGatewaySide(f, req, { serverConfig: (id) => servers?.feature.config(id), serverIds: () => servers?.feature.views().map((v) => v.id) ?? [] });
  const srv = await createServerSide(
    f,
    req,
    (callId) => {
      req.pipeline.callEnded(callId);
      req.elicitations.callEnded(callId);
    },
    gateway,
  );
  servers = srv;
  srv.publishServers();
  const ready = srv.feature.start();
  // Bridged servers (agent hosts run them through `mcp-approval-console bridge`) ask through the same door.
  const bridges = await startBridgeSide(f, req, srv.feature);
  srv.afterPublish.add(bridges.publish); // a bridged server's sign-in shows on its row
  // Desktop life: desktop settings, notifications, badge, tray.
  const desktop = createDesktopLife({ dir: f.dir, hub: f.hub, ports: ports.desktop, logger: f.logger, now: f.now, notify: f.notify, setAutoApprovalPaused: (paused) => req.policy.setPaused(paused) });
  const historyService = createHistoryService({ store: f.history, userDataDir: f.dir, now: f.now, logger: f.logger, notify: f.notify, reopenDraft: (entry) => req.pipeline.reopenDraft(entry), audit: f.audit });
  const audit = startAuditService({ trail: f.audit, dir: f.dir, env: f.env, logger: f.logger, now: f.now, notify: f.notify });
  const hostRouting = createHostRouting({
    dir: f.dir,
    now: f.now,
    logger: f.logger,
    launcher: f.ports.bridgeLauncher,
    urlTarget: () => {
      const at = gateway.bridgeHttp();
      return at && { ...at, served: (name: string) => srv.feature.config(name) !== undefined };
    },
  });
  const queue = queueMethods(f, req, srv);
  const people = peopleMethods(f, ports.team);
  const service = consoleService(f, req, srv, { ...queue, ...(team && (await team.start(req, queue))) }, { ...desktop.methods, ...historyService.methods, ...gateway.methods, ...hostRouting, ...people, ...auditMethods({ trail: f.audit, dir: f.dir, env: f.env }) }, bridges);
  return {
    service,
    ...(ports.team && { remote: remoteDoors(gateway, bridges, f.audit) }),
    ...(team && { connections: team.connections }),
    items: () => f.hub.items(),
    ready,
    async dispose() {
      desktop.dispose();
      await shutDown(f, req, srv, { close: async () => (await bridges.close(), await gateway.close()) }, () => historyService.dispose(), () => audit.dispose(), team);
    },
  };
}

/** A team server's {@link RemoteDoors}: the gateway side's endpoints and tokens, the bridge side's listener. Only named tokens are callers from elsewhere. */
function remoteDoors(gateway: GatewaySide, bridges: BridgeSide, audit: AuditTrail): RemoteDoors {
  return {
    audit,
    gateway: gateway.handle,
    caller: async (token) => {
      const holder = await gateway.holder(token);
      if (holder?.caller.kind !== 'token') return undefined;
      const personal = holder.personal;
      if (!personal) return { name: holder.caller.name };
      if (personal.callers && !personal.callers.includes('bridge')) return undefined; // scoped to the gateway
      return { name: personal.name, requestedBy: personal.owner, ...(personal.servers && { servers: personal.servers }), valid: () => gateway.personalTokenValid(personal.id) };
    },
    bridge: (socket, caller) => (bridges.listener ? bridges.listener.acceptRemote(socket, caller) : socket.close(1013, 'this console does not take bridges now')),
  };
}

/** The methods the desktop life, the history service, the gateway, host routing, the people and the audit view implement. */
type MoreMethods = Pick<
  ConsoleService,
  keyof ReturnType<typeof createDesktopLife>['methods'] | keyof ReturnType<typeof createHistoryService>['methods'] | keyof GatewaySide['methods'] | keyof HostRoutingMethods | keyof PeopleMethods | 'listAudit' | 'verifyAudit'
>;

/** The People methods: a team's people (recorded in its audit trail), or the desktop's refusal. */
function peopleMethods(f: Foundation, team: ConsolePorts['team']): PeopleMethods {
  if (!team) return desktopPeopleMethods();
  const people = teamPeople(team.conn, team.notifier);
  return teamPeopleMethods(peopleAdmin({ people, audit: f.audit, logger: f.logger, now: f.now }), () => people.list());
}

/** Every service method, bound to the parts that do the work (`queue`: the queue methods, a team's routed ones included). */
function consoleService(f: Foundation, req: RequestSide, srv: ServerSide, queue: QueueMethods, more: MoreMethods, bridges: BridgeSide): ConsoleService {
  const listeners = new Set<(event: ConsoleEvent) => void>();
  f.hub.subscribe((e) => listeners.forEach((l) => l(e)));
  return {
    whoAmI: async () => null, // the desktop has no sign-in; a team server's host answers per connection
    ...queue,
    ...serverMethods(f, srv, bridges),
    ...settingsMethods(f, req),
    ...more,
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The state, calls and queue methods. */
type QueueMethods = Pick<
  ConsoleService,
  | 'getState'
  | 'getItem'
  | 'getItemMedia'
  | 'getCallMedia'
  | 'callTool'
  | 'rerunCall'
  | 'dismissNotice'
  | 'setToolEra'
  | 'approveRequest'
  | 'rejectRequest'
  | 'cancelGeneration'
  | 'regenerate'
  | 'approveResponse'
  | 'rejectResponse'
  | 'dismissItem'
  | 'saveDraft'
  | 'respondElicitation'
  | 'claimItem'
  | 'releaseClaim'
  | 'takeOverClaim'
>;

/** The state, the calls the person starts, and the queue's items (sampling requests and elicitations). */
function queueMethods(f: Foundation, req: RequestSide, srv: ServerSide): QueueMethods {
  const { hub, notices, now } = f;
  const { pipeline, elicitations } = req;
  const { calls, eraNeeds, publishServers } = srv;
  return {
    getState: async () => hub.snapshot(),
    getItem: async ({ id }) => {
      const found = publishedItem(hub, id, 'open');
      const { value, refs } = elideMedia(found.item);
      return refs.length ? { item: value, version: found.version, media: refs } : found;
    },
    getItemMedia: async ({ id, refs }) => ({ media: payloadsFor(publishedItem(hub, id).item, refs) }),
    getCallMedia: async ({ callId, refs }) => ({ media: calls.media(callId, refs) }),
    callTool: async ({ serverId, name, arguments: args }) => ({ callId: calls.startToolCall(serverId, name, args) }),
    rerunCall: async ({ callId }) => ({ callId: calls.rerun(callId) }),
    dismissNotice: async ({ id }) => notices.dismiss(id),
    setToolEra: async ({ serverId, tool, era }) => {
      eraNeeds.set(serverId, tool, era ? { needs: era, learned: 'person', detail: 'set on the Servers screen', at: now() } : undefined);
      publishServers();
    },
    // One person at a desktop: nothing to claim (a team's side answers these).
    claimItem: () => Promise.reject(new ApiError('invalid_state', ui('error.claimsTeamOnly'))),
    releaseClaim: async () => undefined,
    takeOverClaim: () => Promise.reject(new ApiError('invalid_state', ui('error.claimsTeamOnly'))),
    approveRequest: ({ itemId, version, params, model }) => pipeline.approveRequest(itemId, version, params, model),
    rejectRequest: async ({ itemId, version, reason }) => pipeline.rejectRequest(itemId, version, reason),
    cancelGeneration: async ({ itemId }) => pipeline.cancelGeneration(itemId),
    regenerate: ({ itemId, version }) => pipeline.regenerate(itemId, version),
    approveResponse: async ({ itemId, version, result }) => pipeline.approveResponse(itemId, version, result),
    rejectResponse: async ({ itemId, version, reason }) => pipeline.rejectResponse(itemId, version, reason),
    dismissItem: async ({ itemId }) => {
      if (!elicitations.dismiss(itemId)) pipeline.dismiss(itemId);
    },
    saveDraft: async ({ itemId, draft, version }) => {
      if (draft.form && elicitations.saveDraft(itemId, draft.form, version)) return;
      // An item the queue no longer holds (dismissed, pruned, from before a restart): its History entry keeps it.
      if (!hub.getItem(itemId)) return keepDraftInHistory(f.history, itemId, draft, now());
      pipeline.saveDraft(itemId, draft, version);
    },
    respondElicitation: async ({ itemId, version, action, content }) => elicitations.respond(itemId, version, action, content),
  };
}

/**
 * The item `id` as the state's last patch left it; `open`: a window opens it, so later patches
 * carry its changes (StateHub.open). @throws ApiError `not_found` when the state holds no such item
 */
function publishedItem(hub: StateHub, id: string, open?: 'open'): { item: ItemView; version: number } {
  const found = open ? hub.open(id) : hub.published(id);
  if (!found) throw new ApiError('not_found', ui('error.noItem', { id }));
  return found;
}

/** The Servers screen's methods: the feature's own, with roots, restart, and what bridged servers change about sign-out and logs. */
function serverMethods(f: Foundation, srv: ServerSide, bridges: BridgeSide): ServersMethods & Pick<ConsoleService, 'setServerRoots' | 'restartServer'> {
  const { roots } = f;
  const { connections, publishServers } = srv;
  return {
    setServerRoots: async ({ serverId, folders }) => {
      const conn = connections.get(serverId);
      const bridged = bridges.listener?.connected().some((b) => b.serverId === serverId) ?? false;
      if (!conn && !bridged) throw new ApiError('not_found', ui('error.noServer', { server: serverId }));
      const list = roots.set(serverId, folders);
      publishServers();
      await conn?.notifyRootsChanged();
      bridges.listener?.rootsChanged(serverId); // a bridged server whose host has no roots of its own is told too
      if (bridged) bridges.publish(); // its row shows the console's roots
      return { roots: list };
    },
    restartServer: async ({ serverId }) => srv.feature.restart(serverId),
    ...srv.feature.methods,
    signOut: async (input) => {
      await srv.feature.methods.signOut(input);
      // A bridged server's bridges drop the token they hold; its row shows the sign-in gone.
      bridges.listener?.signedOut(input.serverId);
      bridges.publish();
    },
    // A bridged server's log comes from its bridge's reports; a connection of the console's own first.
    getServerLog: async (input) => (srv.connections.has(input.serverId) ? srv.feature.methods.getServerLog(input) : (bridges.activity.log(input.serverId)?.page(input.query, input.limit) ?? srv.feature.methods.getServerLog(input))),
  };
}

/** History reads, providers and model settings, and the rules. */
function settingsMethods(f: Foundation, req: RequestSide): Pick<
  ConsoleService,
  'listHistory' | 'getHistoryEntry' | 'getHistoryMedia' | 'saveProvider' | 'removeProvider' | 'testProvider' | 'listProviderModels' | 'saveModelSettings' | 'saveRules' | 'setAutoApprovalPaused' | 'exportRules' | 'importRules' | 'setKeepOriginal'
> {
  const { history, providerRegistry } = f;
  const { policy } = req;
  return {
    listHistory: async (input) => history.list(input),
    getHistoryEntry: async ({ id, media }) => {
      const entry = await history.get(id);
      return entry && media === 'by-ref' ? elideMedia(entry).value : entry;
    },
    getHistoryMedia: async ({ id, refs }) => {
      const entry = await history.get(id);
      if (!entry) throw new ApiError('not_found', ui('error.noHistoryEntry', { id }));
      return { media: payloadsFor(entry, refs) };
    },
    saveProvider: (input) => providerRegistry.save(input),
    removeProvider: ({ id }) => providerRegistry.remove(id),
    testProvider: (input) => providerRegistry.test(input),
    listProviderModels: async (input) => ({ models: await providerRegistry.listModels(input) }),
    saveModelSettings: (input) => providerRegistry.saveModelSettings(input),
    saveRules: async ({ rules, baseRevision }) => void (await policy.saveRules(rules, baseRevision)),
    setAutoApprovalPaused: async ({ paused }) => policy.setPaused(paused),
    exportRules: async () => policy.exportRules(),
    importRules: async ({ text }) => ({ rules: Object.values((await policy.importRules(text)).servers).reduce((n, s) => n + s.rules.length, 0) }),
    setKeepOriginal: async ({ itemId, keep }) => policy.setKeepOriginal(itemId, keep),
  };
}

/**
 * Stops in order: every request a server waits on is answered (a clear error) before its
 * connection closes — a bridged server's through its bridge, a gateway caller's over HTTP;
 * on a team, the items' endings reach the shared queue; connections close within a bound;
 * the history service, the audit trail's last anchor, then the databases are closed last (the host
 * closes the team database after).
 */
async function shutDown(f: Foundation, req: RequestSide, srv: ServerSide, bridges: Pick<BridgeSide, 'close'>, disposeHistoryService: () => void, disposeAudit: () => Promise<void>, team?: TeamSide): Promise<void> {
  req.pipeline.cancelAll(ui('outcome.shuttingDown'));
  req.elicitations.cancelAll(ui('outcome.shuttingDown'));
  await req.inProgress.answered();
  await team?.drain(); // the team sees them ended
  await bridges.close();
  await req.policy.close();
  const pids = [...srv.connections.values(), ...srv.eraSessions.connections()].map((c) => c.view().pid).filter((pid): pid is number => pid !== undefined);
  await closeWithin(Promise.all([srv.eraSessions.closeAll(), srv.feature.dispose()]), pids);
  srv.processes.sync(new Map()); // closed cleanly: nothing left behind
  f.hub.flush();
  disposeHistoryService();
  await disposeAudit(); // the last anchor, once every decision above is recorded
  await f.history.close();
  await f.audit.close();
  await f.offload.close();
  team?.close();
  f.folderLock.release();
}
