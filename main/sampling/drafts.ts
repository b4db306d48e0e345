/**
 * The pipeline's helpers for a person's unsent work and for items whose server stopped waiting
 * (pure; the state machine in pipeline.ts calls them):
 *
 * - {@link mergeDraft}: a `saveDraft` on top of what the item kept; {@link withLate}: one typed in a
 *   review the item has moved on from; {@link dropDraftPart} when a part is used up;
 * - {@link stopWhy}: the status and message for an aborted server request, by its typed cause;
 * - {@link callHasEnded}: whether an item's client request is over (it then ends at once);
 * - {@link resumeDraft}: a history entry's draft put back on a re-opened item, where the person left off.
 */
import type { DraftInput, ItemDraft } from '../../shared/contract/drafts.js';
import type { CallRef, HistoryEntry, SamplingItemView, SamplingStatus } from '../../shared/contract/state.js';
import { ui, type UiText, type UiTextCode } from '../../shared/contract/ui-text.js';
import type { AbortCause } from '../requests/incoming.js';
import { nextSamplingStatus } from '../requests/machine.js';

/** The stored draft with `input`'s parts replacing its own; `savedAt` = `now` (epoch ms). */
export function mergeDraft(stored: ItemDraft | undefined, input: DraftInput, now: number): ItemDraft {
  const next: ItemDraft = { ...stored, savedAt: now };
  if (input.request) next.request = input.request;
  if (input.response) next.response = input.response;
  if (input.form) next.form = input.form;
  return next;
}

/**
 * The stored draft with `input`'s parts replacing those of its `late` part (typed in a review the
 * item had moved on from), both stamped `now` (epoch ms); the live parts are left as they are.
 */
export function withLate(stored: ItemDraft | undefined, input: DraftInput, now: number): ItemDraft {
  const { savedAt: _at, ...late } = mergeDraft(stored?.late, input, now);
  return { ...stored, savedAt: now, late: { ...late, savedAt: now } };
}

/**
 * The parts of a `saveDraft` that still apply in `status`: a request part only before the request
 * is approved (then `sent` holds the edits), a response part only once there is a response to
 * review; after the item ended, every part (a late save of what was typed before the end).
 */
export function draftFor(status: SamplingStatus, input: DraftInput): DraftInput {
  const part = { ...input };
  if (status === 'generating' || status === 'awaiting_response_review') delete part.request;
  if (status === 'generating' || status === 'awaiting_request_review') delete part.response;
  return part;
}

/**
 * The draft without one part (undefined when nothing is left): the request part once the request
 * is approved (`sent` holds those edits), the response part when a new generation replaces the
 * response it was typed on.
 */
export function dropDraftPart(draft: ItemDraft | undefined, part: 'request' | 'response'): ItemDraft | undefined {
  if (!draft?.[part]) return draft;
  const rest: ItemDraft = { ...draft };
  delete rest[part];
  return rest.request || rest.response || rest.form || rest.late ? rest : undefined;
}

/** How an item ends when its server request's signal aborts, by the typed cause (main/requests/incoming.ts). */
const STOPPED: Record<AbortCause, { event: 'server_timeout' | 'stop'; why: UiTextCode }> = {
  server_timeout: { event: 'server_timeout', why: 'outcome.serverTimeout' },
  connection_closed: { event: 'stop', why: 'outcome.connectionClosed' },
  server_cancelled: { event: 'stop', why: 'outcome.serverCancelled' },
};

/**
 * The state machine's event (main/requests/machine.ts) and the message for an item whose server
 * stopped waiting: the server's timeout → `server_timeout` (timed_out); a closed connection or the
 * server's cancellation → `stop` (cancelled).
 */
export function stopWhy(cause: AbortCause): { event: 'server_timeout' | 'stop'; why: UiText } {
  const { event, why } = STOPPED[cause];
  return { event, why: ui(why) };
}

/**
 * Whether the client request `callId` that just finished was the last one `item` may belong to:
 * it is among the item's calls and none of them is still `running`. Returns the call's name as
 * shown ("tools/call ask-text"), or null when the item is still inside a running call (or never
 * named this one).
 */
export function callHasEnded(item: SamplingItemView, callId: string, running: CallRef[]): string | null {
  const calls = item.association.calls;
  const ended = calls.find((c) => c.callId === callId);
  if (!ended) return null;
  const stillRunning = new Set(running.map((c) => c.callId));
  if (calls.some((c) => stillRunning.has(c.callId))) return null;
  return `${ended.kind} ${ended.name}`;
}

/**
 * What a re-opened item takes from its history entry's draft (`now`: epoch ms): always the draft
 * itself, its `late` parts standing in for the parts it lacks (what was typed after the review
 * ended is what the person last wrote); and when the person was writing or editing a response to
 * an approved request, the review of that response again — the request as approved, the model, the
 * response as generated (or the empty hand-written one) — so the typed text sits where it was typed.
 */
export function resumeDraft(entry: HistoryEntry, item: SamplingItemView, now: number): Partial<SamplingItemView> {
  const { late, savedAt: _at, ...live } = entry.draft ?? { savedAt: now };
  const { savedAt: _lateAt, ...typedLate } = late ?? { savedAt: now };
  const draft: ItemDraft = { ...typedLate, ...live, savedAt: now };
  if (!draft.response || !entry.sent) return { draft };
  const model = entry.modelChoice ?? item.model;
  const generated = entry.generated;
  const empty = { role: 'assistant' as const, content: { type: 'text' as const, text: '' }, model: model.modelId, stopReason: 'endTurn' as const };
  return {
    draft,
    status: nextSamplingStatus(item.status, 'resume_response'),
    sent: item.original,
    model,
    response: { ...(generated && { generated }), draft: generated ?? empty, manual: !generated, generatedAt: now },
  };
}
