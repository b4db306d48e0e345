/**
 * The keyboard registry: key matching (Mod = ⌘ on macOS, Ctrl elsewhere; letters vs
 * punctuation; other keyboard layouts), sequences (`g q`), no two bindings colliding in scopes
 * that are active together, single-key shortcuts not firing while typing, how keys are shown, and
 * the palette's filter. Every command has an English and a Chinese label.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ariaKeyShortcuts,
  bindingsOf,
  chordMatches,
  COMMANDS,
  createMatcher,
  findConflicts,
  firesWhileTyping,
  formatBinding,
  isMacPlatform,
  isTypingTarget,
  parseBinding,
  parseChord,
  scopesOverlap,
  commandTakes,
  scopeTakes,
  SEQUENCE_TIMEOUT_MS,
  type Binding,
  type CommandDef,
  type KeyLike,
} from '../../renderer/keyboard/shortcuts.js';
import { filterEntries, moveActive, type PaletteEntry } from '../../renderer/keyboard/palette-model.js';
import { promptBlock, stepId } from '../../renderer/keyboard/navigation.js';

const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });
const matches = (binding: string, ev: KeyLike, mac = false) => chordMatches(parseChord(binding), ev, mac);

describe('chord matching', () => {
  it('mod is Cmd on macOS and Ctrl elsewhere, never both', () => {
    expect(matches('mod+k', key('k', { metaKey: true }), true)).toBe(true);
    expect(matches('mod+k', key('k', { ctrlKey: true }), true)).toBe(false);
    expect(matches('mod+k', key('k', { ctrlKey: true }), false)).toBe(true);
    expect(matches('mod+k', key('k', { metaKey: true }), false)).toBe(false);
    expect(matches('mod+k', key('k', { ctrlKey: true, metaKey: true }), false)).toBe(false);
    expect(matches('mod+enter', key('Enter', { ctrlKey: true }), false)).toBe(true);
  });

  it('a letter needs exactly its modifiers: "a" is not Shift+A, Ctrl+A or Alt+A', () => {
    expect(matches('a', key('a'))).toBe(true);
    expect(matches('a', key('A', { shiftKey: true }))).toBe(false);
    expect(matches('a', key('a', { ctrlKey: true }))).toBe(false);
    expect(matches('a', key('a', { altKey: true }))).toBe(false);
    expect(matches('shift+r', key('R', { shiftKey: true }))).toBe(true);
    expect(matches('shift+r', key('r'))).toBe(false);
  });

  it('punctuation matches the character, whatever Shift it took to type it', () => {
    expect(matches('?', key('?', { shiftKey: true }))).toBe(true);
    expect(matches('?', key('/'))).toBe(false);
    expect(matches(',', key(','))).toBe(true);
  });

  it('named keys match case-insensitively and check Shift', () => {
    expect(matches('escape', key('Escape'))).toBe(true);
    expect(matches('arrowdown', key('ArrowDown'))).toBe(true);
    expect(matches('arrowdown', key('ArrowDown', { shiftKey: true }))).toBe(false);
  });

  it('a layout without Latin letters (or ⌥ on macOS) falls back to the physical key', () => {
    expect(matches('a', key('ф', { code: 'KeyF' }))).toBe(false);
    expect(matches('a', key('ф', { code: 'KeyA' }))).toBe(true);
    expect(matches('mod+1', key('¡', { code: 'Digit1', metaKey: true }), true)).toBe(true);
    // A Latin layout whose key sits elsewhere (Dvorak) keeps the character, not the position.
    expect(matches('a', key('o', { code: 'KeyA' }))).toBe(false);
  });

  it('rejects a typo in the registry syntax', () => {
    expect(() => parseChord('cmd+k')).toThrow(/unknown modifier/);
  });
});

describe('sequences', () => {
  const bindings = bindingsOf();
  const feedAll = (matcher: ReturnType<typeof createMatcher>, presses: Array<[KeyLike, number]>) => presses.map(([ev, t]) => matcher.feed(ev, t, bindings));
  const idOf = (r: ReturnType<ReturnType<typeof createMatcher>['feed']>) => (r.kind === 'command' ? r.binding.commandId : r.kind);

  it('G then Q goes to the queue; the G is held, not matched alone', () => {
    const [first, second] = feedAll(createMatcher(false), [
      [key('g'), 0],
      [key('q'), 100],
    ]);
    expect(idOf(first!)).toBe('pending');
    expect(idOf(second!)).toBe('nav.queue');
  });

  it('a late second key starts afresh', () => {
    const results = feedAll(createMatcher(false), [
      [key('g'), 0],
      [key('q'), SEQUENCE_TIMEOUT_MS + 1],
    ]);
    expect(results.map(idOf)).toEqual(['pending', 'none']);
  });

  it('a key that does not continue the sequence is matched on its own', () => {
    const results = feedAll(createMatcher(false), [
      [key('g'), 0],
      [key('j'), 10],
    ]);
    expect(results.map(idOf)).toEqual(['pending', 'queue.next']);
  });

  it('a bare Shift between the keys keeps the sequence (G then , on layouts needing Shift)', () => {
    const results = feedAll(createMatcher(false), [
      [key('g'), 0],
      [key('Shift', { shiftKey: true }), 10],
      [key(',', { shiftKey: true }), 20],
    ]);
    expect(results.map(idOf)).toEqual(['pending', 'none', 'nav.settings']);
  });

  it('IME composition is never a shortcut', () => {
    expect(idOf(createMatcher(false).feed({ ...key('a'), isComposing: true }, 0, bindings))).toBe('none');
  });
});

describe('typing in a field', () => {
  it('inputs, textareas, selects and contenteditable are typing targets; buttons and checkboxes are not', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'input', type: 'number' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BODY' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('only chords with Ctrl/⌘/Alt and Escape may fire while typing: no single letter, no "?", no sequence', () => {
    const whileTyping = bindingsOf()
      .filter((b) => firesWhileTyping(b.chords))
      .map((b) => b.chords.map((c) => c.key).join(' '));
    expect(whileTyping.sort()).toEqual(['1', '2', '3', '4', '5', '6', 'enter', 'enter', 'enter', 'escape', 'k'].sort());
    for (const b of bindingsOf()) {
      const first = b.chords[0]!;
      if (!first.mod && !first.ctrl && !first.meta && !first.alt && first.key !== 'escape') expect(firesWhileTyping(b.chords), b.commandId).toBe(false);
    }
  });
});

describe('where keys act', () => {
  const page = { inList: false, review: null };
  const list = { inList: true, review: null };
  const reviewOf = (id: string) => ({ inList: false, review: id });

  it("a review's keys act only while focus is inside that item's review", () => {
    for (const scope of ['queue-request', 'queue-response', 'elicitation'] as const) {
      expect(scopeTakes(scope, 'item-1', reviewOf('item-1'))).toBe(true);
      expect(scopeTakes(scope, 'item-1', reviewOf('item-2'))).toBe(false); // another item's review
      expect(scopeTakes(scope, 'item-1', page)).toBe(false); // focus fell to the page
      expect(scopeTakes(scope, 'item-1', list)).toBe(false); // the list is not the review
      expect(scopeTakes(scope, undefined, reviewOf('item-1'))).toBe(false); // a handler that names no item acts on none
    }
  });

  it('where focus merely fell (its control went away), a review decides nothing; its other keys still work', () => {
    const fell = { inList: false, review: 'item-1', rescued: true };
    for (const id of ['request.approve', 'request.reject', 'response.approve', 'response.reject', 'response.regenerate', 'elicitation.accept', 'elicitation.decline', 'elicitation.cancel'] as const) {
      expect(commandTakes(id, 'queue-response', 'item-1', fell)).toBe(false);
      expect(commandTakes(id, 'queue-response', 'item-1', { ...fell, rescued: false })).toBe(true);
    }
    expect(commandTakes('response.focusEditor', 'queue-response', 'item-1', fell)).toBe(true);
    expect(commandTakes('nav.history', 'global', undefined, fell)).toBe(true);
  });

  it("the list's keys act only while focus is in the list; global ones anywhere", () => {
    expect(scopeTakes('queue', undefined, list)).toBe(true);
    expect(scopeTakes('queue', undefined, page)).toBe(false);
    expect(scopeTakes('queue', undefined, reviewOf('item-1'))).toBe(false);
    for (const place of [page, list, reviewOf('item-1')]) expect(scopeTakes('global', undefined, place)).toBe(true);
  });
});

describe('the registry', () => {
  it('has no colliding bindings in scopes active together (macOS and elsewhere)', () => {
    expect(findConflicts()).toEqual([]);
  });

  it('finds a collision, including a single key shadowing a sequence, but not across exclusive review scopes', () => {
    const bad: CommandDef[] = [
      { id: 'x', scope: 'global', keys: ['g'] },
      { id: 'y', scope: 'global', keys: ['g q'] },
      { id: 'z', scope: 'queue-request', keys: ['a'] },
      { id: 'w', scope: 'queue-response', keys: ['a'] },
      { id: 'v', scope: 'queue', keys: ['a'] },
      { id: 'u', scope: 'global', keys: ['ctrl+k'] },
      { id: 't', scope: 'global', keys: ['mod+k'] },
    ];
    const found = findConflicts(bad).map((c) => [c.a, c.b].join('/'));
    expect(found.sort()).toEqual(['u/t', 'x/y', 'z/v', 'w/v'].sort());
    expect(scopesOverlap('queue-request', 'queue-response')).toBe(false);
    expect(scopesOverlap('global', 'elicitation')).toBe(true);
  });

  it('covers every review action the issue asks for', () => {
    const ids = COMMANDS.map((c) => c.id);
    for (const id of [
      'request.approve',
      'request.reject',
      'request.rejectWithReason',
      'queue.next',
      'queue.prev',
      'request.focusEditor',
      'request.fullScreen',
      'response.regenerate',
      'request.switchModel',
      'response.approve',
      'palette.open',
      'cheatsheet.open',
      'nav.queue',
      'theme.toggle',
      'auto.pause',
    ] as const) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every command and scope has a label in English and in Chinese', () => {
    for (const lang of ['en', 'zh-CN']) {
      const keys = JSON.parse(readFileSync(join(import.meta.dirname, `../../renderer/i18n/locales/${lang}/keys.json`), 'utf8')) as {
        commands: Record<string, Record<string, string>>;
        scopes: Record<string, string>;
      };
      for (const c of COMMANDS) {
        const [group, name] = c.id.split('.') as [string, string];
        expect(keys.commands[group]?.[name], `${lang} commands.${c.id}`).toBeTruthy();
        expect(keys.scopes[c.scope], `${lang} scopes.${c.scope}`).toBeTruthy();
      }
    }
  });
});

describe('how keys are shown', () => {
  it('uses symbols on macOS and words elsewhere', () => {
    expect(formatBinding('mod+k', true)).toBe('⌘K');
    expect(formatBinding('mod+k', false)).toBe('Ctrl+K');
    expect(formatBinding('shift+r', true)).toBe('⇧R');
    expect(formatBinding('shift+r', false)).toBe('Shift+R');
    expect(formatBinding('mod+enter', false)).toBe('Ctrl+Enter');
    expect(formatBinding('g q', false)).toBe('G Q');
    expect(formatBinding('?', false)).toBe('?');
  });

  it('aria-keyshortcuts uses ARIA modifier names and leaves out sequences', () => {
    expect(ariaKeyShortcuts(['a', 'mod+enter'], false)).toBe('A Control+Enter');
    expect(ariaKeyShortcuts(['a', 'mod+enter'], true)).toBe('A Meta+Enter');
    expect(ariaKeyShortcuts(['g q', 'mod+1'], false)).toBe('Control+1');
    expect(ariaKeyShortcuts(['shift+r'], false)).toBe('Shift+R');
  });

  it('recognises Apple platforms', () => {
    expect(isMacPlatform('MacIntel')).toBe(true);
    expect(isMacPlatform('macOS')).toBe(true);
    expect(isMacPlatform('Linux x86_64')).toBe(false);
    expect(isMacPlatform('Win32')).toBe(false);
    expect(isMacPlatform(undefined)).toBe(false);
  });

  it('parses sequences into chords', () => {
    const chords = parseBinding('g  ,');
    expect(chords.map((c) => c.key)).toEqual(['g', ',']);
    const b: Binding = { commandId: 'nav.settings', scope: 'global', chords, listOnly: false };
    expect(firesWhileTyping(b.chords)).toBe(false);
  });
});

describe('command palette list', () => {
  const entries: PaletteEntry[] = [
    { id: 'cmd:approve', group: 'action', label: 'Approve the request' },
    { id: 'screen:servers', group: 'screen', label: 'Go to Servers' },
    { id: 'item:1', group: 'item', label: 'Review everything · tools/call trigger-sampling-request', detail: 'Weekly report' },
    { id: 'server:files', group: 'server', label: 'Open server files', keywords: 'ready' },
    { id: 'cmd:cafe', group: 'action', label: 'Café mode' },
  ];
  const ids = (q: string) => filterEntries(entries, q).map((e) => e.id);

  it('keeps everything in order for an empty query', () => {
    expect(ids('  ')).toEqual(entries.map((e) => e.id));
  });

  it('needs every word somewhere (label, detail or keywords), case- and accent-insensitively', () => {
    expect(ids('weekly')).toEqual(['item:1']);
    expect(ids('trigger everything')).toEqual(['item:1']);
    expect(ids('READY')).toEqual(['server:files']);
    expect(ids('cafe')).toEqual(['cmd:cafe']);
    expect(ids('nothing like this')).toEqual([]);
  });

  it('ranks labels starting with the query first, then labels containing it', () => {
    expect(ids('o')).toEqual(['server:files', 'cmd:approve', 'screen:servers', 'item:1', 'cmd:cafe']);
    expect(ids('go')[0]).toBe('screen:servers');
    expect(ids('serv')).toEqual(['screen:servers', 'server:files']);
  });

  it('moves the active row with wrap-around', () => {
    expect(moveActive(-1, 1, 3)).toBe(0);
    expect(moveActive(-1, -1, 3)).toBe(2);
    expect(moveActive(2, 1, 3)).toBe(0);
    expect(moveActive(0, -1, 3)).toBe(2);
    expect(moveActive(0, 1, 0)).toBe(-1);
  });
});

describe('review helpers', () => {
  it('the prompt is the last user message with text', () => {
    const text = (t: string) => ({ type: 'text' as const, text: t });
    expect(
      promptBlock({
        maxTokens: 1,
        messages: [
          { role: 'user', content: text('first') },
          { role: 'assistant', content: text('answer') },
          { role: 'user', content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }, text('second')] },
        ],
      }),
    ).toEqual({ message: 2, block: 1 });
    expect(promptBlock({ maxTokens: 1, messages: [{ role: 'assistant', content: text('only') }] })).toEqual({ message: 0, block: 0 });
    expect(promptBlock({ maxTokens: 1, messages: [{ role: 'user', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } }] })).toBeNull();
  });

  it('steps through the queue and stops at the ends', () => {
    expect(stepId(['a', 'b', 'c'], 'b', 1)).toBe('c');
    expect(stepId(['a', 'b', 'c'], 'c', 1)).toBe('c');
    expect(stepId(['a', 'b', 'c'], 'a', -1)).toBe('a');
    expect(stepId(['a', 'b', 'c'], null, 1)).toBe('a');
    expect(stepId(['a', 'b', 'c'], 'gone', -1)).toBe('c');
    expect(stepId([], null, 1)).toBeNull();
  });
});
