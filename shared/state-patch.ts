/**
 * How the state crosses the boundary: main's state hub (main/state-hub.ts) sends patches, every
 * window applies them to its mirror (renderer/store.ts). Slices come whole; an item comes whole
 * once and then as field-level changes. Pure.
 */
import type { ConsoleState, SamplingItemView, SliceKey } from './state.js';

/**
 * What changed in one item the receiver already has (the item as of the previous version):
 * `set` replaces top-level fields, `unset` removes them, and `append` adds text to
 * `generation.text` (a streaming response sends its new text, not the item).
 */
export interface ItemChange {
  id: string;
  set?: Partial<SamplingItemView>;
  unset?: Array<keyof SamplingItemView>;
  append?: string;
}

/**
 * One step of the state: `version` is the previous version + 1. Slices come whole; items come
 * whole when new (`upsert`) and as field-level changes after that (`change`), so a status change
 * of an item with a 25 MB prompt does not send the prompt again.
 */
export type StatePatch = { version: number; items?: { upsert: SamplingItemView[]; remove: string[]; change?: ItemChange[] } } & Partial<Pick<ConsoleState, SliceKey>>;

/** Whether `patch` can be applied to `state`: it is the next version, or it holds no item changes (which need the previous one). */
export function patchFits(state: ConsoleState, patch: StatePatch): boolean {
  return patch.version <= state.version || patch.version === state.version + 1 || !patch.items?.change?.length;
}

/** `item` with one {@link ItemChange} applied. */
export function applyItemChange(item: SamplingItemView, change: ItemChange): SamplingItemView {
  const next = { ...item, ...change.set } as SamplingItemView;
  for (const key of change.unset ?? []) delete (next as unknown as Record<string, unknown>)[key];
  if (change.append !== undefined && next.generation) next.generation = { ...next.generation, text: next.generation.text + change.append };
  return next;
}

/** Applies a patch to a state; returns the same object if the patch is stale. Pure. */
export function applyPatch(state: ConsoleState, patch: StatePatch): ConsoleState {
  if (patch.version <= state.version) return state;
  const next: ConsoleState = { ...state, version: patch.version };
  for (const [key, value] of Object.entries(patch)) {
    if (key !== 'version' && key !== 'items' && value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
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
