/**
 * The keyboard registry ("Keyboard-first"): every command the person can run from the
 * keyboard, its default keys and the scope it applies in. The key handler, the button tooltips
 * (`title` + `aria-keyshortcuts`), the cheat-sheet (`?`) and the command palette (Mod+K) all read
 * {@link COMMANDS}, so they cannot disagree.
 *
 * Pure (no DOM, no React, no store) so it runs in unit tests on plain Node.
 *
 * Binding syntax: chords joined by a space form a sequence (`"g q"`: G, then Q within
 * {@link SEQUENCE_TIMEOUT_MS}); a chord is `[mod+][ctrl+][meta+][alt+][shift+]<key>` where `mod`
 * is Cmd (⌘) on macOS and Ctrl elsewhere, and `<key>` is a lower-case letter or digit, a
 * punctuation character (`?`, `,`; Shift is then implied by the character and not checked) or a
 * `KeyboardEvent.key` name in lower case (`enter`, `escape`, `arrowdown`, …).
 */

/**
 * Where a command applies. `global` is always active; `queue` (the list's keys) only while focus
 * is in the queue list; a review's scopes (`queue-request`, `queue-response`, `elicitation`) only
 * while focus is inside the review of the item whose handlers are registered ({@link scopeTakes}).
 */
export const SCOPES = ['global', 'queue', 'queue-request', 'queue-response', 'elicitation'] as const;
/** See {@link SCOPES}. */
export type Scope = (typeof SCOPES)[number];

/** Scopes of which at most one is active at a time (one review screen is shown at a time). */
const EXCLUSIVE_SCOPES: readonly Scope[] = ['queue-request', 'queue-response', 'elicitation'];

/** Whether two scopes can be active at the same time (then their bindings must not collide). */
export function scopesOverlap(a: Scope, b: Scope): boolean {
  return a === b || !(EXCLUSIVE_SCOPES.includes(a) && EXCLUSIVE_SCOPES.includes(b));
}

/** One command of the registry. */
export interface CommandDef {
  /** Stable id; its label is `keys:commands.<id>` in the locale files. */
  readonly id: string;
  readonly scope: Scope;
  /** Default bindings, most memorable first (the first one is shown where space is short). */
  readonly keys: readonly string[];
  /** Extra bindings that apply only while focus is inside the queue list (its arrow keys). */
  readonly listKeys?: readonly string[];
  /** Not offered in the command palette (opening the palette itself, leaving an editor). */
  readonly notInPalette?: boolean;
}

/** Every command. Order is the cheat-sheet's and the palette's order within a scope. */
export const COMMANDS = [
  { id: 'palette.open', scope: 'global', keys: ['mod+k'], notInPalette: true },
  { id: 'cheatsheet.open', scope: 'global', keys: ['?'] },
  { id: 'nav.queue', scope: 'global', keys: ['g q', 'mod+1'] },
  { id: 'nav.servers', scope: 'global', keys: ['g s', 'mod+2'] },
  { id: 'nav.providers', scope: 'global', keys: ['g p', 'mod+3'] },
  { id: 'nav.history', scope: 'global', keys: ['g h', 'mod+4'] },
  { id: 'nav.rules', scope: 'global', keys: ['g r', 'mod+5'] },
  { id: 'nav.settings', scope: 'global', keys: ['g ,', 'mod+6'] },
  { id: 'theme.toggle', scope: 'global', keys: ['t'] },
  { id: 'auto.pause', scope: 'global', keys: ['shift+p'] },
  { id: 'editor.leave', scope: 'global', keys: ['escape'], notInPalette: true },
  { id: 'queue.next', scope: 'queue', keys: ['j'], listKeys: ['arrowdown'] },
  { id: 'queue.prev', scope: 'queue', keys: ['k'], listKeys: ['arrowup'] },
  { id: 'queue.openReview', scope: 'queue', keys: ['enter'] },
  { id: 'request.approve', scope: 'queue-request', keys: ['a', 'mod+enter'] },
  { id: 'request.reject', scope: 'queue-request', keys: ['r'] },
  { id: 'request.rejectWithReason', scope: 'queue-request', keys: ['shift+r'] },
  { id: 'request.focusEditor', scope: 'queue-request', keys: ['e'] },
  { id: 'request.fullScreen', scope: 'queue-request', keys: ['f'] },
  { id: 'request.switchModel', scope: 'queue-request', keys: ['m'] },
  { id: 'response.approve', scope: 'queue-response', keys: ['a', 'mod+enter'] },
  { id: 'response.reject', scope: 'queue-response', keys: ['r'] },
  { id: 'response.rejectWithReason', scope: 'queue-response', keys: ['shift+r'] },
  { id: 'response.focusEditor', scope: 'queue-response', keys: ['e'] },
  { id: 'response.fullScreen', scope: 'queue-response', keys: ['f'] },
  { id: 'response.regenerate', scope: 'queue-response', keys: ['n'] },
  { id: 'elicitation.accept', scope: 'elicitation', keys: ['mod+enter'] },
  { id: 'elicitation.decline', scope: 'elicitation', keys: ['d'] },
  { id: 'elicitation.cancel', scope: 'elicitation', keys: ['c'] },
  { id: 'elicitation.focusForm', scope: 'elicitation', keys: ['e'] },
] as const satisfies readonly CommandDef[];

