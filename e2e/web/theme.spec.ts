/**
 * Light and dark themes (fake API): the OS preference is followed by default, the person's choice
 * (main's desktop settings) wins over it, and every screen is screenshotted in dark to be looked at
 * (e2e/artifacts/dark-*.png).
 */
import type { Page } from '@playwright/test';
import { emit, expect, expectNoHorizontalOverflow, shot, test } from '../support/ui.js';
import { desktopView, openWithDesktop, withDesktop } from './settings-fixture.js';

const DARK_BG = 'rgb(21, 24, 29)';
const LIGHT_BG = 'rgb(244, 245, 247)';
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const theme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-theme'));

test('follows the OS: dark when the system is dark and the setting is "system"', async ({ page, appUrl, fixture }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openWithDesktop(page, appUrl, { ...fixture, state: withDesktop(fixture.state, { theme: 'system' }) });
  expect(await theme(page)).toBeNull();
  expect(await background(page)).toBe(DARK_BG);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => background(page)).toBe(LIGHT_BG);
});

test('the person\'s choice wins over the OS, both ways, and follows main\'s setting live', async ({ page, appUrl, fixture }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const state = withDesktop(fixture.state, { theme: 'light' });
  await openWithDesktop(page, appUrl, { ...fixture, state });
  expect(await theme(page)).toBe('light');
  expect(await background(page)).toBe(LIGHT_BG);

  await page.emulateMedia({ colorScheme: 'light' });
  await emit(page, { type: 'patch', patch: { version: state.version + 1, desktop: desktopView({ theme: 'dark' }) } });
  await expect.poll(() => theme(page)).toBe('dark');
  expect(await background(page)).toBe(DARK_BG);
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('theme-effective')).toHaveText('In use now: dark.');
});

test('every screen in dark (screenshots to look at), without sideways scrolling at 900×600', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openWithDesktop(page, appUrl, { ...fixture, state: withDesktop(fixture.state, { theme: 'dark', doNotDisturb: true }) });
  expect(await background(page)).toBe(DARK_BG);
  const screens = ['queue', 'servers', 'providers', 'history', 'rules', 'settings'];
  for (const name of screens) {
    const nav = page.getByTestId(`nav-${name}`);
    if ((await nav.count()) === 0) continue; // a screen another part of the app has not added yet
    await nav.click();
    if (name === 'queue') await page.getByTestId('queue-item').first().click();
    if (name === 'history') await page.getByTestId('history-item').first().click();
    await page.waitForTimeout(150);
    await shot(page, `dark-${name}`);
  }
  await page.setViewportSize({ width: 900, height: 600 });
  for (const name of ['queue', 'settings']) {
    await page.getByTestId(`nav-${name}`).click();
    await expectNoHorizontalOverflow(page);
    await shot(page, `900x600-dark-${name}`);
  }
});
