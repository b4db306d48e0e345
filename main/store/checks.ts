/**
 * Checks every history store makes before it writes or reads: an entry has the fields the schema
 * requires, a page size is a count. Errors are readable (TypeError, RangeError), never SQL errors.
 */
import type { HistoryEntry } from '../../shared/contract/state.js';
import { MAX_EPOCH_MS } from './rows.js';

/** Rejects entries that would violate the schema with a readable message instead of a SQL error. @throws TypeError naming the field */
export function checkEntry(entry: HistoryEntry): void {
  const strings = ['id', 'conversationId', 'serverId', 'status'] as const;
  for (const key of strings) {
    if (typeof entry[key] !== 'string' || entry[key] === '') {
      throw new TypeError(`history entry: ${key} must be a non-empty string`);
    }
  }
  if (typeof entry.preview !== 'string') throw new TypeError('history entry: preview must be a string');
  if (!(entry.receivedAt >= 0 && entry.receivedAt <= MAX_EPOCH_MS)) {
    throw new TypeError(`history entry: receivedAt must be epoch ms in 0..${MAX_EPOCH_MS}`);
  }
  if (entry.endedAt !== undefined && !Number.isFinite(entry.endedAt)) {
    throw new TypeError('history entry: endedAt must be epoch ms');
  }
  if (typeof entry.edited !== 'boolean') throw new TypeError('history entry: edited must be a boolean');
  if (typeof entry.timings !== 'object' || entry.timings === null) {
    throw new TypeError('history entry: timings must be an object');
  }
  if (!Array.isArray(entry.events)) throw new TypeError('history entry: events must be an array');
}

/** @throws RangeError unless `value` is an integer ≥ 0. */
export function checkCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer ≥ 0, got ${value}`);
}
