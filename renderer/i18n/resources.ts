/**
 * Every UI string, per language and namespace (one JSON file per screen family under
 * `locales/<lang>/<namespace>.json`). English is the source and the fallback; every other
 * language must have exactly the same keys (test/renderer/i18n.test.ts fails otherwise).
 *
 * Namespaces: `common` (shared components), `app` (shell, nav, notices), `queue` (sampling and
 * elicitation review), `servers`, `history`, `providers`, `rules`, `settings`, `keys` (shortcuts,
 * command palette, cheat-sheet), `messages` (texts main and shared send as message codes: its
 * English is shared/contract/ui-text-catalog.ts, nested on the code's first dot).
 */
import type { UiLanguage } from '../../shared/contract/desktop';
import { nestOnFirstDot, UI_TEXTS } from '../../shared/contract/ui-text';
import enCommon from './locales/en/common.json';
import enApp from './locales/en/app.json';
import enQueue from './locales/en/queue.json';
import enServers from './locales/en/servers.json';
import enHistory from './locales/en/history.json';
import enProviders from './locales/en/providers.json';
import enRules from './locales/en/rules.json';
import enSettings from './locales/en/settings.json';
import enKeys from './locales/en/keys.json';
import zhCommon from './locales/zh-CN/common.json';
import zhApp from './locales/zh-CN/app.json';
import zhQueue from './locales/zh-CN/queue.json';
import zhServers from './locales/zh-CN/servers.json';
import zhHistory from './locales/zh-CN/history.json';
import zhProviders from './locales/zh-CN/providers.json';
import zhRules from './locales/zh-CN/rules.json';
import zhSettings from './locales/zh-CN/settings.json';
import zhKeys from './locales/zh-CN/keys.json';
import zhMessages from './locales/zh-CN/messages.json';

/** The English resources: the source of truth for keys (and for the typed `t`, see i18next.d.ts). */
export const en = {
  common: enCommon,
  app: enApp,
  queue: enQueue,
  servers: enServers,
  history: enHistory,
  providers: enProviders,
  rules: enRules,
  settings: enSettings,
  keys: enKeys,
  messages: nestOnFirstDot(UI_TEXTS),
};

/** A namespace name. */
export type Namespace = keyof typeof en;
/** Every namespace, in load order. */
export const NAMESPACES = Object.keys(en) as Namespace[];

/** All languages' resources, as i18next takes them. */
export const resources: Record<UiLanguage, Record<Namespace, Record<string, unknown>>> = {
  en,
  'zh-CN': {
    common: zhCommon,
    app: zhApp,
    queue: zhQueue,
    servers: zhServers,
    history: zhHistory,
    providers: zhProviders,
    rules: zhRules,
    settings: zhSettings,
    keys: zhKeys,
    messages: zhMessages,
  },
};
