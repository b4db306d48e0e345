/**
 * The renderer's one store (zustand). It mirrors main's {@link ConsoleState} exactly as the event
 * stream delivers it and never invents state; besides the mirror it holds the whole items this
 * window has open (`details`: fetched with `getItem` on open, kept current with the patches'
 * `details`), UI selection and edits in progress (drafts), which belong to the person until they
 * press a button. Drafts are also saved to main as they change (screens/queue/autosave.ts), which
 * keeps them on the item.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { FormDraft, RequestDraft, RequestExtras, ResponseDraft, ResponseExtras } from '../shared/contract/drafts.js';
import type { DetailChange } from '../shared/contract/state-patch.js';
import { waitsOnPerson } from '../shared/contract/status.js';
import type { OpenedForYou } from './screens/queue/open-for-you.js';
import {
  type CallView,
  type ConsoleState,
  type ItemSummary,
  type ItemView,
  type Notice,
  type ProviderView,
  type ServerView,
} from '../shared/contract/state.js';

/** The three screens of the left nav. */
export type Screen = 'settings' | 'queue' | 'servers' | 'providers' | 'history' | 'rules';

/** The connection to main, as the mirror sees it. */
export type MirrorStatus = { kind: 'connecting' } | { kind: 'ready' } | { kind: 'error'; message: string };

/** Edits in progress on a request / response under review (shared/contract/drafts.ts: main keeps them too). */
export type { RequestDraft, RequestExtras, ResponseDraft, ResponseExtras } from '../shared/contract/drafts.js';

/**
 * Everything the person has changed on one item and not sent, in one place, whatever its kind: a
 * sampling item's request texts and fields and its other edits (removed blocks and tools, the
 * tool choice), its response texts and other edits (tool inputs, added tool calls); an
 * elicitation's form values (`form`). Each part is absent until first edited.
 */
export interface ItemEdits {
  request?: RequestDraft;
  requestExtras?: RequestExtras;
  response?: ResponseDraft;
  responseExtras?: ResponseExtras;
  form?: FormDraft;
}

/**
 * A review that ended under the person — the server stopped waiting or went away, another window
 * decided, the item left the queue — kept on screen as it was shown, editors and all, until the
 * person dismisses it (screens/queue/review-hold.ts).
 */
export interface HeldReview {
  /** The item as the review showed it when it ended. */
  item: ItemView;
  /** When this window saw it end (epoch ms). */
  at: number;
}

/** A whole item in the details cache and the state version it is current at. */
export interface ItemDetail {
  item: ItemView;
  version: number;
}

/** The store's shape: the mirror, selection, drafts and the actions that change them. */
export interface ConsoleStore {
  mirror: ConsoleState | null;
  status: MirrorStatus;
  screen: Screen;
  selectedItemId: string | null;
  /**
   * The review the Queue opened by itself (screens/queue/open-for-you.ts), while it is the one
   * selected: the person did not choose it, so it says why it opened.
   */
  openedForYou: OpenedForYou | null;
  selectedServerId: string | null;
  selectedHistoryId: string | null;
  /**
   * The whole items this window has open, by id, each with the state version it is current at
   * (see {@link useItemDetail}); kept current by the patches' `details`.
   */
  details: Record<string, ItemDetail>;
  /** The person's edits, by item id (one entry per item; see {@link ItemEdits}). */
  drafts: Record<string, ItemEdits>;
  /** Notices the person closed (by id); main keeps them, this view hides them. */
  hiddenNotices: Record<string, true>;
  /** Reviews that ended under the person and stay on screen until dismissed, by item id. */
  held: Record<string, HeldReview>;
  /**
   * The review phase this window decided, by item id (`reviewPhase` of the item as shown), so
   * the phase that follows its own decision is expected, not a review ending under the person.
   */
  decided: Record<string, string>;
  setScreen(screen: Screen): void;
  selectItem(id: string | null): void;
  /** Selects the item the Queue opened by itself (not the person's choice), saying why. */
  openForYou(opened: OpenedForYou): void;
  /** Switches to the queue with `id` selected (e.g. from a call's sampling links). */
  openItem(id: string): void;
  selectServer(id: string | null): void;
  selectHistory(id: string | null): void;
  setRequestDraft(itemId: string, draft: RequestDraft): void;
  setRequestExtras(itemId: string, extras: RequestExtras): void;
  setResponseDraft(itemId: string, draft: ResponseDraft): void;
  setResponseExtras(itemId: string, extras: ResponseExtras): void;
  /** An elicitation form's values as the person left them. */
  setFormDraft(itemId: string, form: FormDraft): void;
  clearDrafts(itemId: string): void;
  hideNotice(id: string): void;
  /** Notes that this window decides `phase` of `itemId` (an action is sent); `null` forgets it (the action failed). */
  markDecided(itemId: string, phase: string | null): void;
}

