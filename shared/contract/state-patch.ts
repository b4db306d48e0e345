/**
 * How the state crosses the boundary: main's state hub (main/state-hub.ts) sends patches, every
 * window applies them to its mirror (renderer/store.ts). Slices come whole; an item's summary
 * comes whole once and then as field-level changes. Whole items never travel in the stream: a
 * window fetches one with `getItem` when it opens it, and keeps it current with the patches'
 * `details` (field-level changes of whole items, a streaming response as its new text). Pure.
 */
import type { ConsoleState, ItemSummary, ItemView, SliceKey } from './state.js';

/**
 * What changed in one item (a summary, or a whole item) the receiver already has, as of the
 * previous version: `set` replaces top-level fields, `unset` removes them, and `append` adds text
 * to `generation.text` (a streaming response sends its new text, not the item).
 */
export interface ItemChange<T = ItemSummary> {
  id: string;
  set?: Partial<T>;
  unset?: Array<keyof T & string>;
  append?: string;
}

/** Field-level changes of whole items, as `details` of a patch carries them. */
export type DetailChange = ItemChange<ItemView>;

/**
 * One step of the state: `version` is the previous version + 1. Slices come whole; item summaries
 * come whole when new (`upsert`) and as field-level changes after that (`change`). `details`: how
 * the whole items changed that had been published before (a window applies those of the items it
 * has open; others ignore them). A new item's params never travel here.
 */
export type StatePatch = {
  version: number;
  items?: { upsert: ItemSummary[]; remove: string[]; change?: ItemChange[] };
  details?: DetailChange[];
} & Partial<Pick<ConsoleState, SliceKey>>;

/** Whether `patch` can be applied to `state`: it is the next version, or it holds no item changes (which need the previous one). */
export function patchFits(state: ConsoleState, patch: StatePatch): boolean {
  return patch.version <= state.version || patch.version === state.version + 1 || (!patch.items?.change?.length && !patch.details?.length);
}

/** `item` with one {@link ItemChange} applied (a new object; `item` is not changed). */
export function applyItemChange<T extends object>(item: T, change: ItemChange<T>): T {
  const next = { ...item, ...change.set } as T;
  for (const key of change.unset ?? []) delete (next as Record<string, unknown>)[key];
  const gen = (next as { generation?: { startedAt: number; text: string } }).generation;
  if (change.append !== undefined && gen) (next as { generation?: unknown }).generation = { ...gen, text: gen.text + change.append };
  return next;
}

/**
 * What differs between two states of an object, field by field: by identity, or by value when
 * `byValue` (small objects such as summaries, rebuilt at each change). A `generation` that only
 * grew is sent as the text it grew by. Undefined when nothing differs.
 */
export function itemChange<T extends { id: string }>(before: T, after: T, byValue = false): ItemChange<T> | undefined {
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  let append: string | undefined;
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (a[key] === b[key]) continue;
    if (byValue && typeof a[key] === 'object' && a[key] !== null && JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
    if (key === 'generation') {
      const [was, now] = [b.generation as { startedAt: number; text: string } | undefined, a.generation as { startedAt: number; text: string } | undefined];
      if (was && now && now.startedAt === was.startedAt && now.text.length >= was.text.length && now.text.startsWith(was.text)) {
        if (now.text.length > was.text.length) append = now.text.slice(was.text.length);
        continue;
      }
    }
    if (a[key] === undefined) unset.push(key); // JSON would drop an undefined value
    else set[key] = a[key];
  }
  for (const key of Object.keys(b)) if (!(key in a) && b[key] !== undefined) unset.push(key);
  if (Object.keys(set).length === 0 && unset.length === 0 && append === undefined) return undefined;
  return {
    id: after.id,
    ...(Object.keys(set).length ? { set: set as Partial<T> } : {}),
    ...(unset.length ? { unset: unset as Array<keyof T & string> } : {}),
    ...(append !== undefined ? { append } : {}),
  };
}

/** Applies a patch to a state; returns the same object if the patch is stale. Pure. */
export function applyPatch(state: ConsoleState, patch: StatePatch): ConsoleState {
  if (patch.version <= state.version) return state;
  const next: ConsoleState = { ...state, version: patch.version };
  for (const [key, value] of Object.entries(patch)) {
    if (key !== 'version' && key !== 'items' && key !== 'details' && value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
  }
  if (patch.items) {
    const removed = new Set(patch.items.remove);
    const upserts = new Map(patch.items.upsert.map((i) => [i.id, i]));
    const changes = new Map((patch.items.change ?? []).map((c) => [c.id, c]));
    const items = state.items
      .filter((i) => !removed.has(i.id))
      .map((i) => {
        const change = changes.get(i.id);
        return upserts.get(i.id) ?? (change ? applyItemChange(i, change) : i);
      });
    const known = new Set(items.map((i) => i.id));
    for (const i of patch.items.upsert) if (!known.has(i.id) && !removed.has(i.id)) items.push(i);
    next.items = items;
  }
  return next;
}
