/**
 * The pipeline's work steps after a request is queued, as plain functions over the core (core.ts):
 *
 * - {@link applyPolicy}: carries out the policy's decision for a fresh server request — ask
 *   (with notes, and possibly a changed request the review starts from), auto-approve, or reject;
 * - {@link generate}: one generation by the chosen provider, streamed into the item (or the
 *   empty draft of "Write the response myself"), with its usage and cost — or, for an embeddings
 *   call, its vectors made and passed to the caller, delivered without a response review;
 * - {@link deliver}: ends a request with a result (history first, then the server).
 */
import { noteText, type PolicyNote } from '../../shared/contract/rules.js';
import { ui, type UiText } from '../../shared/contract/ui-text.js';
import { ErrorCodes, type CreateMessageResult } from '../../shared/contract/sampling.js';
import type { RuleRef } from '../../shared/contract/state.js';
import { nextSamplingStatus } from '../requests/machine.js';
import { ProviderError } from '../llm/provider-error.js';
import type { EmbedOutput, LlmProvider } from '../llm/provider.js';
import { decideAsPerson } from '../audit/actor.js';
import { finish, logCrash, record, save, stopReview, update, type PipelineCore } from './core.js';
import { dropDraftPart } from './drafts.js';
import { embeddingsResult, embeddingTexts, isEmbeddings } from './embeddings.js';
import { generationFailure } from './provider-failure.js';
import { forServer, jsonEqual, type SamplingRecord } from './record.js';
import { SAVE_SOON_WINDOW_MS } from '../store/history-api.js';
import type { PolicyAction } from './types.js';
import { markReviewVersion, stampDigest } from './versions.js';
import { auditPersonDecision, auditRuleDecision } from './audit.js';

/** A decision the pipeline carries out (a refusal never reaches the queue). */
export type QueuedDecision = Exclude<PolicyAction, { kind: 'refuse' }>;

/**
 * Generates a response for the approved request (`sent`): `approve_request` from request review,
 * `regenerate` from response review (main/requests/machine.ts). Resolves when the response is
 * there to review (or delivered, for an `approve_all` rule), or the generation failed or was
 * cancelled (back to request review, with the provider's error on the item; under an `approve_all`
 * rule a failure ends the item `failed` and the caller gets it).
 */
export async function generate(core: PipelineCore, rec: SamplingRecord, start: 'approve_request' | 'regenerate'): Promise<void> {
  if (isEmbeddings(rec.item)) return embed(core, rec, start);
  const provider = core.deps.providers.get(rec.item.model.providerId);
  if (!provider?.generate) return writeYourself(core, rec);
  const controller = startCall(core, rec, start, provider.view.label);
  const startedAt = rec.item.generation!.startedAt;
  const t0 = performance.now();
  try {
    const out = await provider.generate({ params: rec.item.sent!, modelId: rec.item.model.modelId, signal: controller.signal, onText: streamInto(core, rec, startedAt) });
    rec.generationMs += core.deps.now() - startedAt;
    rec.providerMs += performance.now() - t0;
    if (rec.generation !== controller || rec.item.status !== 'generating') return; // cancelled meanwhile
    generated(core, rec, out);
  } catch (err) {
    rec.generationMs += core.deps.now() - startedAt;
    rec.providerMs += performance.now() - t0;
    if (rec.generation !== controller || rec.item.status !== 'generating') return;
    generationStopped(core, rec, err, controller.signal.aborted);
  }
}

/** The provider call of an approved request begins: the item is `generating` (history saved, or for a rule's approval once it lasts); its abort controller. */
function startCall(core: PipelineCore, rec: SamplingRecord, start: 'approve_request' | 'regenerate', label: string): AbortController {
  const controller = new AbortController();
  rec.generation = controller;
  const startedAt = core.deps.now();
  update(core, rec, {
    status: nextSamplingStatus(rec.item.status, start),
    error: undefined,
    response: undefined,
    generation: { startedAt, text: '' },
    sentToModelAt: rec.item.sentToModelAt ?? startedAt,
    draft: dropDraftPart(rec.item.draft, 'response'),
  });
  record(core, rec, 'generation_started', `${label} / ${rec.item.model.modelId}`);
  if (start === 'approve_request' && rec.decidedBy === 'rule') saveIfStillGenerating(core, rec, controller);
  else save(core, rec);
  return controller;
}

