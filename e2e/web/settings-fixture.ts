/**
 * Fixture helpers for the settings and theme specs (fake API): adds the `desktop` and `attention`
 * slices main would publish to the shared fixture state, and the two desktop-life methods to the
 * fake `window.api` (recorded in `window.__fake.calls` like the others).
 */
import { expect, type Page } from '@playwright/test';
import { installFakeApi, toWire, type FakeData } from '../support/fake-api.js';
import { screensLoaded } from '../support/ui.js';
import type { FixtureState } from '../support/fixture-state.js';
import { waitingEntries } from '../../main/attention/model.js';
import { english, ui } from '../../shared/contract/ui-text.js';
import { DEFAULT_DESKTOP_SETTINGS, type AttentionNotification, type DesktopSettings, type DesktopSupports, type DesktopView } from '../../shared/contract/desktop.js';

/** `{ launchAtLoginNote, launchAtLoginNoteUi }` as main sends them: the English beside its message code. */
function said(code: 'desktop.loginDesktopOnly'): Pick<DesktopView, 'launchAtLoginNote' | 'launchAtLoginNoteUi'> {
  return { launchAtLoginNote: english(ui(code)), launchAtLoginNoteUi: ui(code) };
}

/** What the web host supports (no native parts). */
export const WEB_SUPPORTS: DesktopSupports = { nativeNotifications: false, tray: false, badge: false, launchAtLogin: false };

/** The desktop slice for `settings` (web host by default). */
export function desktopView(settings: Partial<DesktopSettings> = {}, supports: DesktopSupports = WEB_SUPPORTS): DesktopView {
  return {
    settings: { ...DEFAULT_DESKTOP_SETTINGS, ...settings },
    path: '/home/user/.config/mcp-approval-console/desktop-settings.json',
    supports,
    ...(supports.launchAtLogin ? {} : said('desktop.loginDesktopOnly')),
  };
}

/**
 * `state` with the desktop slice and the attention slice computed as main computes it (count and
 * waiting items from the fixture's items and elicitations), as the web host (`host: 'web'`).
 */
export function withDesktop(state: FixtureState, settings: Partial<DesktopSettings> = {}, notifications: AttentionNotification[] = []): FixtureState {
  const desktop = desktopView(settings);
  const waiting = waitingEntries(state.items, state.elicitations ?? []);
  return {
    ...state,
    settings: { ...state.settings, host: 'web' },
    desktop,
    attention: { count: waiting.length, notifications, doNotDisturb: desktop.settings.doNotDisturb },
  };
}

/** Adds `setDesktopSettings` (answers the merged settings) and `sendTestNotification` to the fake API. Call after `openConsole`'s init script is added, i.e. before `page.goto`. */
export async function addDesktopMethods(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { api: Record<string, unknown>; __fake: { calls: Array<{ method: string; input: unknown }> } };
    const record = (method: string, input: unknown) => w.__fake.calls.push({ method, input: JSON.parse(JSON.stringify(input ?? {})) });
    let current: Record<string, unknown> = { theme: 'system', language: 'system', notifications: true, sound: false, doNotDisturb: false, launchAtLogin: false };
    w.api.setDesktopSettings = (input: Record<string, unknown>) => {
      record('setDesktopSettings', input);
      current = { ...current, ...input };
      return Promise.resolve(current);
    };
    w.api.sendTestNotification = (input: unknown) => {
      record('sendTestNotification', input);
      return Promise.resolve(undefined);
    };
  });
}

/** Replaces `window.Notification` with a recorder (the page's notifications land in `window.__notes`), permission as given. */
export async function recordBrowserNotifications(page: Page, permission: NotificationPermission): Promise<void> {
  await page.addInitScript((perm) => {
    const notes: Array<{ title: string; body?: string; silent?: boolean; tag?: string; click(): void }> = [];
    class FakeNotification {
      static permission: NotificationPermission = perm;
      static requestPermission(): Promise<NotificationPermission> {
        FakeNotification.permission = 'granted';
        return Promise.resolve('granted');
      }
      onclick: (() => void) | null = null;
      constructor(title: string, opts: { body?: string; silent?: boolean; tag?: string } = {}) {
        notes.push({ title, ...opts, click: () => this.onclick?.() });
      }
      close(): void {}
    }
    Object.assign(window, { Notification: FakeNotification, __notes: notes });
  }, permission);
}

/** The notifications the page showed so far (title, body, silent, tag). */
export async function shownNotifications(page: Page): Promise<Array<{ title: string; body?: string; silent?: boolean; tag?: string }>> {
  return page.evaluate(() => (window as unknown as { __notes: Array<{ title: string; body?: string; silent?: boolean; tag?: string }> }).__notes.map(({ title, body, silent, tag }) => ({ title, body, silent, tag })));
}

/** Clicks the `index`th shown notification, as the person would. */
export async function clickNotification(page: Page, index: number): Promise<void> {
  await page.evaluate((i) => (window as unknown as { __notes: Array<{ click(): void }> }).__notes[i]!.click(), index);
}

/**
 * Opens the console on the fake API serving `data`, with the desktop-life methods added (and, when
 * `notifications` is given, the browser's Notification replaced by a recorder with that permission).
 */
export async function openWithDesktop(page: Page, url: string, data: FakeData, opts: { notifications?: NotificationPermission } = {}): Promise<void> {
  await page.addInitScript(installFakeApi, toWire(data));
  await addDesktopMethods(page);
  if (opts.notifications) await recordBrowserNotifications(page, opts.notifications);
  await page.goto(url);
  await expect(page.getByTestId('nav-queue')).toBeVisible();
  await expect(page.getByTestId('connecting')).toHaveCount(0);
  await screensLoaded(page);
}
