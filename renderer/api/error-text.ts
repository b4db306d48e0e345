/**
 * The text of a failed API call as the person reads it. Main's own wording arrives as a message
 * code and is translated; other words (a provider's, a parser's) are shown as they are; the errors the
 * renderer's own transport makes up — the WebSocket dropped (`internal` / {@link CONNECTION_LOST})
 * — are worded in the active language (`common:apiConnectionLost`).
 *
 * Not imported by renderer/api/index.ts (that would make a cycle through i18n → store → api).
 */
import { ApiError } from '../../shared/contract/api.js';
import { i18n } from '../i18n';
import { CONNECTION_LOST } from './ws-client.js';
import { sayWith } from '../i18n/say';

/** The message to show for `err` (anything a promise rejected with). Never throws. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError && err.code === 'internal' && err.message === CONNECTION_LOST) return i18n.t('common:apiConnectionLost');
  if (err instanceof ApiError && err.ui) return sayWith(i18n, err.ui);
  return err instanceof Error ? err.message : String(err);
}
