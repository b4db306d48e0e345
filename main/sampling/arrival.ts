/**
 * How a sampling request enters the queue, as plain functions over the core (core.ts): a server's
 * request in the envelope of main/requests/incoming.ts — intake (validated once), a big one readied
 * off the event loop, the policy asked once, then queued with the server's progress and its
 * giving up wired — and a past request re-opened from history as a draft.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/contract/api.js';
import { chooseModel } from '../../shared/domain/model-selection.js';
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import { detailed, type HistoryEntry, type SamplingItemView } from '../../shared/contract/state.js';
import { ui } from '../../shared/contract/ui-text.js';
import { validateSamplingRequest } from '../../shared/domain/validate-sampling.js';
import { withServerWait } from '../../shared/domain/wait.js';
import { protocolError, SAMPLING_TOOLS_DECLARED } from '../mcp/protocol.js';
import { isBigPayload } from '../offload/offload.js';
import { abortCauseOf, RequestAbort, type IncomingProviderCall, type IncomingSampling } from '../requests/incoming.js';
import { finish, PROGRESS_MESSAGES, record, save, update, type PipelineCore } from './core.js';
import { resumeDraft, stopWhy } from './drafts.js';
import type { Accepted } from './intake.js';
import { embeddingModelFor } from './embeddings.js';
import { toHistoryEntry, type SamplingRecord } from './record.js';
import { applyPolicy, type QueuedDecision } from './steps.js';
import type { PolicyAction } from './types.js';
import { markReviewVersion } from './versions.js';

/** What a new record is made of. */
interface NewRecord {
  /** The item id to use (a gateway call names it in its answer); absent: a fresh UUID. */
  id?: string;
  serverId: string;
  /** The agent host of a bridged server. */
  via?: SamplingItemView['via'];
  /** The person whose personal token made the call. */
  requestedBy?: SamplingItemView['requestedBy'];
  /** A provider call through the gateway. */
  gateway?: SamplingItemView['gateway'];
  era: SamplingItemView['era'];
  origin: SamplingItemView['origin'];
  params: CreateMessageParams;
  association: SamplingItemView['association'];
  conversationId?: string;
  round: number;
}

/** A request the pipeline reviews: a server's sampling request, or a provider call through the gateway. */
export type Reviewed = IncomingSampling | IncomingProviderCall;

/**
 * A server's sampling request (or a gateway's provider call): validated once by intake, then
 * queued (a big one after its heavy work is done off the event loop). Resolves with the result
 * for the server.
 * @throws ProtocolError (as a rejected promise) -32602 invalid (S-… rules), -32050 loop limit,
 *   a limit's code (-32051 / -32029), -1 rejected by the person or a rule, -32052 the provider
 *   failed with nobody reviewing (its `data` a ProviderFailureData)
 */
