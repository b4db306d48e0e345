/**
 * Nothing untranslated: the console in the pseudo-locale (every English text of the renderer's
 * locales, `messages` included, with accented letters between ⟦ ⟧) walked through every screen
 * and dialog; a visible text — a text node, a placeholder, a title or an aria-label — with a run of
 * plain English letters fails unless that run is data the fixture holds (server names, tool
 * names, message text, model ids, paths…) or sits inside `translate="no"` (code, JSON, keys).
 * The English that main keeps beside each message code (`reason`, `outcome.message`, …) is not
 * data: showing it is the failure this test exists for.
 */
import type { Page } from '@playwright/test';
import type { FakeData } from '../support/fake-api.js';
import { buildElicitationItems } from '../support/fixture-elicitation.js';
import { buildGatewayHistoryEntry, buildGatewayItems } from '../support/fixture-gateway.js';
import { expect, test } from '../support/ui.js';
import { walkDialogs, walkPolicy, walkQueue, walkScreens, type Check } from '../support/walk.js';
import { dataStrings, findUntranslated, TECHNICAL } from '../support/untranslated.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';

async function openPseudo(page: Page, url: string, fixture: FakeData): Promise<Check> {
  fixture.state.elicitations = buildElicitationItems(Date.now());
  // A request with sensitive data, so the review shows the detectors' findings.
  const base = fixture.state.items.find((i) => i.id === 'item-request')!;
  const secret = { ...base.original, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Mail jane.doe@example.com the key AKIAIOSFODNN7EXAMPLE.' } }] };
  fixture.state.items = [...fixture.state.items, { ...base, id: 'item-secret', conversationId: 'item-secret', original: secret, sent: secret }, ...buildGatewayItems(Date.now())];
  // A provider call through the gateway, in History too.
  fixture.history = [buildGatewayHistoryEntry(Date.now()), ...fixture.history];
  fixture.state = withDesktop({ ...fixture.state, policy: walkPolicy() });
  await openWithDesktop(page, url, fixture);
  await page.evaluate(() => (window as unknown as { __i18nPseudo(on: boolean): void }).__i18nPseudo(true));
  await expect(page.getByTestId('nav-queue')).toContainText('⟦');
  // Data too: the browser's locale (Settings names it) and what the walk types into the palette.
  const data = [...dataStrings(fixture), ...(await page.evaluate(() => [...navigator.languages])), 'zzzz nothing'];
  return async (p, name) => {
    const found = await p.evaluate(findUntranslated, { data, technical: TECHNICAL });
    expect.soft(found, `${name}: text on screen that did not come through the translations`).toEqual([]);
  };
}

test.describe('pseudo-locale', () => {
  test.beforeEach(async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  test('the queue and every review screen', async ({ page, appUrl, fixture }) => {
    const check = await openPseudo(page, appUrl, fixture);
    await walkQueue(page, check);
    await page.locator('[data-testid="queue-item"][data-item-id="item-secret"]').click();
    await expect(page.getByTestId('redaction-panel')).toBeVisible();
    await check(page, 'a request with sensitive data');
    // The provider calls are the last rows: scrolled to, as a person would (the list is virtualised).
    await page.getByTestId('queue-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    for (const id of ['gw-server', 'gw-token', 'gw-nocall']) {
      await page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`).click();
      await expect(page.getByTestId('item-header').getByTestId('gateway-badge')).toBeVisible();
      await check(page, `a provider call (${id})`);
    }
  });

  test('servers, providers, history, rules, settings', async ({ page, appUrl, fixture }) => {
    await walkScreens(page, await openPseudo(page, appUrl, fixture), { historyEntries: 8 });
  });

  test('keyboard dialogs', async ({ page, appUrl, fixture }) => {
    await walkDialogs(page, await openPseudo(page, appUrl, fixture));
  });
});