/** The store hook. */
export const useConsole = create<ConsoleStore>()((set) => ({
  mirror: null,
  status: { kind: 'connecting' },
  screen: 'queue',
  selectedItemId: null,
  openedForYou: null,
  selectedServerId: null,
  selectedHistoryId: null,
  details: {},
  drafts: {},
  hiddenNotices: {},
  held: {},
  decided: {},
  setScreen: (screen) => set({ screen }),
  selectItem: (selectedItemId) => set({ selectedItemId, openedForYou: null }),
  openForYou: (openedForYou) => set({ selectedItemId: openedForYou.itemId, openedForYou }),
  openItem: (id) => set({ screen: 'queue', selectedItemId: id, openedForYou: null }),
  selectServer: (selectedServerId) => set({ selectedServerId }),
  selectHistory: (selectedHistoryId) => set({ selectedHistoryId }),
  setRequestDraft: (itemId, request) => set((s) => ({ drafts: { ...s.drafts, [itemId]: { ...s.drafts[itemId], request } } })),
  setRequestExtras: (itemId, requestExtras) => set((s) => ({ drafts: { ...s.drafts, [itemId]: { ...s.drafts[itemId], requestExtras } } })),
  setResponseDraft: (itemId, response) => set((s) => ({ drafts: { ...s.drafts, [itemId]: { ...s.drafts[itemId], response } } })),
  setResponseExtras: (itemId, responseExtras) => set((s) => ({ drafts: { ...s.drafts, [itemId]: { ...s.drafts[itemId], responseExtras } } })),
  setFormDraft: (itemId, form) => set((s) => ({ drafts: { ...s.drafts, [itemId]: { ...s.drafts[itemId], form } } })),
  clearDrafts: (itemId) =>
    set((s) => {
      const drafts = { ...s.drafts };
      delete drafts[itemId];
      return { drafts };
    }),
  hideNotice: (id) => set((s) => ({ hiddenNotices: { ...s.hiddenNotices, [id]: true } })),
  markDecided: (itemId, phase) =>
    set((s) => {
      const decided = { ...s.decided };
      if (phase === null) delete decided[itemId];
      else decided[itemId] = phase;
      return { decided };
    }),
}));

/** The review phase of an item as a review shows it: its status and the version under review. */
export function reviewPhase(item: Pick<ItemView, 'status' | 'contentVersion'>): string {
  return `${item.status}:${item.contentVersion ?? ''}`;
}

/** The reviews mounted now (a person-phase item, as last shown), with how many views show each. */
const shownReviews = new Map<string, { item: ItemView; views: number }>();

/**
 * Notes that a view shows the review of `item` (in a phase that waits on the person); returns the
 * function that takes it back. While shown, a change that ends its phase without this window's
 * decision holds it ({@link HeldReview}) instead of replacing it.
 */
export function showReview(item: ItemView): () => void {
  const entry = shownReviews.get(item.id);
  if (entry) {
    entry.item = item;
    entry.views++;
  } else shownReviews.set(item.id, { item, views: 1 });
  return () => {
    const e = shownReviews.get(item.id);
    if (e && --e.views <= 0) shownReviews.delete(item.id);
  };
}

/** Whether the phase `shown` was reviewed in has ended, given the item's summary and whole item now (undefined: gone). */
export function phaseEnded(shown: ItemView, summary: Pick<ItemSummary, 'status'> | undefined, whole: ItemView | undefined): boolean {
  if (!summary || summary.status !== shown.status) return true;
  const [was, now] = [shown.contentVersion, whole?.contentVersion];
  return was !== undefined && now !== undefined && was !== now;
}

/**
 * The reviews a change to `next` (and `details`) ends: those ended under the person are added to
 * the held ones; a phase this window decided moves on, and its mark is used up (the next phase,
 * even one that looks the same, is not excused). Null for what did not change.
 */
