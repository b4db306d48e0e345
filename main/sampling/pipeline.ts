/**
 * The sampling pipeline: a server's sampling request (the envelope of main/requests/incoming.ts)
 * through intake (validated once, S-… rules; a refusal answered -32602 and recorded), the queue,
 * the person's review of the request and then of the response (or an auto-approve rule), the
 * provider, and delivery — history committed first, then the result goes to the server. A failed
 * generation comes back to the person, or — with nobody reviewing (an `approve_all` rule) — ends
 * the item `failed` and the server gets the failure (-32052, steps.ts). Every status change is a
 * move of the state machine table in main/requests/machine.ts.
 *
 * The server giving up (its timeout, notifications/cancelled, a closed connection), the end of the
 * client request the item belongs to, or the console shutting down ends an open item at once as
 * `timed_out` / `cancelled` with `outcome.stopped` saying why; a later decision by the person fails
 * with a clear `invalid_state` error, and so does a decision about another version of the item
 * than the one the person saw (versions.ts). What the person typed (`saveDraft`) stays on the item and in
 * history either way (drafts.ts).
 */
import { createPipelineCore } from './core.js';
import { receive, reopenDraft } from './arrival.js';
import * as review from './review.js';
import type { PipelineDeps, SamplingPipeline } from './types.js';

export type { HistorySink, PipelineDeps, ProviderRegistry, SamplingPipeline } from './types.js';

/**
 * Creates the pipeline: the core it shares (core.ts), the way in (arrival.ts) and the review
 * actions (review.ts), bound to the operations the ConsoleService methods call.
 */
export function createSamplingPipeline(deps: PipelineDeps): SamplingPipeline {
  const core = createPipelineCore(deps);
  return {
    handle: (request) => receive(core, request),
    reopenDraft: (entry) => reopenDraft(core, entry),
    saveDraft: (itemId, draft, version) => review.saveDraft(core, itemId, draft, version),
    callEnded: (callId) => review.callEnded(core, callId),
    approveRequest: (itemId, seen, params, model) => review.approveRequest(core, itemId, seen, params, model),
    rejectRequest: (itemId, seen, reason) => review.rejectRequest(core, itemId, seen, reason),
    cancelGeneration: (itemId) => review.cancelGeneration(core, itemId),
    regenerate: (itemId, seen) => review.regenerate(core, itemId, seen),
    approveResponse: (itemId, seen, result) => review.approveResponse(core, itemId, seen, result),
    rejectResponse: (itemId, seen, reason) => review.rejectResponse(core, itemId, seen, reason),
    dismiss: (itemId) => review.dismiss(core, itemId),
    cancelAll: (why, cause, only) => review.cancelAll(core, why, cause, only),
  };
}