/** A command id. */
export type CommandId = (typeof COMMANDS)[number]['id'];

/** The screens the `nav.*` commands go to (the renderer's `Screen`). */
export const NAV_SCREENS = {
  'nav.queue': 'queue',
  'nav.servers': 'servers',
  'nav.providers': 'providers',
  'nav.history': 'history',
  'nav.rules': 'rules',
  'nav.settings': 'settings',
} as const satisfies Partial<Record<CommandId, string>>;

/** How long the second key of a sequence (`g q`) may come after the first, in ms. */
export const SEQUENCE_TIMEOUT_MS = 1500;

/** The command with this id (every {@link CommandId} exists). */
export function commandById(id: CommandId): CommandDef {
  return COMMANDS.find((c) => c.id === id)!;
}

/** One key press of a binding. */
export interface Chord {
  /** Lower-case key: a letter, digit, punctuation character or key name (`enter`). */
  key: string;
  mod: boolean;
  ctrl: boolean;
  meta: boolean;
  alt: boolean;
  shift: boolean;
}

/** The parts of a `KeyboardEvent` the matcher reads (a real event fits). */
export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
}

/** Parses one chord (`"mod+shift+r"`). Throws on an unknown modifier (a registry typo). */
export function parseChord(text: string): Chord {
  const parts = text.split('+');
  const key = parts.pop()!.toLowerCase();
  const chord: Chord = { key, mod: false, ctrl: false, meta: false, alt: false, shift: false };
  for (const p of parts) {
    if (p !== 'mod' && p !== 'ctrl' && p !== 'meta' && p !== 'alt' && p !== 'shift') throw new Error(`unknown modifier "${p}" in "${text}"`);
    chord[p] = true;
  }
  if (!key) throw new Error(`no key in "${text}"`);
  return chord;
}

/** Parses a binding: one chord, or a sequence of chords separated by spaces. */
export function parseBinding(text: string): Chord[] {
  return text.trim().split(/\s+/).map(parseChord);
}

const isLetter = (k: string) => /^[a-z]$/.test(k);
const isDigit = (k: string) => /^[0-9]$/.test(k);
const isPrintableAscii = (k: string) => /^[\x21-\x7e]$/.test(k);

/** Whether the key press `ev` is `chord` (`mac`: whether `mod` means ⌘). */
export function chordMatches(chord: Chord, ev: KeyLike, mac: boolean): boolean {
  const ctrl = chord.ctrl || (chord.mod && !mac);
  const meta = chord.meta || (chord.mod && mac);
  if (ev.ctrlKey !== ctrl || ev.metaKey !== meta || ev.altKey !== chord.alt) return false;
  const key = ev.key.toLowerCase();
  if (isLetter(chord.key) || isDigit(chord.key)) {
    if (ev.shiftKey !== chord.shift) return false;
    if (key === chord.key) return true;
    // Layouts without Latin letters (or ⌥ on macOS) give another character: use the physical key.
    if (isPrintableAscii(ev.key)) return false;
    return ev.code === (isLetter(chord.key) ? `Key${chord.key.toUpperCase()}` : `Digit${chord.key}`);
  }
  if (chord.key.length === 1) return key === chord.key; // punctuation: Shift belongs to the character
  return key === chord.key && ev.shiftKey === chord.shift;
}

/** Whether a binding may fire while the person types in a field (it has Ctrl/⌘/Alt, or is Escape). */
export function firesWhileTyping(chords: readonly Chord[]): boolean {
  const first = chords[0];
  return !!first && chords.length === 1 && (first.mod || first.ctrl || first.meta || first.alt || first.key === 'escape');
}

/** Where a key was pressed, as the dispatcher reads it from the focused element. */
export interface KeyPlace {
  /** Focus is in the queue list. */
  inList: boolean;
  /** The item whose review area (`data-review-item`) holds focus, or null. */
  review: string | null;
  /**
   * Focus is on the review area itself because it fell there (the control that had it went away),
   * not because the person put it there: the review's keys that decide wait for a deliberate move.
   */
  rescued?: boolean;
}