/**
 * A rule started the call, so nobody waits on its `generating` state: it is saved only if it still
 * holds after {@link SAVE_SOON_WINDOW_MS} (as the store would commit a passing state), so a call
 * that ends sooner is one History write, its ending — committing the passing state too was a
 * tenth of an auto-approved gateway call's cost under load.
 */
function saveIfStillGenerating(core: PipelineCore, rec: SamplingRecord, controller: AbortController): void {
  const timer = setTimeout(() => {
    if (rec.generation === controller && rec.item.status === 'generating') save(core, rec);
  }, SAVE_SOON_WINDOW_MS);
  timer.unref?.();
  rec.pendingSave = timer;
}

/**
 * An embeddings call's provider call: the approved texts embedded; the vectors go to the caller
 * (the port) and the item is delivered at once — the response is not reviewed. A failure is a
 * generation's (back to the person, or to the caller under an `approve_all` rule); so is a model
 * whose provider makes no embeddings (kind `unsupported`).
 */
async function embed(core: PipelineCore, rec: SamplingRecord, start: 'approve_request' | 'regenerate'): Promise<void> {
  const provider = core.deps.providers.get(rec.item.model.providerId);
  const controller = startCall(core, rec, start, provider?.view.label ?? rec.item.model.providerId);
  const startedAt = rec.item.generation!.startedAt;
  const dimensions = rec.item.gateway?.embeddings?.dimensions;
  const t0 = performance.now();
  try {
    if (!provider?.embed) throw new ProviderError(`${provider?.view.label ?? rec.item.model.providerId}: this provider makes no embeddings — choose a model of a provider that does (OpenAI, OpenAI-compatible, Google)`, 'unsupported', false);
    const out = await provider.embed({ texts: embeddingTexts(rec.item.sent!), modelId: rec.item.model.modelId, signal: controller.signal, ...(dimensions !== undefined && { dimensions }) });
    rec.generationMs += core.deps.now() - startedAt;
    rec.providerMs += performance.now() - t0;
    if (rec.generation !== controller || rec.item.status !== 'generating') return;
    embedded(core, rec, out);
  } catch (err) {
    rec.generationMs += core.deps.now() - startedAt;
    rec.providerMs += performance.now() - t0;
    if (rec.generation !== controller || rec.item.status !== 'generating') return;
    generationStopped(core, rec, err, controller.signal.aborted);
  }
}

/** The vectors are there: to the caller, and the item delivered (its result holds no content). */
function embedded(core: PipelineCore, rec: SamplingRecord, out: EmbedOutput): void {
  rec.generation = undefined;
  rec.usage = out.usage;
  rec.costUsd = out.usage ? core.deps.policy?.costOf?.(rec.item.model, out.usage) : undefined;
  rec.port?.vectors?.(out.embeddings);
  const result = embeddingsResult(rec.item.model.modelId);
  update(core, rec, {
    status: nextSamplingStatus(rec.item.status, 'generated'),
    generation: undefined,
    response: { generated: result, draft: result, manual: false, ...(out.usage && { usage: out.usage }), finishReason: 'stop', generatedAt: core.deps.now() },
  });
  record(core, rec, 'embedded', ui('event.embedded', { count: out.embeddings.length, dimensions: out.embeddings[0]?.length ?? 0 }));
  const why = rec.decidedBy === 'rule' && rec.rule ? ui('outcome.deliveredByRule', { rule: rec.rule.name, version: rec.rule.version }) : ui('outcome.embeddingsToCaller');
  finish(core, rec, 'deliver', why, { result });
}

/** "Write the response myself": straight to response review with an empty draft. */
function writeYourself(core: PipelineCore, rec: SamplingRecord): void {
  update(core, rec, {
    status: nextSamplingStatus(rec.item.status, 'write_response'),
    error: undefined,
    response: {
      manual: true,
      draft: { role: 'assistant', content: { type: 'text', text: '' }, model: rec.item.model.modelId, stopReason: 'endTurn' },
      generatedAt: core.deps.now(),
    },
  });
  rec.reviewSince = core.deps.now();
  markReviewVersion(core, rec);
  save(core, rec);
}

/**
 * The provider's text deltas into the item, at most one state update per `streamUpdateMs` (default
 * 50 ms); a gateway caller's stream gets each delta at once when no person reviews the response.
 */
