/**
 * The mirror of main's state (renderer/store.ts holds it): the event stream's patches applied in
 * order, the whole state fetched again when one was missed, and whole items fetched for the views
 * that show them and kept current by the patches' `details`; their big media payloads, which
 * `getItem` sends by reference, fetched after them (shared/contract/media-refs.ts). One runs per
 * page ({@link startMirror}).
 */
import type { ConsoleApi, ConsoleEvent } from '../shared/contract/api.js';
import { applyItemChange, applyPatch, patchFits, type StatePatch } from '../shared/contract/state-patch.js';
import { fillMedia } from '../shared/domain/media-refs.js';
import type { ConsoleState, ItemView } from '../shared/contract/state.js';
import { detailInUse, getDetailsIo, setDetailsIo, setMirror, useConsole, usedDetailIds, type ItemDetail, type Recent } from './store.js';

/** How many patches {@link Recent} keeps. */
const RECENT_KEPT = 200;
/** The details cache with `patch` applied (`ids` that must be fetched again are added to `refetch`). */
function detailsAfter(details: Record<string, ItemDetail>, patch: StatePatch, refetch: Set<string>): Record<string, ItemDetail> {
  const ids = Object.keys(details);
  if (ids.length === 0) return details;
  const next = { ...details };
  let changed = false;
  for (const c of patch.details ?? []) {
    const d = next[c.id];
    if (!d || d.version >= patch.version) continue;
    next[c.id] = { item: applyItemChange(d.item, c), version: patch.version };
    changed = true;
  }
  for (const id of patch.items?.remove ?? []) {
    if (!next[id]) continue;
    delete next[id];
    changed = true;
  }
  // A summary sent whole for an item this window has open: a new item under that id.
  for (const s of patch.items?.upsert ?? []) {
    if (!next[s.id] || next[s.id]!.version >= patch.version) continue;
    delete next[s.id];
    refetch.add(s.id);
    changed = true;
  }
  return changed ? next : details;
}

/** One running mirror's own state (a page runs one; a stopped one ignores whatever still arrives). */
interface Mirror {
  api: ConsoleApi;
  /** Patches that arrived before the first state or during a resync, applied on top of the state. */
  pending: StatePatch[];
  stopped: boolean;
  /** Whether the whole state is being fetched again after a missed patch. */
  resyncing: boolean;
  /** The latest patches' item facts, for details replies older than the mirror. */
  recent: Recent[];
  /** Ids whose details are being fetched. */
  inFlight: Set<string>;
  /** Media payloads being fetched, by item id: the payloads by reference once they came (none when the fetch failed). */
  media: Map<string, Promise<ReadonlyMap<string, string>>>;
}

/**
 * Starts mirroring main's state: subscribes to events first (so nothing is missed), then asks for
 * the full state. Patches that arrive before the first state are kept and applied on top of it
 * (stale ones are ignored by `applyPatch`). Whole items are fetched (`getItem`) for the views that
 * use them ({@link useItemDetail}). Returns a function that stops mirroring.
 */
export function startMirror(api: ConsoleApi): () => void {
  const m: Mirror = { api, pending: [], stopped: false, resyncing: false, recent: [], inFlight: new Set(), media: new Map() };
  setDetailsIo({ fetch: (id) => fetchDetail(m, id), media: (id, refs) => fetchMedia(m, id, refs), recent: m.recent });
  const unsubscribe = api.onEvent((event) => onMirrorEvent(m, event));
  useConsole.setState({ status: { kind: 'connecting' } });
  void fetchState(m);
  return () => {
    m.stopped = true;
    if (getDetailsIo()?.recent === m.recent) setDetailsIo(null);
    unsubscribe();
  };
}

/** Keeps `patch`'s item facts in `m.recent` (the latest {@link RECENT_KEPT}). */
function remember(m: Mirror, patch: StatePatch): void {
  m.recent.push({ version: patch.version, ...(patch.details && { details: patch.details }), gone: [...(patch.items?.remove ?? []), ...(patch.items?.upsert ?? []).map((s) => s.id)] });
  if (m.recent.length > RECENT_KEPT) m.recent.splice(0, m.recent.length - RECENT_KEPT);
}

/** Applies `patch` to the mirror (`current`) and the open items; returns the mirror after it. */
function apply(m: Mirror, current: ConsoleState, patch: StatePatch): ConsoleState {
  const next = applyPatch(current, patch);
  if (next === current) return current;
  remember(m, patch);
  const refetch = new Set<string>();
  const before = useConsole.getState().details;
  const details = detailsAfter(before, patch, refetch);
  setMirror(next, details === before ? undefined : details);
  for (const id of refetch) fetchDetail(m, id);
  return next;
}

