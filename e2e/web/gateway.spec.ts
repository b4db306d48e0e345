/**
 * The provider gateway in the renderer, against the fake API: Settings shows where it listens,
 * the base URLs and variables, the servers launched with it and the named tokens (create shows the
 * token once, copy reads it again, revoke asks first, "Show in History" filters History); a
 * provider call in the queue, its review header and History says which API, who called, the model
 * asked for, streamed and the fields not carried over; its review and History word it for its
 * caller (a token's call has no server); the server editor's checkbox.
 */
import { walkPolicy } from '../support/walk.js';
import type { Page } from '@playwright/test';
import { buildAgentGatewayItems, buildGatewayHistoryEntry, buildGatewayItems, GATEWAY_URL } from '../support/fixture-gateway.js';
import type { FakeData } from '../support/fake-api.js';
import { emit, expect, expectNoHorizontalOverflow, failNext, recorded, shot, test } from '../support/ui.js';
import { openWithDesktop, withDesktop } from './settings-fixture.js';

const row = (page: Page, id: string) => page.locator(`[data-testid="queue-item"][data-item-id="${id}"]`);

/** The fixture with the gateway's items in the queue and its entry in History, opened (theme as given). */
async function open(page: Page, appUrl: string, fixture: FakeData, theme: 'light' | 'dark' = 'light'): Promise<FakeData> {
  const now = Date.now();
  fixture.state.items = [...fixture.state.items, ...buildGatewayItems(now)];
  fixture.history = [buildGatewayHistoryEntry(now), ...fixture.history];
  const data = { ...fixture, state: withDesktop(fixture.state, { theme }) };
  await openWithDesktop(page, appUrl, data);
  return data;
}

test.beforeEach(async ({ page }) => {
  page.on('dialog', (d) => {
    throw new Error(`unexpected dialog: ${d.message()}`);
  });
});

