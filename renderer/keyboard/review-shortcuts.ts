/**
 * The hooks the review screens call to register their shortcuts. Each review passes its own
 * actions (the same functions its buttons run), so the keys do exactly what the buttons do; the
 * hooks return the props for those buttons: the tooltip with the shortcut and `aria-keyshortcuts`
 * (and, for the reject-reason field, Enter to reject).
 */
import type { KeyboardEvent } from 'react';
import type { SamplingItemView } from '../../shared/contract/state';
import { clickButton, focusLater, focusRequestEditor, focusResponseEditor, onPlainEnter, openRequestFullScreen, openResponseFullScreen } from './review-actions';
import { useShortcutHint, useShortcuts } from './registry';
import { useReviewHeld } from '../screens/queue/review-hold';

/** Props for a button or field that has a shortcut. */
export type HintProps = ReturnType<typeof useShortcutHint>;
/** Props for the reject-reason field: its hint plus Enter to reject. */
export type ReasonProps = HintProps & { onKeyDown: (e: KeyboardEvent) => void };

/** A review's own actions, as its buttons run them. */
export interface ReviewActions {
  approve: () => void;
  reject: () => void;
  /** Whether approving is possible now (the draft is valid). */
  canApprove: boolean;
  /** Whether an action is running (buttons disabled). */
  busy: boolean;
}

/** The review area of `itemId`, as a selector prefix. */
const areaOf = (itemId: string) => `[data-review-item="${CSS.escape(itemId)}"]`;

/**
 * Request review shortcuts, acting only while focus is inside this item's review: approve (A,
 * Mod+Enter), reject (R), reject with a reason (Shift+R focuses the field; Enter there rejects),
 * edit the prompt (E), full screen (F), model (M). A held review (ended under the person) decides
 * nothing: only its editing keys stay.
 */
export function useRequestShortcuts(item: SamplingItemView, actions: ReviewActions): { approve: HintProps; reject: HintProps; reason: ReasonProps } {
  const held = useReviewHeld();
  const area = areaOf(item.id);
  useShortcuts(
    'queue-request',
    {
      'request.approve': held ? undefined : () => (actions.canApprove && !actions.busy ? actions.approve() : false),
      'request.reject': held ? undefined : () => (actions.busy ? false : actions.reject()),
      'request.rejectWithReason': held ? undefined : () => focusLater(`${area} [data-testid="reject-reason"]`),
      'request.focusEditor': () => focusRequestEditor(item),
      'request.fullScreen': () => openRequestFullScreen(item),
      'request.switchModel': () => focusLater(`${area} #model-select`),
    },
    true,
    item.id,
  );
  const approve = useShortcutHint('request.approve');
  const reject = useShortcutHint('request.reject');
  const reason = useShortcutHint('request.rejectWithReason');
  return { approve, reject, reason: { ...reason, onKeyDown: onPlainEnter(() => !actions.busy && actions.reject()) } };
}

/**
 * Response review shortcuts, acting only while focus is inside this item's review: approve & send
 * (A, Mod+Enter), reject (R), reject with a reason (Shift+R), edit (E), full screen (F),
 * regenerate (N; not for a hand-written response). A held review keeps only its editing keys.
 */
export function useResponseShortcuts(
  item: SamplingItemView,
  actions: ReviewActions & { regenerate?: () => void },
): { approve: HintProps; reject: HintProps; reason: ReasonProps; regenerate: HintProps } {
  const held = useReviewHeld();
  const { regenerate } = actions;
  useShortcuts(
    'queue-response',
    {
      'response.approve': held ? undefined : () => (actions.canApprove && !actions.busy ? actions.approve() : false),
      'response.reject': held ? undefined : () => (actions.busy ? false : actions.reject()),
      'response.rejectWithReason': held ? undefined : () => focusLater(`${areaOf(item.id)} [data-testid="reject-reason"]`),
      'response.focusEditor': () => focusResponseEditor(item),
      'response.fullScreen': () => openResponseFullScreen(item),
      'response.regenerate': regenerate && !held ? () => (actions.busy ? false : regenerate()) : undefined,
    },
    true,
    item.id,
  );
  return {
    approve: useShortcutHint('response.approve'),
    reject: useShortcutHint('response.reject'),
    reason: { ...useShortcutHint('response.rejectWithReason'), onKeyDown: onPlainEnter(() => !actions.busy && actions.reject()) },
    regenerate: useShortcutHint('response.regenerate'),
  };
}

/**
 * Elicitation shortcuts while it waits for an answer, acting only while focus is inside this
 * item's review: accept (Mod+Enter), decline (D), cancel (C), first field (E). They press the
 * form's own buttons, so validation and sending stay the form's. A held review keeps only E.
 */
export function useElicitationShortcuts(itemId: string, waiting: boolean): void {
  const held = useReviewHeld();
  const area = `${areaOf(itemId)} [data-testid="elicitation-review"]`;
  useShortcuts(
    'elicitation',
    {
      'elicitation.accept': held ? undefined : () => clickButton(area, 'elicitation-accept'),
      'elicitation.decline': held ? undefined : () => clickButton(area, 'elicitation-decline'),
      'elicitation.cancel': held ? undefined : () => clickButton(area, 'elicitation-cancel'),
      'elicitation.focusForm': () => focusLater(`${area} form input:not([type="hidden"]), ${area} form select, ${area} form textarea, ${area} [data-testid="elicitation-accept"]`),
    },
    waiting,
    itemId,
  );
}