/** The commands that decide about an item: approve, reject, regenerate, answer. */
export const DECIDING: ReadonlySet<CommandId> = new Set<CommandId>([
  'request.approve',
  'request.reject',
  'response.approve',
  'response.reject',
  'response.regenerate',
  'elicitation.accept',
  'elicitation.decline',
  'elicitation.cancel',
]);

/**
 * Whether command `id`, registered for `scope` by the review of `owner`, may take a key pressed at
 * `place`: {@link scopeTakes}, and a deciding command never where focus merely fell.
 */
export function commandTakes(id: CommandId, scope: Scope, owner: string | undefined, place: KeyPlace): boolean {
  return scopeTakes(scope, owner, place) && !(place.rescued && DECIDING.has(id));
}

/**
 * Whether a handler registered for `scope` (by the review of item `owner`, for a review's scopes)
 * may take a key pressed at `place`: global ones anywhere; the list's keys only while focus is in
 * the queue list; a review's keys only while focus is inside that item's review. A key typed
 * after focus fell to the page, or in another item's review, decides nothing.
 */
export function scopeTakes(scope: Scope, owner: string | undefined, place: KeyPlace): boolean {
  if (scope === 'global') return true;
  if (scope === 'queue') return place.inList;
  return owner !== undefined && place.review === owner;
}

/** The parts of a focused element {@link isTypingTarget} reads (a real element fits). */
export interface ElementLike {
  tagName: string;
  type?: string;
  isContentEditable?: boolean;
}

const NON_TEXT_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Whether keys typed into `el` are text (inputs, textareas, selects' type-ahead, contenteditable). */
export function isTypingTarget(el: ElementLike | null | undefined): boolean {
  if (!el) return false;
  const tag = el.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NON_TEXT_INPUTS.has((el.type ?? 'text').toLowerCase());
  return el.isContentEditable === true;
}

/** A parsed binding of a command. */
export interface Binding {
  commandId: CommandId;
  scope: Scope;
  chords: Chord[];
  /** Only while focus is inside the queue list. */
  listOnly: boolean;
}

/** Every binding of `commands`, parsed. */
export function bindingsOf(commands: readonly CommandDef[] = COMMANDS): Binding[] {
  return commands.flatMap((c) => [
    ...c.keys.map((k) => ({ commandId: c.id as CommandId, scope: c.scope, chords: parseBinding(k), listOnly: false })),
    ...(c.listKeys ?? []).map((k) => ({ commandId: c.id as CommandId, scope: c.scope, chords: parseBinding(k), listOnly: true })),
  ]);
}

/** What one key press did. */
export type MatchResult = { kind: 'command'; binding: Binding } | { kind: 'pending' } | { kind: 'none' };

const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);

/**
 * A key matcher that remembers the start of a sequence (`g` of `g q`). `feed` takes the key
 * press, the time in ms (the event's timestamp) and the bindings that are active now (already
 * narrowed by scope, focus and typing), and says whether it completed a command, started or
 * continued a sequence, or matched nothing. Bare modifier presses keep a pending sequence.
 */
export function createMatcher(mac: boolean, timeoutMs = SEQUENCE_TIMEOUT_MS) {
  let pending: { chords: Chord[]; at: number } | null = null;
  const fresh = (ev: KeyLike, now: number, bindings: readonly Binding[]): MatchResult => {
    const hits = bindings.filter((b) => chordMatches(b.chords[0]!, ev, mac));
    const done = hits.find((b) => b.chords.length === 1);
    if (done) return { kind: 'command', binding: done };
    if (hits.length > 0) {
      pending = { chords: [hits[0]!.chords[0]!], at: now };
      return { kind: 'pending' };
    }
    return { kind: 'none' };
  };
  return {
    feed(ev: KeyLike, now: number, bindings: readonly Binding[]): MatchResult {
      if (ev.isComposing || MODIFIER_KEYS.has(ev.key)) return { kind: 'none' };
      const started = pending;
      pending = null;
      if (started && now - started.at <= timeoutMs) {
        const n = started.chords.length;
        const prefix = (b: Binding) => b.chords.length > n && started.chords.every((c, i) => sameChord(c, b.chords[i]!));
        const hits = bindings.filter((b) => prefix(b) && chordMatches(b.chords[n]!, ev, mac));
        const done = hits.find((b) => b.chords.length === n + 1);
        if (done) return { kind: 'command', binding: done };
        if (hits.length > 0) {
          pending = { chords: [...started.chords, hits[0]!.chords[n]!], at: now };
          return { kind: 'pending' };
        }
      }
      return fresh(ev, now, bindings);
    },
    /** Forgets a started sequence. */
    reset(): void {
      pending = null;
    },
    /** Whether a sequence is started (and not yet timed out at `now`). */
    isPending(now: number): boolean {
      return pending !== null && now - pending.at <= timeoutMs;
    },
  };
}

