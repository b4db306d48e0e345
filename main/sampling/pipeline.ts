/**
 * The sampling pipeline: a server's sampling request (the envelope of main/requests/incoming.ts)
 * through intake (validated once, S-… rules; a refusal answered -32602 and recorded), the queue,
 * the person's review of the request and then of the response (or an auto-approve rule), the
 * provider, and delivery — history committed first, then the result goes to the server. Every
 * status change is a move of the state machine table in main/requests/machine.ts.
 *
 * The server giving up (its timeout, notifications/cancelled, a closed connection), the end of the
 * client request the item belongs to, or the console shutting down ends an open item at once as
 * `timed_out` / `cancelled` with `outcome.stopped` saying why; a later decision by the person fails
 * with a clear `invalid_state` error. What the person typed (`saveDraft`) stays on the item and in
 * history either way (drafts.ts).
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/api.js';
import { chooseModel } from '../../shared/model-selection.js';
import { because, english, ui, type UiText, type UiTextCode } from '../../shared/ui-text.js';
import {
  ErrorCodes,
  USER_REJECTED_MESSAGE,
  type CreateMessageParams,
  type CreateMessageResult,
} from '../../shared/sampling.js';
import { detailed, type ProviderView, type SamplingItemView, type SamplingStatus, type StopCause } from '../../shared/state.js';
import { validateSamplingRequest } from '../../shared/validate-sampling.js';
import { withServerWait } from '../../shared/wait.js';
import { protocolError, SAMPLING_TOOLS_DECLARED } from '../mcp/protocol.js';
import { isBigPayload } from '../offload/offload.js';
import { createIntake, DEFAULT_MAX_TOOL_ROUNDS, type IntakeVerdict } from './intake.js';
import { jsonEqual, toHistoryEntry, type SamplingRecord } from './record.js';
import { createSteps } from './steps.js';
import { nextSamplingStatus, samplingAllows, type SamplingEvent } from '../requests/machine.js';
import { callHasEnded, draftFor, dropDraftPart, mergeDraft, resumeDraft, stopWhy } from './drafts.js';
import { abortCauseOf, RequestAbort, type IncomingSampling } from '../requests/incoming.js';
import type { PipelineDeps, PolicyAction, SamplingPipeline } from './types.js';

export type { HistorySink, PipelineDeps, ProviderRegistry, SamplingPipeline } from './types.js';

/** Finished items kept in the queue view before the oldest are dropped (history keeps all). */
const FINISHED_KEPT = 100;

