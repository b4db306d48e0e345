/**
 * The command palette (Mod+K): a modal with a filterable list of everything the keyboard can do
 * now — the commands of the shown screen (from the registry, with their shortcuts), the screens,
 * the queue items waiting for the person (by server and tool) and the servers. ARIA combobox +
 * listbox: the input keeps focus, ↑/↓ move the active option (`aria-activedescendant`), Enter
 * runs it, Escape closes and focus returns to where it was.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isAwaitingPerson, useConsole, useItems, useServers } from '../store';
import { elicitationAwaiting } from '../screens/queue/ElicitationModel';
import { shownPreview, summaryCallLabel } from '../screens/queue/summary';
import { Modal } from './Modal';
import { focusReview } from './review-actions';
import { filterEntries, moveActive, type PaletteEntry } from './palette-model';
import { runCommand, shortcutText, useAvailableCommands, useKeyboardUi } from './registry';
import { COMMANDS, NAV_SCREENS, type CommandId, type Scope } from './shortcuts';

/** Palette order of scopes: the shown review's actions first. */
const SCOPE_ORDER: Scope[] = ['queue-request', 'queue-response', 'elicitation', 'queue', 'global'];

type Runnable = PaletteEntry & { run: () => void };

/** Everything the palette offers now: the shown screen's commands, waiting items, screens, global commands, servers. */
function usePaletteEntries(): Runnable[] {
  const { t } = useTranslation('keys');
  const available = useAvailableCommands();
  const all = useItems();
  const servers = useServers();
  const openItem = useConsole((s) => s.openItem);
  const selectServer = useConsole((s) => s.selectServer);
  const setScreen = useConsole((s) => s.setScreen);
  return useMemo(() => {
    const command = (id: CommandId, group: PaletteEntry['group']): Runnable => ({
      id: `cmd:${id}`,
      group,
      label: t(`commands.${id}`),
      shortcut: shortcutText(id),
      run: () => void runCommand(id),
    });
    const usable = COMMANDS.filter((c) => !('notInPalette' in c && c.notInPalette) && available.has(c.id));
    const isNav = (id: CommandId) => id in NAV_SCREENS;
    const actions = SCOPE_ORDER.filter((s) => s !== 'global').flatMap((scope) => usable.filter((c) => c.scope === scope).map((c) => command(c.id, 'action')));
    const screens = usable.filter((c) => isNav(c.id)).map((c) => command(c.id, 'screen'));
    const globals = usable.filter((c) => c.scope === 'global' && !isNav(c.id)).map((c) => command(c.id, 'action'));
    const items = all.filter((i) => i.kind === 'sampling');
    const elicitations = all.filter((i) => i.kind === 'elicitation');
    const waiting: Runnable[] = [
      ...items.filter(isAwaitingPerson).map((item) => ({
        id: `item:${item.id}`,
        group: 'item' as const,
        label: t('palette.itemLabel', { server: item.serverId, call: summaryCallLabel(item) }),
        detail: shownPreview(item.preview),
        keywords: item.status,
        run: () => (openItem(item.id), focusReview(item.id)),
      })),
      ...elicitations.filter(elicitationAwaiting).map((e) => ({
        id: `item:${e.id}`,
        group: 'item' as const,
        label: t('palette.itemLabel', { server: e.serverId, call: summaryCallLabel(e) }),
        detail: e.preview,
        run: () => (openItem(e.id), focusReview(e.id)),
      })),
    ];
    const serverRows: Runnable[] = servers.map((s) => ({
      id: `server:${s.id}`,
      group: 'server',
      label: t('palette.serverLabel', { server: s.id }),
      keywords: s.status,
      run: () => {
        selectServer(s.id);
        setScreen('servers');
      },
    }));
    return [...actions, ...waiting, ...screens, ...globals, ...serverRows];
  }, [t, available, all, servers, openItem, selectServer, setScreen]);
}

/**
 * The palette's state: the query, the entries it shows, the active one (kept in view), choosing an
 * entry, and the input's keys (↑/↓, Page Up/Down, Enter, Mod+K closes).
 */
