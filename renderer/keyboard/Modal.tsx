/**
 * A modal dialog for the keyboard layer (palette, cheat-sheet, full-screen editor): a native
 * `<dialog>` opened with `showModal()` (the rest of the page is inert), `aria-modal`, focus kept
 * inside (Tab and Shift+Tab wrap), Escape or a click on the backdrop closes it, and focus returns
 * to where it was. Mount it only while open.
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import './keyboard.css';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** What a {@link Modal} takes. */
export interface ModalProps {
  /** Called when the person closes it (Escape, the backdrop, or the browser closing the dialog). */
  onClose: () => void;
  /** The id of the dialog's heading. */
  labelledBy: string;
  /** The id of the text that describes it, if any. */
  describedBy?: string;
  /** Classes added to `kb-modal`. */
  className?: string;
  testId?: string;
  /** What gets focus on open (else the first focusable element). */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Keys the content handles before the dialog's own (Escape, Tab). */
  onKeyDown?: (e: KeyboardEvent<HTMLDialogElement>) => void;
  children: ReactNode;
}

/**
 * Opens the dialog modally on mount and focuses `initialFocus` (else its first focusable element);
 * on unmount closes it and gives focus back to where it was. A close by the browser itself calls the
 * latest `onClose`.
 */
function useModalDialog(ref: RefObject<HTMLDialogElement | null>, onClose: () => void, initialFocus?: RefObject<HTMLElement | null>) {
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    (initialFocus?.current ?? dialog.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    // The browser may close the dialog itself (a repeated Escape): keep the state in step.
    const onNativeClose = () => closeRef.current();
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      if (previous?.isConnected) previous.focus();
    };
  }, [ref, initialFocus]);
}

/** Tab on the last focusable element goes to the first, Shift+Tab on the first to the last. */
function wrapTab(dialog: HTMLDialogElement | null, e: KeyboardEvent<HTMLDialogElement>) {
  const items = [...(dialog?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/** A modal dialog; `labelledBy` is the id of its heading. */
export function Modal({ onClose, labelledBy, describedBy, className, testId, initialFocus, onKeyDown, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useModalDialog(ref, onClose, initialFocus);

  const keyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    onKeyDown?.(e);
    if (e.defaultPrevented) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key === 'Tab') wrapTab(ref.current, e);
  };

  return (
    <dialog
      ref={ref}
      className={`kb-modal${className ? ` ${className}` : ''}`}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      data-testid={testId}
      onKeyDown={keyDown}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onMouseDown={(e) => {
        if (e.target === ref.current) onClose(); // the backdrop
      }}
    >
      {children}
    </dialog>
  );
}
