/**
 * The console's team side, one step of `createConsole` (main/console.ts) when it is an instance of
 * a team (`ConsolePorts.team`): the shared queue (main/team/queue.ts) over the console's hub — the
 * request side changes items through the queue's hub, so the items it holds become rows — the
 * decisions routed through each item's holder (main/team/decisions.ts), and what a survivor does
 * when an instance is gone (main/team/failover.ts). Absent on a console of its own.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, type ApiParsedInput, type ConsoleService } from '../../shared/contract/api.js';
import type { Viewer } from '../../shared/contract/roles.js';
import { ui } from '../../shared/contract/ui-text.js';
import { actingAs, currentActor } from '../audit/actor.js';
import { createTeamApprovals, type TeamApprovals } from '../team/approvals.js';
import { CLAIM_TIMEOUT_ENV, createTeamClaims, type Claimant, type TeamClaims } from '../team/claims.js';
import { currentConnection, onConnection } from '../team/connection.js';
import { createTeamDecisions, DECISION_METHODS, refusal, type DecisionMethod, type LocalMethods, type TeamDecisions } from '../team/decisions.js';
import type { TeamDatabase } from '../team/database.js';
import { startFailover, type Failover } from '../team/failover.js';
import { createTeamQueue, type TeamQueue } from '../team/queue.js';
import type { ServerRequestRouter } from '../requests/router.js';
import { HistoryUnavailableError } from '../store/history-api.js';
import type { Foundation } from './foundation.js';
import type { RequestSide } from './request-side.js';

/** The methods the team side answers in place of the console's own. */
export type TeamMethods = Pick<ConsoleService, DecisionMethod | 'getItem' | 'getItemMedia' | 'claimItem' | 'releaseClaim' | 'takeOverClaim'>;

/** A team server's UI connections. */
export interface TeamConnections {
  /**
   * The service one UI connection of `principal` talks to: each call runs as that person
   * (main/audit/actor.ts `actingAs`) on that connection (main/team/connection.ts), so decisions
   * check their claim; subscribing to events (the connection opened) puts them online, and
   * unsubscribing (it closed) releases its claims.
   */
  serve(principal: Viewer, service: ConsoleService): ConsoleService;
}

/** The team side of a console. */
export interface TeamSide {
  team: TeamDatabase;
  queue: TeamQueue;
  /** The foundation the request side is to use: the same, with the shared queue's hub. */
  foundation: Foundation;
  /**
   * The request side's door, refusing a request at once (rejects HistoryUnavailableError: HTTP 503
   * from the gateway, JSON-RPC -32603 to a server) while the team database cannot be reached: it
   * could neither be shared with the team nor recorded. `roots/list` still passes.
   */
  guard(requests: ServerRequestRouter): ServerRequestRouter;
  /**
   * Starts the decisions and the survivor's duties over the request side; `local` are the
   * console's own methods (acting here). Returns the methods to serve instead.
   */
  start(req: RequestSide, local: TeamMethods): Promise<TeamMethods>;
  /** See {@link TeamConnections} (after `start`). */
  connections: TeamConnections;
  /** Before the history closes at shutdown: what this instance held is written, decisions stop. */
  drain(): Promise<void>;
  /** Last at shutdown: stops following the team (the host closes the team database afterwards: its lease then says it stopped). */
  close(): void;
}

/** Creates the team side over the foundation (before the request side: it gives it its hub). */
export function createTeamSide(f: Foundation, team: TeamDatabase): TeamSide {
  const queue = createTeamQueue({ team, hub: f.hub, history: f.history, logger: f.logger });
  let decisions: TeamDecisions | undefined;
  let failover: Failover | undefined;
  const approvals = createTeamApprovals({ team, hub: f.hub, audit: f.audit });
  let claims: TeamClaims | undefined;
  return {
    team,
    queue,
    connections: { serve: (principal, service) => connectionService(principal, service, () => claims, f.logger) },
    foundation: { ...f, hub: queue.mirror.hub },
    guard: (requests) => ({
      receive(request) {
        if (request.kind === 'roots' || team.conn.available()) return requests.receive(request);
        return Promise.reject(new HistoryUnavailableError(`The team database (${team.target}) cannot be reached; try again in a moment`));
      },
    }),
    async start(req, local) {
      decisions = createTeamDecisions({ team, queue, local: local as LocalMethods, history: f.history, logger: f.logger, now: f.now });
      failover = startFailover({
        team,
        history: f.history,
        logger: f.logger,
        now: f.now,
        // Cut off past the lease: survivors ended (and recorded) what it held under the old id; end it here too, never deciding it again.
        leaseLost: async (oldId) => {
          queue.mirror.leaseLost(oldId);
          decisions?.leaseLost();
          const held = (id: string) => queue.mirror.heldAs(id) === oldId;
          req.pipeline.cancelAll(ui('outcome.instanceStopped'), 'instance_stopped', held);
          req.elicitations.cancelAll(ui('outcome.instanceStopped'), 'instance_stopped', held);
        },
      });
      const timeoutMs = Number(f.env[CLAIM_TIMEOUT_ENV]); // tests and operators may shorten it
      claims = createTeamClaims({ team, hub: f.hub, audit: f.audit, logger: f.logger, approvals: approvals.view, ...(timeoutMs > 0 && { timings: { timeoutMs } }) });
      await queue.readAll();
      void decisions.applyPending();
      void claims.refresh();
      return { ...routed(queue, local), ...claimed(decisions, claims, approvals) };
    },
    async drain() {
      await queue.mirror.flushed();
      decisions?.close();
      failover?.close();
      claims?.close();
    },
    close() {
      queue.close();
    },
  };
}

