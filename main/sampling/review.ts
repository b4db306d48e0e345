/**
 * The person's review actions and the pipeline's other outside events, as plain functions over the
 * core (core.ts). Each action is allowed only where the state machine table allows its event
 * (main/requests/machine.ts), and only about the version of the item the person saw (versions.ts);
 * otherwise it fails with an `invalid_state` ApiError saying why. The version (and, for an
 * approval, the digest of what it let out) goes into the decision's history event.
 */
import { ApiError } from '../../shared/contract/api.js';
import type { DraftInput } from '../../shared/contract/drafts.js';
import { ErrorCodes, type CreateMessageParams, type CreateMessageResult } from '../../shared/contract/sampling.js';
import type { ModelChoice, ModelRef } from '../../shared/contract/state.js';
import { because, ui, type UiText } from '../../shared/contract/ui-text.js';
import type { StopCause } from '../../shared/contract/drafts.js';
import { validateSamplingRequest } from '../../shared/domain/validate-sampling.js';
import { SAMPLING_TOOLS_DECLARED } from '../mcp/protocol.js';
import { decideAsPerson } from '../audit/actor.js';
import { finish, logCrash, openRecord, record, recordOf, save, stopReview, update, type PipelineCore } from './core.js';
import { callHasEnded, draftFor, dropDraftPart, mergeDraft, withLate } from './drafts.js';
import { jsonEqual, type SamplingRecord } from './record.js';
import { deliver, generate } from './steps.js';
import { checkVersion, stampDigest } from './versions.js';
import { auditPersonDecision, reasonDigest } from './audit.js';

/**
 * Approves the request as the person edited it, with the model they chose, and starts generating
 * (resolves at once; progress and failures show in the item). `seen`: the request's version the
 * person saw; the history event records it and the digest of the request sent.
 * @throws ApiError invalid_state (not in request review, or not the version seen), invalid_input
 *   (the edited request breaks an S- rule, or the model is not among the server's allowed ones),
 *   not_found (unknown item or model)
 */
export async function approveRequest(core: PipelineCore, itemId: string, seen: string, params: CreateMessageParams, model: ModelRef): Promise<void> {
  const rec = openRecord(core, itemId, 'approve_request', 'action.approveRequest');
  checkVersion(rec, seen, 'action.approveRequest');
  const checked = validateSamplingRequest(params, { toolsDeclared: SAMPLING_TOOLS_DECLARED });
  if (!checked.ok) throw new ApiError('invalid_input', ui('error.editInvalid', { why: checked.error.ui }));
  const choice = modelChoice(core, rec, model);
  stopReview(core, rec);
  decideAsPerson(rec);
  const unchanged = jsonEqual(checked.params, rec.item.original);
  rec.requestEdited = rec.requestEdited || !unchanged;
  // Approved as it came: `sent` is the original itself, so windows are sent `{sent: 'original'}`
  // rather than the request again, and history's scrubber sees at once that nothing differs.
  update(core, rec, { sent: unchanged ? rec.item.original : checked.params, model: choice, draft: dropDraftPart(rec.item.draft, 'request') });
  const approved = record(core, rec, 'request_approved', ui(rec.requestEdited ? 'event.withEdits' : 'event.unchanged'), { version: seen });
  const digest = stampDigest(core, rec, approved, rec.item.sent);
  auditPersonDecision(core, rec, 'sampling.request_approved', { version: seen, edited: rec.requestEdited, model: `${choice.providerId}/${choice.modelId}` }, digest);
  void generate(core, rec, 'approve_request').catch(logCrash(core, itemId));
}

/**
 * The model the person approved with, as the item's choice (marked overridden when it is not the
 * console's suggestion).
 * @throws ApiError not_found (no such provider or model), invalid_input (not among the ranked candidates)
 */
function modelChoice(core: PipelineCore, rec: SamplingRecord, model: ModelRef): ModelChoice {
  const provider = core.deps.providers.get(model.providerId);
  if (!provider || !provider.view.models.includes(model.modelId)) {
    throw new ApiError('not_found', ui('error.noModelIn', { model: model.modelId, provider: model.providerId }));
  }
  const candidates = rec.item.candidates;
  if (candidates?.length && !candidates.some((c) => c.providerId === model.providerId && c.modelId === model.modelId)) {
    throw new ApiError('invalid_input', ui('error.modelNotAllowed', { model: model.modelId, server: rec.item.serverId }));
  }
  const overridden = model.providerId !== rec.item.model.providerId || model.modelId !== rec.item.model.modelId;
  return overridden ? { ...model, ...because(ui('model.chosenByPerson', { suggested: rec.item.model.modelId })), overridden: true } : rec.item.model;
}

/**
 * Rejects the request (the version `seen`): the server gets -1 (the person's reason in history).
 * @throws ApiError not_found / invalid_state (also when not the version seen)
 */
export function rejectRequest(core: PipelineCore, itemId: string, seen: string, reason?: string): void {
  const rec = openRecord(core, itemId, 'reject_request', 'action.rejectRequest');
  checkVersion(rec, seen, 'action.rejectRequest');
  decideAsPerson(rec);
  auditPersonDecision(core, rec, 'sampling.request_rejected', { version: seen, reasonSha256: reasonDigest(reason) });
  finish(core, rec, 'reject_request', reason ? ui('outcome.rejectedWhy', { reason }) : ui('outcome.rejected'), { code: ErrorCodes.USER_REJECTED }, undefined, { version: seen });
}

