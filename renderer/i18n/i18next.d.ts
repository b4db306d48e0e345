/**
 * Typed translation keys: `t('queue:approve')` and `useTranslation('queue')` are checked against
 * the English resources at compile time, so a key missing from `locales/en` fails `npm run
 * typecheck`. (Other languages are checked for the same keys by test/renderer/i18n.test.ts.)
 */
import 'i18next';
import type { en } from './resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: typeof en;
  }
}