function usePalette(onClose: () => void) {
  const entries = usePaletteEntries();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const shown = filterEntries(entries, query) as Runnable[];
  const activeIndex = shown.length === 0 ? -1 : Math.min(Math.max(active, 0), shown.length - 1);
  const activeId = activeIndex >= 0 ? `palette-option-${activeIndex}` : undefined;

  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  const choose = (entry: Runnable | undefined) => {
    if (!entry) return;
    onClose();
    // After the dialog is gone and focus is back, so the command can move focus itself.
    requestAnimationFrame(() => entry.run());
  };

  const keyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive(moveActive(activeIndex, e.key === 'ArrowDown' ? 1 : -1, shown.length));
    } else if (e.key === 'PageDown' || e.key === 'PageUp') {
      e.preventDefault();
      setActive(Math.min(Math.max(activeIndex + (e.key === 'PageDown' ? 8 : -8), 0), shown.length - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(shown[activeIndex]);
    } else if (e.key.toLowerCase() === 'k' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onClose();
    }
  };

  const search = (text: string) => {
    setQuery(text);
    setActive(0);
  };
  return { query, search, shown, activeIndex, activeId, setActive, choose, keyDown };
}

/** The palette's state, as {@link usePalette} returns it. */
type PaletteState = ReturnType<typeof usePalette>;

/** The listbox of the entries shown: group, label, detail and shortcut; the mouse moves the active one. */
function PaletteOptions({ palette }: { palette: PaletteState }) {
  const { t } = useTranslation('keys');
  const { shown, activeIndex, setActive, choose } = palette;
  return (
    <ul className="kb-palette-list" role="listbox" id="palette-list" aria-label={t('palette.results')} data-testid="palette-list">
      {shown.map((entry, i) => (
        <li
          key={entry.id}
          id={`palette-option-${i}`}
          role="option"
          aria-selected={i === activeIndex}
          className={`kb-option${i === activeIndex ? ' is-active' : ''}`}
          data-testid="palette-option"
          data-entry={entry.id}
          onMouseMove={() => i !== activeIndex && setActive(i)}
          onClick={() => choose(entry)}
        >
          <span className={`kb-group kb-group-${entry.group}`}>{t(`palette.groups.${entry.group}`)}</span>
          <span className="kb-option-label">{entry.label}</span>
          {entry.detail && <span className="kb-option-detail">{entry.detail}</span>}
          {entry.shortcut && <kbd className="kb-option-keys">{entry.shortcut}</kbd>}
        </li>
      ))}
    </ul>
  );
}

/** The open palette: the combobox input, the options, the empty note and the live count. */
function PaletteDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('keys');
  const palette = usePalette(onClose);
  const { query, shown } = palette;
  const inputRef = useRef<HTMLInputElement>(null);

  return (
    <Modal onClose={onClose} labelledBy="palette-title" className="kb-palette" testId="command-palette" initialFocus={inputRef}>
      <div className="kb-modal-body">
        <h2 id="palette-title" className="kb-sr-only">
          {t('palette.title')}
        </h2>
        <input
          ref={inputRef}
          className="kb-palette-input"
          type="text"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-autocomplete="list"
          aria-activedescendant={palette.activeId}
          aria-label={t('palette.inputLabel')}
          placeholder={t('palette.placeholder')}
          data-testid="palette-input"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => palette.search(e.target.value)}
          onKeyDown={palette.keyDown}
        />
        <PaletteOptions palette={palette} />
        {shown.length === 0 && (
          <p className="kb-empty" data-testid="palette-empty">
            {t('palette.empty', { query })}
          </p>
        )}
        <div className="kb-sr-only" aria-live="polite">
          {t('palette.count', { count: shown.length })}
        </div>
        <p className="kb-footer" aria-hidden="true">
          {t('palette.footer')}
        </p>
      </div>
    </Modal>
  );
}

/** The palette, mounted while open (state in {@link useKeyboardUi}). */
export function CommandPalette() {
  const open = useKeyboardUi((s) => s.palette);
  const close = useKeyboardUi((s) => s.close);
  return open ? <PaletteDialog onClose={close} /> : null;
}
