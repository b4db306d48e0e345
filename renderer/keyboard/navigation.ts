/**
 * Pure helpers of the review shortcuts (unit-tested on plain Node): which text block "the prompt"
 * is, and stepping through the queue.
 */
import { contentBlocks, type CreateMessageParams } from '../../shared/contract/sampling.js';

/**
 * The text block a reviewer most likely wants to edit: the first text block of the last user
 * message (the question being asked), else the first text block of any message; null when the
 * request has no text at all.
 */
export function promptBlock(params: CreateMessageParams): { message: number; block: number } | null {
  const find = (m: number) => contentBlocks(params.messages[m]!.content).findIndex((b) => b.type === 'text');
  for (let m = params.messages.length - 1; m >= 0; m--) {
    if (params.messages[m]!.role !== 'user') continue;
    const b = find(m);
    if (b >= 0) return { message: m, block: b };
  }
  for (let m = 0; m < params.messages.length; m++) {
    const b = find(m);
    if (b >= 0) return { message: m, block: b };
  }
  return null;
}

/**
 * The id `delta` steps from `selected` in `ids` (the queue as listed), stopping at the ends; the
 * first (or last, going back) when nothing is selected; null for an empty queue.
 */
export function stepId(ids: readonly string[], selected: string | null, delta: number): string | null {
  if (ids.length === 0) return null;
  const i = selected === null ? -1 : ids.indexOf(selected);
  if (i < 0) return delta >= 0 ? ids[0]! : ids[ids.length - 1]!;
  return ids[Math.min(Math.max(i + delta, 0), ids.length - 1)]!;
}