/** Whether two chords are the same key press on `mac` (so `mod+k` equals `meta+k` there). */
export function sameChord(a: Chord, b: Chord, mac?: boolean): boolean {
  const resolve = (c: Chord, m: boolean) => `${c.ctrl || (c.mod && !m)}|${c.meta || (c.mod && m)}|${c.alt}|${c.shift}|${c.key}`;
  if (mac === undefined) return resolve(a, true) === resolve(b, true) && resolve(a, false) === resolve(b, false);
  return resolve(a, mac) === resolve(b, mac);
}

/** Two bindings that collide: the same keys (or one a prefix of the other) in scopes active together. */
export interface Conflict {
  a: CommandId;
  b: CommandId;
  keys: string;
}

/**
 * Bindings that cannot both work: in scopes that can be active together ({@link scopesOverlap}),
 * on macOS or elsewhere, the same chord sequence, or a sequence that starts with another binding
 * (the shorter one would always win). Empty for the shipped registry (unit-tested).
 */
export function findConflicts(commands: readonly CommandDef[] = COMMANDS): Conflict[] {
  const all = bindingsOf(commands);
  const out: Conflict[] = [];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const x = all[i]!;
      const y = all[j]!;
      if (!scopesOverlap(x.scope, y.scope)) continue;
      const n = Math.min(x.chords.length, y.chords.length);
      for (const mac of [true, false]) {
        if (x.chords.slice(0, n).every((c, k) => sameChord(c, y.chords[k]!, mac))) {
          out.push({ a: x.commandId, b: y.commandId, keys: x.chords.map((c) => formatChord(c, mac)).join(' ') });
          break;
        }
      }
    }
  }
  return out;
}

const KEY_NAMES: Record<string, { mac: string; other: string; aria: string }> = {
  enter: { mac: '↩', other: 'Enter', aria: 'Enter' },
  escape: { mac: 'Esc', other: 'Esc', aria: 'Escape' },
  arrowdown: { mac: '↓', other: '↓', aria: 'ArrowDown' },
  arrowup: { mac: '↑', other: '↑', aria: 'ArrowUp' },
  arrowleft: { mac: '←', other: '←', aria: 'ArrowLeft' },
  arrowright: { mac: '→', other: '→', aria: 'ArrowRight' },
  tab: { mac: '⇥', other: 'Tab', aria: 'Tab' },
};

/** How a chord reads on this platform: `⌘⇧K` on macOS, `Ctrl+Shift+K` elsewhere. */
export function formatChord(chord: Chord, mac: boolean): string {
  const name = KEY_NAMES[chord.key];
  const key = name ? (mac ? name.mac : name.other) : chord.key.toUpperCase();
  if (mac) {
    return `${chord.ctrl ? '⌃' : ''}${chord.alt ? '⌥' : ''}${chord.shift ? '⇧' : ''}${chord.mod || chord.meta ? '⌘' : ''}${key}`;
  }
  const mods = [chord.ctrl || chord.mod ? 'Ctrl' : '', chord.meta ? 'Win' : '', chord.alt ? 'Alt' : '', chord.shift ? 'Shift' : ''].filter(Boolean);
  return [...mods, key].join('+');
}

/** How a binding reads: its chords, a sequence's separated by a space (`G Q`). */
export function formatBinding(binding: string, mac: boolean): string {
  return parseBinding(binding)
    .map((c) => formatChord(c, mac))
    .join(' ');
}

/**
 * The `aria-keyshortcuts` value for these bindings (WAI-ARIA: `Control+K Shift+R`, alternatives
 * separated by spaces). Sequences cannot be expressed there and are left out.
 */
export function ariaKeyShortcuts(bindings: readonly string[], mac: boolean): string {
  return bindings
    .map(parseBinding)
    .filter((chords) => chords.length === 1)
    .map(([c]) => {
      const name = KEY_NAMES[c!.key];
      const mods = [c!.ctrl || (c!.mod && !mac) ? 'Control' : '', c!.meta || (c!.mod && mac) ? 'Meta' : '', c!.alt ? 'Alt' : '', c!.shift ? 'Shift' : ''].filter(Boolean);
      return [...mods, name ? name.aria : c!.key.toUpperCase()].join('+');
    })
    .join(' ');
}

/** Whether `platform` (`navigator.platform` or userAgentData's) is Apple's, where `mod` is ⌘. */
export function isMacPlatform(platform: string | undefined): boolean {
  return /mac|iphone|ipad|ipod/i.test(platform ?? '');
}
