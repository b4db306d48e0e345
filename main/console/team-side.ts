/**
 * The console's team side, one step of `createConsole` (main/console.ts) when it is an instance of
 * a team (`ConsolePorts.team`): the shared queue (main/team/queue.ts) over the console's hub — the
 * request side changes items through the queue's hub, so the items it holds become rows — the
 * decisions routed through each item's holder (main/team/decisions.ts), and what a survivor does
 * when an instance is gone (main/team/failover.ts). Absent on a console of its own.
 */
import type { ApiParsedInput, ConsoleService } from '../../shared/contract/api.js';
import { ui } from '../../shared/contract/ui-text.js';
import { createTeamDecisions, DECISION_METHODS, type DecisionMethod, type LocalMethods, type TeamDecisions } from '../team/decisions.js';
import type { TeamDatabase } from '../team/database.js';
import { startFailover, type Failover } from '../team/failover.js';
import { createTeamQueue, type TeamQueue } from '../team/queue.js';
import type { ServerRequestRouter } from '../requests/router.js';
import { HistoryUnavailableError } from '../store/history-api.js';
import type { Foundation } from './foundation.js';
import type { RequestSide } from './request-side.js';

/** The methods the team side answers in place of the console's own. */
export type TeamMethods = Pick<ConsoleService, DecisionMethod | 'getItem' | 'getItemMedia'>;

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
  return {
    team,
    queue,
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
      await queue.readAll();
      void decisions.applyPending();
      return routed(queue, decisions, local);
    },
    async drain() {
      await queue.mirror.flushed();
      decisions?.close();
      failover?.close();
    },
    close() {
      queue.close();
    },
  };
}

/** The methods served in team mode: decisions through their holder, items held elsewhere opened from their rows. */
function routed(queue: TeamQueue, decisions: TeamDecisions, local: TeamMethods): TeamMethods {
  const decide = <M extends DecisionMethod>(method: M) => (input: ApiParsedInput<M>) => decisions.decide(method, input);
  const methods = Object.fromEntries(DECISION_METHODS.map((m) => [m, decide(m)])) as unknown as Pick<ConsoleService, DecisionMethod>;
  return {
    ...methods,
    getItem: async (input) => queue.openRemote(input.id) ?? local.getItem(input),
    getItemMedia: async (input) => {
      const media = await queue.remoteMedia(input.id, input.refs);
      return media ? { media } : local.getItemMedia(input);
    },
  };
}
