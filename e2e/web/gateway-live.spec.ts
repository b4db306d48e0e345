/**
 * The provider gateway through the real web host: a stdio server launched with `providerGateway`
 * calls the official `openai` SDK inside its `summarize` tool (test/fixtures/gateway-caller-server.ts).
 * The person calls the tool on the Servers screen; the SDK's call waits in the Queue as an OpenAI
 * API call from that server, linked to the tool call it happens in; the person edits the response
 * and approves; the tool's result is the edited text. Settings shows where the gateway listens.
 */
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startOpenAICompatibleServer } from '../../test/fixtures/openai-compatible-server.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let host: WebHostProcess;
let llm: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  llm = await startOpenAICompatibleServer();
  host = await startWebHost(30_000, {
    env: { OPENAI_COMPATIBLE_BASE_URL: llm.baseURL, OPENAI_COMPATIBLE_MODEL: 'loop-small', MCP_CONSOLE_GATEWAY_PORT: '0' },
    servers: { caller: { command: process.execPath, args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/gateway-caller-server.ts')], cwd: ROOT, providerGateway: true } },
  });
});
test.afterAll(async () => {
  await host?.stop();
  await llm?.close();
});

test("a server's own OpenAI call is reviewed like sampling: attributed to the server, linked to its tool call", async ({ page }) => {
  test.setTimeout(90_000);
  llm.script({ text: 'The meeting agreed on the budget.' });
  await page.goto(host.url);
  await page.getByTestId('nav-servers').click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await page.getByTestId('tool-item').filter({ hasText: /^summarize$/ }).click();
  await page.getByTestId('tool-field-text').fill('A long meeting about the budget.');
  await page.getByTestId('call-tool').click();

  await page.getByTestId('nav-queue').click();
  await page.getByTestId('queue-item').first().click();
  await expect(page.getByTestId('request-review')).toBeVisible();
  const header = page.getByTestId('item-header');
  await expect(header.getByTestId('gateway-badge')).toHaveAttribute('data-api', 'openai');
  await expect(header.getByTestId('gateway-model')).toContainText('gpt-4o-mini');
  await expect(header).toContainText('caller');
  await expect(header.getByTestId('item-association')).toContainText('summarize');
  await expect(page.getByTestId('system-prompt')).toHaveValue('Summarize in one line.');
  await expect(page.getByTestId('message-text-0-0')).toContainText('A long meeting about the budget.');
  await shot(page, 'live-gateway-request');
  await page.getByTestId('approve-request').click();

  await expect(page.getByTestId('response-review')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('response-text')).toContainText('The meeting agreed on the budget.');
  await page.getByTestId('response-edit').click();
  await page.getByTestId('response-editor').fill('Budget agreed (checked by a person).');
  await page.getByTestId('approve-response').click();
  await expect(page.getByTestId('outcome-banner')).toContainText('The caller received the response');

  await page.getByTestId('nav-servers').click();
  const call = page.getByTestId('call-result').first();
  await expect(call).toHaveAttribute('data-status', 'succeeded', { timeout: 15_000 });
  await expect(call).toContainText('Budget agreed (checked by a person).');

  await page.getByTestId('nav-settings').click();
  const section = page.getByTestId('settings-gateway');
  await expect(section).toContainText('http://127.0.0.1:');
  await expect(section).toContainText('caller');
  await shot(page, 'live-gateway-settings');
});
