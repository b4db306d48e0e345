/** The web host's adapters, behind their small functions: which browser notifications to show, and the theme attribute. */
import { describe, expect, it } from 'vitest';
import { notificationsToShow } from '../../renderer/screens/settings/notifications.js';
import { applyThemePreference, effectiveTheme, THEME_ATTRIBUTE } from '../../renderer/theme-core.js';
import type { AttentionNotification } from '../../shared/contract/desktop.js';

const note = (seq: number): AttentionNotification => ({ seq, itemId: `i${seq}`, title: 't', body: 'b', silent: true, at: seq });

describe('browser notifications (web host)', () => {
  it('the first state seen replays nothing, later ones show only what is new', () => {
    let r = notificationsToShow([note(1), note(2)], null);
    expect(r).toEqual({ show: [], lastSeq: 2 });
    r = notificationsToShow([note(1), note(2), note(3)], r.lastSeq);
    expect(r.show.map((n) => n.seq)).toEqual([3]);
    r = notificationsToShow([note(2), note(3)], r.lastSeq);
    expect(r).toEqual({ show: [], lastSeq: 3 });
  });

  it('a first state with no notifications still counts as seen, so the next one shows', () => {
    const first = notificationsToShow([], null);
    expect(first).toEqual({ show: [], lastSeq: 0 });
    expect(notificationsToShow([note(1)], first.lastSeq).show.map((n) => n.seq)).toEqual([1]);
  });
});

describe('theme attribute', () => {
  function fakeRoot() {
    const attrs = new Map<string, string>();
    const el = { setAttribute: (k: string, v: string) => void attrs.set(k, v), removeAttribute: (k: string) => void attrs.delete(k) };
    return { el: el as unknown as HTMLElement, attrs };
  }
  it('forces light or dark, and leaves the OS in charge for "system" (or before settings arrive)', () => {
    const { el, attrs } = fakeRoot();
    applyThemePreference('dark', el);
    expect(attrs.get(THEME_ATTRIBUTE)).toBe('dark');
    applyThemePreference('system', el);
    expect(attrs.has(THEME_ATTRIBUTE)).toBe(false);
    applyThemePreference('light', el);
    applyThemePreference(undefined, el);
    expect(attrs.has(THEME_ATTRIBUTE)).toBe(false);
  });
  it('the theme in effect', () => {
    expect(effectiveTheme('system', true)).toBe('dark');
    expect(effectiveTheme('light', true)).toBe('light');
    expect(effectiveTheme(undefined, false)).toBe('light');
  });
});