export function receive(core: PipelineCore, request: Reviewed): Promise<CreateMessageResult> {
  try {
    const unbound = request.kind === 'provider_call';
    const checked = core.intake.check(request.serverId, request.params, request.call ? [request.call] : request.inFlight, unbound);
    if (!checked.ok) throw protocolError(checked.error.code, checked.error.message);
    const big = core.deps.offload !== undefined && isBigPayload(request.params);
    return begin(core, request, checked, big);
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * Makes the record, asks the policy, and queues it — or throws a limit's refusal as a
 * ProtocolError (recorded, never shown as waiting). A `big` request is readied first (scanned and
 * its history texts written off the event loop), so the queue gets it a little later.
 */
function begin(core: PipelineCore, request: Reviewed, checked: Accepted, big: boolean): Promise<CreateMessageResult> {
  let settle: SamplingRecord['settle'] = { resolve: () => undefined, reject: () => undefined };
  const answer = new Promise<CreateMessageResult>((resolve, reject) => (settle = { resolve, reject }));
  const { params, association, conversationId, round } = checked;
  const gateway = request.kind === 'provider_call' ? request.gateway : undefined;
  const itemId = request.kind === 'provider_call' ? request.itemId : undefined;
  const what = { ...(itemId && { id: itemId }), serverId: request.serverId, ...(request.via && { via: request.via }), ...(request.requestedBy && { requestedBy: request.requestedBy }), ...(gateway && { gateway }), era: request.era, origin: 'server' as const, params, association, conversationId, round };
  const rec = newRecord(core, what, settle);
  if (request.kind === 'provider_call' && request.port) rec.port = request.port;
  const queueOrRefuse = (action: PolicyAction) => {
    if (action.kind === 'refuse') {
      core.intake.recordRefusal(request.serverId, request.params, { code: action.code, message: action.message, rule: action.rule }, 'rate_limited');
      throw protocolError(action.code, action.message);
    }
    queueServerRequest(core, request, rec, action);
    return answer;
  };
  const decideAndQueue = () => {
    const action = consultPolicy(core, rec);
    // Limits shared with other consoles (a team's database) answer later; the desktop's at once.
    return action instanceof Promise ? action.then(queueOrRefuse) : queueOrRefuse(action);
  };
  if (!big) return decideAndQueue();
  return prepareBig(core, rec)
    .catch((err: unknown) => core.deps.logger.warn('could not ready a big request off the main thread; handling it on it', { serverId: request.serverId, error: String(err) }))
    .then(decideAndQueue);
}

/**
 * The one point where the policy is consulted about a server's request (rules, limits, budgets):
 * one decision, made before the request is queued, so a refused one is never shown as waiting.
 * No policy: the person decides.
 */
function consultPolicy(core: PipelineCore, rec: SamplingRecord) {
  const facts = { serverId: rec.item.serverId, item: rec.item, params: rec.item.original, model: rec.item.model, now: core.deps.now() };
  return core.deps.policy?.decide(facts) ?? { kind: 'ask' as const };
}

/**
 * Gets a big request's heavy work done off the event loop before it is queued: its texts are
 * scanned for sensitive data (the policy keeps the findings) and its history entry is prepared
 * (big texts written to files), so the saves and decisions that follow are cheap.
 */
async function prepareBig(core: PipelineCore, rec: SamplingRecord): Promise<void> {
  await core.deps.policy?.prepare?.(rec.item.serverId, rec.item.original);
  await core.deps.history.prepareEntry?.(toHistoryEntry(rec, core.deps.now()));
}

/** Puts a server's request in the queue: progress, the server giving up, and the policy's decision carried out. */
function queueServerRequest(core: PipelineCore, request: Reviewed, rec: SamplingRecord, action: QueuedDecision): void {
  // A rule's decision saves the record's next state (ended; generating once it lasts, steps.ts):
  // the queued state, which nobody waits on, is never saved.
  admit(core, rec, action.kind === 'ask');
  if (request.progress) {
    core.progressOf.set(rec.item.id, request.progress);
    request.progress(PROGRESS_MESSAGES.awaiting_request_review!);
  }
  const onAbort = () => {
    if (rec.item.outcome) return;
    const reason: unknown = request.signal.reason;
    const why = stopWhy(abortCauseOf(reason));
    if (reason instanceof RequestAbort && reason.serverReason) record(core, rec, 'server_reason', reason.serverReason); // the server's words, as data
    rec.decidedBy = 'console';
    finish(core, rec, why.event, why.why, { none: true }, 'server_stopped_waiting');
  };
  if (request.signal.aborted) onAbort();
  else request.signal.addEventListener('abort', onAbort, { once: true });
  if (!rec.item.outcome) applyPolicy(core, rec, action);
}

/** The model for a request, with the ranked candidates when the registry can rank (an embeddings call: embeddingModelFor). */
function selectFor(core: PipelineCore, what: NewRecord): Pick<SamplingItemView, 'model' | 'candidates'> {
  const { params, serverId } = what;
  const { providers } = core.deps;
  if (what.gateway?.embeddings) return { model: embeddingModelFor(what.gateway.requestedModel, providers.list(), providers.defaultModel()) };
  const ranked = providers.select?.(params, serverId);
  if (ranked) return { model: ranked.choice, candidates: ranked.candidates };
  return { model: chooseModel(params.modelPreferences, providers.list().map((p) => p.view), providers.defaultModel()) };
}

/** The record of an accepted request, awaiting request review, not yet queued (see {@link admit}). */
function newRecord(core: PipelineCore, what: NewRecord, settle: SamplingRecord['settle']): SamplingRecord {
  const receivedAt = core.deps.now();
  const id = what.id ?? randomUUID();
  const serverWait = what.origin === 'server' && !what.gateway ? core.deps.serverWait?.(what.serverId, what.era, receivedAt) : undefined;
  return {
    item: {
      id,
      origin: what.origin,
      conversationId: what.conversationId ?? id,
      round: what.round,
      serverId: what.serverId,
      ...(what.via && { via: what.via }),
      ...(what.requestedBy && { requestedBy: what.requestedBy }),
      ...(what.gateway && { gateway: what.gateway }),
      era: what.era,
      association: what.association,
      status: 'awaiting_request_review',
      receivedAt,
      updatedAt: receivedAt,
      original: what.params,
      ...selectFor(core, what),
      ...withServerWait(serverWait),
    },
    settle,
    events: [{ at: receivedAt, kind: 'received', ...detailed(receivedDetail(what.params, what.round)) }],
    reviewSince: receivedAt,
    reviewMs: 0,
    generationMs: 0,
    providerMs: 0,
    requestEdited: false,
    responseEdited: false,
  };
}

/** The "received" event's detail: how many messages, maxTokens and the round of the tool loop. */
function receivedDetail(params: CreateMessageParams, round: number) {
  const count = params.messages.length;
  return ui(count === 1 ? 'event.receivedOne' : 'event.receivedMany', { count, maxTokens: params.maxTokens, round });
}

/** Puts a record in the queue and (unless `save` is false: the caller saves its next state at once) records it in history. */
function admit(core: PipelineCore, rec: SamplingRecord, saveNow = true): SamplingRecord {
  core.records.set(rec.item.id, rec);
  core.deps.hub.upsertItem(rec.item);
  if (saveNow) save(core, rec);
  core.deps.onQueued?.(rec.item);
  return rec;
}

/**
 * Re-opens a past request as a new draft (origin 'draft', no server waiting), where the person
 * left off when the entry kept a draft. Returns the new item's id.
 * @throws ApiError invalid_input when the entry holds no valid request (e.g. it was refused)
 */
export function reopenDraft(core: PipelineCore, entry: HistoryEntry): string {
  const checked = validateSamplingRequest(entry.sent ?? entry.original, { toolsDeclared: SAMPLING_TOOLS_DECLARED });
  if (!checked.ok) throw new ApiError('invalid_input', ui('error.reopenInvalid', { why: checked.error.ui }));
  const noServer = { resolve: () => undefined, reject: () => undefined };
  const what: NewRecord = { serverId: entry.serverId, era: 'legacy', origin: 'draft', params: checked.params, association: { exact: false, calls: [] }, round: 1 };
  const rec = admit(core, newRecord(core, what, noServer));
  record(core, rec, 'reopened', `from history entry ${entry.id}`);
  if (entry.draft) {
    update(core, rec, resumeDraft(entry, rec.item, core.deps.now()));
    if (rec.item.status === 'awaiting_response_review') record(core, rec, 'draft_resumed', 'the response the person was writing');
  }
  markReviewVersion(core, rec);
  save(core, rec);
  return rec.item.id;
}
