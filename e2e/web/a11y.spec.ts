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
import { RULES_FILE_VERSION, RulesFileSchema, type PolicyView } from '../../shared/rules.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';

/** A policy slice so the Rules screen has content: one rule for `everything`, one counter. */
function policy(): PolicyView {
  const rules = RulesFileSchema.parse({
    version: RULES_FILE_VERSION,
    servers: { everything: { rules: [{ id: 'r-notes', name: 'Note summaries', when: { maxTokensAtMost: 50 }, action: { kind: 'approve_all' } }] } },
  });
  return {
    rules,
    path: '/home/user/.config/mcp-approval-console/rules.json',
    problems: [],
    counters: { everything: { rateLimited: 1, autoApproved: 3, autoRejected: 0, waiting: 0, tokensToday: 900, spendTodayUsd: null } },
    globalRateLimited: 0,
    pricesKnown: false,
  };
}

async function open(page: Page, url: string, fixture: FakeData, theme: 'light' | 'dark'): Promise<void> {
  fixture.state.elicitations = buildElicitationItems(Date.now());
  fixture.state = withDesktop({ ...fixture.state, policy: policy() }, { theme });
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

const select = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`).click();

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      test.setTimeout(120_000); // axe takes a few seconds per page on a busy machine
      await page.setViewportSize({ width: 1280, height: 860 });
    });

    test('queue: request, response, hand-written response, generating, elicitation form', async ({ page, appUrl, fixture }) => {
      await open(page, appUrl, fixture, theme);
      await select(page, 'item-request');
      await expect(page.getByTestId('request-review')).toBeVisible();
      await audit(page, `${theme} queue request review`);
      await page.getByTestId('message-edit-0-0').click();
      await audit(page, `${theme} queue request review, editing`);
      await select(page, 'item-request-2');
      await expect(page.getByTestId('request-review')).toBeVisible();
      await audit(page, `${theme} queue request with tools and a failed attempt`);
      await select(page, 'item-response');
      await expect(page.getByTestId('response-review')).toBeVisible();
      await audit(page, `${theme} queue response review`);
      await select(page, 'item-manual');
      await expect(page.getByTestId('response-review')).toBeVisible();
      await audit(page, `${theme} queue hand-written response`);
      await select(page, 'item-generating');
      await expect(page.getByTestId('generating-view')).toBeVisible();
      await audit(page, `${theme} queue generating`);
      await select(page, 'elic-form');
      await expect(page.getByTestId('elicitation-review')).toBeVisible();
      await audit(page, `${theme} queue elicitation form`);
      await page.getByTestId('elicitation-accept').click(); // the per-field errors
      await audit(page, `${theme} queue elicitation form with errors`);
      await select(page, 'elic-url');
      await audit(page, `${theme} queue elicitation URL`);
      await select(page, 'item-delivered');
      await audit(page, `${theme} queue delivered item`);
    });

    test('servers, providers, history, rules, settings', async ({ page, appUrl, fixture }) => {
      await open(page, appUrl, fixture, theme);
      await page.getByTestId('nav-servers').click();
      await expect(page.getByTestId('servers-screen')).toBeVisible();
      await audit(page, `${theme} servers`);
      await page.getByTestId('server-item').first().click();
      await expect(page.getByTestId('server-detail')).toBeVisible();
      await page.getByTestId('tool-item').first().click();
      await audit(page, `${theme} server with a tool form`);
      for (const tab of ['prompts', 'resources', 'log']) {
        await page.getByTestId(`server-tab-${tab}`).click();
        await audit(page, `${theme} server ${tab} tab`);
      }
      await page.getByTestId('add-server').click();
      await audit(page, `${theme} server editor`);
      await page.getByTestId('import-servers').click();
      await audit(page, `${theme} server import`);
      await page.getByTestId('nav-providers').click();
      await expect(page.getByTestId('providers-screen')).toBeVisible();
      await audit(page, `${theme} providers`);
      await page.getByTestId('provider-item').first().click();
      await expect(page.getByTestId('provider-editor')).toBeVisible();
      await audit(page, `${theme} provider editor`);
      await page.getByTestId('nav-history').click();
      await expect(page.getByTestId('history-screen')).toBeVisible();
      await audit(page, `${theme} history`);
      await page.getByTestId('history-item').first().click();
      await expect(page.getByTestId('history-detail')).toBeVisible();
      await audit(page, `${theme} history entry`);
      await page.getByTestId('nav-rules').click();
      await expect(page.getByTestId('rules-screen')).toBeVisible();
      await audit(page, `${theme} rules`);
      await page.getByTestId('rules-server-everything').click();
      await audit(page, `${theme} rules of a server`);
      await page.getByTestId('nav-settings').click();
      await expect(page.getByTestId('settings-screen')).toBeVisible();
      await audit(page, `${theme} settings`);
    });

    test('keyboard dialogs: command palette, cheat-sheet, full-screen editor', async ({ page, appUrl, fixture }) => {
      await open(page, appUrl, fixture, theme);
      await page.keyboard.press('Control+k');
      await expect(page.getByTestId('command-palette')).toBeVisible();
      await audit(page, `${theme} command palette`);
      await page.keyboard.type('zzzz nothing');
      await expect(page.getByTestId('palette-empty')).toBeVisible();
      await audit(page, `${theme} command palette, no match`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('?');
      await expect(page.getByTestId('cheat-sheet')).toBeVisible();
      await audit(page, `${theme} cheat-sheet`);
      await page.keyboard.press('Escape');
      await select(page, 'item-request');
      await page.keyboard.press('f');
      await expect(page.getByTestId('fullscreen-editor')).toBeVisible();
      await audit(page, `${theme} full-screen editor`);
    });
  });
}
