/**
 * The request review's state: the person's draft of the request (what they typed, else what main
 * kept, else the request as the server sent it) and its extras, the request built from them, the
 * reject reason, and the approve and reject actions with their keyboard shortcuts.
 */
import { useDeferredValue, useMemo, useState } from 'react';
import type { SamplingItemView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { withItemMedia } from '../../item-media';
import { useAction, type ActionState } from '../../hooks';
import { useConsole, type RequestDraft } from '../../store';
import { buildRequest, initialRequestDraft, requestEdited } from './drafts';
import { NO_REQUEST_EXTRAS, withEdit, type RequestExtras } from './edits';
import { flushDraft } from './autosave';
import { useRequestShortcuts } from '../../keyboard/review-shortcuts';
import { decideHere, useDecisionsOff } from './review-hold';

/** The request review's state and actions. */
export interface RequestReviewState {
  draft: RequestDraft;
  extras: RequestExtras;
  /** Merges `patch` into the draft. */
  update(patch: Partial<RequestDraft>): void;
  updateExtras(next: RequestExtras): void;
  /** Sets (or, with undefined, drops) the edited text of the block `key`. */
  setText(key: string, text: string | undefined): void;
  /** Opens or closes the editor of the block `key`. */
  toggle(key: string): void;
  reason: string;
  setReason(reason: string): void;
  /** The request built from the (deferred) draft. */
  built: ReturnType<typeof buildRequest>;
  /** Whether the (deferred) draft differs from the request as sent. */
  edited: boolean;
  approve: ActionState<[]>;
  reject: ActionState<[]>;
  /** An action is running, or none may run: the review is held, offline, or its version is not known yet. */
  busy: boolean;
  keys: ReturnType<typeof useRequestShortcuts>;
}

/** Reads and edits the draft of `item`'s request in the store and approves or rejects it through the API. */
export function useRequestReview(item: SamplingItemView): RequestReviewState {
  const stored = useConsole((s) => s.drafts[item.id]?.request);
  const setDraft = useConsole((s) => s.setRequestDraft);
  const initial = useMemo(() => initialRequestDraft(item), [item]);
  // What main kept (e.g. after a reload) until the person types here.
  const draft = stored ?? item.draft?.request?.draft ?? initial;
  const update = (patch: Partial<RequestDraft>) => setDraft(item.id, { ...draft, ...patch });
  const [reason, setReason] = useState('');
  const extras = useConsole((s) => s.drafts[item.id]?.requestExtras) ?? item.draft?.request?.extras ?? NO_REQUEST_EXTRAS;
  const setExtras = useConsole((s) => s.setRequestExtras);
  const updateExtras = (next: RequestExtras) => setExtras(item.id, next);
  // Building (and validating) the draft takes ~10 ms for a megabyte prompt: once per change of
  // the draft, in a deferred render, so a keystroke paints first. Approve builds from the latest
  // draft itself, so what is approved never lags what was typed.
  const settled = useDeferredValue(draft);
  const built = useMemo(() => buildRequest(item, settled, extras), [item, settled, extras]);
  const edited = useMemo(() => requestEdited(item, settled, extras, built), [item, settled, extras, built]);

  // A decision names the version of the request shown here; main refuses it about any other.
  const version = item.contentVersion;
  const off = useDecisionsOff() || !version;
  const approve = useAction(async () => {
    const mine = useConsole.getState().drafts[item.id];
    const latest = buildRequest(item, mine?.request ?? item.draft?.request?.draft ?? initial, mine?.requestExtras ?? item.draft?.request?.extras ?? NO_REQUEST_EXTRAS);
    if (!latest.ok || !version) return;
    flushDraft(item.id);
    const params = await withItemMedia(item.id, latest.params);
    await decideHere(item, () => getApi().approveRequest({ itemId: item.id, version, params, model: latest.model }));
  });
  const reject = useAction(async () => {
    if (!version) return;
    flushDraft(item.id);
    await decideHere(item, () => getApi().rejectRequest({ itemId: item.id, version, reason: reason.trim() || undefined }));
  });

  const setText = (key: string, text: string | undefined) => update({ texts: withEdit(draft.texts, key, text) });
  const toggle = (key: string) => update({ editing: { ...draft.editing, [key]: !draft.editing[key] } });
  const busy = approve.pending || reject.pending || off;
  const keys = useRequestShortcuts(item, { approve: () => void approve.run(), reject: () => void reject.run(), canApprove: built.ok, busy });
  return { draft, extras, update, updateExtras, setText, toggle, reason, setReason, built, edited, approve, reject, busy, keys };
}
