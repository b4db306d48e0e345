/**
 * What every part of the sampling pipeline shares: the open records, the intake, and the small
 * moves each part makes on a record — publish a change, note a history event, save, end it. The
 * parts are plain functions over a {@link PipelineCore}: arrival.ts (a request comes in),
 * review.ts (the person's actions), steps.ts (generation, delivery, the policy's decision).
 * Status changes go only through the state machine table (main/requests/machine.ts).
 */
import { ApiError } from '../../shared/contract/api.js';
import { ErrorCodes, USER_REJECTED_MESSAGE, type CreateMessageResult } from '../../shared/contract/sampling.js';
import { detailed, type HistoryEvent, type SamplingItemView, type SamplingStatus, type StopCause } from '../../shared/contract/state.js';
import { english, ui, type UiText, type UiTextCode } from '../../shared/contract/ui-text.js';
import { protocolError } from '../mcp/protocol.js';
import { nextSamplingStatus, samplingAllows, type SamplingEvent } from '../requests/machine.js';
import { createIntake, DEFAULT_MAX_TOOL_ROUNDS, type Intake } from './intake.js';
import { toHistoryEntry, type SamplingRecord } from './record.js';
import type { PipelineDeps } from './types.js';

/** Finished items kept in the queue view before the oldest are dropped (history keeps all). */
const FINISHED_KEPT = 100;

/** The progress note a server that gave a progressToken gets when its request enters a status. */
export const PROGRESS_MESSAGES: Partial<Record<SamplingStatus, string>> = {
  awaiting_request_review: 'awaiting review of the request',
  generating: 'generating',
  awaiting_response_review: 'awaiting review of the response',
};

/** The pipeline's shared state. */
export interface PipelineCore {
  deps: PipelineDeps;
  /** Open records and recently finished ones (up to FINISHED_KEPT), by item id. */
  records: Map<string, SamplingRecord>;
  intake: Intake;
  /** Progress senders of requests whose server gave a progressToken, by item id. */
  progressOf: Map<string, (message: string) => void>;
}

/** The core over `deps`, with no records yet. */
export function createPipelineCore(deps: PipelineDeps): PipelineCore {
  const intake = createIntake({
    history: deps.history,
    now: deps.now,
    inFlightCalls: deps.inFlightCalls,
    onRefused: deps.onRefused,
    maxToolRounds: deps.maxToolRounds ?? (() => DEFAULT_MAX_TOOL_ROUNDS),
    limits: deps.limits,
  });
  return { deps, records: new Map(), intake, progressOf: new Map() };
}

/** Commits the record's current history entry (before anything reaches the server). */
export function save(core: PipelineCore, rec: SamplingRecord): void {
  core.deps.history.save(toHistoryEntry(rec, core.deps.now()));
}

/** What a person's decision adds to its history event: the version they saw, the digest of what it let out. */
export type DecisionNote = Pick<HistoryEvent, 'version' | 'sha256'>;

/**
 * Notes a step in the record's history and returns it; `detail` a message code, or words that
 * are data (a typed reason, a model id); `noted` for a person's decision.
 */
export function record(core: PipelineCore, rec: SamplingRecord, kind: string, detail?: string | UiText, noted?: DecisionNote): HistoryEvent {
  const event: HistoryEvent = { at: core.deps.now(), kind, ...(typeof detail === 'object' ? detailed(detail) : { detail }), ...noted };
  rec.events.push(event);
  return event;
}

/**
 * Applies `patch` to the item and publishes it; a status change is told to a server that asked
 * for progress, and drops the item's `contentVersion` (the next review phase, if any, marks its
 * own: versions.ts). A `status` in the patch must come from the state machine (nextSamplingStatus).
 */
export function update(core: PipelineCore, rec: SamplingRecord, patch: Partial<SamplingItemView>): void {
  const before = rec.item.status;
  const moved = patch.status !== undefined && patch.status !== before && !('contentVersion' in patch);
  rec.item = { ...rec.item, ...patch, ...(moved && { contentVersion: undefined }), updatedAt: core.deps.now() };
  core.deps.hub.upsertItem(rec.item);
  const message = PROGRESS_MESSAGES[rec.item.status];
  if (rec.item.status !== before && message) core.progressOf.get(rec.item.id)?.(message);
}

