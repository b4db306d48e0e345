/**
 * Saves what the person types to main as they type (docs/history.md, "Drafts"): every change of an item's
 * edits in the store's one per-item `drafts` (store.ts: a request's or response's texts and
 * extras, an elicitation's form values) goes to `saveDraft` through a debounced saver (draft-saver.ts:
 * within a second of the last keystroke), naming the version of the review it was typed in. A
 * review that ended under the person is held (review-hold.ts) and its edits go on being saved:
 * main keeps them on the ended item, or apart when the item moved on, or in History when the
 * queue no longer has the item. When an item leaves its review otherwise the store drops its
 * drafts and what was still queued is sent at once. Queued drafts are also sent when the page
 * closes, and every save waits in the page's storage (localStorage) until main took it: the
 * next page sends what this one could not (the console was down, or restarted).
 */
import type { ConsoleApi } from '../../../shared/contract/api';
import type { DraftInput } from '../../../shared/contract/drafts';
import type { ItemView, SamplingItemView } from '../../../shared/contract/state';
import { cachedItem, useConsole, type ItemEdits } from '../../store';
import { initialRequestDraft, initialResponseDraft } from './drafts';
import { createDraftSaver, storageDrafts, type DraftSaver } from './draft-saver';
import { NO_REQUEST_EXTRAS, NO_RESPONSE_EXTRAS } from './edits';

let saver: DraftSaver | null = null;

/**
 * Sends `itemId`'s queued draft now. Call before an action on the item (approve, reject,
 * regenerate) so main has the latest text first: requests reach main in the order they are sent.
 */
export function flushDraft(itemId: string): void {
  saver?.flush(itemId);
}

/** The item `itemId` as its review shows it: a held review's snapshot, else the whole item the window has open. */
function shownItem(itemId: string): ItemView | undefined {
  return useConsole.getState().held[itemId]?.item ?? cachedItem(itemId);
}

/** The whole sampling item `itemId` as its review shows it (a draft is made on an open item). */
function samplingItem(itemId: string): SamplingItemView | undefined {
  const item = shownItem(itemId);
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
 * Starts saving drafts through `api.saveDraft`, first sending what an earlier page left in
 * `storage`; returns a function that stops (and sends what is queued). Call once per page, next
 * to `startMirror`.
 */
export function startDraftAutosave(api: Pick<ConsoleApi, 'saveDraft'>, storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = safeLocalStorage()): () => void {
  const kept = storageDrafts(storage);
  const own = createDraftSaver((input) => api.saveDraft(input), undefined, undefined, kept);
  for (const left of kept.all()) own.queue(left.itemId, left.draft, left.version);
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
        if (part) own.queue(id, part, shownItem(id)?.contentVersion);
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

/** The page's localStorage, or undefined where it cannot be reached (disabled, sandboxed). */
function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