function holdsAfter(next: ConsoleState, details: Record<string, ItemDetail>): { held: Record<string, HeldReview> | null; decided: Record<string, string> | null } {
  const s = useConsole.getState();
  let held: Record<string, HeldReview> | null = null;
  let decided: Record<string, string> | null = null;
  for (const [id, { item }] of shownReviews) {
    if (s.held[id] || !phaseEnded(item, next.items.find((i) => i.id === id), details[id]?.item)) continue;
    if (s.decided[id] === reviewPhase(item)) delete (decided ??= { ...s.decided })[id];
    else (held ??= { ...s.held })[id] = { item, at: Date.now() };
  }
  return { held, decided };
}

/**
 * Lets a held review go (the person dismissed it): it is no longer shown, and its edits leave the
 * store (the autosave sends what it still had queued).
 */
export function releaseReview(itemId: string): void {
  shownReviews.delete(itemId);
  useConsole.setState((s) => {
    const held = { ...s.held };
    const decided = { ...s.decided };
    const drafts = { ...s.drafts };
    delete held[itemId];
    delete decided[itemId];
    delete drafts[itemId];
    return { held, decided, drafts };
  });
}

/**
 * Drops the parts of drafts whose item is no longer in the review they were made for: request
 * edits outside request review and generation, response edits outside response review, form
 * values once the elicitation no longer waits for input (main keeps what was saved).
 */
function pruneDrafts(items: ItemSummary[]): void {
  const s = useConsole.getState();
  const ids = Object.keys(s.drafts);
  if (ids.length === 0) return;
  const status = new Map(items.map((i) => [i.id, i.status]));
  let drafts: Record<string, ItemEdits> | null = null;
  for (const id of ids) {
    if (s.held[id]) continue; // a held review goes on taking what is typed
    const at = status.get(id);
    const keepRequest = at === 'awaiting_request_review' || at === 'generating';
    const keepResponse = at === 'awaiting_response_review';
    const keepForm = at === 'awaiting_input';
    const d = s.drafts[id]!;
    const next: ItemEdits = {
      ...(keepRequest && d.request && { request: d.request }),
      ...(keepRequest && d.requestExtras && { requestExtras: d.requestExtras }),
      ...(keepResponse && d.response && { response: d.response }),
      ...(keepResponse && d.responseExtras && { responseExtras: d.responseExtras }),
      ...(keepForm && d.form && { form: d.form }),
    };
    if (Object.keys(next).length === Object.keys(d).length) continue;
    drafts ??= { ...s.drafts };
    if (Object.keys(next).length === 0) delete drafts[id];
    else drafts[id] = next;
  }
  if (drafts) useConsole.setState({ drafts });
}

/**
 * Puts `next` (and, when given, the details cache) into the store, as the mirror's current state,
 * in one update with the reviews it ends under the person (held, so they never vanish); prunes
 * drafts of items gone.
 */
export function setMirror(next: ConsoleState, details?: Record<string, ItemDetail>): void {
  if (next === useConsole.getState().mirror && !details) return;
  const { held, decided } = holdsAfter(next, details ?? useConsole.getState().details);
  useConsole.setState({ mirror: next, status: { kind: 'ready' }, ...(details && { details }), ...(held && { held }), ...(decided && { decided }) });
  pruneDrafts(next.items);
}

/** Patches' item facts kept for a details reply that is older than the mirror (see renderer/mirror.ts). */
export interface Recent {
  version: number;
  details?: DetailChange[];
  gone: string[];
}

/** The details machinery of the running mirror: how to fetch an item and its media, and the latest patches' facts. */
export interface DetailsIo {
  fetch(id: string): void;
  /** The payloads of item `id`'s media references `refs` (shared/contract/media-refs.ts), by reference; those that could not be fetched are missing. */
  media(id: string, refs: string[]): Promise<ReadonlyMap<string, string>>;
  recent: Recent[];
}

/** Open items not in use any more that stay cached (re-opening one needs no fetch). */
const UNUSED_KEPT = 6;

/** The details machinery of the running mirror (one per page). */
let detailsIo: DetailsIo | null = null;
/** How many mounted views use each item's details. */
const inUse = new Map<string, number>();
/** Ids whose details are cached but not in use, oldest first. */
const unused: string[] = [];

/** Installs (or with null, removes) the running mirror's details machinery (renderer/mirror.ts). */
export function setDetailsIo(io: DetailsIo | null): void {
  detailsIo = io;
}