/** Ends the current review phase (adds its time, in ms, to `reviewMs`). */
export function stopReview(core: PipelineCore, rec: SamplingRecord): void {
  if (rec.reviewSince !== undefined) rec.reviewMs += core.deps.now() - rec.reviewSince;
  rec.reviewSince = undefined;
}

/**
 * The record of `itemId`.
 * @throws ApiError not_found when no item has this id (or it is no longer kept)
 */
export function recordOf(core: PipelineCore, itemId: string): SamplingRecord {
  const rec = core.records.get(itemId);
  if (!rec) throw new ApiError('not_found', ui('error.noSamplingRequest', { id: itemId }));
  return rec;
}

/**
 * The record of `itemId` when `event` may happen to it now.
 * @throws ApiError not_found (unknown item), invalid_state (the table does not allow `event` in its
 *   status; the message names `action` and why — e.g. it already ended, and how)
 */
export function openRecord(core: PipelineCore, itemId: string, event: SamplingEvent, action: UiTextCode): SamplingRecord {
  const rec = recordOf(core, itemId);
  if (!samplingAllows(rec.item.status, event)) {
    const { outcome } = rec.item;
    const why = outcome ? ui('error.alreadyEnded', { how: outcome.ui ?? outcome.message }) : ui('error.itIs', { status: rec.item.status.replaceAll('_', ' ') });
    throw new ApiError('invalid_state', ui('error.cannotAct', { action: ui(action), why }));
  }
  return rec;
}

/**
 * How a request ends for its server: a result, a JSON-RPC error (its code; the message is the
 * outcome's unless given; `data` when given), or nothing (the server stopped waiting).
 */
export type Answer = { result: CreateMessageResult } | { code: number; message?: string; data?: unknown } | { none: true };

/**
 * Moves a record to the terminal status `event` leads to, commits history, then settles the
 * server's request (-1 with the spec's rejection message for a rejection; a provider failure with
 * the provider's words and `data`). `noted`: what a person's decision adds to the ending's history
 * event (the version they saw).
 * @throws TransitionError when `event` cannot end the record's status (a defect)
 */
export function finish(core: PipelineCore, rec: SamplingRecord, event: SamplingEvent, why: UiText, answer: Answer, stopped?: StopCause, noted?: DecisionNote): void {
  const status = nextSamplingStatus(rec.item.status, event);
  stopReview(core, rec);
  rec.generation?.abort();
  const code = 'code' in answer ? answer.code : undefined;
  const message = english(why);
  update(core, rec, { status, generation: undefined, outcome: { at: core.deps.now(), message, ui: why, code, ...(stopped && { stopped }) } });
  record(core, rec, status, why, noted);
  if ('result' in answer) {
    rec.delivered = answer.result;
    core.intake.rememberDelivered(rec.item.conversationId, rec.item.round, answer.result);
  }
  core.progressOf.delete(rec.item.id);
  clearTimeout(rec.pendingSave);
  save(core, rec); // committed before anything reaches the server
  core.deps.policy?.settled?.(rec.item.serverId, rec.item);
  // A rule that approved the whole exchange kept nobody waiting: its "review" was the console's own work.
  rec.port?.waited?.(rec.providerMs + (rec.autoAll ? 0 : rec.reviewMs));
  if ('result' in answer) {
    rec.port?.usage(rec.usage);
    rec.settle.resolve(answer.result);
  }
  else if ('code' in answer) rec.settle.reject(protocolError(answer.code, code === ErrorCodes.USER_REJECTED ? USER_REJECTED_MESSAGE : (answer.message ?? message), answer.data));
  else rec.settle.reject(new Error(message));
  pruneFinished(core);
}

/** Drops the oldest finished items past FINISHED_KEPT from the queue view. */
function pruneFinished(core: PipelineCore): void {
  const finished = [...core.records.values()].filter((r) => r.item.outcome);
  for (const r of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) {
    core.records.delete(r.item.id);
    core.deps.hub.removeItem(r.item.id);
  }
}

/** Logs a generation that crashed outside the provider's own error handling (the item stays reviewable). */
export function logCrash(core: PipelineCore, itemId: string): (err: unknown) => void {
  return (err) => core.deps.logger.error('generation crashed', { item: itemId, error: String(err) });
}
