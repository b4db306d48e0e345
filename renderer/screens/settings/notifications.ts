/** Which of main's attention notifications a web page shows (pure; used by attention.ts and tests). */
import type { AttentionNotification } from '../../../shared/contract/desktop.js';

/**
 * Which of `list` to show: those newer than `lastSeq`. `lastSeq` null (the first state seen) shows
 * none — notifications from before this page loaded are not replayed. Returns the new `lastSeq`
 * (0 when there were none yet).
 */
export function notificationsToShow(list: readonly AttentionNotification[], lastSeq: number | null): { show: AttentionNotification[]; lastSeq: number } {
  const newest = list.reduce((m, n) => Math.max(m, n.seq), lastSeq ?? 0);
  if (lastSeq === null) return { show: [], lastSeq: newest };
  return { show: list.filter((n) => n.seq > lastSeq), lastSeq: newest };
}
