/**
 * The single owner of {@link ConsoleState} in main. Services change slices through it; it coalesces
 * changes made in the same tick into one {@link StatePatch} (items as a delta, other slices whole)
 * and pushes it to every subscriber as a `{type: 'patch'}` event. The renderer mirrors these.
 */
import type { ConsoleEvent } from '../shared/api.js';
import type { ConsoleState, SamplingItemView, SliceKey } from '../shared/state.js';
import type { ItemChange, StatePatch } from '../shared/state-patch.js';

export type { SliceKey };

/** The hub's API. All setters are synchronous; the patch goes out on the next macrotask. */
export interface StateHub {
  /** The current state (a shallow copy; values are immutable by convention). */
  snapshot(): ConsoleState;
  set<K extends SliceKey>(key: K, value: ConsoleState[K]): void;
  get<K extends SliceKey>(key: K): ConsoleState[K];
  /** Adds or replaces an item (matched by id). */
  upsertItem(item: SamplingItemView): void;
  removeItem(id: string): void;
  getItem(id: string): SamplingItemView | undefined;
  /** Subscribes to patches; returns the unsubscribe function. */
  subscribe(listener: (event: ConsoleEvent) => void): () => void;
  /** Sends pending changes now (tests and shutdown). */
  flush(): void;
}

/**
 * Creates a hub.
 * @param initial the state at start, without `version` (which starts at 0)
 * @param schedule how to defer a flush; default `setImmediate`
 */
export function createStateHub(
  initial: Omit<ConsoleState, 'version'>,
  schedule: (fn: () => void) => void = (fn) => setImmediate(fn),
): StateHub {
  let state: ConsoleState = { ...initial, version: 0 };
  const items = new Map(initial.items.map((i) => [i.id, i]));
  const dirty = new Set<SliceKey>();
  const upserts = new Set<string>();
  const removes = new Set<string>();
  const listeners = new Set<(event: ConsoleEvent) => void>();
  /** Each item as last published: the next patch sends only what differs from it. */
  const published = new Map(initial.items.map((i) => [i.id, i]));
  let scheduled = false;

  const request = () => {
    if (scheduled) return;
    scheduled = true;
    schedule(flush);
  };

  function flush(): void {
    scheduled = false;
    if (dirty.size === 0 && upserts.size === 0 && removes.size === 0) return;
    const patch: StatePatch = { version: state.version + 1 };
    for (const key of dirty) (patch as unknown as Record<string, unknown>)[key] = state[key];
    if (upserts.size || removes.size) {
      const upsert: SamplingItemView[] = [];
      const change: ItemChange[] = [];
      for (const id of upserts) {
        const item = items.get(id);
        if (!item) continue;
        const before = published.get(id);
        if (before) {
          const diff = itemChange(before, item);
          if (diff) change.push(diff);
        } else upsert.push(item);
        published.set(id, item);
      }
      for (const id of removes) published.delete(id);
      patch.items = { upsert, remove: [...removes], ...(change.length ? { change } : {}) };
    }
    state = { ...state, version: patch.version, items: [...items.values()] };
    dirty.clear();
    upserts.clear();
    removes.clear();
    const event: ConsoleEvent = { type: 'patch', patch };
    for (const l of listeners) {
      try {
        l(event);
      } catch {
        // a failing listener (e.g. a closed socket) must not stop the others
      }
    }
  }

  return {
    snapshot: () => ({ ...state, items: [...items.values()] }),
    set(key, value) {
      state = { ...state, [key]: value };
      dirty.add(key);
      request();
    },
    get: (key) => state[key],
    upsertItem(item) {
      items.set(item.id, item);
      upserts.add(item.id);
      removes.delete(item.id);
      request();
    },
    removeItem(id) {
      if (!items.delete(id)) return;
      upserts.delete(id);
      removes.add(id);
      request();
    },
    getItem: (id) => items.get(id),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush,
  };
}

/**
 * What differs between two states of an item, field by field (by identity: the pipeline replaces
 * a field to change it, so an untouched prompt is never compared or sent). A generation that only
 * grew is sent as the text it grew by. Undefined when nothing differs.
 */
export function itemChange(before: SamplingItemView, after: SamplingItemView): ItemChange | undefined {
  const set: Record<string, unknown> = {};
  const unset: Array<keyof SamplingItemView> = [];
  let append: string | undefined;
  for (const key of Object.keys(after) as Array<keyof SamplingItemView>) {
    if (after[key] === before[key]) continue;
    if (key === 'generation' && before.generation && after.generation && after.generation.startedAt === before.generation.startedAt) {
      const [was, now] = [before.generation.text, after.generation.text];
      if (now.length >= was.length && now.startsWith(was)) {
        if (now.length > was.length) append = now.slice(was.length);
        continue;
      }
    }
    if (after[key] === undefined) unset.push(key); // JSON would drop an undefined value
    else set[key] = after[key];
  }
  for (const key of Object.keys(before) as Array<keyof SamplingItemView>) if (!(key in after) && before[key] !== undefined) unset.push(key);
  if (Object.keys(set).length === 0 && unset.length === 0 && append === undefined) return undefined;
  return { id: after.id, ...(Object.keys(set).length ? { set: set as Partial<SamplingItemView> } : {}), ...(unset.length ? { unset } : {}), ...(append !== undefined ? { append } : {}) };
}