/** Fetches the whole item `id` for the views that use it, unless one fetch is already under way. */
function fetchDetail(m: Mirror, id: string, tries = 0): void {
  if (m.stopped || m.inFlight.has(id) || !detailInUse(id)) return;
  m.inFlight.add(id);
  m.api.getItem({ id }).then(
    ({ item, version, media }) => {
      m.inFlight.delete(id);
      detailReceived(m, id, item, version, tries);
      if (media?.length) void fetchMedia(m, id, media.map((r) => r.ref));
    },
    () => {
      m.inFlight.delete(id); // gone meanwhile (not_found) or the connection is down: the view shows nothing
    },
  );
}

/**
 * Caches the whole item `id` as of `version`, brought up to the mirror's version with the patches
 * remembered since; fetched again (up to three more tries) when those patches are not all there or
 * one of them removed or replaced the item.
 */
function detailReceived(m: Mirror, id: string, item: ItemView, version: number, tries: number): void {
  if (m.stopped || !useConsole.getState().mirror?.items.some((s) => s.id === id)) return;
  const at = useConsole.getState().mirror!.version;
  let whole = item;
  if (version < at) {
    // Patches after `version` reached the mirror before this reply: apply their changes.
    const after = m.recent.filter((r) => r.version > version && r.version <= at);
    const gapless = after.length === at - version && after.every((r, i) => r.version === version + i + 1);
    if (!gapless || after.some((r) => r.gone.includes(id))) {
      if (tries < 3) fetchDetail(m, id, tries + 1);
      return;
    }
    for (const r of after) for (const c of r.details ?? []) if (c.id === id) whole = applyItemChange(whole, c);
  }
  useConsole.setState((s) => ({ details: { ...s.details, [id]: { item: whole, version: Math.max(version, at) } } }));
}

/**
 * Fetches the payloads of `refs` of item `id` (unless a fetch for the item is under way: that one's
 * answer is returned) and puts them into the cached item in place of their references. Resolves
 * with the payloads that came, by reference; none when the fetch failed (the item is gone, the
 * connection is down): the references stay and the review shows those blocks loading.
 */
function fetchMedia(m: Mirror, id: string, refs: string[]): Promise<ReadonlyMap<string, string>> {
  const running = m.media.get(id);
  if (running) return running;
  const fetching = m.api.getItemMedia({ id, refs }).then(
    ({ media }) => new Map(media.map((p) => [p.ref, p.data])),
    () => new Map<string, string>(),
  );
  const done = fetching.then((payloads) => {
    m.media.delete(id);
    if (!m.stopped && payloads.size) fillDetail(id, payloads);
    return payloads;
  });
  m.media.set(id, done);
  return done;
}

/** The cached item `id` with `payloads` in place of their references (nothing when it is not cached). */
function fillDetail(id: string, payloads: ReadonlyMap<string, string>): void {
  useConsole.setState((s) => {
    const d = s.details[id];
    if (!d) return s;
    const item = fillMedia(d.item, payloads);
    return item === d.item ? s : { details: { ...s.details, [id]: { ...d, item } } };
  });
}

/** After a state fetched whole: open items may have missed changes, so they are fetched again. */
function refetchAll(m: Mirror, state: ConsoleState): void {
  const present = new Set(state.items.map((s) => s.id));
  useConsole.setState({ details: {} });
  for (const id of usedDetailIds()) if (present.has(id)) fetchDetail(m, id);
}

/** One event from main: a snapshot replaces the mirror; a patch is applied, kept for later, or starts a resync. */
function onMirrorEvent(m: Mirror, event: ConsoleEvent): void {
  if (m.stopped) return;
  if (event.type === 'snapshot') {
    m.pending = [];
    setMirror(event.state);
    refetchAll(m, event.state);
    return;
  }
  const current = useConsole.getState().mirror;
  if (!current || m.resyncing) m.pending.push(event.patch);
  else if (patchFits(current, event.patch)) apply(m, current, event.patch);
  else {
    // A patch was missed (item changes need the version before them): the whole state again,
    // showing the current one meanwhile; patches that arrive meanwhile are applied on top.
    m.resyncing = true;
    m.pending.push(event.patch);
    void fetchState(m);
  }
}

/** Asks main for the whole state; a failure before any state shows as the mirror's error status. */
function fetchState(m: Mirror): Promise<void> {
  return m.api.getState({}).then(
    (state) => stateReceived(m, state),
    (err: unknown) => {
      m.resyncing = false;
      if (m.stopped || useConsole.getState().mirror) return;
      useConsole.setState({ status: { kind: 'error', message: err instanceof Error ? err.message : String(err) } });
    },
  );
}

/** Takes a whole state unless the mirror is already as new, then applies the pending patches that fit on top. */
function stateReceived(m: Mirror, state: ConsoleState): void {
  if (m.stopped) return;
  const current = useConsole.getState().mirror;
  const fresh = !(current && current.version >= state.version);
  let next = fresh ? state : current!;
  if (fresh) {
    m.recent.length = 0;
    setMirror(next);
    refetchAll(m, next);
  }
  for (const p of m.pending) if (patchFits(next, p)) next = apply(m, next, p);
  m.pending = [];
  m.resyncing = false;
  setMirror(next);
}
