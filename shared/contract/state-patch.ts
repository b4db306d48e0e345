/**
 * How the state crosses the boundary: main's state hub (main/state-hub.ts) sends patches, every
 * window applies them to its mirror (renderer/store.ts). Slices come whole, but for the list
 * slices ({@link LIST_SLICES}: `calls`, `servers`), which come as the entries that changed, and
 * the field slices ({@link FIELD_SLICES}: `policy`), which come as the fields that changed; an
 * item's summary comes whole once and then as field-level changes. Whole items never travel in the stream: a
 * window fetches one with `getItem` when it opens it, and keeps it current with the patches'
 * `details` (field-level changes of whole items, a streaming response as its new text). Pure.
 */
import type { CallView, ConsoleState, ItemSummary, ItemView, ServerView, SliceKey } from './state.js';

/**
 * Slices that are lists of entries with an `id` and travel as the entries that changed
 * ({@link ListChange}): one busy entry must not send the others again — a tool call linking its
 * 3,000th sampling request, the earlier calls and their results; a server writing a line to
 * stderr (Python servers log every request there), every server's tools and their schemas.
 */
export const LIST_SLICES = ['calls', 'servers'] as const;
/** A slice that travels as {@link ListChange}s. */
export type ListSliceKey = (typeof LIST_SLICES)[number];
/**
 * Slices that are objects and travel as their top-level fields that changed ({@link FieldChange}):
 * the policy's counters move with every request while its rules (the whole rules file) stay.
 */
export const FIELD_SLICES = ['policy'] as const;
/** A slice that travels as {@link FieldChange}s. */
export type FieldSliceKey = (typeof FIELD_SLICES)[number];
/** A slice that travels whole whenever it changed. */
export type WholeSliceKey = Exclude<SliceKey, ListSliceKey | FieldSliceKey>;

/**
 * What changed in one item (a summary, or a whole item) the receiver already has, as of the
 * previous version: `set` replaces top-level fields, `unset` removes them, `same` sets fields to
 * the value another field held before this change (field → that field: a request approved as it
 * came is `{sent: 'original'}`, not the request again), and `append` adds text to
 * `generation.text` (a streaming response sends its new text, not the item).
 */
export interface ItemChange<T = ItemSummary> {
  id: string;
  set?: Partial<T>;
  unset?: Array<keyof T & string>;
  same?: Partial<Record<keyof T & string, keyof T & string>>;
  append?: string;
}

/** Field-level changes of whole items, as `details` of a patch carries them. */
export type DetailChange = ItemChange<ItemView>;

/**
 * How a list slice changed since the previous version. `all`: the list replaced whole (the other
 * fields are then absent). Otherwise: `remove` drops entries by id, `change` changes entries in
 * place, field by field, and `upsert` replaces entries whole by id or appends new ones at the end,
 * in its order (a list slice grows at its end: new calls are the newest).
 */
export interface ListChange<T extends { id: string }> {
  all?: T[];
  upsert?: T[];
  change?: Array<ItemChange<T>>;
  remove?: string[];
}

/**
 * How an object slice changed since the previous version: `all` the slice whole (its first patch;
 * the other fields are then absent); otherwise `set` replaces top-level fields (compared by value)
 * and `unset` removes them.
 */
export interface FieldChange<T> {
  all?: T;
  set?: Partial<T>;
  unset?: Array<keyof T & string>;
}

/**
 * One step of the state: `version` is the previous version + 1. Slices come whole, list slices as
 * {@link ListChange}s, field slices as {@link FieldChange}s; item summaries come whole when new
 * (`upsert`) and as field-level changes after that (`change`). `details`: how the whole items
 * changed that a window opened before (a window applies those of the items it has open; others
 * ignore them). A new item's params never travel here.
 */