function streamInto(core: PipelineCore, rec: SamplingRecord, startedAt: number): (delta: string) => void {
  const every = core.deps.streamUpdateMs ?? 50;
  let text = '';
  let lastPush = 0;
  return (delta) => {
    text += delta;
    if (rec.port && rec.autoAll) {
      rec.passedText = true;
      rec.port.text(delta);
    }
    if (core.deps.now() - lastPush >= every && rec.item.status === 'generating') {
      lastPush = core.deps.now();
      update(core, rec, { generation: { startedAt, text } });
    }
  };
}

/** The response is there: to response review, or delivered at once under an `approve_all` rule. */
function generated(core: PipelineCore, rec: SamplingRecord, out: Awaited<ReturnType<NonNullable<LlmProvider['generate']>>>): void {
  rec.generation = undefined;
  rec.usage = out.usage;
  rec.costUsd = out.usage ? core.deps.policy?.costOf?.(rec.item.model, out.usage) : undefined;
  update(core, rec, {
    status: nextSamplingStatus(rec.item.status, 'generated'),
    generation: undefined,
    response: { generated: out.result, draft: out.result, manual: false, usage: out.usage, finishReason: out.finishReason, generatedAt: core.deps.now() },
  });
  rec.reviewSince = core.deps.now();
  record(core, rec, 'generated', ui('event.generated', { model: out.result.model, stopReason: out.result.stopReason ?? 'none' }));
  if (rec.autoAll && rec.rule) return deliver(core, rec, out.result, ui('outcome.deliveredByRule', { rule: rec.rule.name, version: rec.rule.version }));
  markReviewVersion(core, rec);
  save(core, rec);
}

/**
 * The generation failed or was cancelled. A failure with nobody reviewing (an `approve_all` rule)
 * ends the item `failed` and the caller gets it; a person's cancellation once text reached the
 * caller (its stream cannot take the text back) ends the item; otherwise back to request review,
 * a failure on the item in the provider's words, for the person to decide.
 */
function generationStopped(core: PipelineCore, rec: SamplingRecord, err: unknown, cancelled: boolean): void {
  rec.generation = undefined;
  if (!cancelled && rec.autoAll) return generationFailed(core, rec, err);
  if (cancelled && rec.passedText) {
    decideAsPerson(rec);
    record(core, rec, 'generation_cancelled', ui('event.generationCancelled'));
    return finish(core, rec, 'stop', ui('outcome.cancelledMidStream'), { code: ErrorCodes.USER_REJECTED });
  }
  const failure = cancelled ? undefined : generationFailure(err);
  update(core, rec, {
    status: nextSamplingStatus(rec.item.status, 'generation_stopped'),
    generation: undefined,
    error: failure && { message: failure.message, at: core.deps.now(), ...(failure.kind && { failure: failure.kind }) },
  });
  rec.reviewSince = core.deps.now();
  record(core, rec, failure ? 'generation_failed' : 'generation_cancelled', failure ? failure.message : ui('event.generationCancelled'));
  markReviewVersion(core, rec);
  save(core, rec);
}

/**
 * A failure with nobody reviewing: the item ends `failed` with the provider's error on it and in
 * History (committed first), then the caller gets it as {@link ErrorCodes.PROVIDER_FAILED}.
 */
function generationFailed(core: PipelineCore, rec: SamplingRecord, err: unknown): void {
  const failure = generationFailure(err);
  update(core, rec, { error: { message: failure.message, at: core.deps.now(), ...(failure.kind && { failure: failure.kind }) } });
  record(core, rec, 'generation_failed', failure.message);
  rec.errorDetail = { message: failure.message, code: failure.answer.code };
  finish(core, rec, 'provider_failed', ui('outcome.providerFailed', { why: failure.answer.message }), failure.answer);
}

/**
 * Ends a request by delivering `result` (history first, then the server), noting edits. `seen`:
 * the response version a person approved (their history event records it and the digest of what
 * the server got); absent when a rule delivers, which hashes nothing.
 */
