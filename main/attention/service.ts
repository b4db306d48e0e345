/**
 * The attention service: watches the state for items that need a person and gets their attention
 * through the desktop ports — one notification per item (none while "do not disturb" is on), the
 * badge count, the tray icon and menu — and publishes the `attention` slice (count,
 * recent notifications) so the renderer can set the title and, in the web host, show browser
 * notifications for exactly the ones main decided on.
 */
import { NOTIFICATIONS_KEPT, type AttentionEntry, type AttentionNotification, type AttentionView, type DesktopSettings } from '../../shared/contract/desktop.js';
import type { StateHub } from '../state-hub.js';
import { isElicitationItem, type SamplingItemView } from '../../shared/contract/state.js';
import type { StatePatch } from '../../shared/contract/state-patch.js';
import { waitsOnPerson } from '../../shared/contract/status.js';
import { desktopTFor, processLocales, type DesktopT } from './messages.js';
import { buildTrayModel, notificationFor, waitingEntries } from './model.js';
import type { DesktopPorts, NotificationRequest, TrayActionId } from './ports.js';

/** What {@link createAttentionService} needs. */
export interface AttentionDeps {
  hub: StateHub;
  ports: DesktopPorts;
  /** The current desktop settings (notifications, sound, do not disturb). */
  settings(): DesktopSettings;
  /** Switches "do not disturb" (the tray's checkbox); saves the setting. */
  setDoNotDisturb(on: boolean): void;
  /** The policy's "pause all auto-approval" switch (the tray's checkbox). */
  setAutoApprovalPaused(paused: boolean): void;
  now(): number;
  /** Told about failures of tray actions. */
  onError?(message: string): void;
  /** The OS's preferred locales, most preferred first (for language `system`); default: this process's Intl locale. */
  osLocales?(): readonly string[];
}

/** The running service. */
export interface AttentionService {
  /** Re-reads the state and acts on it now (runs on its own after every relevant patch). */
  refresh(): void;
  /** Shows a test notification through the same path as real ones (ignores DND: the person asked for it). */
  testNotification(): void;
  /** "Review" on a notification: focuses the window and asks the renderer to open the item. */
  review(itemId: string): void;
  /** Runs a tray menu action. */
  trayAction(id: TrayActionId): void;
  /** Stops watching the state. */
  dispose(): void;
}


/**
 * What one service keeps between refreshes; the steps below read and change it. `notified` holds
 * the items already notified about (or that arrived during DND): never notified again. `recent` is
 * the last {@link NOTIFICATIONS_KEPT} notifications, `seq` the last one's number; `focus` is the
 * last "Review" (numbered by `focusSeq`). `lastBadge`, `lastTray` and `lastView` are what the badge,
 * the tray and the `attention` slice last got, so unchanged ones are not set again.
 */
interface AttentionState {
  readonly deps: AttentionDeps;
  readonly notified: Set<string>;
  readonly recent: AttentionNotification[];
  seq: number;
  focus: AttentionView['focus'];
  focusSeq: number;
  lastBadge: number | null;
  lastTray: string;
  lastView: string;
  /** The ids that waited at the last refresh: a patch that touches none of them and makes none wait changes nothing here. */
  waitingIds: Set<string>;
  /** The "pause all auto-approval" switch at the last refresh (the tray shows it; the policy slice changes far more often). */
  pausedShown: boolean;
}

/** Starts the service; it acts on the current state at once. */
export function createAttentionService(deps: AttentionDeps): AttentionService {
  const st: AttentionState = { deps, notified: new Set(), recent: [], seq: 0, focus: undefined, focusSeq: 0, lastBadge: null, lastTray: '', lastView: '', waitingIds: new Set(), pausedShown: false };
  const service: AttentionService = {
    refresh: () => refresh(st),
    testNotification: () => testNotification(st),
    review: (itemId) => review(st, itemId),
    trayAction: (id) => trayAction(st, id),
    dispose: () => unsubscribe(),
  };

  deps.ports.tray?.onAction((id) => service.trayAction(id));
  const unsubscribe = deps.hub.subscribe((event) => {
    if (event.type === 'patch' && concernsAttention(st, event.patch)) refresh(st);
  });
  refresh(st);
  return service;
}

/**
 * Whether `patch` can change what the service shows: the desktop settings or the pause switch
 * changed, or an item that waited changed or left, or an item came or changed to a waiting status.
 * Most patches (a request auto-approved, generated and delivered, with the policy's counters; a
 * response streaming) touch none of these, and the refresh walks every item.
 */
function concernsAttention(st: AttentionState, patch: StatePatch): boolean {
  const rules = patch.policy?.all?.rules ?? patch.policy?.set?.rules;
  if (patch.desktop || (rules && (rules.paused ?? false) !== st.pausedShown)) return true;
  const items = patch.items;
  if (!items) return false;
  return (
    items.upsert.some((s) => waitsOnPerson(s.status) || st.waitingIds.has(s.id)) ||
    items.remove.some((id) => st.waitingIds.has(id)) ||
    (items.change ?? []).some((c) => st.waitingIds.has(c.id) || (c.set?.status !== undefined && waitsOnPerson(c.set.status)))
  );
}

/** Whether the policy's "pause all auto-approval" switch is on. */
function paused(st: AttentionState): boolean {
  return st.deps.hub.get('policy')?.rules.paused ?? false;
}

