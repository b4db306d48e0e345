/**
 * The full-screen editor (`f` on a review): a modal with one big textarea bound to the same draft
 * as the inline editor (every keystroke is written through {@link EditorTarget.write}, so closing
 * never loses text). Escape, Mod+Enter or Done closes it.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './Modal';
import { IS_MAC, useKeyboardUi, type EditorTarget } from './registry';
import { formatBinding } from './shortcuts';

function Editor({ target, onClose }: { target: EditorTarget; onClose: () => void }) {
  const { t } = useTranslation('keys');
  const [text, setText] = useState(target.initial);
  const ref = useRef<HTMLTextAreaElement>(null);
  const keyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (IS_MAC ? e.metaKey : e.ctrlKey)) {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  };
  return (
    <Modal onClose={onClose} labelledBy="fullscreen-title" describedBy="fullscreen-hint" className="kb-fullscreen" testId="fullscreen-editor" initialFocus={ref}>
      <div className="kb-modal-body kb-fullscreen-body">
        <header className="kb-modal-head">
          <h2 id="fullscreen-title">{t('editor.title', { label: target.label })}</h2>
          <button type="button" className="btn-primary" onClick={onClose} data-testid="fullscreen-done">
            {t('editor.done')}
          </button>
        </header>
        <p id="fullscreen-hint" className="small muted">
          {t('editor.hint', { keys: formatBinding('mod+enter', IS_MAC) })}
        </p>
        <textarea
          ref={ref}
          className="editor kb-fullscreen-text"
          aria-label={target.label}
          data-testid="fullscreen-text"
          value={text}
          onKeyDown={keyDown}
          onChange={(e) => {
            setText(e.target.value);
            target.write(e.target.value);
          }}
        />
      </div>
    </Modal>
  );
}

/** The full-screen editor, mounted while a review has opened it (state in {@link useKeyboardUi}). */
export function FullScreenEditor() {
  const target = useKeyboardUi((s) => s.editor);
  const close = useKeyboardUi((s) => s.close);
  return target ? <Editor target={target} onClose={close} /> : null;
}
