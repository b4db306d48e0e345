/**
 * The keyboard layer, mounted once in App: the key dispatcher (one `keydown` listener on the
 * document, matching the registry's bindings of the active scopes), the global commands (palette,
 * cheat-sheet, screens, theme, pausing auto-approval, leaving a field) and the three dialogs.
 *
 * Rules: nothing fires while a modal dialog is open (the dialog handles its own keys) or after a
 * component already handled the key (`defaultPrevented`); single-key shortcuts never fire while
 * the person types (input, textarea, select, contenteditable) — only chords with Ctrl/⌘/Alt and
 * Escape do; the list's keys act only while focus is in the queue list, a review's keys only while
 * focus is inside that item's review (`scopeTakes`); key repeat only steps through the queue.
 * Escape leaves a field for its review (focus never falls to the page), and a review for the list.
 */
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { getApi } from '../api';
import { Banner } from '../components/common';
import { useConsole, type Screen } from '../store';
import { effectiveTheme, useOsPrefersDark } from '../theme';
import { CheatSheet } from './CheatSheet';
import { CommandPalette } from './CommandPalette';
import { FullScreenEditor } from './FullScreenEditor';
import { activeScopes, handlerFor, IS_MAC, useKeyboardUi, useShortcutHint, useShortcuts, type CommandContext } from './registry';
import { bindingsOf, createMatcher, firesWhileTyping, isTypingTarget, NAV_SCREENS, type CommandId, type KeyPlace } from './shortcuts';
import './keyboard.css';

// The registry's screen names are the app's (a compile error here means they drifted apart).
const _screens: Record<keyof typeof NAV_SCREENS, Screen> = NAV_SCREENS;
void _screens;
const NAV_COMMANDS = Object.fromEntries(Object.entries(NAV_SCREENS).map(([id, screen]) => [screen, id])) as Record<Screen, keyof typeof NAV_SCREENS>;

/** Tooltip and `aria-keyshortcuts` for the nav button of `screen` (G Q / Ctrl+1, …). */
export function useNavHint(screen: Screen): ReturnType<typeof useShortcutHint> {
  return useShortcutHint(NAV_COMMANDS[screen]);
}

const REPEATABLE = new Set<CommandId>(['queue.next', 'queue.prev']);

/** The queue list's selected row, else its first. */
const LIST_ROW = '[data-testid="queue-list"] [aria-current="true"], [data-testid="queue-list"] [data-testid="queue-item"]';

/**
 * Escape: out of a field into the review it is in (so focus never falls to the page; the
 * review's keys work again), or, from a review of the Queue, back to its list. False (the key is
 * left alone) anywhere else.
 */
function leave(target: Element | null): boolean | void {
  if (!(target instanceof HTMLElement)) return false;
  const area = target.closest<HTMLElement>('[data-review-item]');
  if (isTypingTarget(target)) {
    target.blur();
    if (area) delete area.dataset.rescued; // put there on purpose: its keys work
    (area ?? document.getElementById('main'))?.focus({ preventScroll: true });
    return;
  }
  const row = area?.closest('[data-testid="queue-detail"]') ? document.querySelector<HTMLElement>(LIST_ROW) : null;
  if (!row) return false;
  row.focus();
}

function modalOpen(): boolean {
  return document.querySelector('dialog[open], [aria-modal="true"]') !== null;
}

function useDispatcher(): void {
  useEffect(() => {
    const matcher = createMatcher(IS_MAC);
    const bindings = bindingsOf();
    const onKeyDown = (ev: KeyboardEvent) => {
      if (ev.defaultPrevented || modalOpen()) {
        matcher.reset();
        return;
      }
      const target = ev.target instanceof Element ? ev.target : null;
      const typing = isTypingTarget(target as HTMLElement | null);
      const area = target?.closest<HTMLElement>('[data-review-item]');
      const place: KeyPlace = { inList: !!target?.closest('[data-testid="queue-list"]'), review: area?.dataset.reviewItem ?? null, rescued: !!area && target === area && area.dataset.rescued === 'true' };
      const scopes = activeScopes();
      const candidates = bindings.filter(
        (b) => scopes.has(b.scope) && (!b.listOnly || place.inList) && (!typing || firesWhileTyping(b.chords)) && handlerFor(b.commandId, place) !== undefined,
      );
      const result = matcher.feed(ev, ev.timeStamp, candidates);
      if (result.kind === 'pending') {
        ev.preventDefault();
        return;
      }
      if (result.kind !== 'command') return;
      const id = result.binding.commandId;
      if (ev.repeat && !REPEATABLE.has(id)) {
        ev.preventDefault();
        return;
      }
      const ctx: CommandContext = { target, fromKey: true };
      if (handlerFor(id, place)?.(ctx) !== false) ev.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

function useGlobalCommands(report: (error: unknown) => void): void {
  const ui = useKeyboardUi();
  const setScreen = useConsole((s) => s.setScreen);
  const theme = useConsole((s) => s.mirror?.desktop?.settings.theme);
  const hasDesktop = useConsole((s) => !!s.mirror?.desktop);
  const paused = useConsole((s) => s.mirror?.policy?.rules.paused);
  const osDark = useOsPrefersDark();
  const go = (screen: Screen) => ({ fromKey }: CommandContext) => {
    // Focus the new screen's region so reading continues there (not on a control that is gone).
    if (fromKey) {
      // From a shortcut: rendered and focused within the key's own event, so a Tab pressed right
      // after it moves on from the new screen (a focus made a frame later took that Tab back).
      flushSync(() => setScreen(screen));
      // The Queue: into its list (its keys work there); another screen: its region.
      const row = screen === 'queue' ? document.querySelector<HTMLElement>(LIST_ROW) : null;
      (row ?? document.getElementById('main'))?.focus({ preventScroll: true });
      return;
    }
    // From the palette: a frame later, once the palette has closed and put focus back.
    setScreen(screen);
    requestAnimationFrame(() => document.getElementById('main')?.focus({ preventScroll: true }));
  };
  useShortcuts('global', {
    'palette.open': () => ui.openPalette(),
    'cheatsheet.open': () => ui.openCheatSheet(),
    'nav.queue': go('queue'),
    'nav.servers': go('servers'),
    'nav.providers': go('providers'),
    'nav.history': go('history'),
    'nav.rules': go('rules'),
    'nav.settings': go('settings'),
    'theme.toggle': hasDesktop
      ? () => void getApi().setDesktopSettings({ theme: effectiveTheme(theme, osDark) === 'dark' ? 'light' : 'dark' }).catch(report)
      : undefined,
    'auto.pause': paused !== undefined ? () => void getApi().setAutoApprovalPaused({ paused: !paused }).catch(report) : undefined,
    'editor.leave': ({ target }) => leave(target),
  });
}

/** Dispatcher, global commands, palette, cheat-sheet and full-screen editor. Mount once, in App. */
export function KeyboardLayer() {
  const { t } = useTranslation('keys');
  const [error, setError] = useState<string | null>(null);
  useDispatcher();
  useGlobalCommands((e) => setError(e instanceof Error ? e.message : String(e)));
  return (
    <>
      <CommandPalette />
      <CheatSheet />
      <FullScreenEditor />
      {error && (
        <div className="kb-error" data-testid="keyboard-error">
          <Banner tone="error">{error}</Banner>
          <button type="button" className="btn-small" onClick={() => setError(null)}>
            {t('hide')}
          </button>
        </div>
      )}
    </>
  );
}
