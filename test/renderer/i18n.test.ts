/**
 * Languages: every language ships exactly the English keys, with the same
 * interpolation variables and no empty or English-copied texts where a translation is due; and
 * the OS-locale resolution picks the right language. (Keys used in code are checked against the
 * English files at compile time — renderer/i18n/i18next.d.ts — and hard-coded JSX text by the
 * `i18next/no-literal-string` lint rule.)
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveLanguage, UI_LANGUAGES } from '../../shared/contract/desktop.js';
import { UI_TEXTS } from '../../shared/contract/ui-text.js';
import { pseudoText } from '../../renderer/i18n/pseudo.js';

const LOCALES = join(import.meta.dirname, '../../renderer/i18n/locales');

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

function load(lang: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const file of readdirSync(join(LOCALES, lang)).filter((f) => f.endsWith('.json')).sort()) {
    out.set(file.replace(/\.json$/, ''), flatten(JSON.parse(readFileSync(join(LOCALES, lang, file), 'utf8')) as Tree));
  }
  return out;
}

/** `{{name}}` variables and `$t(...)` nestings a text uses, sorted. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)(?:[^}\w.][^}]*)?\}\}|\$t\(([^)]+)\)/g)].map((m) => m[1] ?? m[2] ?? '').sort();
}

/** Strip a plural suffix (i18next's CLDR forms): Chinese has only `_other`, English `_one` + `_other`. */
function base(key: string): string {
  return key.replace(/_(zero|one|two|few|many|other)$/, '');
}

/** English: the locale files, and the `messages` namespace from shared/contract/ui-text-catalog.ts. */
const english = load('en');
english.set('messages', new Map(Object.entries(UI_TEXTS)));

describe('locales', () => {
  it('English has every namespace the resources module loads, each with keys', () => {
    expect([...english.keys()]).toEqual(['app', 'common', 'history', 'keys', 'providers', 'queue', 'rules', 'servers', 'settings', 'messages']);
    for (const [ns, keys] of english) expect(keys.size, `${ns} has no keys`).toBeGreaterThan(0);
  });

  for (const lang of UI_LANGUAGES.filter((l: string) => l !== 'en')) {
    describe(lang, () => {
      const other = load(lang);
      it('has the same namespaces as English', () => {
        expect([...other.keys()].sort()).toEqual([...english.keys()].sort());
      });
      for (const [ns, keys] of english) {
        it(`${ns}: no key untranslated, none extra, same placeholders`, () => {
          const theirs = other.get(ns) ?? new Map<string, string>();
          const ourBases = new Set([...keys.keys()].map(base));
          const theirBases = new Set([...theirs.keys()].map(base));
          expect([...ourBases].filter((k) => !theirBases.has(k)), `untranslated keys in ${lang}/${ns}.json`).toEqual([]);
          expect([...theirBases].filter((k) => !ourBases.has(k)), `keys in ${lang}/${ns}.json that English lacks`).toEqual([]);
          for (const [key, text] of theirs) {
            expect(text.trim(), `${lang}/${ns}.json ${key} is empty`).not.toBe('');
            const source = keys.get(key) ?? keys.get(`${base(key)}_other`) ?? keys.get(base(key)) ?? '';
            expect(placeholders(text), `${lang}/${ns}.json ${key} placeholders`).toEqual(placeholders(source));
          }
        });
      }
      it('is translated, not copied: most texts differ from English', () => {
        let same = 0;
        let total = 0;
        for (const [ns, keys] of english) {
          for (const [key, text] of keys) {
            total++;
            if (other.get(ns)?.get(key) === text) same++;
          }
        }
        // Product names, protocol terms and symbols may stay as they are; whole screens may not.
        expect(same / total).toBeLessThan(0.15);
      });
    });
  }
});

describe('pseudo-locale', () => {
  it('swaps every letter, keeps placeholders, nestings and tags, and marks both ends', () => {
    expect(pseudoText('Approve {{count}} requests from <1>{{server}}</1>, see $t(common:more)')).toBe(
      '⟦Áþþŕóṽé {{count}} ŕéǫúéšŧš ƒŕóɱ <1>{{server}}</1>, šéé $t(common:more)⟧',
    );
    expect(pseudoText('a {{ unclosed')).toBe('⟦á {{ úñçĺóšéđ⟧');
  });
});

describe('resolveLanguage', () => {
  it.each([
    ['system', ['zh-CN', 'en-US'], 'zh-CN'],
    ['system', ['zh'], 'zh-CN'],
    ['system', ['zh-Hans-SG'], 'zh-CN'],
    ['system', ['en-GB', 'zh-CN'], 'en'],
    ['system', ['fr-FR', 'zh-TW'], 'zh-CN'],
    ['system', ['fr-FR', 'de'], 'en'],
    ['system', [], 'en'],
    ['en', ['zh-CN'], 'en'],
    ['zh-CN', ['en-US'], 'zh-CN'],
    [undefined, ['zh-CN'], 'zh-CN'],
  ] as const)('%s with OS locales %j → %s', (pref, locales, expected) => {
    expect(resolveLanguage(pref, locales)).toBe(expected);
  });
});
