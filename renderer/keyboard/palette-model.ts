/**
 * The command palette's list (pure): entries are commands, screens, waiting queue items and
 * servers; the query narrows them. Runs in unit tests on plain Node.
 */

/** What an entry does when chosen. */
export type PaletteGroup = 'action' | 'screen' | 'item' | 'server';

/** One row of the palette. */
export interface PaletteEntry {
  /** Unique within the list (`cmd:request.approve`, `item:<id>`, `server:<id>`). */
  id: string;
  group: PaletteGroup;
  /** What the row reads (already translated). */
  label: string;
  /** More words the query may match (server, tool, preview), not shown. */
  keywords?: string;
  /** The shortcut as shown (`Ctrl+K`), if any. */
  shortcut?: string;
  /** Secondary text shown after the label (a waiting item's preview). */
  detail?: string;
}

const fold = (s: string) => s.toLocaleLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');

/**
 * The entries matching `query`, best first: every word of the query must occur in the label,
 * detail or keywords (case- and accent-insensitive). Labels that start with the query come first,
 * then labels that contain it, then the rest; ties keep their original order. An empty query
 * keeps every entry in order.
 */
export function filterEntries(entries: readonly PaletteEntry[], query: string): PaletteEntry[] {
  const q = fold(query.trim());
  if (!q) return [...entries];
  const words = q.split(/\s+/);
  const scored: Array<{ entry: PaletteEntry; rank: number; index: number }> = [];
  entries.forEach((entry, index) => {
    const label = fold(entry.label);
    const haystack = `${label} ${fold(entry.detail ?? '')} ${fold(entry.keywords ?? '')}`;
    if (!words.every((w) => haystack.includes(w))) return;
    const rank = label.startsWith(q) ? 0 : label.includes(q) ? 1 : words.every((w) => label.includes(w)) ? 2 : 3;
    scored.push({ entry, rank, index });
  });
  return scored.sort((a, b) => a.rank - b.rank || a.index - b.index).map((s) => s.entry);
}

/** The next active index when moving by `delta` through `count` rows (wraps; -1 when empty). */
export function moveActive(current: number, delta: number, count: number): number {
  if (count <= 0) return -1;
  if (current < 0) return delta >= 0 ? 0 : count - 1;
  return (((current + delta) % count) + count) % count;
}
