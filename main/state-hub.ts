/**
 * The single owner of {@link ConsoleState} in main. Services change slices and items through it;
 * it coalesces changes made in the same tick into one {@link StatePatch} and pushes it to every
 * subscriber as a `{type: 'patch'}` event. The renderer mirrors these.
 *
 * A list slice (`calls`, `servers`) goes out as the entries that changed since the last patch (an
 * entry that is a new object, compared field by field, by value); a field slice (`policy`) as its
 * top-level fields that changed (by value).
 *
 * Items (sampling requests and elicitations) are kept whole here; the state and its patches carry
 * only their summaries (shared/domain/item-summary.ts `projectItem`): a new item as its summary, a
 * changed one as field-level changes of its summary plus, once a window opened it, field-level
 * changes of the whole item (`details`, a growing generation as its new text). A window gets the
 * whole item with {@link StateHub.open} (the `getItem` request); an item nobody opened (a request
 * a rule decides, generated and delivered unseen) never sends its request or response.
 */
import type { ConsoleEvent } from '../shared/contract/api.js';
import { projectItem } from '../shared/domain/item-summary.js';
import type { ConsoleState, ItemSummary, ItemView, SliceKey } from '../shared/contract/state.js';
import { fieldChange, isFieldSlice, isListSlice, itemChange, LIST_SLICES, listChange, FIELD_SLICES, type DetailChange, type FieldSliceKey, type ItemChange, type ListSliceKey, type StatePatch } from '../shared/contract/state-patch.js';

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
  /**
   * {@link StateHub.published}, and from the next patch on the item's changes are in `details`
   * (until it is removed): a window opened it (`getItem`). Undefined, and nothing opened, when no
   * patch has carried it yet.
   */
  open(id: string): { item: ItemView; version: number } | undefined;
  /** Subscribes to patches; returns the unsubscribe function. */
  subscribe(listener: (event: ConsoleEvent) => void): () => void;
  /** Sends pending changes now (tests and shutdown). */
  flush(): void;
}

/** The state a hub starts from: `items` whole (they are projected for the state). */
export type HubInitial = Omit<ConsoleState, 'version' | 'items'> & { items: ItemView[] };

/**
 * What one hub keeps between calls; the steps below read and change it. `state` holds the slices
 * and the version (the items' summaries are made when asked, from `items`); `dirty`, `upserts` and
 * `removes` are what the next patch carries; `published` is each item as last published, so the
 * next patch sends only what differs from it (`summaries`: their summaries, made once).
 */
interface HubState {
  readonly schedule: (fn: () => void) => void;
  readonly items: Map<string, ItemView>;
  state: Omit<ConsoleState, 'items'>;
  readonly dirty: Set<SliceKey>;
  /** Each list slice as the last patch (or the initial state) left it: the next patch sends what differs. */
  readonly sentLists: Map<ListSliceKey, ReadonlyArray<{ id: string }>>;
  /** Each field slice as the last patch (or the initial state) left it. */
  readonly sentFields: Map<FieldSliceKey, object | undefined>;
  readonly upserts: Set<string>;
  readonly removes: Set<string>;
  readonly listeners: Set<(event: ConsoleEvent) => void>;
  readonly published: Map<string, ItemView>;
  /** Items a window opened: the only ones whose changes go into `details`. */
  readonly opened: Set<string>;
  /** The summary of each published item, made when it was published (the next patch diffs against it). */
  readonly summaries: Map<string, ItemSummary>;
  /** True while a flush is scheduled and has not run. */
  scheduled: boolean;
  /** {@link flush} of this hub, made once: what `schedule` is given and {@link StateHub.flush} is. */
  readonly flush: () => void;
}

/**
 * Creates a hub.
 * @param initial the state at start, without `version` (which starts at 0), items whole
 * @param schedule how to defer a flush; default `setImmediate`
 */
export function createStateHub(initial: HubInitial, schedule: (fn: () => void) => void = (fn) => setImmediate(fn)): StateHub {
  const { items: initialItems, ...slices } = initial;
  const st: HubState = {
    schedule,
    items: new Map(initialItems.map((i) => [i.id, i])),
    state: { ...slices, version: 0 },
    dirty: new Set(),
    sentLists: new Map(LIST_SLICES.map((key) => [key, slices[key]])),
    sentFields: new Map(FIELD_SLICES.map((key) => [key, slices[key]])),
    upserts: new Set(),
    removes: new Set(),
    listeners: new Set(),
    published: new Map(initialItems.map((i) => [i.id, i])),
    opened: new Set(),
    summaries: new Map(),
    scheduled: false,
    flush: () => flush(st),
  };

  return {
    snapshot: () => ({ ...st.state, items: [...st.items.values()].map(projectItem) }),
    set: (key, value) => setSlice(st, key, value),
    get: (key) => (st.state as ConsoleState)[key],
    upsertItem: (item) => upsertItem(st, item),
    removeItem: (id) => removeItem(st, id),
    getItem: (id) => st.items.get(id),
    items: () => [...st.items.values()],
    published: (id) => publishedOf(st, id),
    open(id) {
      const found = publishedOf(st, id);
      if (found) st.opened.add(id);
      return found;
    },
    subscribe(listener) {
      st.listeners.add(listener);
      return () => st.listeners.delete(listener);
    },
    flush: st.flush,
  };
}