export function deliver(core: PipelineCore, rec: SamplingRecord, result: CreateMessageResult, why?: UiText, seen?: string): void {
  const response = rec.item.response!;
  rec.responseEdited = response.generated ? !jsonEqual(result, response.generated) : false;
  update(core, rec, { response: { ...response, draft: result } });
  const how = response.manual ? 'event.writtenByPerson' : rec.responseEdited ? 'event.withEdits' : rec.decidedBy === 'rule' ? 'event.byRule' : 'event.unchanged';
  const out = forServer(result);
  const approved = record(core, rec, 'response_approved', ui(how), seen === undefined ? undefined : { version: seen });
  if (seen !== undefined) {
    const digest = stampDigest(core, rec, approved, out);
    auditPersonDecision(core, rec, 'sampling.response_approved', { version: seen, edited: rec.responseEdited, manual: response.manual }, digest);
  }
  const where = rec.item.origin === 'draft' ? ui('outcome.draftComplete') : (why ?? ui(rec.item.gateway ? 'outcome.deliveredToCaller' : 'outcome.delivered'));
  finish(core, rec, 'deliver', where, { result: out });
}

/** Carries out the policy's decision (made once, before queueing) for a freshly queued server request: ask, auto-approve, or reject. */
export function applyPolicy(core: PipelineCore, rec: SamplingRecord, action: QueuedDecision): void {
  if (action.kind === 'ask') return ask(core, rec, action);
  const { rule } = action;
  if (action.kind === 'reject') {
    rec.decidedBy = 'rule';
    rec.rule = rule;
    explain(core, rec, action);
    auditRuleDecision(core, rec, 'sampling.request_rejected', rule, action.kind);
    finish(core, rec, 'reject_request', ui('outcome.rejectedByRule', { rule: rule.name, version: rule.version, reason: action.reason }), { code: ErrorCodes.USER_REJECTED });
    return;
  }
  const provider = core.deps.providers.get(rec.item.model.providerId);
  if (!(isEmbeddings(rec.item) ? provider?.embed : provider?.generate)) {
    explain(core, rec, action, [...(action.notes ?? []), { kind: 'manual_model', rule }]);
    markReviewVersion(core, rec); // the person decides after all
    save(core, rec);
    return;
  }
  autoApprove(core, rec, action, rule);
}

/** The person decides; the review may start from a changed request (e.g. auto-redacted while auto-approval is paused). */
function ask(core: PipelineCore, rec: SamplingRecord, action: Extract<QueuedDecision, { kind: 'ask' }>): void {
  if (action.params) {
    rec.requestEdited = !jsonEqual(action.params, rec.item.original);
    update(core, rec, { sent: action.params });
  }
  explain(core, rec, action);
  markReviewVersion(core, rec);
  if (action.notes?.length || action.params) save(core, rec);
}

/** A rule approved the request (and with `approve_all` the response too): generate at once. */
function autoApprove(core: PipelineCore, rec: SamplingRecord, action: Extract<QueuedDecision, { kind: 'approve_request' | 'approve_all' }>, rule: RuleRef): void {
  stopReview(core, rec);
  rec.decidedBy = 'rule';
  rec.rule = rule;
  rec.autoAll = action.kind === 'approve_all';
  const params = action.params ?? rec.item.original;
  rec.requestEdited = !jsonEqual(params, rec.item.original);
  explain(core, rec, action);
  update(core, rec, { sent: params, auto: { rule, action: action.kind } });
  auditRuleDecision(core, rec, 'sampling.request_approved', rule, action.kind);
  record(core, rec, 'request_approved', ui(rec.requestEdited ? 'event.approvedByRuleChanged' : 'event.approvedByRule', { rule: rule.name, version: rule.version }));
  void generate(core, rec, 'approve_request').catch(logCrash(core, rec.item.id));
}

/** The decision's notes into history, and notes and estimate onto the item (`policy`). */
function explain(core: PipelineCore, rec: SamplingRecord, action: QueuedDecision, notes: PolicyNote[] = action.notes ?? []): void {
  for (const n of notes) record(core, rec, n.kind === 'ask_rule' ? 'rule_matched' : n.kind === 'manual_model' ? 'rule_skipped' : 'policy_note', noteText(n));
  if (notes.length || action.estimate) {
    const estimate = action.estimate;
    const approvals = action.kind === 'ask' ? action.approvals : undefined;
    update(core, rec, { policy: { notes, estimatedTokens: estimate?.tokens ?? 0, ...(estimate?.costUsd !== undefined ? { estimatedCostUsd: estimate.costUsd } : {}), ...(approvals && { approvalsNeeded: approvals }) } });
  }
}
