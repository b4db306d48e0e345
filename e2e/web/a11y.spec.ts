/**
 * Accessibility: axe-core (WCAG 2 A and AA rules) on every screen against the fake API —
 * the queue with a request, a response, a hand-written response, a generation and an elicitation
 * form under review, Servers, Providers, History (with an entry open), Rules, Settings, and the
 * keyboard dialogs (command palette, cheat-sheet, full-screen editor) — in the light and the dark
 * theme. No `serious` or `critical` violation may remain; lesser ones are printed for follow-up.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { buildElicitationItems } from '../support/fixture-elicitation.js';
import type { FakeData } from '../support/fake-api.js';
import { expect, test } from '../support/ui.js';
import { walkDialogs, walkPolicy, walkQueue, walkScreens, type Check } from '../support/walk.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';


async function open(page: Page, url: string, fixture: FakeData, theme: 'light' | 'dark'): Promise<void> {
  fixture.state.elicitations = buildElicitationItems(Date.now());
  fixture.state = withDesktop({ ...fixture.state, policy: walkPolicy() }, { theme });
  await openWithDesktop(page, url, fixture);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Runs axe on the page as it is now; fails on serious or critical violations, printing every one. */
async function audit(page: Page, name: string): Promise<void> {
  // Let entrance transitions settle, so colours are measured as the person sees them.
  await page.waitForTimeout(150);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const describe = (v: (typeof results.violations)[number]) =>
    `${v.id} [${v.impact}] ${v.help}\n${v.nodes
      .slice(0, 6)
      .map((n) => `    ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 220)}`)
      .join('\n')}`;
  expect(results.passes.length, `${name}: axe checked nothing`).toBeGreaterThan(10);
  const minor = results.violations.filter((v) => v.impact !== 'serious' && v.impact !== 'critical');
  if (minor.length) console.log(`[a11y] ${name}: lesser findings\n${minor.map(describe).join('\n')}`);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map(describe), `${name}: serious or critical axe violations`).toEqual([]);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      test.setTimeout(180_000); // axe takes a few seconds per page on a busy machine
      await page.setViewportSize({ width: 1280, height: 860 });
    });
    const check: Check = (page, name) => audit(page, `${theme} ${name}`);

    test('queue: request, response, hand-written response, generating, elicitation form', async ({ page, appUrl, fixture }) => {
      await open(page, appUrl, fixture, theme);
      await walkQueue(page, check);
    });

    test('servers, providers, history, rules, settings', async ({ page, appUrl, fixture }) => {
      await open(page, appUrl, fixture, theme);
      await walkScreens(page, check);
    });

    test('keyboard dialogs: command palette, cheat-sheet, full-screen editor', async ({ page, appUrl, fixture }) => {
      await open(page, appUrl, fixture, theme);
      await walkDialogs(page, check);
    });
  });
}
