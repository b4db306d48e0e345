/**
 * The attention service: watches the state for items that need a person and gets their attention
 * through the desktop ports — one notification per item (none while "do not disturb" is on), the
 * badge count, the tray icon and menu — and publishes the `attention` slice (count,
 * recent notifications) so the renderer can set the title and, in the web host, show browser
 * notifications for exactly the ones main decided on.
 */
import { NOTIFICATIONS_KEPT, type AttentionNotification, type AttentionView, type DesktopSettings } from '../../shared/contract/desktop.js';
import type { SliceKey, StateHub } from '../state-hub.js';
import { isElicitationItem, type SamplingItemView } from '../../shared/contract/state.js';
import { desktopTFor, processLocales } from './messages.js';
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

/** Slices whose change can change what needs a person (or the tray's checkboxes). */
const WATCHED: ReadonlySet<string> = new Set<SliceKey | 'items'>(['policy', 'desktop', 'items']);

/** Starts the service; it acts on the current state at once. */
export function createAttentionService(deps: AttentionDeps): AttentionService {
  const { hub, ports } = deps;
  /** Items already notified about (or that arrived during DND): never notified again. */
  const notified = new Set<string>();
  const recent: AttentionNotification[] = [];
  let seq = 0;
  let focus: AttentionView['focus'];
  let focusSeq = 0;
  let lastBadge: number | null = null;
  let lastTray = '';
  let lastView = '';

  const paused = () => hub.get('policy')?.rules.paused ?? false;

  const emit = (request: NotificationRequest) => {
    const n: AttentionNotification = { seq: ++seq, title: request.title, body: request.body, silent: request.silent, at: deps.now() };
    if (request.itemId) n.itemId = request.itemId;
    recent.push(n);
    if (recent.length > NOTIFICATIONS_KEPT) recent.splice(0, recent.length - NOTIFICATIONS_KEPT);
    ports.notifier?.show(request, () => (request.itemId ? service.review(request.itemId) : ports.focusWindow?.()));
  };

  const say = (settings: DesktopSettings) => desktopTFor(settings.language, deps.osLocales?.() ?? processLocales());

  const refresh = () => {
    const items = hub.items();
    const sampling = items.filter((i): i is SamplingItemView => !isElicitationItem(i));
    const settings = deps.settings();
    const t = say(settings);
    const waiting = waitingEntries(sampling, items.filter(isElicitationItem));
    const quiet = settings.doNotDisturb || !settings.notifications;
    const draftIds = new Set(sampling.filter((i) => i.origin === 'draft').map((i) => i.id));
    for (const entry of waiting) {
      if (notified.has(entry.itemId)) continue;
      notified.add(entry.itemId);
      // A draft was re-opened by the person from history: they know already.
      if (!quiet && !draftIds.has(entry.itemId)) emit(notificationFor(entry, settings.sound, t));
    }
    // Forget items that left the state entirely (dismissed / removed), so the set stays small.
    const present = new Set(items.map((i) => i.id));
    for (const id of notified) if (!present.has(id)) notified.delete(id);

    const count = waiting.length;
    if (count !== lastBadge) {
      lastBadge = count;
      ports.badge?.setCount(count);
    }
    // The tray depends on these four only: rebuilt when one of them changed, not at every patch.
    const trayKey = `${count}|${paused()}|${settings.doNotDisturb}|${settings.language ?? ''}`;
    if (ports.tray && trayKey !== lastTray) {
      lastTray = trayKey;
      ports.tray.update(buildTrayModel({ count, paused: paused(), doNotDisturb: settings.doNotDisturb }, t));
    }
    // The waiting items themselves are not repeated here: every window has their summaries.
    const view: AttentionView = { count, notifications: [...recent], doNotDisturb: settings.doNotDisturb };
    if (focus) view.focus = focus;
    const viewKey = JSON.stringify(view);
    if (viewKey !== lastView) {
      lastView = viewKey;
      hub.set('attention', view);
    }
  };

  const service: AttentionService = {
    refresh,
    testNotification() {
      const settings = deps.settings();
      const t = say(settings);
      emit({ title: t('testTitle'), body: t('testBody'), silent: !settings.sound });
      refresh();
    },
    review(itemId) {
      ports.focusWindow?.();
      focus = { itemId, seq: ++focusSeq, at: deps.now() };
      refresh();
    },
    trayAction(id) {
      try {
        if (id === 'open') ports.focusWindow?.();
        else if (id === 'quit') ports.quit?.();
        else if (id === 'pause-auto-approval') deps.setAutoApprovalPaused(!paused());
        else if (id === 'do-not-disturb') deps.setDoNotDisturb(!deps.settings().doNotDisturb);
      } catch (err) {
        deps.onError?.(`Tray: ${(err as Error).message}`);
      }
    },
    dispose: () => unsubscribe(),
  };

  ports.tray?.onAction((id) => service.trayAction(id));
  const unsubscribe = hub.subscribe((event) => {
    if (event.type !== 'patch') return;
    if (Object.keys(event.patch).some((k) => WATCHED.has(k))) refresh();
  });
  refresh();
  return service;
}
