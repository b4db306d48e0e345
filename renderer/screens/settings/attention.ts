/**
 * The renderer's side of attention: the window / tab title carries the count main publishes
 * ("(3) MCP Approval Console" — in Electron the window and taskbar title follow the page title);
 * "Review" on a native notification opens the item; and in the web host, the browser's
 * Notifications API shows exactly the notifications main decided on (main applies "do not
 * disturb" and notifies once per item), once permission was granted on a click.
 */
import { useEffect } from 'react';
import { attentionTitle, type AttentionNotification } from '../../../shared/contract/desktop';
import { useConsole } from '../../store';
import { notificationsToShow } from './notifications';

export { notificationsToShow } from './notifications';

/** How old a "Review" focus request may be and still open its item (e.g. the window was re-created). */
export const FOCUS_FRESH_MS = 30_000;

/** The browser's notification permission, or 'unsupported' where there is no Notifications API. */
export type BrowserPermission = NotificationPermission | 'unsupported';

/** The current permission (read each time; the browser has no change event everywhere). */
export function browserPermission(): BrowserPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/**
 * Asks for permission to show notifications. Call from a click handler only: browsers ignore or
 * block requests that are not a user gesture.
 */
export async function requestBrowserPermission(): Promise<BrowserPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

let lastShownSeq: number | null = null;
let lastFocusSeq: number | null = null;

/** Shows one notification with the browser's API; a click focuses the tab and opens the item. */
function showBrowserNotification(n: AttentionNotification, openItem: (id: string) => void): void {
  try {
    const shown = new Notification(n.title, { body: n.body, silent: n.silent, tag: n.itemId ?? `test-${n.seq}` });
    shown.onclick = () => {
      window.focus();
      if (n.itemId) openItem(n.itemId);
      shown.close();
    };
  } catch {
    // Some browsers (e.g. Android Chrome) only allow notifications from a service worker.
  }
}

/** Title, "Review" focus and (web host) browser notifications. Call once, in App. */
export function useAttention(): void {
  const attention = useConsole((s) => s.mirror?.attention);
  const host = useConsole((s) => s.mirror?.settings.host);
  const openItem = useConsole((s) => s.openItem);

  const count = attention?.count ?? 0;
  useEffect(() => {
    document.title = attentionTitle(count);
  }, [count]);

  const focus = attention?.focus;
  useEffect(() => {
    if (!focus || focus.seq === lastFocusSeq) return;
    lastFocusSeq = focus.seq;
    if (Date.now() - focus.at <= FOCUS_FRESH_MS) openItem(focus.itemId);
  }, [focus, openItem]);

  const notifications = attention?.notifications;
  useEffect(() => {
    if (!notifications) return;
    const { show, lastSeq } = notificationsToShow(notifications, lastShownSeq);
    lastShownSeq = lastSeq;
    // Electron shows native notifications from main; only the web host uses the browser's. The
    // permission is read only when there is something to show: reading it costs milliseconds.
    if (host !== 'web' || show.length === 0 || browserPermission() !== 'granted') return;
    for (const n of show) showBrowserNotification(n, openItem);
  }, [notifications, host, openItem]);
}
