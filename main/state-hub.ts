/**
 * The single owner of {@link ConsoleState} in main. Services change slices and items through it;
 * it coalesces changes made in the same tick into one {@link StatePatch} and pushes it to every
 * subscriber as a `{type: 'patch'}` event. The renderer mirrors these.
 *
 * Items (sampling requests and elicitations) are kept whole here; the state and its patches carry
 * only their summaries (shared/domain/item-summary.ts `projectItem`): a new item as its summary, a
 * changed one as field-level changes of its summary plus field-level changes of the whole item
 * (`details`, a growing generation as its new text) for windows that have it open. A window gets
 * the whole item with {@link StateHub.published} (the `getItem` request).
 */
import type { ConsoleEvent } from '../shared/contract/api.js';
import { projectItem } from '../shared/domain/item-summary.js';
import type { ConsoleState, ItemSummary, ItemView, SliceKey } from '../shared/contract/state.js';
import { itemChange, type DetailChange, type ItemChange, type StatePatch } from '../shared/contract/state-patch.js';

export type { SliceKey };

/** The hub's API. All setters are synchronous; the patch goes out on the next macrotask. */
export interface StateHub {
  /** The current state, items as summaries (a shallow copy; values are immutable by convention). */
  snapshot(): ConsoleState;
  set<K extends SliceKey>(key: K, value: ConsoleState[K]): void;
  get<K extends SliceKey>(key: K): ConsoleState[K];
  /** Adds or replaces an item (matched by id), of either kind. */
  upsertItem(item: ItemView): void;
  removeItem(id: string): void;
  /** The item as it is now (changes not yet sent included). */
  getItem(id: string): ItemView | undefined;
  /** Every item as it is now, whole, in arrival order. */
  items(): ItemView[];
  /**
   * The item as the last patch left it and that patch's version: what a window that mirrors the
   * state up to `version` may apply later patches' `details` to. Undefined when no patch has
   * carried it yet (or it was removed).
   */
  published(id: string): { item: ItemView; version: number } | undefined;
  /** Subscribes to patches; returns the unsubscribe function. */
  subscribe(listener: (event: ConsoleEvent) => void): () => void;
  /** Sends pending changes now (tests and shutdown). */
  flush(): void;
}

/** The state a hub starts from: `items` whole (they are projected for the state). */
export type HubInitial = Omit<ConsoleState, 'version' | 'items'> & { items: ItemView[] };

/**
 * Creates a hub.
 * @param initial the state at start, without `version` (which starts at 0), items whole
 * @param schedule how to defer a flush; default `setImmediate`
 */
export function createStateHub(initial: HubInitial, schedule: (fn: () => void) => void = (fn) => setImmediate(fn)): StateHub {
  const { items: initialItems, ...slices } = initial;
  const items = new Map(initialItems.map((i) => [i.id, i]));
  // The slices and version; the items' summaries are made when asked (snapshot), from the items.
  let state: Omit<ConsoleState, 'items'> = { ...slices, version: 0 };
  const dirty = new Set<SliceKey>();
  const upserts = new Set<string>();
  const removes = new Set<string>();
  const listeners = new Set<(event: ConsoleEvent) => void>();
  /** Each item as last published: the next patch sends only what differs from it. */
  const published = new Map(initialItems.map((i) => [i.id, i]));
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
      const upsert: ItemSummary[] = [];
      const change: ItemChange[] = [];
      const details: DetailChange[] = [];
      for (const id of upserts) {
        const item = items.get(id);
        if (!item) continue;
        const before = published.get(id);
        if (before) {
          const diff = itemChange(projectItem(before), projectItem(item), true);
          if (diff) change.push(diff);
          const detail = itemChange<ItemView>(before, item);
          if (detail) details.push(detail);
        } else upsert.push(projectItem(item));
        published.set(id, item);
      }
      for (const id of removes) published.delete(id);
      patch.items = { upsert, remove: [...removes], ...(change.length ? { change } : {}) };
      if (details.length) patch.details = details;
    }
    state = { ...state, version: patch.version };
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
    snapshot: () => ({ ...state, items: [...items.values()].map(projectItem) }),
    set(key, value) {
      state = { ...state, [key]: value };
      dirty.add(key);
      request();
    },
    get: (key) => (state as ConsoleState)[key],
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
    items: () => [...items.values()],
    published(id) {
      const item = published.get(id);
      return item && items.has(id) ? { item, version: state.version } : undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    flush,
  };
}
