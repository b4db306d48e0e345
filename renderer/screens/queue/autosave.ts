/**
 * Saves what the person types to main as they type (README, "Drafts"): every change of a request
 * or response draft in the stores (store.ts text drafts, edits.ts extras) and of an elicitation
 * form ({@link saveFormDraft}) goes to `saveDraft` through a debounced saver (draft-saver.ts:
 * within a second of the last keystroke). When an item leaves its review (the server stopped
 * waiting, the call ended) the stores drop its drafts; what was still queued is sent at once, and
 * main keeps it on the ended item and in history. Queued drafts are also sent when the page closes.
 */
import type { ConsoleApi } from '../../../shared/api';
import type { DraftInput, FormDraft } from '../../../shared/drafts';
import type { SamplingItemView } from '../../../shared/state';
import { cachedItem, useConsole, type ConsoleStore } from '../../store';
import { initialRequestDraft, initialResponseDraft } from './drafts';
import { createDraftSaver, type DraftSaver } from './draft-saver';
import { NO_REQUEST_EXTRAS, NO_RESPONSE_EXTRAS, useExtras } from './edits';

let saver: DraftSaver | null = null;

/** Queues an elicitation form's raw values for saving (no-op before {@link startDraftAutosave}). */
export function saveFormDraft(itemId: string, form: FormDraft): void {
  saver?.queue(itemId, { form });
}

/**
 * Sends `itemId`'s queued draft now. Call before an action on the item (approve, reject,
 * regenerate) so main has the latest text first: requests reach main in the order they are sent.
 */
export function flushDraft(itemId: string): void {
  saver?.flush(itemId);
}

interface Seen {
  request: ConsoleStore['requestDrafts'];
  response: ConsoleStore['responseDrafts'];
  requestExtras: ReturnType<typeof useExtras.getState>['request'];
  responseExtras: ReturnType<typeof useExtras.getState>['response'];
}

const seen = (): Seen => {
  const { requestDrafts, responseDrafts } = useConsole.getState();
  const { request, response } = useExtras.getState();
  return { request: requestDrafts, response: responseDrafts, requestExtras: request, responseExtras: response };
};

/** Item ids whose entry in `a` or `b` differs between two snapshots of the same maps. */
function changedIds(before: [Record<string, unknown>, Record<string, unknown>], after: [Record<string, unknown>, Record<string, unknown>]): string[] {
  const ids = new Set([...Object.keys(before[0]), ...Object.keys(before[1]), ...Object.keys(after[0]), ...Object.keys(after[1])]);
  return [...ids].filter((id) => before[0][id] !== after[0][id] || before[1][id] !== after[1][id]);
}

/** The whole sampling item `itemId` when the window has it open (a draft is made on an open item). */
function samplingItem(itemId: string): SamplingItemView | undefined {
  const item = cachedItem(itemId);
  return item && item.kind !== 'elicitation' ? item : undefined;
}

/** The request part of `itemId`'s draft as the stores hold it, or null when nothing is there. */
function requestPart(next: Seen, itemId: string): DraftInput | null {
  const draft = next.request[itemId];
  const extras = next.requestExtras[itemId];
  if (!draft && !extras) return null;
  const item = samplingItem(itemId);
  const base = draft ?? item?.draft?.request?.draft ?? (item && initialRequestDraft(item));
  return base ? { request: { draft: base, extras: extras ?? item?.draft?.request?.extras ?? NO_REQUEST_EXTRAS } } : null;
}

/** The response part of `itemId`'s draft as the stores hold it, or null when nothing is there. */
function responsePart(next: Seen, itemId: string): DraftInput | null {
  const draft = next.response[itemId];
  const extras = next.responseExtras[itemId];
  if (!draft && !extras) return null;
  const item = samplingItem(itemId);
  return { response: { draft: draft ?? item?.draft?.response?.draft ?? initialResponseDraft(), extras: extras ?? item?.draft?.response?.extras ?? NO_RESPONSE_EXTRAS } };
}

/**
 * Starts saving drafts through `api.saveDraft`; returns a function that stops (and sends what is queued).
 * Call once per page, next to `startMirror`.
 */
export function startDraftAutosave(api: Pick<ConsoleApi, 'saveDraft'>): () => void {
  const own = createDraftSaver((input) => api.saveDraft(input));
  saver = own;
  let before = seen();
  const check = () => {
    const next = seen();
    for (const [pick, maps] of [
      [requestPart, (s: Seen) => [s.request, s.requestExtras]],
      [responsePart, (s: Seen) => [s.response, s.responseExtras]],
    ] as const) {
      for (const id of changedIds(maps(before) as never, maps(next) as never)) {
        const part = pick(next, id);
        if (part) own.queue(id, part);
        else own.flush(id); // dropped: the item left its review; send what it still had queued now
      }
    }
    before = next;
  };
  const stopConsole = useConsole.subscribe(check);
  const stopExtras = useExtras.subscribe(check);
  const onHide = () => own.flushAll();
  window.addEventListener('pagehide', onHide);
  return () => {
    stopConsole();
    stopExtras();
    window.removeEventListener('pagehide', onHide);
    own.flushAll();
    if (saver === own) saver = null;
  };
}
