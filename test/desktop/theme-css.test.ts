import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const css = readFileSync(path.resolve(import.meta.dirname, '../../renderer/styles.css'), 'utf8');

/** The declarations of the first block opened by `opener` (up to its matching brace), as name → value. */
function block(opener: string): Map<string, string> {
  const start = css.indexOf(opener);
  expect(start, `${opener} is in styles.css`).toBeGreaterThanOrEqual(0);
  const open = css.indexOf('{', start);
  const close = css.indexOf('}', open);
  const vars = new Map<string, string>();
  for (const decl of css.slice(open + 1, close).split(';')) {
    const m = /^(--[\w-]+|color-scheme)[^\S\n]*:[^\S\n]*(\S[\s\S]*)$/.exec(decl.trim());
    if (m) vars.set(m[1]!, m[2]!.replace(/\s+/g, ' '));
  }
  return vars;
}

describe('themes in styles.css', () => {
  const light = block(':root {');
  const osDark = block(":root:not([data-theme='light'])");
  const chosenDark = block(":root[data-theme='dark']");

  it('the OS-dark block and the chosen-dark block are the same palette', () => {
    expect([...osDark.entries()]).toEqual([...chosenDark.entries()]);
    expect(osDark.get('color-scheme')).toBe('dark');
    expect(light.get('color-scheme')).toBe('light');
  });

  it('dark defines every colour light defines (no colour silently stays light)', () => {
    const colours = [...light.entries()].filter(([, v]) => /#[0-9a-f]{3,8}\b|rgba?\(/i.test(v)).map(([k]) => k);
    expect(colours.length).toBeGreaterThan(30);
    expect(colours.filter((k) => !osDark.has(k))).toEqual([]);
    for (const k of ['--bg', '--panel', '--panel-2', '--text', '--muted', '--input-bg', '--border', '--accent-bg']) expect(osDark.get(k), k).not.toBe(light.get(k));
  });

  it('rules outside the theme blocks use variables, not colour literals', () => {
    const rest = css
      .replace(/:root \{[\s\S]*?\n\}/, '')
      .replace(/@media \(prefers-color-scheme: dark\) \{[\s\S]*?\n\}/, '')
      .replace(/:root\[data-theme='dark'\] \{[\s\S]*?\n\}/, '');
    const literals = rest.split('\n').filter((l) => /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i.test(l));
    expect(literals).toEqual([]);
  });
});