/** Schedules a flush unless one is already scheduled. */
function request(st: HubState): void {
  if (st.scheduled) return;
  st.scheduled = true;
  st.schedule(st.flush);
}

/** {@link StateHub.set}: replaces a slice and marks it for the next patch. */
function setSlice<K extends SliceKey>(st: HubState, key: K, value: ConsoleState[K]): void {
  st.state = { ...st.state, [key]: value };
  st.dirty.add(key);
  request(st);
}

/** {@link StateHub.upsertItem}: keeps the item whole and marks it for the next patch (undoing a pending removal). */
function upsertItem(st: HubState, item: ItemView): void {
  st.items.set(item.id, item);
  st.upserts.add(item.id);
  st.removes.delete(item.id);
  request(st);
}

/** {@link StateHub.removeItem}: forgets the item and marks its removal for the next patch; an unknown id changes nothing. */
function removeItem(st: HubState, id: string): void {
  if (!st.items.delete(id)) return;
  st.upserts.delete(id);
  st.removes.add(id);
  request(st);
}

/** {@link StateHub.published}: the item as last published with the current version, while the hub still has it. */
function publishedOf(st: HubState, id: string): { item: ItemView; version: number } | undefined {
  const item = st.published.get(id);
  return item && st.items.has(id) ? { item, version: st.state.version } : undefined;
}

/**
 * Sends what changed since the last patch as one patch to every listener (nothing, and no new
 * version, when nothing changed), then clears the pending changes. A listener that throws does
 * not stop the others.
 */
function flush(st: HubState): void {
  st.scheduled = false;
  if (st.dirty.size === 0 && st.upserts.size === 0 && st.removes.size === 0) return;
  const patch: StatePatch = { version: st.state.version + 1 };
  for (const key of st.dirty) addSlice(st, patch, key);
  if (st.upserts.size || st.removes.size) addItemChanges(st, patch);
  st.dirty.clear();
  st.upserts.clear();
  st.removes.clear();
  if (Object.keys(patch).length === 1) return; // slices set again unchanged, items changed where no window looks
  st.state = { ...st.state, version: patch.version };
  const event: ConsoleEvent = { type: 'patch', patch };
  for (const l of st.listeners) {
    try {
      l(event);
    } catch {
      // a failing listener (e.g. a closed socket) must not stop the others
    }
  }
}

/**
 * Puts slice `key` into `patch`: whole, or for a list or field slice what changed since it was last
 * sent (nothing when nothing did).
 */
function addSlice(st: HubState, patch: StatePatch, key: SliceKey): void {
  const out = patch as unknown as Record<string, unknown>;
  if (isListSlice(key)) {
    const now = st.state[key];
    const change = listChange(st.sentLists.get(key) ?? [], now);
    if (change) out[key] = change;
    st.sentLists.set(key, now);
  } else if (isFieldSlice(key)) {
    const now = st.state[key];
    const change = now === undefined ? undefined : fieldChange(st.sentFields.get(key), now);
    if (change) out[key] = change;
    st.sentFields.set(key, now);
  } else out[key] = st.state[key];
}

/**
 * Puts the pending item changes into `patch`: a new item as its summary (`items.upsert`), a known one
 * as the changes of its summary (`items.change`) and, when a window opened it, of the whole item
 * (`details`), removals as ids.
 * Each upserted item becomes the published one; removed ones stop being published.
 */
function addItemChanges(st: HubState, patch: StatePatch): void {
  const upsert: ItemSummary[] = [];
  const change: ItemChange[] = [];
  const details: DetailChange[] = [];
  for (const id of st.upserts) {
    const item = st.items.get(id);
    if (!item) continue;
    const before = st.published.get(id);
    const summary = projectItem(item);
    if (before) {
      const diff = itemChange(st.summaries.get(id) ?? projectItem(before), summary, true);
      if (diff) change.push(diff);
      const detail = st.opened.has(id) ? itemChange<ItemView>(before, item) : undefined;
      if (detail) details.push(detail);
    } else upsert.push(summary);
    st.published.set(id, item);
    st.summaries.set(id, summary);
  }
  for (const id of st.removes) {
    st.published.delete(id);
    st.summaries.delete(id);
    st.opened.delete(id);
  }
  // A change no summary shows (updatedAt moving, a stream nobody has open) sends no items at all.
  if (upsert.length || change.length || st.removes.size) patch.items = { upsert, remove: [...st.removes], ...(change.length ? { change } : {}) };
  if (details.length) patch.details = details;
}
