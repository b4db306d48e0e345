/**
 * Settings and attention in the renderer, against the fake API: the Settings screen shows main's
 * desktop settings and changes them through `setDesktopSettings`; the tab title carries the count
 * main publishes; in the web host, the browser's Notifications API shows main's notifications and
 * a click opens the item; "do not disturb" shows in the nav.
 */
import { waitingEntries } from '../../main/attention/model.js';
import type { ConsoleEvent } from '../../shared/contract/api.js';
import type { ConsoleState } from '../../shared/contract/state.js';
import type { WholeSliceKey } from '../../shared/contract/state-patch.js';
import type { FixtureState } from '../support/fixture-state.js';
import { emit, expect, expectNoHorizontalOverflow, recorded, shot, test } from '../support/ui.js';
import { clickNotification, desktopView, openWithDesktop, shownNotifications, withDesktop } from './settings-fixture.js';

const patch = (version: number, slices: Partial<Pick<ConsoleState, WholeSliceKey>>): ConsoleEvent => ({ type: 'patch', patch: { version, ...slices } });

test('the title shows how many items wait, and follows main\'s count', async ({ page, appUrl, fixture }) => {
  const state = withDesktop(fixture.state);
  const count = state.attention!.count;
  expect(count).toBeGreaterThan(1);
  await openWithDesktop(page, appUrl, { ...fixture, state });
  await expect(page).toHaveTitle(`(${count}) MCP Approval Console`);
  await emit(page, patch(state.version + 1, { attention: { ...state.attention!, count: 1 } }));
  await expect(page).toHaveTitle('(1) MCP Approval Console');
  await emit(page, patch(state.version + 2, { attention: { ...state.attention!, count: 0 } }));
  await expect(page).toHaveTitle('MCP Approval Console');
});

test('settings: current values, each change goes to main; what shows is what main says', async ({ page, appUrl, fixture }) => {
  const state = withDesktop(fixture.state, { sound: true });
  await openWithDesktop(page, appUrl, { ...fixture, state });
  await page.getByTestId('nav-settings').click();
  const screen = page.getByTestId('settings-screen');
  await expect(screen).toBeVisible();
  await expect(page.getByTestId('theme-system')).toBeChecked();
  await expect(page.getByTestId('setting-notifications')).toBeChecked();
  await expect(page.getByTestId('setting-sound')).toBeChecked();
  await expect(page.getByTestId('setting-dnd')).not.toBeChecked();
  // The web host cannot start at login: disabled, with the reason.
  await expect(page.getByTestId('setting-launch-at-login')).toBeDisabled();
  await expect(page.getByTestId('settings-startup')).toContainText('Only the desktop app can start at login.');
  await expect(page.getByTestId('fact-user-data')).toHaveText('/home/user/.config/mcp-approval-console');
  await expect(page.getByTestId('browser-permission-state')).toBeVisible();
  await shot(page, 'settings-light');
  await page.setViewportSize({ width: 900, height: 600 });
  await expectNoHorizontalOverflow(page);
  await shot(page, '900x600-settings');

  await page.getByTestId('setting-dnd').click();
  await expect.poll(() => recorded(page, 'setDesktopSettings')).toEqual([{ doNotDisturb: true }]);
  // Until main says so, the checkbox shows main's value.
  await expect(page.getByTestId('setting-dnd')).not.toBeChecked();
  await expect(page.getByTestId('dnd-indicator')).toHaveCount(0);
  await emit(page, patch(state.version + 1, { desktop: desktopView({ sound: true, doNotDisturb: true }), attention: { ...state.attention!, doNotDisturb: true } }));
  await expect(page.getByTestId('setting-dnd')).toBeChecked();
  await expect(page.getByTestId('dnd-indicator')).toBeVisible();
  // The badge still counts under DND.
  await expect(page.getByTestId('queue-badge')).toBeVisible();

  await page.getByTestId('theme-dark').click();
  await page.getByTestId('setting-sound').click();
  await page.getByTestId('test-notification').click();
  await expect.poll(() => recorded(page, 'setDesktopSettings')).toEqual([{ doNotDisturb: true }, { theme: 'dark' }, { sound: false }]);
  await expect.poll(() => recorded(page, 'sendTestNotification')).toEqual([{}]);
});

test('a refused change is shown, and the control keeps main\'s value', async ({ page, appUrl, fixture }) => {
  await openWithDesktop(page, appUrl, { ...fixture, state: withDesktop(fixture.state) });
  await page.getByTestId('nav-settings').click();
  await page.evaluate(() => {
    const api = (window as unknown as { api: Record<string, unknown> }).api;
    api.setDesktopSettings = () => Promise.reject(new Error('Could not save desktop-settings.json: disk full'));
  });
  await page.getByTestId('setting-notifications').click();
  await expect(page.getByTestId('settings-error')).toContainText('disk full');
  await expect(page.getByTestId('setting-notifications')).toBeChecked();
});