/** The desktop messages in the language of `settings` (for `system`: the OS's locales). */
function say(st: AttentionState, settings: DesktopSettings): DesktopT {
  return desktopTFor(settings.language, st.deps.osLocales?.() ?? processLocales());
}

/** Records a notification among the recent ones and shows it; clicking it reviews its item, or focuses the window when it has none. */
function emit(st: AttentionState, request: NotificationRequest): void {
  const { deps, recent } = st;
  const n: AttentionNotification = { seq: ++st.seq, title: request.title, body: request.body, silent: request.silent, at: deps.now() };
  if (request.itemId) n.itemId = request.itemId;
  recent.push(n);
  if (recent.length > NOTIFICATIONS_KEPT) recent.splice(0, recent.length - NOTIFICATIONS_KEPT);
  deps.ports.notifier?.show(request, () => (request.itemId ? review(st, request.itemId) : deps.ports.focusWindow?.()));
}

/** {@link AttentionService.refresh}: notifies about new waiting items, then sets the badge, the tray and the `attention` slice where they changed. */
function refresh(st: AttentionState): void {
  const items = st.deps.hub.items();
  const sampling = items.filter((i): i is SamplingItemView => !isElicitationItem(i));
  const settings = st.deps.settings();
  // Built only when something is said: a start with nothing waiting and no tray needs no i18next and no ICU locale lookup (~50 ms).
  let said: DesktopT | undefined;
  const t: DesktopT = (key, values) => (said ??= say(st, settings))(key, values);
  const waiting = waitingEntries(sampling, items.filter(isElicitationItem));
  st.waitingIds = new Set(waiting.map((e) => e.itemId));
  st.pausedShown = paused(st);
  notifyNew(st, waiting, sampling, settings, t);
  // Forget items that left the state entirely (dismissed / removed), so the set stays small.
  const present = new Set(items.map((i) => i.id));
  for (const id of st.notified) if (!present.has(id)) st.notified.delete(id);
  const count = waiting.length;
  showCount(st, count, settings, t);
  publishView(st, count, settings);
}

/**
 * Marks each waiting entry not seen yet as notified, and notifies about it unless notifications are
 * off or "do not disturb" is on, or it is a draft (re-opened by the person from history: they know already).
 */
function notifyNew(st: AttentionState, waiting: readonly AttentionEntry[], sampling: readonly SamplingItemView[], settings: DesktopSettings, t: DesktopT): void {
  const quiet = settings.doNotDisturb || !settings.notifications;
  const draftIds = new Set(sampling.filter((i) => i.origin === 'draft').map((i) => i.id));
  for (const entry of waiting) {
    if (st.notified.has(entry.itemId)) continue;
    st.notified.add(entry.itemId);
    if (!quiet && !draftIds.has(entry.itemId)) emit(st, notificationFor(entry, settings.sound, t));
  }
}

/** Sets the badge to `count` and rebuilds the tray, each only when what it shows changed. */
function showCount(st: AttentionState, count: number, settings: DesktopSettings, t: DesktopT): void {
  const { ports } = st.deps;
  if (count !== st.lastBadge) {
    st.lastBadge = count;
    ports.badge?.setCount(count);
  }
  // The tray depends on these four only: rebuilt when one of them changed, not at every patch.
  const trayKey = `${count}|${paused(st)}|${settings.doNotDisturb}|${settings.language ?? ''}`;
  if (ports.tray && trayKey !== st.lastTray) {
    st.lastTray = trayKey;
    ports.tray.update(buildTrayModel({ count, paused: paused(st), doNotDisturb: settings.doNotDisturb }, t));
  }
}

/** Sets the `attention` slice (count, recent notifications, DND, last focus) when it differs from the last one set. */
function publishView(st: AttentionState, count: number, settings: DesktopSettings): void {
  // The waiting items themselves are not repeated here: every window has their summaries.
  const view: AttentionView = { count, notifications: [...st.recent], doNotDisturb: settings.doNotDisturb };
  if (st.focus) view.focus = st.focus;
  const viewKey = JSON.stringify(view);
  if (viewKey !== st.lastView) {
    st.lastView = viewKey;
    st.deps.hub.set('attention', view);
  }
}

/** {@link AttentionService.testNotification}: a notification in the settings' language, sound as set. */
function testNotification(st: AttentionState): void {
  const settings = st.deps.settings();
  const t = say(st, settings);
  emit(st, { title: t('testTitle'), body: t('testBody'), silent: !settings.sound });
  refresh(st);
}

/** {@link AttentionService.review}: focuses the window and records the item as the one to open. */
function review(st: AttentionState, itemId: string): void {
  st.deps.ports.focusWindow?.();
  st.focus = { itemId, seq: ++st.focusSeq, at: st.deps.now() };
  refresh(st);
}

/** {@link AttentionService.trayAction}: runs the action; a failure goes to `onError`, prefixed "Tray: ". */
function trayAction(st: AttentionState, id: TrayActionId): void {
  const { deps } = st;
  try {
    if (id === 'open') deps.ports.focusWindow?.();
    else if (id === 'quit') deps.ports.quit?.();
    else if (id === 'pause-auto-approval') deps.setAutoApprovalPaused(!paused(st));
    else if (id === 'do-not-disturb') deps.setDoNotDisturb(!deps.settings().doNotDisturb);
  } catch (err) {
    deps.onError?.(`Tray: ${(err as Error).message}`);
  }
}
