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

/**
 * Request review shortcuts: approve (A, Mod+Enter), reject (R), reject with a reason (Shift+R
 * focuses the field; Enter there rejects), edit the prompt (E), full screen (F), model (M).
 */
export function useRequestShortcuts(item: SamplingItemView, actions: ReviewActions): { approve: HintProps; reject: HintProps; reason: ReasonProps } {
  useShortcuts('queue-request', {
    'request.approve': () => (actions.canApprove && !actions.busy ? actions.approve() : false),
    'request.reject': () => (actions.busy ? false : actions.reject()),
    'request.rejectWithReason': () => focusLater('[data-testid="request-review"] [data-testid="reject-reason"]'),
    'request.focusEditor': () => focusRequestEditor(item),
    'request.fullScreen': () => openRequestFullScreen(item),
    'request.switchModel': () => focusLater('[data-testid="request-review"] #model-select'),
  });
  const approve = useShortcutHint('request.approve');
  const reject = useShortcutHint('request.reject');
  const reason = useShortcutHint('request.rejectWithReason');
  return { approve, reject, reason: { ...reason, onKeyDown: onPlainEnter(() => !actions.busy && actions.reject()) } };
}

/**
 * Response review shortcuts: approve & send (A, Mod+Enter), reject (R), reject with a reason
 * (Shift+R), edit (E), full screen (F), regenerate (N; not for a hand-written response).
 */
export function useResponseShortcuts(
  item: SamplingItemView,
  actions: ReviewActions & { regenerate?: () => void },
): { approve: HintProps; reject: HintProps; reason: ReasonProps; regenerate: HintProps } {
  const { regenerate } = actions;
  useShortcuts('queue-response', {
    'response.approve': () => (actions.canApprove && !actions.busy ? actions.approve() : false),
    'response.reject': () => (actions.busy ? false : actions.reject()),
    'response.rejectWithReason': () => focusLater('[data-testid="response-review"] [data-testid="reject-reason"]'),
    'response.focusEditor': () => focusResponseEditor(item),
    'response.fullScreen': () => openResponseFullScreen(item),
    'response.regenerate': regenerate ? () => (actions.busy ? false : regenerate()) : undefined,
  });
  return {
    approve: useShortcutHint('response.approve'),
    reject: useShortcutHint('response.reject'),
    reason: { ...useShortcutHint('response.rejectWithReason'), onKeyDown: onPlainEnter(() => !actions.busy && actions.reject()) },
    regenerate: useShortcutHint('response.regenerate'),
  };
}

const ELICITATION = '[data-testid="elicitation-review"]';

/**
 * Elicitation shortcuts while it waits for an answer: accept (Mod+Enter), decline (D), cancel (C),
 * first field (E). They press the form's own buttons, so validation and sending stay the form's.
 */
export function useElicitationShortcuts(waiting: boolean): void {
  useShortcuts(
    'elicitation',
    {
      'elicitation.accept': () => clickButton(ELICITATION, 'elicitation-accept'),
      'elicitation.decline': () => clickButton(ELICITATION, 'elicitation-decline'),
      'elicitation.cancel': () => clickButton(ELICITATION, 'elicitation-cancel'),
      'elicitation.focusForm': () =>
        focusLater(`${ELICITATION} form input:not([type="hidden"]), ${ELICITATION} form select, ${ELICITATION} form textarea, ${ELICITATION} [data-testid="elicitation-accept"]`),
    },
    waiting,
  );
}
