/**
 * The ids the gateway answers with, each naming the History entry of the call (its item id, a
 * UUID): `chatcmpl-<32 hex>` (Chat Completions), `msg_<32 hex>` (Messages), and for the
 * Responses API `resp_<core>` with output items `msg_<core>_<n>` / `fc_<core>_<n>` (`n`: the
 * item's index in `output`), where `<core>` is the 32 hex of the item id and an 8-hex checksum.
 *
 * The checksum tells an id the console gave (History may no longer hold it: deleted, or pruned by
 * retention) from one it never gave (another provider's, a typo): the two are answered with
 * different 404s. It is not a secret — an id only ever opens entries of the caller that made them.
 */
import { createHash } from 'node:crypto';
import type { GatewayEndpoint } from './types.js';

const CORE = /^([\da-f]{32})([\da-f]{8})$/;

const hexOf = (itemId: string): string => itemId.replaceAll('-', '').toLowerCase();
const checksum = (hex: string): string => createHash('sha256').update(`mcp-approval-console/${hex}`).digest('hex').slice(0, 8);
const uuidOf = (hex: string): string => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/** The `<core>` of a Responses id for an item id (a UUID). */
function coreOf(itemId: string): string {
  const hex = hexOf(itemId);
  return `${hex}${checksum(hex)}`;
}

/** The id a call through `endpoint` is answered with, naming item `itemId` (a UUID). */
export function replyIdFor(endpoint: GatewayEndpoint, itemId: string): string {
  switch (endpoint) {
    case 'responses':
      return `resp_${coreOf(itemId)}`;
    case 'messages':
      return `msg_${hexOf(itemId)}`;
    default:
      return `chatcmpl-${hexOf(itemId)}`;
  }
}

/** The id of output item `index` of Responses answer `responseId` (`kind` message or function call). */
export function outputItemId(responseId: string, kind: 'msg' | 'fc', index: number): string {
  return `${kind}_${responseId.slice('resp_'.length)}_${index}`;
}

/**
 * What a Responses id names: `response` (a `resp_…` the console gave), `item` (an output item
 * of one, with its index), or `unknown` (not an id the console gives, or a checksum that fails).
 * `itemId` is the History entry's id.
 */
export type ResponsesIdRef = { kind: 'response'; itemId: string } | { kind: 'item'; itemId: string; index: number } | { kind: 'unknown' };

/** Reads a `resp_…`, `msg_…_n` or `fc_…_n` id (see {@link ResponsesIdRef}). */
export function readResponsesId(id: string): ResponsesIdRef {
  if (id.startsWith('resp_')) {
    const core = verified(id.slice('resp_'.length));
    return core ? { kind: 'response', itemId: uuidOf(core) } : { kind: 'unknown' };
  }
  const [prefix, coreText, indexText, ...rest] = id.split('_');
  if ((prefix !== 'msg' && prefix !== 'fc') || coreText === undefined || indexText === undefined || rest.length > 0 || !/^\d{1,4}$/.test(indexText)) return { kind: 'unknown' };
  const core = verified(coreText);
  return core ? { kind: 'item', itemId: uuidOf(core), index: Number(indexText) } : { kind: 'unknown' };
}

/** The 32 hex of a `<core>` whose checksum holds, else undefined. */
function verified(core: string): string | undefined {
  const m = CORE.exec(core);
  if (!m || checksum(m[1]!) !== m[2]) return undefined;
  return m[1];
}
