/**
 * A walk through every screen and dialog of the console against the fake API, calling `check` at
 * each stop (the accessibility audit, the pseudo-locale sweep). Three parts, so a spec can run them
 * as separate tests: the queue's review screens, the other screens, the keyboard dialogs.
 */
import type { Page } from '@playwright/test';
import { RULES_FILE_VERSION, RulesFileSchema, type PolicyView } from '../../shared/contract/rules.js';
import { expect } from './ui.js';

/** A policy slice so the Rules screen has content: one rule for `everything`, its counters. */
export function walkPolicy(): PolicyView {
  const rules = RulesFileSchema.parse({
    version: RULES_FILE_VERSION,
    servers: { everything: { rules: [{ id: 'r-notes', name: 'Note summaries', when: { toolCall: 'ask', maxTokensAtMost: 50 }, action: { kind: 'approve_all' } }] } },
  });
  return {
    rules,
    path: '/home/user/.config/mcp-approval-console/rules.json',
    problems: [],
    counters: { everything: { rateLimited: 1, autoApproved: 3, autoRejected: 0, waiting: 0, tokensToday: 1234, spendTodayUsd: null } },
    globalRateLimited: 0,
    pricesKnown: false,
  };
}

/** Called at each stop with a name for it. */
export type Check = (page: Page, name: string) => Promise<void>;

const select = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`).click();

/** The queue: a request (and editing it), one with tools, a response, a hand-written one, a generation, elicitations, a delivered item. */
export async function walkQueue(page: Page, check: Check): Promise<void> {
  await check(page, 'queue');
  await select(page, 'item-request');
  await expect(page.getByTestId('request-review')).toBeVisible();
  await check(page, 'queue request review');
  await page.getByTestId('message-edit-0-0').click();
  await check(page, 'queue request review, editing');
  await select(page, 'item-request-2');
  await expect(page.getByTestId('request-review')).toBeVisible();
  await check(page, 'queue request with tools and a failed attempt');
  await select(page, 'item-response');
  await expect(page.getByTestId('response-review')).toBeVisible();
  await check(page, 'queue response review');
  await select(page, 'item-manual');
  await expect(page.getByTestId('response-review')).toBeVisible();
  await check(page, 'queue hand-written response');
  await select(page, 'item-generating');
  await expect(page.getByTestId('generating-view')).toBeVisible();
  await check(page, 'queue generating');
  await select(page, 'elic-form');
  await expect(page.getByTestId('elicitation-review')).toBeVisible();
  await check(page, 'queue elicitation form');
  await page.getByTestId('elicitation-accept').click(); // the per-field errors
  await check(page, 'queue elicitation form with errors');
  await select(page, 'elic-url');
  await check(page, 'queue elicitation URL');
  for (const id of ['item-delivered', 'item-rejected', 'item-failed', 'item-timed-out', 'item-cancelled']) {
    if ((await page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`).count()) === 0) continue;
    await select(page, id);
    await check(page, `queue ${id.slice(5)} item`);
  }
}

/**
 * Servers (the bridged rows with a roots part open, a tool form, each tab, the editor, import), Providers (and an editor), History (its
 * first `historyEntries` entries opened, default 1), Rules (and a server's), Settings.
 */
export async function walkScreens(page: Page, check: Check, { historyEntries = 1 } = {}): Promise<void> {
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('servers-screen')).toBeVisible();
  await check(page, 'servers');
  await page.locator('[data-testid="bridged-server"][data-server-id="notes"] [data-testid="bridged-roots"] summary').click();
  await check(page, "servers, a bridged server's roots open");
  await page.getByTestId('server-item').first().click();
  await expect(page.getByTestId('server-detail')).toBeVisible();
  await page.getByTestId('tool-item').first().click();
  await check(page, 'server with a tool form');
  for (const tab of ['prompts', 'resources', 'log']) {
    await page.getByTestId(`server-tab-${tab}`).click();
    await check(page, `server ${tab} tab`);
  }
  await page.getByTestId('add-server').click();
  await check(page, 'server editor');
  await page.getByTestId('editor-save').click(); // empty: every required field says why
  await check(page, 'server editor with its problems');
  await page.getByTestId('import-servers').click();
  await check(page, 'server import');
  await page.getByTestId('nav-providers').click();
  await expect(page.getByTestId('providers-screen')).toBeVisible();
  await check(page, 'providers');
  await page.getByTestId('add-provider').click();
  await expect(page.getByTestId('provider-presets')).toBeVisible();
  await check(page, 'provider presets');
  await page.getByTestId('provider-item').first().click();
  await expect(page.getByTestId('provider-editor')).toBeVisible();
  await check(page, 'provider editor');
  await page.getByTestId('nav-history').click();
  await expect(page.getByTestId('history-screen')).toBeVisible();
  await check(page, 'history');
  const entries = page.getByTestId('history-item');
  for (let i = 0; i < Math.min(await entries.count(), historyEntries); i++) {
    await entries.nth(i).click();
    await expect(page.getByTestId('history-detail')).toBeVisible();
    await check(page, `history entry ${i + 1}`);
  }
  await page.getByTestId('nav-rules').click();
  await expect(page.getByTestId('rules-screen')).toBeVisible();
  await check(page, 'rules');
  await page.getByTestId('rules-server-everything').click();
  await check(page, 'rules of a server');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('settings-screen')).toBeVisible();
  await check(page, 'settings');
}

/** The command palette (with and without matches), the cheat-sheet, the full-screen editor. */
export async function walkDialogs(page: Page, check: Check): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('command-palette')).toBeVisible();
  await check(page, 'command palette');
  await page.keyboard.type('zzzz nothing');
  await expect(page.getByTestId('palette-empty')).toBeVisible();
  await check(page, 'command palette, no match');
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(page.getByTestId('cheat-sheet')).toBeVisible();
  await check(page, 'cheat-sheet');
  await page.keyboard.press('Escape');
  await select(page, 'item-request');
  await page.keyboard.press('Enter'); // from its row into its review, where its keys work
  await page.keyboard.press('f');
  await expect(page.getByTestId('fullscreen-editor')).toBeVisible();
  await check(page, 'full-screen editor');
}
