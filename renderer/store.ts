/**
 * The renderer's one store (zustand). It mirrors main's {@link ConsoleState} exactly as the event
 * stream delivers it and never invents state; besides the mirror it only holds UI selection and
 * edits in progress (drafts), which belong to the person until they press a button. Drafts are
 * also saved to main as they change (screens/queue/autosave.ts), which keeps them on the item.
 */
import { create } from 'zustand';
import type { ConsoleApi, ConsoleEvent } from '../shared/api.js';
import type { RequestDraft, ResponseDraft } from '../shared/drafts.js';
import { applyPatch, patchFits, type StatePatch } from '../shared/state-patch.js';
import {
  type CallView,
  type ConsoleState,
  type ElicitationItemView,
  type Notice,
  type ProviderView,
  type SamplingItemView,
  type ServerView,
} from '../shared/state.js';

/** The three screens of the left nav. */
export type Screen = 'settings' | 'queue' | 'servers' | 'providers' | 'history' | 'rules';

/** The connection to main, as the mirror sees it. */
export type MirrorStatus = { kind: 'connecting' } | { kind: 'ready' } | { kind: 'error'; message: string };

/** Edits in progress on a request / response under review (shared/drafts.ts: main keeps them too). */
export type { RequestDraft, ResponseDraft } from '../shared/drafts.js';

/** The store's shape: the mirror, selection, drafts and the actions that change them. */
export interface ConsoleStore {
  mirror: ConsoleState | null;
  status: MirrorStatus;
  screen: Screen;
  selectedItemId: string | null;
  selectedServerId: string | null;
  selectedTool: string | null;
  selectedHistoryId: string | null;
  requestDrafts: Record<string, RequestDraft>;
  responseDrafts: Record<string, ResponseDraft>;
  /** Notices the person closed (by id); main keeps them, this view hides them. */
  hiddenNotices: Record<string, true>;
  setScreen(screen: Screen): void;
  selectItem(id: string | null): void;
  /** Switches to the queue with `id` selected (e.g. from a call's sampling links). */
  openItem(id: string): void;
  selectServer(id: string | null): void;
  selectTool(name: string | null): void;
  selectHistory(id: string | null): void;
  setRequestDraft(itemId: string, draft: RequestDraft): void;
  setResponseDraft(itemId: string, draft: ResponseDraft): void;
  clearDrafts(itemId: string): void;
  hideNotice(id: string): void;
}

/** The store hook. */
export const useConsole = create<ConsoleStore>()((set) => ({
  mirror: null,
  status: { kind: 'connecting' },
  screen: 'queue',
  selectedItemId: null,
  selectedServerId: null,
  selectedTool: null,
  selectedHistoryId: null,
  requestDrafts: {},
  responseDrafts: {},
  hiddenNotices: {},
  setScreen: (screen) => set({ screen }),
  selectItem: (selectedItemId) => set({ selectedItemId }),
  openItem: (id) => set({ screen: 'queue', selectedItemId: id }),
  selectServer: (selectedServerId) => set({ selectedServerId, selectedTool: null }),
  selectTool: (selectedTool) => set({ selectedTool }),
  selectHistory: (selectedHistoryId) => set({ selectedHistoryId }),
  setRequestDraft: (itemId, draft) => set((s) => ({ requestDrafts: { ...s.requestDrafts, [itemId]: draft } })),
  setResponseDraft: (itemId, draft) => set((s) => ({ responseDrafts: { ...s.responseDrafts, [itemId]: draft } })),
  clearDrafts: (itemId) =>
    set((s) => {
      const requestDrafts = { ...s.requestDrafts };
      const responseDrafts = { ...s.responseDrafts };
      delete requestDrafts[itemId];
      delete responseDrafts[itemId];
      return { requestDrafts, responseDrafts };
    }),
  hideNotice: (id) => set((s) => ({ hiddenNotices: { ...s.hiddenNotices, [id]: true } })),
}));

