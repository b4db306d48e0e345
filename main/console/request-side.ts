/**
 * The console's request side, one step of `createConsole` (main/console.ts): the policy (rules,
 * limits, prices, redaction; on a team server its rule book, limits and budgets in the team's
 * database), the sampling pipeline, the elicitation queue, and the one door every server request
 * enters through (main/requests/router.ts), answered once history and the audit trail are durable.
 */
import type { CallRef } from '../../shared/contract/state.js';
import { ui } from '../../shared/contract/ui-text.js';
import { serverWaitFor } from '../../shared/domain/wait.js';
import type { ServerConfig } from '../config.js';
import { createElicitationQueue, type ElicitationQueue } from '../elicitation/queue.js';
import { createFormerNames, type FormerNames } from '../policy/former-names.js';
import { createPolicyService } from '../policy/policy.js';
import { createServerRequestRouter, type ServerRequestRouter } from '../requests/router.js';
import { DEFAULT_MAX_TOOL_ROUNDS } from '../sampling/intake.js';
import { createSamplingPipeline, type SamplingPipeline } from '../sampling/pipeline.js';
import { createServerRequestTracker, type ServerRequestTracker } from '../shutdown.js';
import { whenDurable } from '../store/history-store.js';
import { openTeamLimits } from '../team/policy-limits.js';
import { openTeamRuleBook } from '../team/policy-rules.js';
import type { Foundation } from './foundation.js';

/** What the request side needs of the server side, asked only while a request is handled (when the servers exist). */
export interface ServerLinks {
  /** Client requests of the person's in flight to `serverId` now (S-ASSOC-1). */
  inFlightCalls(serverId: string): CallRef[];
  /** Links a queued item to the calls it belongs to. */
  linkItem(callIds: string[], itemId: string): void;
  /** The server's current config entry. */
  serverConfig(serverId: string): ServerConfig | undefined;
}

/** The request side's services. */
export interface RequestSide {
  policy: ReturnType<typeof createPolicyService>;
  pipeline: SamplingPipeline;
  elicitations: ElicitationQueue;
  /** The one door of server requests, every kind and source. */
  requests: ServerRequestRouter;
  /** Requests being handled, so shutdown can answer each before connections close. */
  inProgress: ServerRequestTracker;
  /** Names servers were known by before (bridges say them): their rules and limits apply. */
  formerNames: FormerNames;
}

/** Creates the request side over the foundation; `links` reach the server side. */
export function createRequestSide(f: Foundation, links: ServerLinks): RequestSide {
  const { hub, history, now, logger } = f;
  const serverWait = (serverId: string, era: Parameters<typeof serverWaitFor>[0], at: number) => serverWaitFor(era, at, links.serverConfig(serverId)?.serverTimeoutMs);
  const onQueued = (item: { id: string; association: { calls: CallRef[] } }) => links.linkItem(item.association.calls.map((c) => c.callId), item.id);
  // Rules, limits, prices and redaction: model prices from the providers' model facts;
  // today's (UTC) token and spend totals start from history, so a restart keeps them.
  const formerNames = createFormerNames();
  // On a team server the rule book, limits and budgets live in the team's database, shared by every instance.
  const team = f.ports.team;
  const policy = createPolicyService({
    dir: f.dir,
    hub,
    logger,
    now,
    offload: f.offload,
    priceOf: (model) => f.providerRegistry.priceOf(model),
    usageSince: (from) => history.usageSince(from),
    formerNames: (serverId) => formerNames.of(serverId),
    audit: f.audit,
    ...(team && { ruleBook: openTeamRuleBook({ db: team, logger }), sharedLimits: openTeamLimits({ db: team, logger, now }) }),
  });
  const elicitations = createElicitationQueue({
    hub,
    history,
    now,
    inFlightCalls: links.inFlightCalls,
    onQueued,
    serverWait,
    // The server's elicitation policy: always ask, or always decline (never accept).
    decide: (serverId) => policy.decideElicitation(serverId),
    audit: f.audit,
  });
  const pipeline = createSamplingPipeline({
    hub,
    history: policy.historySink(history),
    providers: f.providerRegistry,
    logger,
    now,
    inFlightCalls: links.inFlightCalls,
    onRefused: (serverId, why, refusal) => {
      // Rate-limited requests are counted on the Rules screen instead: a flood must not flood notices.
      if (refusal.kind !== 'rate_limited') f.notify('warning', ui('notice.refused', { server: serverId, why }), 'sampling_refused');
    },
    onQueued,
    maxToolRounds: (serverId) => links.serverConfig(serverId)?.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS,
    limits: (serverId) => {
      const config = links.serverConfig(serverId);
      return config && { maxRequestBytes: config.maxRequestBytes, maxMediaBytes: config.maxMediaBytes };
    },
    policy: policy.policy,
    offload: f.offload,
    serverWait,
    audit: f.audit,
  });
  const inProgress = createServerRequestTracker();
  // The one door of server requests: every kind, every source; answered once history and the
  // audit trail (the decision's record) are durable.
  const records = { durable: f.durable };
  const requests = createServerRequestRouter({
    sampling: (request) => inProgress.track(whenDurable(records, pipeline.handle(request))),
    elicitation: (request) => inProgress.track(whenDurable(records, elicitations.handle(request))),
    roots: (serverId) => f.roots.list(serverId),
    providerCall: (request) => inProgress.track(whenDurable(records, pipeline.handle(request))),
  });
  return { policy, pipeline, elicitations, requests, inProgress, formerNames };
}