/** Stops the running generation (back to request review). @throws ApiError not_found / invalid_state */
export function cancelGeneration(core: PipelineCore, itemId: string): void {
  const rec = openRecord(core, itemId, 'generation_stopped', 'action.cancelGeneration');
  auditPersonDecision(core, rec, 'sampling.generation_cancelled', {});
  rec.generation?.abort();
}

/**
 * Generates the response again, instead of the response the person saw (`seen`).
 * @throws ApiError not_found / invalid_state (also for a hand-written response, or not the version seen)
 */
export async function regenerate(core: PipelineCore, itemId: string, seen: string): Promise<void> {
  const rec = openRecord(core, itemId, 'regenerate', 'action.regenerate');
  checkVersion(rec, seen, 'action.regenerate');
  if (rec.item.response?.manual) throw new ApiError('invalid_state', ui('error.manualRegenerate'));
  stopReview(core, rec);
  record(core, rec, 'regenerate', undefined, { version: seen });
  auditPersonDecision(core, rec, 'sampling.regenerated', { version: seen });
  void generate(core, rec, 'regenerate').catch(logCrash(core, itemId));
}

/**
 * Delivers the response as the person left it, about the response version `seen`; the history
 * event records it and the digest of what the server got.
 * @throws ApiError not_found / invalid_state (also when not the version seen) / invalid_input (an
 *   empty hand-written response)
 */
export function approveResponse(core: PipelineCore, itemId: string, seen: string, result: CreateMessageResult): void {
  const rec = openRecord(core, itemId, 'deliver', 'action.approveResponse');
  checkVersion(rec, seen, 'action.approveResponse');
  const response = rec.item.response!;
  if (response.manual && result.content && !Array.isArray(result.content) && result.content.type === 'text' && !result.content.text.trim()) {
    throw new ApiError('invalid_input', ui('error.writeFirst'));
  }
  decideAsPerson(rec);
  deliver(core, rec, result, undefined, seen);
}

/** Rejects the response (the version `seen`): the server gets -1. @throws ApiError not_found / invalid_state (also when not the version seen) */
export function rejectResponse(core: PipelineCore, itemId: string, seen: string, reason?: string): void {
  const rec = openRecord(core, itemId, 'reject_response', 'action.rejectResponse');
  checkVersion(rec, seen, 'action.rejectResponse');
  decideAsPerson(rec);
  auditPersonDecision(core, rec, 'sampling.response_rejected', { version: seen, reasonSha256: reasonDigest(reason) });
  finish(core, rec, 'reject_response', reason ? ui('outcome.responseRejectedWhy', { reason }) : ui('outcome.responseRejected'), { code: ErrorCodes.USER_REJECTED }, undefined, { version: seen });
}

/** Removes a finished item from the queue view (history keeps it). @throws ApiError not_found / invalid_state (still open) */
export function dismiss(core: PipelineCore, itemId: string): void {
  const rec = recordOf(core, itemId);
  if (!rec.item.outcome) throw new ApiError('invalid_state', ui('error.dismissUnfinished'));
  core.records.delete(itemId);
  core.deps.hub.removeItem(itemId);
}

/**
 * Keeps what the person typed (shared/contract/drafts.ts); history commits it before this returns.
 * `version`: the item's `contentVersion` the review it was typed in showed. Typed in a review the
 * item has moved on from (another version while it is open, or after the response went out), it
 * is kept as the draft's `late` part, never applied to the review that followed; after an
 * undelivered ending every part joins the draft. @throws ApiError not_found
 */
export function saveDraft(core: PipelineCore, itemId: string, draft: DraftInput, version?: string): void {
  const rec = recordOf(core, itemId);
  const { item } = rec;
  const now = core.deps.now();
  const late = item.status === 'delivered' || (version !== undefined && !item.outcome && version !== item.contentVersion);
  update(core, rec, { draft: late ? withLate(item.draft, draft, now) : mergeDraft(item.draft, draftFor(item.status, draft), now) });
  save(core, rec); // committed when it returns: survives the server giving up and a restart
}

/** A client request finished: an open server request that belonged only to it ends at once ('call_ended'). */
export function callEnded(core: PipelineCore, callId: string): void {
  for (const rec of core.records.values()) {
    if (rec.item.outcome || rec.item.origin !== 'server') continue;
    const ended = callHasEnded(rec.item, callId, core.deps.inFlightCalls(rec.item.serverId));
    if (!ended) continue;
    rec.decidedBy = 'console';
    finish(core, rec, 'stop', ui('outcome.callEnded', { call: ended }), { none: true }, 'call_ended');
  }
}

/**
 * Ends every open item (shutdown) — or those `only` picks — with `why`, `outcome.stopped` `cause`
 * (default 'console_stopped'); drafts are kept.
 */
export function cancelAll(core: PipelineCore, why: UiText, cause: StopCause = 'console_stopped', only?: (itemId: string) => boolean): void {
  for (const rec of core.records.values()) if (!rec.item.outcome && (only?.(rec.item.id) ?? true)) finish(core, rec, 'stop', why, { none: true }, cause);
}
