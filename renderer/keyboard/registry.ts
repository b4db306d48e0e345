/**
 * The live side of the keyboard registry: which commands can run now. Screens register their
 * handlers with {@link useShortcuts} (a review screen registers approve, reject, …, calling its
 * own actions, so no business logic lives here); the key dispatcher, the command palette and the
 * cheat-sheet ask {@link runCommand} / {@link useAvailableCommands}. Also the tooltip hint every
 * button with a shortcut shows ({@link useShortcutHint}), and the dialogs' open state.
 */
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { ariaKeyShortcuts, commandById, commandTakes, formatBinding, isMacPlatform, type CommandId, type KeyPlace, type Scope } from './shortcuts';

/** What a handler learns about the key press (nothing when run from the palette). */
export interface CommandContext {
  /** The element that had focus when the key was pressed. */
  target: Element | null;
  /** Whether it was run by a key press (false: from the palette). */
  fromKey: boolean;
}

/** A command's handler; returning `false` means "not applicable now" (the key is left alone). */
export type CommandHandler = (ctx: CommandContext) => void | boolean;

/** Handlers by command id; a missing or undefined entry means the command is not available. */
export type Handlers = Partial<Record<CommandId, CommandHandler | undefined>>;

interface Registration {
  scope: Scope;
  /** The item a review's handlers act on (their keys work only inside its review). */
  owner?: string;
  ids: CommandId[];
  handlers: { current: Handlers };
}

const registrations: Registration[] = [];
let version = 0;
const listeners = new Set<() => void>();
const changed = () => {
  version++;
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Whether `mod` is ⌘ (macOS) rather than Ctrl, from the browser's platform. */
export const IS_MAC: boolean =
  typeof navigator !== 'undefined' &&
  isMacPlatform((navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform);

/**
 * Registers `handlers` for `scope` while the calling component is mounted (and `enabled`). The
 * latest handlers are used (they may close over fresh state every render); the set of commands
 * offered changes when the keys of `handlers` (with a defined value) change. A review registers
 * with `owner`, its item's id: its keys then act only while focus is inside that item's review.
 */
export function useShortcuts(scope: Scope, handlers: Handlers, enabled = true, owner?: string): void {
  const ref = useRef(handlers);
  useLayoutEffect(() => {
    ref.current = handlers;
  });
  const ids = (Object.keys(handlers) as CommandId[]).filter((id) => handlers[id] !== undefined);
  const idsKey = ids.join(' ');
  useEffect(() => {
    if (!enabled) return;
    const reg: Registration = { scope, owner, ids: idsKey ? (idsKey.split(' ') as CommandId[]) : [], handlers: ref };
    registrations.push(reg);
    changed();
    return () => {
      registrations.splice(registrations.indexOf(reg), 1);
      changed();
    };
  }, [scope, idsKey, enabled, owner]);
}

/** The scopes with a mounted registration (always including `global` once the app runs). */
export function activeScopes(): Set<Scope> {
  return new Set(registrations.map((r) => r.scope));
}

/**
 * The handler of `id` that runs now (the latest registration wins), or undefined. For a key press,
 * `place` (where focus is) keeps only the registrations that may take it there (`commandTakes`).
 */
export function handlerFor(id: CommandId, place?: KeyPlace): CommandHandler | undefined {
  for (let i = registrations.length - 1; i >= 0; i--) {
    const r = registrations[i]!;
    if (place && !commandTakes(id, r.scope, r.owner, place)) continue;
    if (r.ids.includes(id)) {
      const h = r.handlers.current[id];
      if (h) return h;
    }
  }
  return undefined;
}

/** Runs `id` if it is available; whether it ran (a handler returning `false` did not). */
export function runCommand(id: CommandId, ctx: CommandContext = { target: null, fromKey: false }): boolean {
  const h = handlerFor(id);
  if (!h) return false;
  return h(ctx) !== false;
}

/** Ids of every command available now, re-rendering when that changes. */
export function useAvailableCommands(): Set<CommandId> {
  useSyncExternalStore(subscribe, () => version); // re-render when registrations change
  return new Set(registrations.flatMap((r) => r.ids));
}

/** A command's keys as people read them on this platform (`A / Ctrl+Enter`). */
export function shortcutText(id: CommandId, separator = ' / '): string {
  return commandById(id)
    .keys.map((k) => formatBinding(k, IS_MAC))
    .join(separator);
}

/**
 * Props for the button that does what command `id` does: `title` ("Approve the request — A /
 * Ctrl+Enter", translated) and `aria-keyshortcuts`. Spread them on the button.
 */
export function useShortcutHint(id: CommandId): { title: string; 'aria-keyshortcuts': string } {
  const { t } = useTranslation('keys');
  return {
    title: t('hint', { label: t(`commands.${id}`), keys: shortcutText(id) }),
    'aria-keyshortcuts': ariaKeyShortcuts(commandById(id).keys, IS_MAC),
  };
}

/** A button's own explanation on the first line of its tooltip, the shortcut hint on the second. */
export function withKeys(explanation: string, hint: { title: string; 'aria-keyshortcuts': string }): { title: string; 'aria-keyshortcuts': string } {
  return { ...hint, title: `${explanation}\n${hint.title}` };
}

/** Text the full-screen editor edits: read once when it opens, written on every change. */
export interface EditorTarget {
  /** What is edited, e.g. "Message 2 (user)" (translated). */
  label: string;
  initial: string;
  write(text: string): void;
}

/** Which keyboard dialog is open. */
interface KeyboardUi {
  palette: boolean;
  cheatSheet: boolean;
  editor: EditorTarget | null;
  openPalette(): void;
  openCheatSheet(): void;
  openEditor(target: EditorTarget): void;
  /** Closes whichever is open. */
  close(): void;
}

/** The open state of the command palette, the cheat-sheet and the full-screen editor. */
export const useKeyboardUi = create<KeyboardUi>()((set) => ({
  palette: false,
  cheatSheet: false,
  editor: null,
  openPalette: () => set({ palette: true, cheatSheet: false, editor: null }),
  openCheatSheet: () => set({ palette: false, cheatSheet: true, editor: null }),
  openEditor: (editor) => set({ palette: false, cheatSheet: false, editor }),
  close: () => set({ palette: false, cheatSheet: false, editor: null }),
}));
