/**
 * renderer/format.ts follows the active UI language: duration units and status labels
 * are translated, and Intl formatting uses the OS locale of the active language when there is one
 * (an en-GB system keeps its own conventions), else the language itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18n from 'i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { clockTimeMs, duration, formatLocale, formatNumber, STATUS_LABELS, statusLabel } from '../../renderer/format.js';

// format.ts translates through i18next's shared instance, which the renderer initialises
// (renderer/i18n); here it gets the `common` namespace of both languages.
const common = (lang: string) => JSON.parse(readFileSync(join(import.meta.dirname, `../../renderer/i18n/locales/${lang}/common.json`), 'utf8')) as Record<string, unknown>;
beforeAll(async () => {
  await i18n.init({ lng: 'en', fallbackLng: 'en', defaultNS: 'common', resources: { en: { common: common('en') }, 'zh-CN': { common: common('zh-CN') } }, interpolation: { escapeValue: false } });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});
afterAll(() => vi.unstubAllGlobals());

describe('duration', () => {
  it.each([
    [850, '850 ms', '850 毫秒'],
    [12_400, '12 s', '12 秒'],
    [185_000, '3 m 05 s', '3 分 05 秒'],
    [7_800_000, '2 h 10 m', '2 小时 10 分'],
    [-5, '0 ms', '0 毫秒'],
  ])('%d ms → %s (en) / %s (zh-CN)', async (ms, en, zh) => {
    expect(duration(ms)).toBe(en);
    await i18n.changeLanguage('zh-CN');
    expect(duration(ms)).toBe(zh);
  });
});

describe('status labels', () => {
  it('are read in the active language, also through STATUS_LABELS; unknown statuses stay as they are', async () => {
    expect(statusLabel('awaiting_request_review')).toBe('Review request');
    expect(STATUS_LABELS.timed_out).toBe('Timed out');
    expect(Object.keys(STATUS_LABELS)).toContain('interrupted');
    await i18n.changeLanguage('zh-CN');
    expect(statusLabel('awaiting_request_review')).toBe('待审核请求');
    expect(STATUS_LABELS.timed_out).toBe('已超时');
    expect(statusLabel('something_new')).toBe('something_new');
  });

  it('follow resources added after a label was shown (labels are kept between lookups)', () => {
    expect(statusLabel('delivered')).toBe('Delivered');
    expect(duration(3_000)).toBe('3 s');
    const before = structuredClone(i18n.getResourceBundle('en', 'common') as Record<string, unknown>);
    try {
      i18n.addResourceBundle('en', 'common', { status: { delivered: 'Handed over' }, duration: { s: '{{s}} sec' } }, true, true);
      expect(statusLabel('delivered')).toBe('Handed over');
      expect(duration(3_000)).toBe('3 sec');
    } finally {
      i18n.addResourceBundle('en', 'common', before, true, true);
    }
    expect(statusLabel('delivered')).toBe('Delivered');
  });
});

describe('formatLocale', () => {
  it('takes the OS locale of the active language, else the language', async () => {
    vi.stubGlobal('navigator', { language: 'en-GB', languages: ['en-GB', 'fr-FR'] });
    expect(formatLocale()).toBe('en-GB');
    await i18n.changeLanguage('zh-CN');
    expect(formatLocale()).toBe('zh-CN');
    vi.stubGlobal('navigator', { language: 'fr-FR', languages: ['fr-FR', 'zh-TW'] });
    expect(formatLocale()).toBe('zh-TW');
    await i18n.changeLanguage('en');
    expect(formatLocale()).toBe('en');
  });

  it('numbers use it', async () => {
    vi.stubGlobal('navigator', { language: 'de-DE', languages: ['de-DE'] });
    expect(formatNumber(12345.5)).toBe('12,345.5');
    vi.stubGlobal('navigator', { language: 'en-IN', languages: ['en-IN'] });
    expect(formatNumber(1234567)).toBe('12,34,567');
  });
});

describe('clockTimeMs', () => {
  it('puts the milliseconds beside the seconds, before a 12-hour clock\'s AM/PM', () => {
    const at = new Date(2026, 0, 2, 17, 46, 42, 885).getTime();
    vi.stubGlobal('navigator', { language: 'en-US', languages: ['en-US'] });
    expect(clockTimeMs(at)).toMatch(/^05:46:42\.885\sPM$/);
    vi.stubGlobal('navigator', { language: 'en-GB', languages: ['en-GB'] });
    expect(clockTimeMs(at)).toBe('17:46:42.885');
  });
});
