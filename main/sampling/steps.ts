/**
 * The pipeline's work steps after a request is queued (split from pipeline.ts, which keeps the
 * state machine and the review operations):
 *
 * - {@link Steps.applyPolicy}: carries out the policy's decision for a fresh server request — ask
 *   (with notes, and possibly a changed request the review starts from), auto-approve, or reject;
 * - {@link Steps.generate}: one generation by the chosen provider, streamed into the item (or the
 *   empty draft of "Write the response myself"), with its usage and cost;
 * - {@link Steps.deliver}: ends a request with a result (history first, then the server).
 */
import { noteText } from '../../shared/rules.js';
import { ui, type UiText } from '../../shared/ui-text.js';
import { ErrorCodes, type CreateMessageResult } from '../../shared/sampling.js';
import type { SamplingItemView } from '../../shared/state.js';
import { nextSamplingStatus, type SamplingEvent } from '../requests/machine.js';
import { dropDraftPart } from './drafts.js';
import { forServer, jsonEqual, type SamplingRecord } from './record.js';
import type { PipelineDeps, PolicyAction } from './types.js';
import { ProviderError } from '../llm/errors.js';

/** What the steps need from the pipeline. */
export interface StepContext {
  deps: PipelineDeps;
  now: () => number;
  /** Applies a patch to the item and publishes it. */
  update(rec: SamplingRecord, patch: Partial<SamplingItemView>): void;
  /** Saves the record's current history entry. */
  save(rec: SamplingRecord): void;
  event(rec: SamplingRecord, kind: string, detail?: string | UiText): void;
  /** Ends the current review phase (adds its time to reviewMs). */
  stopReview(rec: SamplingRecord): void;
  /** Moves a record to the terminal status `event` leads to, commits history, then settles the server's request. */
  finish(rec: SamplingRecord, event: SamplingEvent, why: UiText, answer: { result: CreateMessageResult } | { code: number } | { none: true }): void;
}

/** The steps; see the file comment. */
export interface Steps {
  /**
   * Generates a response for the approved request (`sent`): `approve_request` from request review,
   * `regenerate` from response review (main/requests/machine.ts).
   */
  generate(rec: SamplingRecord, start: 'approve_request' | 'regenerate'): Promise<void>;
  deliver(rec: SamplingRecord, result: CreateMessageResult, why?: UiText): void;
  /** Carries out the policy's decision for a freshly queued server request (ask, approve, reject). */
  applyPolicy(rec: SamplingRecord, action: Exclude<PolicyAction, { kind: 'refuse' }>): void;
}

