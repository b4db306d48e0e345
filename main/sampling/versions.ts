/**
 * Versions of what a person reviews, as plain functions over the core (core.ts): the item's
 * `contentVersion` while a person is to decide (main/requests/version.ts), the check every decision
 * makes against the version the person saw, and the digest of what an approval let out, recorded
 * on the decision's history event. Nothing here runs for a request nobody reviews (a rule decided).
 */
import { ApiError } from '../../shared/contract/api.js';
import type { HistoryEvent, SamplingItemView } from '../../shared/contract/state.js';
import { ui, type UiTextCode } from '../../shared/contract/ui-text.js';
import { versionOf } from '../requests/version.js';
import { save, update, type PipelineCore } from './core.js';
import type { SamplingRecord } from './record.js';

/**
 * What a person reviews in the item's status: the request as it would be sent unedited (request
 * review), the response as it would be delivered unedited (response review); undefined otherwise.
 */
export function reviewBase(item: SamplingItemView): object | undefined {
  if (item.status === 'awaiting_request_review') return item.sent ?? item.original;
  if (item.status === 'awaiting_response_review') return item.response?.draft;
  return undefined;
}

/**
 * Puts the version of what the person now reviews on the item: at once for a small payload; a big
 * one is hashed in slices off the hot path and published when done (until then decisions are
 * refused as "still reading", and the review's buttons wait for it). Call where a person's review
 * phase begins.
 */
export function markReviewVersion(core: PipelineCore, rec: SamplingRecord): void {
  const base = reviewBase(rec.item);
  if (base === undefined) return;
  const v = versionOf(base);
  if ('ready' in v) return update(core, rec, { contentVersion: v.ready });
  if (rec.item.contentVersion !== undefined) update(core, rec, { contentVersion: undefined });
  v.pending.then(
    (version) => {
      if (reviewBase(rec.item) === base && !rec.item.outcome) update(core, rec, { contentVersion: version });
    },
    (err: unknown) => core.deps.logger.error('could not compute the version of an item under review', { item: rec.item.id, error: String(err) }),
  );
}

/**
 * Refuses a decision about a version other than the item's: `seen` is the version the person's
 * review showed (`contentVersion`).
 * @throws ApiError invalid_state "Cannot <action>: it is not the version you saw …" (or, while a
 *   big payload's version is still being computed, "… still reading it")
 */
export function checkVersion(rec: SamplingRecord, seen: string, action: UiTextCode): void {
  const current = rec.item.contentVersion;
  if (current !== undefined && current === seen) return;
  const why = current === undefined ? ui('error.versionPending') : ui('error.staleVersion');
  throw new ApiError('invalid_state', ui('error.cannotAct', { action: ui(action), why }));
}

/**
 * Sets `event.sha256` to the version of `payload` (what a person's approval let out), so History
 * binds the decision to it: before the next save for a small payload, else computed in slices and
 * saved again when done. Returns the digest, or the promise of it for a big payload (the audit
 * trail records it: audit.ts).
 */
export function stampDigest(core: PipelineCore, rec: SamplingRecord, event: HistoryEvent, payload: unknown): string | Promise<string> {
  const v = versionOf(payload);
  if ('ready' in v) {
    event.sha256 = v.ready;
    return v.ready;
  }
  v.pending.then(
    (sha256) => {
      event.sha256 = sha256;
      save(core, rec);
    },
    (err: unknown) => core.deps.logger.error('could not compute the digest of an approved payload', { item: rec.item.id, error: String(err) }),
  );
  return v.pending;
}
