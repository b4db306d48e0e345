/**
 * What a person typed on an item the queue no longer holds — dismissed in another window, pruned
 * from the queue view, or from before the console restarted — still ends up in the kept draft of
 * its History entry: the window that kept the review open sends it (`saveDraft`), and it is merged
 * here, as the queue would have merged it (main/sampling/drafts.ts).
 */
import { ApiError } from '../../shared/contract/api.js';
import type { DraftInput } from '../../shared/contract/drafts.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { ui } from '../../shared/contract/ui-text.js';
import { mergeDraft, withLate } from '../sampling/drafts.js';
import type { HistoryStore } from '../store/history-api.js';

/** Statuses whose answer went out: what is typed after it is kept as the draft's `late` part. */
const ANSWERED = new Set(['delivered', 'accepted', 'completed']);

/**
 * `entry` with `input` kept in its draft (`now`: epoch ms): after an answer went out, as the
 * draft's `late` part; otherwise merged into the draft (each part replaces the stored one), the
 * entry then marked as keeping a draft when it says nothing was delivered.
 */
export function entryWithDraft(entry: HistoryEntry, input: DraftInput, now: number): HistoryEntry {
  if (ANSWERED.has(entry.status)) return { ...entry, draft: withLate(entry.draft, input, now) };
  return { ...entry, draft: mergeDraft(entry.draft, input, now), ...(entry.notDelivered && { notDelivered: { ...entry.notDelivered, draft: true } }) };
}

/**
 * Keeps `input` in the History entry `itemId` (committed when it resolves).
 * @throws (rejects) ApiError not_found when History has no such entry either; the store's error
 *   when it cannot be read or written
 */
export async function keepDraftInHistory(store: Pick<HistoryStore, 'get' | 'save' | 'durable'>, itemId: string, input: DraftInput, now: number): Promise<void> {
  const entry = await store.get(itemId);
  if (!entry) throw new ApiError('not_found', ui('error.noHistoryEntry', { id: itemId }));
  store.save(entryWithDraft(entry, input, now));
  await store.durable();
}
