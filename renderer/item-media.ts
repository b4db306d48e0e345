/**
 * What the window sends back to main holds media payloads, not the references `getItem` put in
 * their place (shared/contract/media-refs.ts): a request approved in the moment between its review
 * showing and its payloads arriving waits for them here.
 */
import { fillMedia, mediaRefsIn } from '../shared/domain/media-refs.js';
import { ApiError } from '../shared/contract/api-error.js';
import { ui } from '../shared/contract/ui-text.js';
import { getDetailsIo } from './store.js';

/**
 * `value` (params or a result built from item `itemId`) with every media reference replaced by its
 * payload, fetched when it has not arrived yet; `value` itself when it holds none.
 * @throws ApiError `not_found` (message code `error.mediaNotLoaded`) when a payload cannot be fetched
 */
export async function withItemMedia<T>(itemId: string, value: T): Promise<T> {
  const refs = mediaRefsIn(value);
  if (refs.length === 0) return value;
  const payloads = (await getDetailsIo()?.media(itemId, refs)) ?? new Map<string, string>();
  const filled = fillMedia(value, payloads);
  if (mediaRefsIn(filled).length) throw new ApiError('not_found', ui('error.mediaNotLoaded'));
  return filled;
}
