/**
 * Saves what the person types to main as they type (docs/history.md, "Drafts"): every change of an item's
 * edits in the store's one per-item `drafts` (store.ts: a request's or response's texts and
 * extras, an elicitation's form values) goes to `saveDraft` through a debounced saver (draft-saver.ts:
 * within a second of the last keystroke). When an item leaves its review (the server stopped
 * waiting, the call ended) the stores drop its drafts; what was still queued is sent at once, and
 * main keeps it on the ended item and in history. Queued drafts are also sent when the page closes.
 */
import type { ConsoleApi } from '../../../shared/contract/api';
import type { DraftInput } from '../../../shared/contract/drafts';
import type { SamplingItemView } from '../../../shared/contract/state';
import { cachedItem, useConsole, type ItemEdits } from '../../store';
import { initialRequestDraft, initialResponseDraft } from './drafts';
import { createDraftSaver, type DraftSaver } from './draft-saver';
import { NO_REQUEST_EXTRAS, NO_RESPONSE_EXTRAS } from './edits';

let saver: DraftSaver | null = null;

/**
 * Sends `itemId`'s queued draft now. Call before an action on the item (approve, reject,
 * regenerate) so main has the latest text first: requests reach main in the order they are sent.
 */
export function flushDraft(itemId: string): void {
  saver?.flush(itemId);
}

/** The whole sampling item `itemId` when the window has it open (a draft is made on an open item). */
function samplingItem(itemId: string): SamplingItemView | undefined {
  const item = cachedItem(itemId);
  return item && item.kind !== 'elicitation' ? item : undefined;
}

/** The request part of `itemId`'s draft as the store holds it (`edits`), or null when nothing is there. */
function requestPart(edits: ItemEdits | undefined, itemId: string): DraftInput | null {
  const draft = edits?.request;
  const extras = edits?.requestExtras;
  if (!draft && !extras) return null;
  const item = samplingItem(itemId);
  const base = draft ?? item?.draft?.request?.draft ?? (item && initialRequestDraft(item));
  return base ? { request: { draft: base, extras: extras ?? item?.draft?.request?.extras ?? NO_REQUEST_EXTRAS } } : null;
}

/** The response part of `itemId`'s draft as the store holds it (`edits`), or null when nothing is there. */
function responsePart(edits: ItemEdits | undefined, itemId: string): DraftInput | null {
  const draft = edits?.response;
  const extras = edits?.responseExtras;
  if (!draft && !extras) return null;
  const item = samplingItem(itemId);
  return { response: { draft: draft ?? item?.draft?.response?.draft ?? initialResponseDraft(), extras: extras ?? item?.draft?.response?.extras ?? NO_RESPONSE_EXTRAS } };
}

/** The form part of `itemId`'s draft, or null when nothing is there. */
function formPart(edits: ItemEdits | undefined): DraftInput | null {
  return edits?.form ? { form: edits.form } : null;
}

/**
 * Starts saving drafts through `api.saveDraft`; returns a function that stops (and sends what is queued).
 * Call once per page, next to `startMirror`.
 */
export function startDraftAutosave(api: Pick<ConsoleApi, 'saveDraft'>): () => void {
  const own = createDraftSaver((input) => api.saveDraft(input));
  saver = own;
  let before = useConsole.getState().drafts;
  const check = () => {
    const next = useConsole.getState().drafts;
    if (next === before) return;
    for (const id of new Set([...Object.keys(before), ...Object.keys(next)])) {
      const [was, now] = [before[id], next[id]];
      if (was === now) continue;
      for (const [pick, keys] of [
        [requestPart, ['request', 'requestExtras']],
        [responsePart, ['response', 'responseExtras']],
        [formPart, ['form']],
      ] as const) {
        if (keys.every((k) => was?.[k] === now?.[k])) continue;
        const part = pick(now, id);
        if (part) own.queue(id, part);
        else own.flush(id); // dropped: the item left its review; send what it still had queued now
      }
    }
    before = next;
  };
  const stopConsole = useConsole.subscribe(check);
  const onHide = () => own.flushAll();
  window.addEventListener('pagehide', onHide);
  return () => {
    stopConsole();
    window.removeEventListener('pagehide', onHide);
    own.flushAll();
    if (saver === own) saver = null;
  };
}