/** Items held elsewhere opened from their rows. */
function routed(queue: TeamQueue, local: TeamMethods): Pick<TeamMethods, 'getItem' | 'getItemMedia'> {
  return {
    getItem: async (input) => queue.openRemote(input.id) ?? local.getItem(input),
    getItemMedia: async (input) => {
      const media = await queue.remoteMedia(input.id, input.refs);
      return media ? { media } : local.getItemMedia(input);
    },
  };
}

/** The person deciding now: the signed-in person of the call (never an input field), with their connection. */
function claimant(): Claimant | undefined {
  const actor = currentActor();
  if (actor?.kind !== 'person' || actor.id === undefined) return undefined;
  const connection = currentConnection();
  return { subject: actor.id, name: actor.name ?? actor.id, ...(connection && { connectionId: connection.id }) };
}

/**
 * The decision methods, taken through each item's holder (decisions.ts), checked against claims
 * (only the holder decides: a free item is claimed by the decision; a draft is kept when nobody
 * else holds it, without claiming), approvals counted under two-person rules, and the claim methods. A call with no
 * signed-in person (tools, tests of the queue) decides without claims.
 */
function claimed(decisions: TeamDecisions, claims: TeamClaims, approvals: TeamApprovals): Omit<TeamMethods, 'getItem' | 'getItemMedia'> {
  const signedIn = () => {
    const who = claimant();
    if (!who) throw new ApiError('forbidden', ui('error.signedInOnly'));
    return who;
  };
  const decide =
    <M extends DecisionMethod>(method: M) =>
    (input: ApiParsedInput<M>) => {
      const who = claimant();
      if (!who || method === 'dismissItem') return decisions.decide(method, input);
      const itemId = (input as { itemId: string }).itemId;
      if (method === 'saveDraft') return decisions.decide(method, input, (query) => claims.notOthers(query, itemId, who, method));
      return decisions.decide(method, input, (query) => claims.holdOrRefuse(query, itemId, who, method));
    };
  const methods = Object.fromEntries(DECISION_METHODS.map((m) => [m, decide(m)])) as unknown as Pick<ConsoleService, DecisionMethod>;
  return {
    ...methods,
    approveRequest: async (input) => {
      const who = claimant();
      // Under a two-person rule an approval may be counted without a decision: the claim is checked first.
      if (who && approvals.covers(input.itemId)) await claims.claim(input.itemId, who).then((c) => c.mine || Promise.reject(refusal('approveRequest', ui('error.claimedBy', { name: c.holder.name }), 'forbidden')));
      if ((await approvals.approve(input, who)) === 'counted') return who && claims.release(input.itemId, who, 'decided');
      return methods.approveRequest(input);
    },
    claimItem: async ({ itemId }) => claims.claim(itemId, signedIn()),
    releaseClaim: async ({ itemId }) => claims.release(itemId, signedIn()),
    takeOverClaim: async ({ itemId }) => {
      const who = signedIn();
      if (currentConnection()?.principal.role !== 'admin') throw new ApiError('forbidden', ui('error.takeOverAdminOnly'));
      return claims.takeOver(itemId, who);
    },
  };
}

/** See {@link TeamConnections.serve}. */
function connectionService(principal: Viewer, service: ConsoleService, claims: () => TeamClaims | undefined, logger: Foundation['logger']): ConsoleService {
  const connection = { id: randomUUID(), principal };
  const actor = { kind: 'person' as const, id: principal.subject, name: principal.name };
  const wrapped = Object.fromEntries(
    Object.entries(service).map(([name, fn]) => [name, (input: unknown) => actingAs(actor, () => onConnection(connection, () => (fn as (i: unknown) => unknown)(input)))]),
  ) as unknown as ConsoleService;
  const warn = (err: unknown) => logger.warn('team claims: a connection could not be recorded', { error: String(err) });
  return {
    ...wrapped,
    onEvent: (listener) => {
      const off = service.onEvent(listener);
      void claims()?.connected(connection).catch(warn);
      return () => {
        off();
        // Not recorded (the database is away): its claims run out with their heartbeats.
        void claims()?.disconnected(connection.id).catch(warn);
      };
    },
  };
}