/** Creates the steps over the pipeline's context. */
export function createSteps(ctx: StepContext): Steps {
  const { deps, now, update, save, event, stopReview, finish } = ctx;
  const streamUpdateMs = deps.streamUpdateMs ?? 50;

  async function generate(rec: SamplingRecord, start: 'approve_request' | 'regenerate'): Promise<void> {
    const params = rec.item.sent!;
    const provider = deps.providers.get(rec.item.model.providerId);
    if (!provider?.generate) {
      // "Write the response myself": straight to response review with an empty draft.
      update(rec, {
        status: nextSamplingStatus(rec.item.status, 'write_response'),
        error: undefined,
        response: {
          manual: true,
          draft: { role: 'assistant', content: { type: 'text', text: '' }, model: rec.item.model.modelId, stopReason: 'endTurn' },
          generatedAt: now(),
        },
      });
      rec.reviewSince = now();
      save(rec);
      return;
    }
    const controller = new AbortController();
    rec.generation = controller;
    const startedAt = now();
    let text = '';
    let lastPush = 0;
    update(rec, { status: nextSamplingStatus(rec.item.status, start), error: undefined, response: undefined, generation: { startedAt, text }, sentToModelAt: rec.item.sentToModelAt ?? startedAt, draft: dropDraftPart(rec.item.draft, 'response') });
    event(rec, 'generation_started', `${provider.view.label} / ${rec.item.model.modelId}`);
    save(rec);
    try {
      const out = await provider.generate({
        params,
        modelId: rec.item.model.modelId,
        signal: controller.signal,
        onText: (delta) => {
          text += delta;
          if (now() - lastPush >= streamUpdateMs && rec.item.status === 'generating') {
            lastPush = now();
            update(rec, { generation: { startedAt, text } });
          }
        },
      });
      rec.generationMs += now() - startedAt;
      if (rec.generation !== controller || rec.item.status !== 'generating') return; // cancelled meanwhile
      rec.generation = undefined;
      rec.usage = out.usage;
      rec.costUsd = out.usage ? deps.policy?.costOf?.(rec.item.model, out.usage) : undefined;
      update(rec, {
        status: nextSamplingStatus(rec.item.status, 'generated'),
        generation: undefined,
        response: { generated: out.result, draft: out.result, manual: false, usage: out.usage, finishReason: out.finishReason, generatedAt: now() },
      });
      rec.reviewSince = now();
      event(rec, 'generated', ui('event.generated', { model: out.result.model, stopReason: out.result.stopReason ?? 'none' }));
      if (rec.autoAll && rec.rule) return deliver(rec, out.result, ui('outcome.deliveredByRule', { rule: rec.rule.name, version: rec.rule.version }));
      save(rec);
    } catch (err) {
      rec.generationMs += now() - startedAt;
      if (rec.generation !== controller || rec.item.status !== 'generating') return;
      rec.generation = undefined;
      const cancelled = controller.signal.aborted;
      // The provider's words (or the SDK's) are shown as they are.
      const message = err instanceof Error ? err.message : String(err);
      const failure = err instanceof ProviderError ? { failure: err.kind } : {};
      update(rec, { status: nextSamplingStatus(rec.item.status, 'generation_stopped'), generation: undefined, error: cancelled ? undefined : { message, at: now(), ...failure } });
      rec.reviewSince = now();
      event(rec, cancelled ? 'generation_cancelled' : 'generation_failed', cancelled ? ui('event.generationCancelled') : message);
      save(rec);
    }
  }

  /** Ends a request by delivering `result` (history first, then the server), noting edits. */
  function deliver(rec: SamplingRecord, result: CreateMessageResult, why?: UiText): void {
    const response = rec.item.response!;
    rec.responseEdited = response.generated ? !jsonEqual(result, response.generated) : false;
    update(rec, { response: { ...response, draft: result } });
    const how = response.manual ? 'event.writtenByPerson' : rec.responseEdited ? 'event.withEdits' : rec.decidedBy === 'rule' ? 'event.byRule' : 'event.unchanged';
    event(rec, 'response_approved', ui(how));
    const where = rec.item.origin === 'draft' ? ui('outcome.draftComplete') : (why ?? ui('outcome.delivered'));
    finish(rec, 'deliver', where, { result: forServer(result) });
  }

  /** Carries out the policy's decision (made once, before queueing) for a freshly queued server request: ask, auto-approve, or reject. */
  function applyPolicy(rec: SamplingRecord, action: Exclude<PolicyAction, { kind: 'refuse' }>): void {
    const explain = (notes = action.notes ?? []) => {
      for (const n of notes) event(rec, n.kind === 'ask_rule' ? 'rule_matched' : n.kind === 'manual_model' ? 'rule_skipped' : 'policy_note', noteText(n));
      if (notes.length || action.estimate) update(rec, { policy: { notes, estimatedTokens: action.estimate?.tokens ?? 0, ...(action.estimate?.costUsd !== undefined ? { estimatedCostUsd: action.estimate.costUsd } : {}) } });
    };
    if (action.kind === 'ask') {
      if (action.params) {
        // e.g. auto-redacted while auto-approval is paused: the review starts from the changed request.
        rec.requestEdited = !jsonEqual(action.params, rec.item.original);
        update(rec, { sent: action.params });
      }
      explain();
      if (action.notes?.length || action.params) save(rec);
      return;
    }
    const { rule } = action;
    if (action.kind === 'reject') {
      rec.decidedBy = 'rule';
      rec.rule = rule;
      explain();
      finish(rec, 'reject_request', ui('outcome.rejectedByRule', { rule: rule.name, version: rule.version, reason: action.reason }), { code: ErrorCodes.USER_REJECTED });
      return;
    }
    if (!deps.providers.get(rec.item.model.providerId)?.generate) {
      explain([...(action.notes ?? []), { kind: 'manual_model', rule }]);
      save(rec);
      return;
    }
    stopReview(rec);
    rec.decidedBy = 'rule';
    rec.rule = rule;
    rec.autoAll = action.kind === 'approve_all';
    const params = action.params ?? rec.item.original;
    rec.requestEdited = !jsonEqual(params, rec.item.original);
    explain();
    update(rec, { sent: params, auto: { rule, action: action.kind } });
    event(rec, 'request_approved', ui(rec.requestEdited ? 'event.approvedByRuleChanged' : 'event.approvedByRule', { rule: rule.name, version: rule.version }));
    void generate(rec, 'approve_request').catch((err) => deps.logger.error('generation crashed', { item: rec.item.id, error: String(err) }));
  }

  return { generate, deliver, applyPolicy };
}
