/**
 * The cheat-sheet (`?`): every shortcut of the registry, grouped by scope, as a modal dialog.
 * It lists all commands (not only those available now), so the person learns them before they
 * need them.
 */
import { useTranslation } from 'react-i18next';
import { Modal } from './Modal';
import { IS_MAC, useKeyboardUi } from './registry';
import { COMMANDS, formatBinding, SCOPES, type CommandDef } from './shortcuts';

function Keys({ command }: { command: CommandDef }) {
  const { t } = useTranslation('keys');
  return (
    <>
      {command.keys.map((k, i) => (
        <span key={k} className="kb-binding">
          {i > 0 && <span className="kb-sep">/</span>}
          {formatBinding(k, IS_MAC)
            .split(' ')
            .map((part, j) => (
              <kbd key={j}>{part}</kbd>
            ))}
        </span>
      ))}
      {command.listKeys?.map((k) => (
        <span key={k} className="kb-binding">
          <span className="kb-sep">/</span>
          <kbd>{formatBinding(k, IS_MAC)}</kbd> <span className="kb-note">{t('cheatSheet.inList')}</span>
        </span>
      ))}
    </>
  );
}

function Sheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('keys');
  return (
    <Modal onClose={onClose} labelledBy="cheatsheet-title" describedBy="cheatsheet-intro" className="kb-cheatsheet" testId="cheat-sheet">
      <div className="kb-modal-body">
        <header className="kb-modal-head">
          <h2 id="cheatsheet-title">{t('cheatSheet.title')}</h2>
          <button type="button" className="btn-small" onClick={onClose} data-testid="cheat-sheet-close">
            {t('cheatSheet.close')}
          </button>
        </header>
        <p id="cheatsheet-intro" className="small muted">
          {t('cheatSheet.intro')}
        </p>
        <div className="kb-sheet-grid">
          {SCOPES.map((scope) => (
            <section key={scope} className="kb-sheet-scope" aria-labelledby={`cheatsheet-${scope}`} data-testid={`cheat-sheet-${scope}`}>
              <h3 id={`cheatsheet-${scope}`}>{t(`scopes.${scope}`)}</h3>
              <table className="kb-sheet-table">
                <thead className="kb-sr-only">
                  <tr>
                    <th scope="col">{t('cheatSheet.command')}</th>
                    <th scope="col">{t('cheatSheet.key')}</th>
                  </tr>
                </thead>
                <tbody>
                  {COMMANDS.filter((c) => c.scope === scope).map((c) => (
                    <tr key={c.id} data-command={c.id}>
                      <td>{t(`commands.${c.id}`)}</td>
                      <td className="kb-keys">
                        <Keys command={c} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
        </div>
      </div>
    </Modal>
  );
}

/** The cheat-sheet, mounted while open (state in {@link useKeyboardUi}). */
export function CheatSheet() {
  const open = useKeyboardUi((s) => s.cheatSheet);
  const close = useKeyboardUi((s) => s.close);
  return open ? <Sheet onClose={close} /> : null;
}
