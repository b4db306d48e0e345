/**
 * The "New token" form's name check (renderer/screens/settings/gateway-token-name.ts): the
 * contract's schema, each problem said in the UI language, and a name already in the list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tokenNameProblem } from '../../renderer/screens/settings/gateway-token-name.js';

const settings = (lang: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../renderer/i18n/locales/${lang}/settings.json`), 'utf8')) as Record<string, unknown>;
beforeAll(async () => {
  await i18next.init({ lng: 'en', fallbackLng: 'en', resources: { en: { settings: settings('en') }, 'zh-CN': { settings: settings('zh-CN') } }, interpolation: { escapeValue: false } });
});
afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('gateway token name', () => {
  it('accepts what the schema accepts and is not taken', () => {
    for (const name of ['ci-script', 'nightly.build', 'a', 'x_1', 'n'.repeat(64)]) expect(tokenNameProblem(name, ['other'])).toBeUndefined();
  });

  it('says what is wrong: empty, too long, a character, taken', () => {
    expect(tokenNameProblem('', [])).toBe('Give the token a name');
    expect(tokenNameProblem('n'.repeat(65), [])).toBe('At most 64 characters');
    expect(tokenNameProblem('my script', [])).toBe('Use only letters, digits, “.”, “_” or “-”');
    expect(tokenNameProblem('a/b', [])).toBe('Use only letters, digits, “.”, “_” or “-”');
    expect(tokenNameProblem('ci-script', ['ci-script'])).toBe('There is already a token named ci-script');
  });

  it('in Simplified Chinese', async () => {
    await i18next.changeLanguage('zh-CN');
    expect(tokenNameProblem('', [])).toBe('请为令牌命名');
    expect(tokenNameProblem('my script', [])).toBe('只能使用字母、数字、“.”、“_”或“-”');
    expect(tokenNameProblem('ci', ['ci'])).toBe('已有名为 ci 的令牌');
  });
});