export type StatePatch = {
  version: number;
  items?: { upsert: ItemSummary[]; remove: string[]; change?: ItemChange[] };
  details?: DetailChange[];
  calls?: ListChange<CallView>;
  servers?: ListChange<ServerView>;
  policy?: FieldChange<NonNullable<ConsoleState['policy']>>;
} & Partial<Pick<ConsoleState, WholeSliceKey>>;

/** Whether `patch` can be applied to `state`: it is the next version, or it holds no changes that need the previous one (item, list and field changes). */
export function patchFits(state: ConsoleState, patch: StatePatch): boolean {
  if (patch.version <= state.version || patch.version === state.version + 1) return true;
  const sliceChanged = [...LIST_SLICES, ...FIELD_SLICES].some((key) => patch[key] !== undefined && patch[key].all === undefined);
  return !patch.items?.change?.length && !patch.details?.length && !sliceChanged;
}

/**
 * What differs between two versions of an object slice, field by field (by value): the slice whole
 * when there was none before; undefined when nothing differs.
 */
export function fieldChange<T extends object>(before: T | undefined, after: T): FieldChange<T> | undefined {
  if (before === undefined) return { all: after };
  const { set, unset } = diffFields(before, after, true) ?? {};
  return set || unset ? { ...(set && { set: set as Partial<T> }), ...(unset && { unset: unset as Array<keyof T & string> }) } : undefined;
}

/** `value` with `change` applied (a new object; `value` is not changed). */
export function applyFieldChange<T extends object>(value: T | undefined, change: FieldChange<T>): T {
  if (change.all !== undefined) return change.all;
  const next = { ...value, ...change.set } as T;
  for (const key of change.unset ?? []) delete (next as Record<string, unknown>)[key];
  return next;
}

/**
 * What differs between two versions of a list slice, entry by entry (by id; an entry whose object
 * is the same is unchanged, a rebuilt one is compared field by field, by value): undefined when
 * nothing did. The list is sent whole (`all`) when removing, changing and appending would not give
 * `after` in its order.
 */
export function listChange<T extends { id: string }>(before: readonly T[], after: readonly T[]): ListChange<T> | undefined {
  const was = new Map(before.map((e) => [e.id, e]));
  const now = new Set(after.map((e) => e.id));
  const remove = before.filter((e) => !now.has(e.id)).map((e) => e.id);
  const firstNew = after.findIndex((e) => !was.has(e.id));
  const kept = firstNew < 0 ? after : after.slice(0, firstNew);
  const added = firstNew < 0 ? [] : after.slice(firstNew);
  const survivors = before.filter((e) => now.has(e.id));
  const inOrder = added.every((e) => !was.has(e.id)) && survivors.length === kept.length && survivors.every((e, i) => kept[i]!.id === e.id);
  if (!inOrder) return { all: [...after] };
  const change: Array<ItemChange<T>> = [];
  for (const entry of kept) {
    const prior = was.get(entry.id)!;
    const diff = prior === entry ? undefined : itemChange(prior, entry, true);
    if (diff) change.push(diff);
  }
  if (remove.length === 0 && change.length === 0 && added.length === 0) return undefined;
  return { ...(added.length ? { upsert: added } : {}), ...(change.length ? { change } : {}), ...(remove.length ? { remove } : {}) };
}

/** `list` with `change` applied (a new array; `list` and its entries are not changed). */
export function applyListChange<T extends { id: string }>(list: readonly T[], change: ListChange<T>): T[] {
  if (change.all) return change.all;
  const removed = new Set(change.remove ?? []);
  const changes = new Map((change.change ?? []).map((c) => [c.id, c]));
  const upserts = new Map((change.upsert ?? []).map((e) => [e.id, e]));
  const next = list.filter((e) => !removed.has(e.id)).map((e) => {
    const c = changes.get(e.id);
    return upserts.get(e.id) ?? (c ? applyItemChange(e, c) : e);
  });
  const known = new Set(next.map((e) => e.id));
  for (const e of change.upsert ?? []) if (!known.has(e.id)) next.push(e);
  return next;
}