/** The running mirror's details machinery, if any. */
export function getDetailsIo(): DetailsIo | null {
  return detailsIo;
}

/** The ids of the items whose details a mounted view uses. */
export function usedDetailIds(): string[] {
  return [...inUse.keys()];
}

/** Whether a mounted view uses `id`'s details (only those are fetched). */
export function detailInUse(id: string): boolean {
  return (inUse.get(id) ?? 0) > 0;
}

/** Marks `id`'s details as used by one more view, fetching them when not cached. */
function acquire(id: string): void {
  inUse.set(id, (inUse.get(id) ?? 0) + 1);
  const at = unused.indexOf(id);
  if (at !== -1) unused.splice(at, 1);
  if (!useConsole.getState().details[id]) detailsIo?.fetch(id);
}

/** One view less uses `id`'s details; the oldest unused ones beyond {@link UNUSED_KEPT} leave the cache. */
function release(id: string): void {
  const n = (inUse.get(id) ?? 1) - 1;
  if (n > 0) return void inUse.set(id, n);
  inUse.delete(id);
  unused.push(id);
  const evict = unused.splice(0, Math.max(0, unused.length - UNUSED_KEPT));
  if (evict.length === 0) return;
  useConsole.setState((s) => {
    const details = { ...s.details };
    for (const e of evict) delete details[e];
    return { details };
  });
}

/**
 * The whole item `id` (request params, response, draft…) for a view that shows it: fetched with
 * `getItem` when the view mounts (undefined until it arrives, and when there is no such item),
 * then kept current by the patches (a streaming response grows by its new text).
 */
export function useItemDetail(id: string | null | undefined): ItemView | undefined {
  useEffect(() => (id ? openItemDetail(id) : undefined), [id]);
  return useConsole((s) => (id ? s.details[id]?.item : undefined));
}

/**
 * Opens `id`'s details outside React (what {@link useItemDetail} does on mount): fetches the whole
 * item into `details` unless cached; returns the function that closes it again.
 */
export function openItemDetail(id: string): () => void {
  acquire(id);
  let open = true;
  return () => {
    if (open) release(id);
    open = false;
  };
}

/** How long a prefetched item is held for the view expected to open it (ms). */
export const PREFETCH_HOLD_MS = 5_000;

/**
 * Fetches `id`'s whole item ahead of the view that will show it — on the pointer going down on its
 * row, so the fetch runs while the button is still held (a person's click lasts ~100 ms; a big
 * request's fetch takes tens of ms). Held for {@link PREFETCH_HOLD_MS}, then like any closed item
 * (kept among the recently used).
 */
export function prefetchItem(id: string): void {
  setTimeout(openItemDetail(id), PREFETCH_HOLD_MS);
}

/** The cached whole item `id`, if a view has it open (no fetch). */
export function cachedItem(id: string): ItemView | undefined {
  return useConsole.getState().details[id]?.item;
}

/** Sampling items the person has to act on (request or response review); takes a summary or a whole item. */
export function isAwaitingPerson(item: { status: string }): boolean {
  return item.status === 'awaiting_request_review' || item.status === 'awaiting_response_review';
}

/** Whether an item of either kind waits on the person (request or response review, or input). */
export function needsPerson(item: ItemSummary): boolean {
  return waitsOnPerson(item.status);
}

// Stable empty lists, so selectors return the same reference while the mirror is empty
// (zustand re-renders whenever a selector's result changes identity).
const NO_ITEMS: ItemSummary[] = [];
const NO_SERVERS: ServerView[] = [];
const NO_CALLS: CallView[] = [];
const NO_PROVIDERS: ProviderView[] = [];
const NO_NOTICES: Notice[] = [];

/** The mirrored item summaries, both kinds (arrival order). */
export const useItems = (): ItemSummary[] => useConsole((s) => s.mirror?.items ?? NO_ITEMS);
/** The mirrored servers. */
export const useServers = (): ServerView[] => useConsole((s) => s.mirror?.servers ?? NO_SERVERS);
/** The mirrored client requests (newest last). */
export const useCalls = (): CallView[] => useConsole((s) => s.mirror?.calls ?? NO_CALLS);
/** The mirrored providers. */
export const useProviders = (): ProviderView[] => useConsole((s) => s.mirror?.providers ?? NO_PROVIDERS);
/** The mirrored notices. */
export const useNotices = (): Notice[] => useConsole((s) => s.mirror?.notices ?? NO_NOTICES);
