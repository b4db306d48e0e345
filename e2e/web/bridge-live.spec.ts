/**
 * The sampling bridge through the real web host: an agent host — a bare v2 SDK client that
 * declares no sampling — runs server-everything through `mcp-approval-console bridge everything`
 * on the web host's data folder. The server's sampling request appears in the Queue "via" the
 * host, tied to the host's tool call; the person writes the response and sends it; the host
 * receives it as the tool result. The bridged row on the Servers screen names the host from the
 * host's initialize on, and lists the host's call.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { expect, test } from '@playwright/test';
import { serverEverythingEntry } from '../../main/config.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let host: WebHostProcess;
let agent: Client;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  // The console does not run the server itself: only the agent host's bridge does.
  host = await startWebHost(30_000, { servers: { everything: { command: process.execPath, args: [serverEverythingEntry(), 'stdio'], disabled: true } } });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'app/bridge/cli.ts'), 'bridge', 'everything'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), MCP_CONSOLE_USER_DATA: host.userDataDir, MCP_CONSOLE_BRIDGE_NO_LAUNCH: '1' },
    stderr: 'ignore',
  });
  agent = new Client({ name: 'e2e-agent-host', version: '2.0.0' }, { capabilities: {} });
  await agent.connect(transport);
});
test.afterAll(async () => {
  await agent?.close();
  await host?.stop();
});

test('the bridged row names its host as soon as the host initialized, before its server asks for anything', async ({ page }) => {
  await page.goto(host.url);
  await page.getByTestId('nav-servers').click();
  const bridged = page.locator('[data-testid="bridged-server"][data-server-id="everything"]');
  await expect(bridged).toContainText('e2e-agent-host', { timeout: 15_000 });
  await shot(page, 'live-bridge-host-before-requests');
});

test("a bridged server's sampling request is reviewed in the Queue via its host; the host gets the person's answer", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(host.url);
  const call = agent.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'Name a colour', maxTokens: 20 } });

  await page.getByTestId('nav-queue').click();
  const row = page.getByTestId('queue-item').first();
  await expect(row).toContainText('e2e-agent-host', { timeout: 20_000 });
  await row.click();
  await expect(page.getByTestId('request-review')).toBeVisible();
  await expect(page.getByTestId('item-header')).toContainText('e2e-agent-host');
  await expect(page.getByTestId('item-association')).toContainText('trigger-sampling-request');
  await expect(page.getByTestId('message-text-0-0')).toContainText('Name a colour');
  await shot(page, 'live-bridge-request');
  await page.getByTestId('approve-request').click();
  await expect(page.getByTestId('response-review')).toBeVisible();
  await page.getByTestId('response-editor').fill('Teal, chosen by a person.');
  await page.getByTestId('approve-response').click();
  await expect(page.getByTestId('outcome-banner')).toContainText('Delivered');

  const result = (await call) as { content: Array<{ text?: string }> };
  expect(result.content.map((b) => b.text ?? '').join('\n')).toContain('Teal, chosen by a person.');

  await page.getByTestId('nav-servers').click();
  const bridged = page.locator('[data-testid="bridged-server"][data-server-id="everything"]');
  await expect(bridged).toContainText('e2e-agent-host');
  await bridged.getByTestId('bridged-calls').locator('summary').click({ timeout: 10_000 });
  await expect(bridged.getByTestId('bridged-call').first()).toContainText('trigger-sampling-request');
  await shot(page, 'live-bridge-servers');
});
