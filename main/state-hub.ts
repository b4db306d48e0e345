/**
 * The single owner of {@link ConsoleState} in main. Services change slices through it; it coalesces
 * changes made in the same tick into one {@link StatePatch} (items as a delta, other slices whole)
 * and pushes it to every subscriber as a `{type: 'patch'}` event. The renderer mirrors these.
 */
import type { ConsoleEvent } from '../shared/api.js';
import type { ConsoleState, SamplingItemView, SliceKey, StatePatch } from '../shared/state.js';

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
      patch.items = {
        upsert: [...upserts].flatMap((id) => (items.has(id) ? [items.get(id)!] : [])),
        remove: [...removes],
      };
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