/** Drops drafts whose item is no longer in the status the draft was made for. */
function pruneDrafts(items: SamplingItemView[]): void {
  const s = useConsole.getState();
  const byId = new Map(items.map((i) => [i.id, i]));
  const keepRequest = (id: string) => byId.get(id)?.status === 'awaiting_request_review' || byId.get(id)?.status === 'generating';
  const keepResponse = (id: string) => byId.get(id)?.status === 'awaiting_response_review';
  const req = Object.keys(s.requestDrafts).filter((id) => !keepRequest(id));
  const res = Object.keys(s.responseDrafts).filter((id) => !keepResponse(id));
  if (req.length === 0 && res.length === 0) return;
  const requestDrafts = { ...s.requestDrafts };
  const responseDrafts = { ...s.responseDrafts };
  for (const id of req) delete requestDrafts[id];
  for (const id of res) delete responseDrafts[id];
  useConsole.setState({ requestDrafts, responseDrafts });
}

function setMirror(next: ConsoleState): void {
  if (next === useConsole.getState().mirror) return;
  useConsole.setState({ mirror: next, status: { kind: 'ready' } });
  pruneDrafts(next.items);
}

/**
 * Starts mirroring main's state: subscribes to events first (so nothing is missed), then asks for
 * the full state. Patches that arrive before the first state are kept and applied on top of it
 * (stale ones are ignored by `applyPatch`). Returns a function that stops mirroring.
 */
export function startMirror(api: ConsoleApi): () => void {
  let pending: StatePatch[] = [];
  let stopped = false;
  let resyncing = false;
  const onEvent = (event: ConsoleEvent) => {
    if (stopped) return;
    if (event.type === 'snapshot') {
      pending = [];
      setMirror(event.state);
      return;
    }
    const current = useConsole.getState().mirror;
    if (!current || resyncing) pending.push(event.patch);
    else if (patchFits(current, event.patch)) setMirror(applyPatch(current, event.patch));
    else {
      // A patch was missed (item changes need the version before them): the whole state again,
      // showing the current one meanwhile; patches that arrive meanwhile are applied on top.
      resyncing = true;
      pending.push(event.patch);
      fetchState();
    }
  };
  const fetchState = () =>
    api.getState({}).then(
      (state) => {
        if (stopped) return;
        const current = useConsole.getState().mirror;
        let next = current && current.version >= state.version ? current : state;
        for (const p of pending) if (patchFits(next, p)) next = applyPatch(next, p);
        pending = [];
        resyncing = false;
        setMirror(next);
      },
      (err: unknown) => {
        resyncing = false;
        if (stopped || useConsole.getState().mirror) return;
        useConsole.setState({ status: { kind: 'error', message: err instanceof Error ? err.message : String(err) } });
      },
    );
  const unsubscribe = api.onEvent(onEvent);
  useConsole.setState({ status: { kind: 'connecting' } });
  fetchState();
  return () => {
    stopped = true;
    unsubscribe();
  };
}

/** Items the person has to act on (request or response review). */
export function isAwaitingPerson(item: SamplingItemView): boolean {
  return item.status === 'awaiting_request_review' || item.status === 'awaiting_response_review';
}

// Stable empty lists, so selectors return the same reference while the mirror is empty
// (zustand re-renders whenever a selector's result changes identity).
const NO_ITEMS: SamplingItemView[] = [];
const NO_SERVERS: ServerView[] = [];
const NO_CALLS: CallView[] = [];
const NO_PROVIDERS: ProviderView[] = [];
const NO_NOTICES: Notice[] = [];
const NO_ELICITATIONS: ElicitationItemView[] = [];

/** The mirrored sampling items (oldest first). */
export const useItems = (): SamplingItemView[] => useConsole((s) => s.mirror?.items ?? NO_ITEMS);
/** The mirrored servers. */
export const useServers = (): ServerView[] => useConsole((s) => s.mirror?.servers ?? NO_SERVERS);
/** The mirrored client requests (newest last). */
export const useCalls = (): CallView[] => useConsole((s) => s.mirror?.calls ?? NO_CALLS);
/** The mirrored providers. */
export const useProviders = (): ProviderView[] => useConsole((s) => s.mirror?.providers ?? NO_PROVIDERS);
/** The mirrored notices. */
export const useNotices = (): Notice[] => useConsole((s) => s.mirror?.notices ?? NO_NOTICES);
/** The mirrored elicitation requests (form and URL mode), waiting and recently answered. */
export const useElicitations = (): ElicitationItemView[] => useConsole((s) => s.mirror?.elicitations ?? NO_ELICITATIONS);