/** `item` with one {@link ItemChange} applied (a new object; `item` is not changed). */
export function applyItemChange<T extends object>(item: T, change: ItemChange<T>): T {
  const next = { ...item, ...change.set } as T;
  for (const [key, from] of Object.entries(change.same ?? {})) (next as Record<string, unknown>)[key] = (item as Record<string, unknown>)[from as string];
  for (const key of change.unset ?? []) delete (next as Record<string, unknown>)[key];
  const gen = (next as { generation?: { startedAt: number; text: string } }).generation;
  if (change.append !== undefined && gen) (next as { generation?: unknown }).generation = { ...gen, text: gen.text + change.append };
  return next;
}

/**
 * What differs between two states of an object, field by field: by identity, or by value when
 * `byValue` (small objects such as summaries, rebuilt at each change). A `generation` that only
 * grew is sent as the text it grew by; by identity, a field that now holds the very object another
 * field held before is sent as `same`. Undefined when nothing differs.
 */
export function itemChange<T extends { id: string }>(before: T, after: T, byValue = false): ItemChange<T> | undefined {
  const diff = diffFields(before, after, byValue);
  return diff && { id: after.id, ...(diff as Omit<ItemChange<T>, 'id'>) };
}

/**
 * The top-level fields of `after` that differ from `before` (`set`), those it lost (`unset`), by
 * identity those now holding the very object another field held (`same`), and a `generation` that
 * only grew as its new text (`append`); undefined when none. See {@link itemChange}.
 */
function diffFields(before: object, after: object, byValue: boolean): { set?: Record<string, unknown>; unset?: string[]; same?: Record<string, string>; append?: string } | undefined {
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  const same: Record<string, string> = {};
  let append: string | undefined;
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  let held: Map<unknown, string> | undefined; // before's objects, by identity (made when first needed)
  for (const key of Object.keys(a)) {
    if (a[key] === b[key]) continue;
    if (byValue && typeof a[key] === 'object' && a[key] !== null && JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
    if (!byValue && typeof a[key] === 'object' && a[key] !== null) {
      held ??= new Map(Object.keys(b).filter((k) => typeof b[k] === 'object' && b[k] !== null).map((k) => [b[k], k]));
      const from = held.get(a[key]);
      if (from !== undefined) {
        same[key] = from;
        continue;
      }
    }
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
  if (Object.keys(set).length === 0 && unset.length === 0 && Object.keys(same).length === 0 && append === undefined) return undefined;
  return {
    ...(Object.keys(set).length ? { set } : {}),
    ...(unset.length ? { unset } : {}),
    ...(Object.keys(same).length ? { same } : {}),
    ...(append !== undefined ? { append } : {}),
  };
}

/** Whether a slice is a list slice (sent and applied as a {@link ListChange}, not whole). */
export function isListSlice(key: string): key is ListSliceKey {
  return (LIST_SLICES as readonly string[]).includes(key);
}

/** Whether a slice is a field slice (sent and applied as a {@link FieldChange}, not whole). */
export function isFieldSlice(key: string): key is FieldSliceKey {
  return (FIELD_SLICES as readonly string[]).includes(key);
}

/** Applies a patch to a state; returns the same object if the patch is stale. Pure. */
export function applyPatch(state: ConsoleState, patch: StatePatch): ConsoleState {
  if (patch.version <= state.version) return state;
  const next: ConsoleState = { ...state, version: patch.version };
  for (const [key, value] of Object.entries(patch)) {
    if (key !== 'version' && key !== 'items' && key !== 'details' && value !== undefined && !isListSlice(key) && !isFieldSlice(key)) (next as unknown as Record<string, unknown>)[key] = value;
  }
  if (patch.calls) next.calls = applyListChange(state.calls, patch.calls);
  if (patch.servers) next.servers = applyListChange(state.servers, patch.servers);
  if (patch.policy) next.policy = applyFieldChange(state.policy, patch.policy);
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