test('settings: where the gateway listens, the base URLs and variables, the servers, the tokens', async ({ page, appUrl, fixture, context }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(appUrl).origin });
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('settings-gateway');
  await expect(section.getByTestId('gateway-listening')).toHaveText('Listening');
  await expect(section.getByTestId('gateway-address')).toHaveText(GATEWAY_URL);
  await expect(section.getByTestId('gateway-api-openai')).toContainText('OPENAI_BASE_URL');
  await expect(section.getByTestId('gateway-api-openai')).toContainText('OPENAI_API_KEY');
  await expect(section.getByTestId('gateway-api-anthropic')).toContainText('ANTHROPIC_BASE_URL');
  await expect(section.getByTestId('gateway-api-anthropic')).toContainText('ANTHROPIC_API_KEY');
  await expect(section.getByTestId('gateway-url-anthropic')).toHaveText(`${GATEWAY_URL}/anthropic`);
  await section.getByTestId('copy-gateway-url-openai').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${GATEWAY_URL}/openai/v1`);
  await expect(section.getByTestId('gateway-servers')).toContainText('everything');

  const tokens = section.getByTestId('gateway-token');
  await expect(tokens).toHaveCount(2);
  const ci = section.locator('[data-testid="gateway-token"][data-name="ci-script"]');
  await expect(ci).toContainText('12');
  await expect(section.locator('[data-testid="gateway-token"][data-name="notebook"]')).toContainText('not since start');
  await ci.getByTestId('gateway-token-copy').click();
  await expect(ci.getByTestId('gateway-token-copy')).toHaveText('Copied');
  await expect.poll(() => recorded(page, 'revealGatewayToken')).toEqual([{ name: 'ci-script' }]);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('mcpgw_fake_ci-script');
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'gateway-settings-light');
  await page.setViewportSize({ width: 900, height: 600 });
  await expectNoHorizontalOverflow(page);
  await shot(page, '900x600-gateway-settings');
});

test('settings: no server launched with it, and not listening, say so', async ({ page, appUrl, fixture }) => {
  const data = await open(page, appUrl, fixture);
  await page.getByTestId('nav-settings').click();
  const gateway = { ...data.state.gateway!, listening: false, url: undefined, openaiBaseUrl: undefined, anthropicBaseUrl: undefined, error: 'listen EADDRINUSE 127.0.0.1:41555', servers: [], tokens: [] };
  await emit(page, { type: 'patch', patch: { version: data.state.version + 1, gateway } });
  const section = page.getByTestId('settings-gateway');
  await expect(section.getByTestId('gateway-not-listening')).toContainText('EADDRINUSE');
  await expect(section.getByTestId('gateway-servers')).toContainText("none — turn on “Provider gateway” in a stdio server's settings");
  await expect(section.getByTestId('gateway-no-tokens')).toBeVisible();
});

test('settings: a new token is checked as typed, then shown once with Copy', async ({ page, appUrl, fixture, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(appUrl).origin });
  const data = await open(page, appUrl, fixture);
  await page.getByTestId('nav-settings').click();
  const name = page.getByTestId('gateway-token-name');
  await page.getByTestId('gateway-token-create').click();
  await expect(page.getByTestId('gateway-token-name-error')).toHaveText('Give the token a name');
  await name.fill('my script');
  await expect(page.getByTestId('gateway-token-name-error')).toHaveText('Use only letters, digits, “.”, “_” or “-”');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await name.fill('ci-script');
  await expect(page.getByTestId('gateway-token-name-error')).toHaveText('There is already a token named ci-script');
  await page.getByTestId('gateway-token-create').click();
  expect(await recorded(page, 'createGatewayToken')).toEqual([]);

  // Keyboard: type the name and press Enter.
  await name.fill('nightly.build');
  await name.press('Enter');
  await expect.poll(() => recorded(page, 'createGatewayToken')).toEqual([{ name: 'nightly.build' }]);
  const created = page.getByTestId('gateway-created');
  await expect(created.getByTestId('gateway-created-token')).toHaveValue('mcpgw_fake_nightly.build');
  await expect(created.getByTestId('gateway-created-token')).toHaveAttribute('readonly', '');
  await expect(created).toContainText('“Copy token” in the list copies it again');
  await expect(name).toHaveValue('');
  await created.getByTestId('gateway-created-copy').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('mcpgw_fake_nightly.build');
  // Main publishes the new token in the slice.
  const gateway = data.state.gateway!;
  await emit(page, { type: 'patch', patch: { version: data.state.version + 1, gateway: { ...gateway, tokens: [...gateway.tokens, { name: 'nightly.build', createdAt: Date.now(), calls: 0 }] } } });
  await expect(page.getByTestId('gateway-token')).toHaveCount(3);
  await shot(page, 'gateway-token-created');
  await created.getByTestId('gateway-created-done').click();
  await expect(page.getByTestId('gateway-created')).toHaveCount(0);
});

test('settings: revoke asks first; "Keep" sends nothing; a refusal is shown', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-settings').click();
  const ci = page.locator('[data-testid="gateway-token"][data-name="ci-script"]');
  await ci.getByTestId('gateway-token-revoke').click();
  await expect(ci.getByTestId('gateway-revoke-confirm')).toContainText('Calls with it will be refused.');
  await expect(ci.getByTestId('gateway-token-keep')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ci.getByTestId('gateway-revoke-confirm')).toHaveCount(0);
  expect(await recorded(page, 'revokeGatewayToken')).toEqual([]);
  await ci.getByTestId('gateway-token-revoke').click();
  await failNext(page, 'revokeGatewayToken', 'no gateway token named "ci-script"');
  await ci.getByTestId('gateway-token-revoke-confirm').click();
  await expect(ci.getByRole('alert')).toContainText('no gateway token named');
  await ci.getByTestId('gateway-token-revoke-confirm').click();
  await expect.poll(() => recorded(page, 'revokeGatewayToken')).toEqual([{ name: 'ci-script' }, { name: 'ci-script' }]);
});

test('settings: "Show in History" opens History filtered to the token\'s calls', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-settings').click();
  await page.locator('[data-testid="gateway-token"][data-name="ci-script"]').getByTestId('gateway-token-history').click();
  await expect(page.getByTestId('history-screen')).toBeVisible();
  await expect(page.getByTestId('history-filter-serverId')).toHaveValue('gateway:ci-script');
});

test('rules: a named token\'s calls have rules and limits like a server (listed on the Rules screen)', async ({ page, appUrl, fixture }) => {
  fixture.state.policy = walkPolicy();
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-rules').click();
  await expect(page.getByTestId('rules-server-gateway:ci-script')).toBeVisible();
  await expect(page.getByTestId('rules-server-gateway:notebook')).toBeVisible();
});

test('queue, review header and History: a provider call says which API, who called and what it asked', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, appUrl, fixture);
  // A call from a server, while two tool calls ran: the badge, the server, the inferred association.
  await expect(row(page, 'gw-server').getByTestId('gateway-badge')).toHaveText('OpenAI API');
  await expect(row(page, 'gw-server')).toContainText('everything');
  await expect(row(page, 'gw-server')).toContainText('one of 2 calls in flight');
  await expect(row(page, 'item-request').getByTestId('gateway-badge')).toHaveCount(0);
  // A named token's call: no server nor client request behind it.
  await expect(row(page, 'gw-token').getByTestId('gateway-badge')).toHaveText('Anthropic API');
  await expect(row(page, 'gw-token').getByTestId('gateway-caller')).toHaveText('token ci-script');
  await expect(row(page, 'gw-token')).toContainText('asked for claude-sonnet-4-5');
  await expect(row(page, 'gw-nocall')).toContainText('asked for gpt-4.1');

  await row(page, 'gw-server').click();
  const header = page.getByTestId('item-header');
  await expect(header.getByTestId('gateway-badge')).toHaveText('OpenAI API call');
  await expect(header.getByTestId('gateway-model')).toHaveText('Asked for gpt-4o-mini');
  await expect(header.getByTestId('gateway-stream')).toHaveText('Streamed');
  await expect(header.getByTestId('gateway-ignored')).toHaveText('Not carried over: top_p, seed, logit_bias');
  await expect(header.getByTestId('item-association')).toContainText('one of 2 calls in flight');
  await expect(header.getByTestId('item-association')).toContainText('long-running-operation');
  await expect(header.getByTestId('item-era')).toHaveCount(0);
  await shot(page, 'gateway-review-light');

  await row(page, 'gw-token').click();
  await expect(header.getByTestId('gateway-badge')).toHaveText('Anthropic API call');
  await expect(header).toContainText('Caller token ci-script');
  await expect(header.getByTestId('item-association')).toHaveCount(0);
  await expect(header.getByTestId('gateway-stream')).toHaveCount(0);
  await expect(header.getByTestId('gateway-ignored')).toHaveCount(0);

  await row(page, 'gw-nocall').click();
  await expect(header.getByTestId('item-association')).toContainText('no client request');

  await page.getByTestId('nav-history').click();
  const listed = page.locator('[data-testid="history-item"]').first();
  await expect(listed.getByTestId('history-provider-call')).toHaveText('Provider call');
  await listed.click();
  const detail = page.getByTestId('history-detail');
  await expect(detail.getByTestId('gateway-badge')).toHaveText('Anthropic API call');
  await expect(detail.getByRole('heading', { name: 'Provider call' })).toBeVisible();
  await expect(detail.getByTestId('gateway-caller')).toHaveText('token ci-script');
  await expect(detail.getByTestId('history-gateway')).toContainText('Asked for claude-sonnet-4-5');
  await expect(detail.getByTestId('history-gateway')).toContainText('Streamed');
  await expect(detail.getByTestId('history-gateway')).toContainText('Not carried over: top_k');
  await shot(page, 'gateway-history-light');
});

test('review header: the endpoint, the earlier response a call continues, an embeddings call’s texts, system messages moved', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  fixture.state.items = [...fixture.state.items, ...buildAgentGatewayItems(Date.now())];
  await open(page, appUrl, fixture);
  const header = page.getByTestId('item-header');
  await row(page, 'gw-responses').click();
  await expect(header.getByTestId('gateway-endpoint')).toHaveText('Responses API');
  await expect(header.getByTestId('gateway-continues')).toHaveText('Continues resp_7c1d0e5a9b2f4c3d8e6f1a2b3c4d5e6f0a1b2c3d');
  await expect(header.getByTestId('gateway-embeddings')).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await shot(page, 'gateway-responses-light');

  await row(page, 'gw-embeddings').click();
  await expect(header.getByTestId('gateway-endpoint')).toHaveText('Embeddings');
  await expect(header.getByTestId('gateway-embeddings')).toHaveText('3 texts to embed · 256 dimensions');
  await expect(page.getByText('Refund requested for order 5521.')).toBeVisible();
  await shot(page, 'gateway-embeddings-light');

  await row(page, 'gw-moved').click();
  await expect(header.getByTestId('gateway-endpoint')).toHaveText('Messages');
  await expect(header.getByTestId('gateway-moved')).toHaveText('Moved into the system prompt: messages[2]');
  await expect(header.getByTestId('gateway-ignored')).toContainText('anthropic-beta (interleaved-thinking-2025-05-14)');
  await shot(page, 'gateway-moved-light');

  await row(page, 'gw-server').click();
  await expect(header.getByTestId('gateway-endpoint')).toHaveText('Chat Completions');
});

test('an embeddings call is reviewed as what it is: its texts, editable, and the model; nothing about tokens, temperature or a system prompt', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  fixture.state.items = [...fixture.state.items, ...buildAgentGatewayItems(Date.now())];
  await open(page, appUrl, fixture);
  await row(page, 'gw-embeddings').click();
  const review = page.getByTestId('request-review');
  await expect(review.getByRole('heading', { name: 'Texts to embed (3)' })).toBeVisible();
  await expect(review.getByTestId('message-1')).toContainText('Text 2');
  await expect(review.getByTestId('message-1')).not.toContainText('User');
  for (const field of ['system-prompt', 'max-tokens', 'temperature']) await expect(review.getByTestId(field)).toHaveCount(0);
  await expect(review.getByTestId('model-select')).toBeVisible();
  await expect(review.getByTestId('model-preferences-label')).toHaveText('Model asked for');
  await shot(page, 'gateway-embeddings-review');
  await review.getByTestId('message-edit-1-0').click();
  await review.getByTestId('message-editor-1-0').fill('Refund requested for order 5522.');
  await review.getByTestId('approve-request').click();
  await expect.poll(() => recorded(page, 'approveRequest')).toHaveLength(1);
  const [sent] = await recorded(page, 'approveRequest');
  const original = fixture.state.items.find((i) => i.id === 'gw-embeddings')!.original;
  expect(sent!.params).toEqual({ ...original, messages: original.messages.map((m, i) => (i === 1 ? { role: 'user', content: [{ type: 'text', text: 'Refund requested for order 5522.' }] } : m)) });
});

test('review and History: a provider call is worded for its caller, not for a server', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page, appUrl, fixture);
  // An MCP sampling request keeps the server's wording.
  await row(page, 'item-request').click();
  await expect(page.getByTestId('allow-like-this')).toHaveText('Always allow requests like this from this server…');
  await expect(page.getByTestId('model-preferences-label')).toHaveText("Server's model preferences");
  await expect(page.getByTestId('raw-original').locator('summary')).toHaveText('Raw JSON: params as the server sent them');

  // A provider call from a server (it sent a system prompt).
  await row(page, 'gw-server').click();
  await expect(page.getByTestId('allow-like-this')).toHaveText('Always allow provider calls like this from this server…');
  await expect(page.getByTestId('model-preferences-label')).toHaveText('Model asked for');
  await expect(page.getByTestId('raw-original').locator('summary')).toHaveText("Raw JSON: params as translated from the caller's request");

  // A named token's call: no server at all.
  await row(page, 'gw-token').click();
  const review = page.getByTestId('request-review');
  await expect(review.getByTestId('allow-like-this')).toHaveText('Always allow calls like this with token ci-script…');
  await expect(review.locator('label[for="system-prompt"]')).toContainText('(the caller sent none)');
  await expect(review.getByTestId('model-preferences-label')).toHaveText('Model asked for');
  await expect(review.getByTestId('model-preferences')).toContainText('claude-sonnet-4-5');
  await expect(review.getByTestId('raw-original').locator('summary')).toHaveText("Raw JSON: params as translated from the caller's request");
  await expect(review).not.toContainText('server');
  await shot(page, 'gateway-review-token-wording');

  // History: the diff's column and the raw JSON say "caller".
  await page.getByTestId('nav-history').click();
  await page.locator('[data-testid="history-item"]').first().click();
  const detail = page.getByTestId('history-detail');
  await expect(detail.getByTestId('history-field-changes').locator('thead')).toContainText('Caller asked');
  await expect(detail.getByTestId('history-raw-original').locator('summary')).toHaveText("Raw JSON: original (as translated from the caller's request)");
  await shot(page, 'gateway-history-wording');
  await page.locator('[data-testid="history-item"]').nth(1).click();
  await expect(detail.getByTestId('history-field-changes').locator('thead')).toContainText('Server asked');
});

test('dark theme: the provider calls and the gateway settings (screenshots to look at)', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, appUrl, fixture, 'dark');
  await row(page, 'gw-server').click();
  await shot(page, 'dark-gateway-review');
  await row(page, 'gw-token').click();
  await shot(page, 'dark-gateway-review-token');
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('gateway-token-name').fill('nightly');
  await page.getByTestId('gateway-token-create').click();
  await expect(page.getByTestId('gateway-created')).toBeVisible();
  await page.locator('[data-testid="gateway-token"][data-name="notebook"]').getByTestId('gateway-token-revoke').click();
  await page.getByTestId('settings-gateway').scrollIntoViewIfNeeded();
  await shot(page, 'dark-gateway-settings');
  await page.setViewportSize({ width: 900, height: 600 });
  await expectNoHorizontalOverflow(page);
  await shot(page, '900x600-dark-gateway-settings');
});

test('server editor: "Provider gateway" on a stdio entry is sent with the entry', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('add-server').click();
  await page.getByTestId('editor-name').fill('agent');
  await page.getByTestId('editor-command').fill('python3');
  const box = page.getByTestId('editor-providerGateway');
  await expect(box).not.toBeChecked();
  await expect(page.getByTestId('server-editor')).toContainText('ANTHROPIC_API_KEY');
  await box.check();
  await page.getByTestId('editor-save').click();
  await expect.poll(() => recorded(page, 'saveServer')).toEqual([{ id: 'agent', entry: { transport: 'stdio', command: 'python3', args: [], env: {}, providerGateway: true } }]);
  // Not offered for a remote server.
  await page.getByTestId('add-server').click();
  await page.getByTestId('editor-transport-http').click();
  await expect(page.getByTestId('editor-providerGateway')).toHaveCount(0);
});
