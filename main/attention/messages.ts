/**
 * What main itself says to the person outside the window — notification titles and bodies, the
 * tray's tooltip and menu — in the UI language (English and Simplified Chinese through a
 * standard i18n library). One i18next instance per language, created on first use; the Chinese
 * catalogue is typed as the English one, so a missing key fails the typecheck.
 */
import { createInstance, type TFunction } from 'i18next';
import { resolveLanguage, type LanguagePreference, type UiLanguage } from '../../shared/contract/desktop.js';

const en = {
  askCompletion: '{{server}} asks for a completion',
  reviewResponse: 'Response to review for {{server}}',
  askInput: '{{server}} asks for your input',
  body: '{{tool}}: {{line}}',
  noMessage: '(no message)',
  emptyRequest: '(empty request)',
  testTitle: 'Notifications work',
  testBody: 'Requests that need you will show up like this.',
  trayNothing: '{{app}} — nothing waiting',
  trayWaiting: '{{app}} — {{count}} waiting',
  open: 'Open console',
  openWaiting: 'Open console ({{count}} waiting)',
  pause: 'Pause auto-approval',
  doNotDisturb: 'Do not disturb',
  quit: 'Quit',
};

const zhCN: typeof en = {
  askCompletion: '{{server}} 请求一次补全',
  reviewResponse: '{{server}} 的响应待审核',
  askInput: '{{server}} 请求你的输入',
  body: '{{tool}}：{{line}}',
  noMessage: '（无消息）',
  emptyRequest: '（空请求）',
  testTitle: '通知正常',
  testBody: '需要你处理的请求会像这样显示。',
  trayNothing: '{{app}} — 没有待处理项',
  trayWaiting: '{{app}} — {{count}} 项待处理',
  open: '打开控制台',
  openWaiting: '打开控制台（{{count}} 项待处理）',
  pause: '暂停自动批准',
  doNotDisturb: '勿扰模式',
  quit: '退出',
};

/** The catalogues, per language (exported for the locale parity test). */
export const DESKTOP_MESSAGES: Record<UiLanguage, typeof en> = { en, 'zh-CN': zhCN };

/** A message key. */
export type DesktopMessageKey = keyof typeof en;
/** Translates one key with `{{name}}` values. */
export type DesktopT = (key: DesktopMessageKey, values?: Record<string, string | number>) => string;

const cache = new Map<UiLanguage, TFunction>();

/** The translator for a language (created once). */
export function desktopT(lang: UiLanguage): DesktopT {
  let t = cache.get(lang);
  if (!t) {
    const instance = createInstance();
    void instance.init({
      resources: { [lang]: { desktop: DESKTOP_MESSAGES[lang] }, en: { desktop: en } },
      lng: lang,
      fallbackLng: 'en',
      ns: ['desktop'],
      defaultNS: 'desktop',
      interpolation: { escapeValue: false }, // plain text for the OS, not HTML
      initAsync: false,
    });
    t = instance.t;
    cache.set(lang, t);
  }
  const tf = t;
  return (key, values) => String(tf(key, values ?? {}));
}

let processLocale: string[] | undefined;

/**
 * The OS's preferred locales as this process sees them (Intl, from LANG/LC_* or the OS); read once
 * per process (building a formatter costs ~1 ms, and the attention service asks on every patch).
 */
export function processLocales(): string[] {
  processLocale ??= [Intl.DateTimeFormat().resolvedOptions().locale];
  return processLocale;
}

/** The translator for a preference (`system` resolves from `osLocales`, most preferred first). */
export function desktopTFor(preference: LanguagePreference | undefined, osLocales: readonly string[]): DesktopT {
  return desktopT(resolveLanguage(preference, osLocales));
}
