/**
 * The text of a failed API call as the person reads it. Main's messages (ApiError from the host,
 * provider errors, validation) arrive already worded and are shown as they are; the errors the
 * renderer's own transport makes up — the WebSocket dropped (`internal` / {@link CONNECTION_LOST})
 * — are worded in the active language (`common:apiConnectionLost`).
 *
 * Not imported by renderer/api/index.ts (that would make a cycle through i18n → store → api).
 */
import { ApiError } from '../../shared/api.js';
import { i18n } from '../i18n';
import { CONNECTION_LOST } from './ws-client.js';

/** The message to show for `err` (anything a promise rejected with). Never throws. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError && err.code === 'internal' && err.message === CONNECTION_LOST) return i18n.t('common:apiConnectionLost');
  return err instanceof Error ? err.message : String(err);
}