/** Creates the pipeline. */
export function createSamplingPipeline(deps: PipelineDeps): SamplingPipeline {
  const records = new Map<string, SamplingRecord>();
  const { hub, now } = deps;
  const intake = createIntake({
    history: deps.history,
    now,
    inFlightCalls: deps.inFlightCalls,
    onRefused: deps.onRefused,
    maxToolRounds: deps.maxToolRounds ?? (() => DEFAULT_MAX_TOOL_ROUNDS),
    limits: deps.limits,
  });
  /** Progress senders of requests whose server gave a progressToken. */
  const progressOf = new Map<string, (message: string) => void>();

  const save = (rec: SamplingRecord) => deps.history.save(toHistoryEntry(rec, now()));
  /** Records a step; `detail` a message code, or words that are data (a typed reason, a model id). */
  const record = (rec: SamplingRecord, kind: string, detail?: string | UiText) =>
    rec.events.push({ at: now(), kind, ...(typeof detail === 'object' ? detailed(detail) : { detail }) });

  const PROGRESS_MESSAGES: Partial<Record<SamplingStatus, string>> = {
    awaiting_request_review: 'awaiting review of the request',
    generating: 'generating',
    awaiting_response_review: 'awaiting review of the response',
  };
  const update = (rec: SamplingRecord, patch: Partial<SamplingItemView>) => {
    const before = rec.item.status;
    rec.item = { ...rec.item, ...patch, updatedAt: now() };
    hub.upsertItem(rec.item);
    const message = PROGRESS_MESSAGES[rec.item.status];
    if (rec.item.status !== before && message) progressOf.get(rec.item.id)?.(message);
  };

  const stopReview = (rec: SamplingRecord) => {
    if (rec.reviewSince !== undefined) rec.reviewMs += now() - rec.reviewSince;
    rec.reviewSince = undefined;
  };

  /** Finds a record `event` may happen to now (main/requests/machine.ts), or explains why the action cannot happen. */
  const open = (itemId: string, event: SamplingEvent, action: UiTextCode): SamplingRecord => {
    const rec = records.get(itemId);
    if (!rec) throw new ApiError('not_found', ui('error.noSamplingRequest', { id: itemId }));
    if (!samplingAllows(rec.item.status, event)) {
      const { outcome } = rec.item;
      const why = outcome ? ui('error.alreadyEnded', { how: outcome.ui ?? outcome.message }) : ui('error.itIs', { status: rec.item.status.replaceAll('_', ' ') });
      throw new ApiError('invalid_state', ui('error.cannotAct', { action: ui(action), why }));
    }
    return rec;
  };

  const pruneFinished = () => {
    const finished = [...records.values()].filter((r) => r.item.outcome);
    for (const r of finished.slice(0, Math.max(0, finished.length - FINISHED_KEPT))) {
      records.delete(r.item.id);
      hub.removeItem(r.item.id);
    }
  };

  /** Moves a record to the terminal status `event` leads to, commits history, then settles the server's request. */
  const finish = (
    rec: SamplingRecord,
    event: SamplingEvent,
    why: UiText,
    answer: { result: CreateMessageResult } | { code: number } | { none: true },
    stopped?: StopCause,
  ) => {
    const status = nextSamplingStatus(rec.item.status, event);
    stopReview(rec);
    rec.generation?.abort();
    const code = 'code' in answer ? answer.code : undefined;
    const message = english(why);
    update(rec, { status, generation: undefined, outcome: { at: now(), message, ui: why, code, ...(stopped && { stopped }) } });
    record(rec, status, why);
    if ('result' in answer) {
      rec.delivered = answer.result;
      intake.rememberDelivered(rec.item.conversationId, rec.item.round, answer.result);
    }
    progressOf.delete(rec.item.id);
    save(rec); // committed before anything reaches the server
    deps.policy?.settled?.(rec.item.serverId, rec.item);
    if ('result' in answer) rec.settle.resolve(answer.result);
    else if ('code' in answer) rec.settle.reject(protocolError(answer.code, code === ErrorCodes.USER_REJECTED ? USER_REJECTED_MESSAGE : message));
    else rec.settle.reject(new Error(message));
    pruneFinished();
  };

  const providerViews = (): ProviderView[] => deps.providers.list().map((p) => p.view);

  const { generate, deliver, applyPolicy } = createSteps({ deps, now, update, save, event: record, stopReview, finish });

  /** The model for a request, with the ranked candidates when the registry can rank. */
  function selectFor(params: CreateMessageParams, serverId: string): Pick<SamplingItemView, 'model' | 'candidates'> {
    const ranked = deps.providers.select?.(params, serverId);
    if (ranked) return { model: ranked.choice, candidates: ranked.candidates };
    return { model: chooseModel(params.modelPreferences, providerViews(), deps.providers.defaultModel()) };
  }

  /** The record of an accepted request, not yet queued (see {@link admit}). */
  function newRecord(
    what: {
      serverId: string;
      era: SamplingItemView['era'];
      origin: SamplingItemView['origin'];
      params: CreateMessageParams;
      association: SamplingItemView['association'];
      conversationId?: string;
      round: number;
    },
    settle: SamplingRecord['settle'],
  ): SamplingRecord {
    const receivedAt = now();
    const id = randomUUID();
    const rec: SamplingRecord = {
      item: {
        id,
        origin: what.origin,
        conversationId: what.conversationId ?? id,
        round: what.round,
        serverId: what.serverId,
        era: what.era,
        association: what.association,
        status: 'awaiting_request_review',
        receivedAt,
        updatedAt: receivedAt,
        original: what.params,
        ...selectFor(what.params, what.serverId),
        ...withServerWait(what.origin === 'server' ? deps.serverWait?.(what.serverId, what.era, receivedAt) : undefined),
      },
      settle,
      events: [{ at: receivedAt, kind: 'received', detail: `${what.params.messages.length} message(s), maxTokens ${what.params.maxTokens}, round ${what.round}` }],
      reviewSince: receivedAt,
      reviewMs: 0,
      generationMs: 0,
      requestEdited: false,
      responseEdited: false,
    };
    return rec;
  }

  /** Puts a record in the queue and records it in history. */
  function admit(rec: SamplingRecord): SamplingRecord {
    records.set(rec.item.id, rec);
    hub.upsertItem(rec.item);
    save(rec);
    deps.onQueued?.(rec.item);
    return rec;
  }

  /** Puts an accepted request in the queue and records it. */
  const enqueue = (what: Parameters<typeof newRecord>[0], settle: SamplingRecord['settle']) => admit(newRecord(what, settle));

  /**
   * Gets a big request's heavy work done off the event loop before it is queued: its texts are
   * scanned for sensitive data (the policy keeps the findings) and its history entry is prepared
   * (big texts written to files), so the saves and decisions that follow are cheap.
   */
  async function prepareBig(rec: SamplingRecord): Promise<void> {
    await deps.policy?.prepare?.(rec.item.serverId, rec.item.original);
    await deps.history.prepareEntry?.(toHistoryEntry(rec, now()));
  }

  /**
   * Queues an accepted request (or throws the refusal as a ProtocolError) and returns the answer
   * the server will get. With `prepare`, the record is readied first (a big request's heavy work
   * off the event loop), so the queue gets it a little later.
   */
  function begin(request: IncomingSampling, checked: IntakeVerdict, prepare?: (rec: SamplingRecord) => Promise<void>): Promise<CreateMessageResult> {
    if (!checked.ok) throw protocolError(checked.error.code, checked.error.message);
    let settle: SamplingRecord['settle'] = { resolve: () => undefined, reject: () => undefined };
    const answer = new Promise<CreateMessageResult>((resolve, reject) => (settle = { resolve, reject }));
    const rec = newRecord(
      {
        serverId: request.serverId,
        era: request.era,
        origin: 'server',
        params: checked.params,
        association: checked.association,
        conversationId: checked.conversationId,
        round: checked.round,
      },
      settle,
    );
    const decideAndQueue = () => {
      const action = consultPolicy(rec);
      if (action.kind === 'refuse') {
        intake.recordRefusal(request.serverId, request.params, { code: action.code, message: action.message, rule: action.rule }, 'rate_limited');
        throw protocolError(action.code, action.message);
      }
      queueServerRequest(request, rec, action);
      return answer;
    };
    if (!prepare) return decideAndQueue();
    return prepare(rec)
      .catch((err: unknown) => deps.logger.warn('could not ready a big request off the main thread; handling it on it', { serverId: request.serverId, error: String(err) }))
      .then(decideAndQueue);
  }

  /**
   * The one point where the policy is consulted about a server's request (rules, limits, budgets):
   * one decision, made before the request is queued, so a refused one is never shown as waiting.
   * No policy: the person decides.
   */
  function consultPolicy(rec: SamplingRecord): PolicyAction {
    return deps.policy?.decide({ serverId: rec.item.serverId, item: rec.item, params: rec.item.original, model: rec.item.model, now: now() }) ?? { kind: 'ask' };
  }

  /** Puts a server's request in the queue: progress, the server giving up, and the policy's decision carried out. */
  function queueServerRequest(request: IncomingSampling, rec: SamplingRecord, action: Exclude<PolicyAction, { kind: 'refuse' }>): void {
    admit(rec);
    if (request.progress) {
      progressOf.set(rec.item.id, request.progress);
      request.progress(PROGRESS_MESSAGES.awaiting_request_review!);
    }
    const onAbort = () => {
      if (rec.item.outcome) return;
      const reason: unknown = request.signal.reason;
      const why = stopWhy(abortCauseOf(reason));
      if (reason instanceof RequestAbort && reason.serverReason) record(rec, 'server_reason', reason.serverReason); // the server's words, as data
      rec.decidedBy = 'console';
      finish(rec, why.event, why.why, { none: true }, 'server_stopped_waiting');
    };
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener('abort', onAbort, { once: true });
    if (!rec.item.outcome) applyPolicy(rec, action);
  }

  return {
    handle(request) {
      try {
        const checked = intake.check(request.serverId, request.params, request.call);
        // A big request's scan and history file are made off the event loop before it is queued;
        // any other is queued before this returns.
        return deps.offload && isBigPayload(request.params) ? begin(request, checked, prepareBig) : begin(request, checked);
      } catch (err) {
        return Promise.reject(err);
      }
    },

    reopenDraft(entry) {
      const params = entry.sent ?? entry.original;
      const checked = validateSamplingRequest(params, { toolsDeclared: SAMPLING_TOOLS_DECLARED });
      if (!checked.ok) throw new ApiError('invalid_input', ui('error.reopenInvalid', { why: checked.error.ui }));
      const noServer = { resolve: () => undefined, reject: () => undefined };
      const rec = enqueue(
        { serverId: entry.serverId, era: 'legacy', origin: 'draft', params: checked.params, association: { exact: false, calls: [] }, round: 1 },
        noServer,
      );
      record(rec, 'reopened', `from history entry ${entry.id}`);
      if (entry.draft) {
        update(rec, resumeDraft(entry, rec.item, now()));
        if (rec.item.status === 'awaiting_response_review') record(rec, 'draft_resumed', 'the response the person was writing');
        save(rec);
      }
      return rec.item.id;
    },

    saveDraft(itemId, draft) {
      const rec = records.get(itemId);
      if (!rec) throw new ApiError('not_found', ui('error.noSamplingRequest', { id: itemId }));
      if (rec.item.status === 'delivered') return; // what was delivered is the final word
      update(rec, { draft: mergeDraft(rec.item.draft, draftFor(rec.item.status, draft), now()) });
      save(rec); // committed when it returns: survives the server giving up and a restart
    },

    callEnded(callId) {
      for (const rec of records.values()) {
        if (rec.item.outcome || rec.item.origin !== 'server') continue;
        const ended = callHasEnded(rec.item, callId, deps.inFlightCalls(rec.item.serverId));
        if (!ended) continue;
        rec.decidedBy = 'console';
        finish(rec, 'stop', ui('outcome.callEnded', { call: ended }), { none: true }, 'call_ended');
      }
    },

    async approveRequest(itemId, params, model) {
      const rec = open(itemId, 'approve_request', 'action.approveRequest');
      const checked = validateSamplingRequest(params, { toolsDeclared: SAMPLING_TOOLS_DECLARED });
      if (!checked.ok) throw new ApiError('invalid_input', ui('error.editInvalid', { why: checked.error.ui }));
      const provider = deps.providers.get(model.providerId);
      if (!provider || !provider.view.models.includes(model.modelId)) {
        throw new ApiError('not_found', ui('error.noModelIn', { model: model.modelId, provider: model.providerId }));
      }
      const candidates = rec.item.candidates;
      if (candidates?.length && !candidates.some((c) => c.providerId === model.providerId && c.modelId === model.modelId)) {
        throw new ApiError('invalid_input', ui('error.modelNotAllowed', { model: model.modelId, server: rec.item.serverId }));
      }
      stopReview(rec);
      rec.decidedBy = 'person';
      rec.requestEdited = rec.requestEdited || !jsonEqual(checked.params, rec.item.original);
      const overridden = model.providerId !== rec.item.model.providerId || model.modelId !== rec.item.model.modelId;
      const choice = overridden
        ? { ...model, ...because(ui('model.chosenByPerson', { suggested: rec.item.model.modelId })), overridden: true }
        : rec.item.model;
      update(rec, { sent: checked.params, model: choice, draft: dropDraftPart(rec.item.draft, 'request') });
      record(rec, 'request_approved', ui(rec.requestEdited ? 'event.withEdits' : 'event.unchanged'));
      // Resolve the person's click at once; generation progress and failures show in the item.
      void generate(rec, 'approve_request').catch((err) => deps.logger.error('generation crashed', { item: itemId, error: String(err) }));
    },

    rejectRequest(itemId, reason) {
      const rec = open(itemId, 'reject_request', 'action.rejectRequest');
      rec.decidedBy = 'person';
      finish(rec, 'reject_request', reason ? ui('outcome.rejectedWhy', { reason }) : ui('outcome.rejected'), { code: ErrorCodes.USER_REJECTED });
    },

    cancelGeneration(itemId) {
      const rec = open(itemId, 'generation_stopped', 'action.cancelGeneration');
      rec.generation?.abort();
    },

    async regenerate(itemId) {
      const rec = open(itemId, 'regenerate', 'action.regenerate');
      if (rec.item.response?.manual) throw new ApiError('invalid_state', ui('error.manualRegenerate'));
      stopReview(rec);
      record(rec, 'regenerate');
      void generate(rec, 'regenerate').catch((err) => deps.logger.error('generation crashed', { item: itemId, error: String(err) }));
    },

    approveResponse(itemId, result) {
      const rec = open(itemId, 'deliver', 'action.approveResponse');
      const response = rec.item.response!;
      if (response.manual && result.content && !Array.isArray(result.content) && result.content.type === 'text' && !result.content.text.trim()) {
        throw new ApiError('invalid_input', ui('error.writeFirst'));
      }
      rec.decidedBy = 'person';
      deliver(rec, result);
    },

    rejectResponse(itemId, reason) {
      const rec = open(itemId, 'reject_response', 'action.rejectResponse');
      rec.decidedBy = 'person';
      finish(rec, 'reject_response', reason ? ui('outcome.responseRejectedWhy', { reason }) : ui('outcome.responseRejected'), {
        code: ErrorCodes.USER_REJECTED,
      });
    },

    dismiss(itemId) {
      const rec = records.get(itemId);
      if (!rec) throw new ApiError('not_found', ui('error.noSamplingRequest', { id: itemId }));
      if (!rec.item.outcome) throw new ApiError('invalid_state', ui('error.dismissUnfinished'));
      records.delete(itemId);
      hub.removeItem(itemId);
    },

    cancelAll(why) {
      for (const rec of records.values()) if (!rec.item.outcome) finish(rec, 'stop', why, { none: true }, 'console_stopped');
    },
  };
}