test('web host: browser notifications for exactly the ones main decided; a click opens the item', async ({ page, appUrl, fixture }) => {
  const state = withDesktop(fixture.state);
  const target = waitingEntries(state.items, state.elicitations ?? [])[0]!;
  await openWithDesktop(page, appUrl, { ...fixture, state }, { notifications: 'granted' });
  await page.getByTestId('nav-history').click();
  // Nothing from before the page loaded is replayed.
  expect(await shownNotifications(page)).toEqual([]);
  const note = { seq: 1, itemId: target.itemId, title: `${target.serverId} asks for a completion`, body: `trigger-sampling-request: ${target.firstLine}`, silent: true, at: Date.now() };
  await emit(page, patch(state.version + 1, { attention: { ...state.attention!, notifications: [note] } }));
  await expect.poll(() => shownNotifications(page)).toEqual([{ title: note.title, body: note.body, silent: true, tag: target.itemId }]);
  await clickNotification(page, 0);
  await expect(page.getByTestId('queue-screen')).toBeVisible();
  await expect(page.locator(`[data-testid="queue-item"][data-item-id="${target.itemId}"]`)).toHaveClass(/is-selected/);
  // The same notification list again shows nothing new.
  await emit(page, patch(state.version + 2, { attention: { ...state.attention!, count: 1, notifications: [note] } }));
  await expect(page).toHaveTitle('(1) MCP Approval Console');
  expect(await shownNotifications(page)).toHaveLength(1);
});

test('web host: permission is asked on a click in Settings', async ({ page, appUrl, fixture }) => {
  await openWithDesktop(page, appUrl, { ...fixture, state: withDesktop(fixture.state) }, { notifications: 'default' });
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('browser-permission-state')).toHaveText('This browser has not been asked yet.');
  await page.getByTestId('allow-browser-notifications').click();
  await expect(page.getByTestId('browser-permission-state')).toHaveText('This browser shows the console’s notifications.');
  await expect(page.getByTestId('allow-browser-notifications')).toHaveCount(0);
});

test('"Review" on a native notification (Electron) opens the item main names', async ({ page, appUrl, fixture }) => {
  const state = withDesktop(fixture.state);
  const target = waitingEntries(state.items, state.elicitations ?? []).at(-1)!;
  await openWithDesktop(page, appUrl, { ...fixture, state });
  await page.getByTestId('nav-servers').click();
  await emit(page, patch(state.version + 1, { attention: { ...state.attention!, focus: { itemId: target.itemId, seq: 1, at: Date.now() } } }));
  await expect(page.getByTestId('queue-screen')).toBeVisible();
  await expect(page.locator(`[data-testid="queue-item"][data-item-id="${target.itemId}"]`)).toHaveClass(/is-selected/);
});

test('settings: a long path wraps inside the window, in the header and in Files, and each path can be copied', async ({ page, appUrl, fixture, context }) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const long = `C:\\Users\\${'someone-with-a-very-long-account-name'.repeat(2)}\\AppData\\Roaming\\mcp-approval-console`;
  const base = withDesktop(fixture.state);
  const state: FixtureState = {
    ...base,
    desktop: { ...base.desktop!, path: `${long}\\desktop-settings.json` },
    settings: { ...base.settings, userDataDir: long, serversConfigPath: `${long}\\mcp-servers.json`, historyPath: `${long}\\history.db` },
  };
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(appUrl).origin });
  await openWithDesktop(page, appUrl, { ...fixture, state });
  await page.getByTestId('nav-settings').click();
  const savedIn = page.getByTestId('settings-saved-in');
  await expect(savedIn).toContainText('desktop-settings.json');
  const fits = (el: Element) => {
    const box = el.getBoundingClientRect();
    return box.right <= window.innerWidth && el.scrollWidth <= el.clientWidth + 1;
  };
  expect(await savedIn.evaluate(fits)).toBe(true);
  const servers = page.getByTestId('fact-servers');
  await servers.scrollIntoViewIfNeeded();
  expect(await servers.evaluate((el) => el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
  await expectNoHorizontalOverflow(page);
  await page.getByTestId('copy-fact-servers').click();
  await expect(page.getByTestId('copy-fact-servers')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${long}\\mcp-servers.json`);
  await shot(page, '1024x700-settings-long-paths');
});
