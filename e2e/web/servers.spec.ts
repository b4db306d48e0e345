/**
 * The Servers screen through the real web host: add a server with the editor (validation messages
 * first), watch it connect, get a prompt with arguments, read a templated resource, look at the
 * protocol log, then import from Claude Desktop and VS Code config files placed where those hosts
 * keep them (a temp HOME), with a duplicate skipped and a VS Code `${input:…}` filled in; an entry
 * routed through the console's bridge in the host's own file and the route undone; a server
 * that keeps crashing shows its reconnect attempts and "Retry now"; an OAuth-protected HTTP server
 * (test/fixtures/oauth-server.ts) is signed in to through a new tab and then signed out of.
 * Screenshots land in e2e/artifacts/servers-*.png.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { serverEverythingEntry } from '../../main/config.js';
import { startOAuthFixture, type OAuthFixture } from '../../test/fixtures/oauth-server.js';
import { shot } from '../support/ui.js';
import { startWebHost, type WebHostProcess } from '../support/web-host.js';

let host: WebHostProcess;
let home: string;
let project: string;
const everything = serverEverythingEntry();

test.beforeAll(async () => {
  test.setTimeout(60_000);
  home = mkdtempSync(path.join(os.tmpdir(), 'servers-e2e-home-'));
  project = path.join(home, 'project');
  mkdirSync(path.join(home, '.config', 'Claude'), { recursive: true });
  mkdirSync(path.join(project, '.vscode'), { recursive: true });
  writeFileSync(
    path.join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: {
        'everything-from-claude': { command: 'node', args: [everything, 'stdio'], env: { API_TOKEN: 'not-for-screens' } },
        'first-one': { command: 'node', args: [everything, 'stdio', '--same-as-added'] },
      },
    }),
  );
  writeFileSync(
    path.join(project, '.vscode', 'mcp.json'),
    `// VS Code workspace servers
{
  "inputs": [{ "type": "promptString", "id": "greeting", "description": "Greeting for the server" }],
  "servers": {
    "vscode-everything": { "type": "stdio", "command": "node", "args": ["${everything}", "stdio", "--from-vscode"], "env": { "GREETING": "\${input:greeting}" } },
  },
}
`,
  );
  host = await startWebHost(30_000, { env: { HOME: home }, servers: {} });
});
test.afterAll(async () => {
  await host?.stop();
  rmSync(home, { recursive: true, force: true });
});
test.describe.configure({ mode: 'serial' });

test('add a server: field validation, then it connects; prompts, resources and the log', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.goto(host.url);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('add-server').click();
  const editor = page.getByTestId('server-editor');
  await editor.getByTestId('editor-name').fill(' first-one');
  await editor.getByTestId('editor-command').fill('npx -y something');
  await editor.getByTestId('editor-env').fill('GOOD=1\nnot a pair');
  await editor.getByTestId('editor-save').click();
  await expect(editor.getByTestId('editor-error-name')).toHaveText('Name must not start or end with a space');
  await expect(editor.getByTestId('editor-error-command')).toContainText('put its arguments in Arguments');
  await expect(editor.getByTestId('editor-error-env')).toHaveText('line 2: expected KEY=value');
  await editor.getByTestId('editor-transport-sse').check();
  await expect(editor.getByTestId('sse-note')).toContainText('deprecated');
  await editor.getByTestId('editor-url').fill('ftp://nope');
  await expect(editor.getByTestId('editor-error-url')).toContainText('full http:// or https://');
  await shot(page, 'servers-editor-errors');

  await editor.getByTestId('editor-transport-stdio').check();
  await editor.getByTestId('editor-name').fill('first-one');
  await editor.getByTestId('editor-command').fill('node');
  await editor.getByTestId('editor-args').fill(`${everything}\nstdio\n--same-as-added`);
  await editor.getByTestId('editor-env').fill('GREETING=hello');
  await editor.getByTestId('editor-save').click();

  const detail = page.getByTestId('server-detail');
  await expect(detail).toHaveAttribute('data-server-id', 'first-one');
  await expect(detail.getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await expect(detail.getByTestId('server-capabilities')).toContainText('prompts');
  const file = JSON.parse(readFileSync(path.join(host.userDataDir, 'mcp-servers.json'), 'utf8'));
  expect(file.mcpServers['first-one']).toEqual({ command: 'node', args: [everything, 'stdio', '--same-as-added'], env: { GREETING: 'hello' } });

  await detail.getByTestId('server-tab-prompts').click();
  await detail.getByTestId('prompt-item').filter({ hasText: /^args-prompt$/ }).click();
  await detail.getByTestId('get-prompt').click();
  await expect(detail.getByTestId('prompt-form')).toContainText('city is required');
  await detail.getByTestId('prompt-field-city').fill('Lisbon');
  await detail.getByTestId('get-prompt').click();
  const promptCall = detail.getByTestId('call-result').first();
  await expect(promptCall).toHaveAttribute('data-status', 'succeeded');
  await expect(promptCall.getByTestId('prompt-result')).toContainText("What's weather in Lisbon?");
  await shot(page, 'servers-prompt');

  await detail.getByTestId('server-tab-resources').click();
  const template = detail.getByTestId('template-form').filter({ hasText: 'demo://resource/dynamic/text/{resourceId}' });
  await template.getByTestId('template-field-resourceId').fill('5');
  await expect(template.getByTestId('template-uri')).toHaveText('demo://resource/dynamic/text/5');
  await template.getByTestId('read-template').click();
  const readCall = detail.getByTestId('call-result').first();
  await expect(readCall).toHaveAttribute('data-status', 'succeeded');
  await expect(readCall.getByTestId('resource-result')).toContainText('Resource 5: This is a plaintext resource');
  await shot(page, 'servers-resource');

  await detail.getByTestId('server-tab-log').click();
  const log = detail.getByTestId('protocol-log');
  await expect(log).toContainText('resources/read');
  await detail.getByTestId('log-search').fill('prompts/get');
  await expect(log.locator('tbody tr')).toHaveCount(2); // the request and its response (the first click never left the form)
  await shot(page, 'servers-log');
});

test('import from Claude Desktop and VS Code: preview, duplicate skipped, input asked, imported', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(host.url);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('import-servers').click();
  const panel = page.getByTestId('import-panel');
  await panel.getByTestId('import-workspace').fill(project);
  await panel.getByTestId('import-scan').click();

  const claude = panel.getByTestId('import-source').filter({ hasText: 'Claude Desktop' });
  await expect(claude.getByTestId('import-candidate')).toHaveCount(2);
  const dup = claude.locator('[data-name="first-one"]');
  await expect(dup).toHaveAttribute('data-status', 'duplicate');
  await expect(dup.getByTestId('import-reason')).toHaveText('Skipped: a server with this name is already configured');
  await expect(claude.locator('[data-name="everything-from-claude"]')).toContainText('Secrets not shown: env.API_TOKEN');
  await expect(panel).not.toContainText('not-for-screens');
  const vscode = panel.getByTestId('import-source').filter({ hasText: 'VS Code (workspace)' });
  await expect(vscode.locator('[data-name="vscode-everything"]')).toHaveAttribute('data-status', 'new');
  await vscode.getByTestId('import-input-greeting').fill('hi from vscode');
  await shot(page, 'servers-import-preview');

  await panel.getByTestId('import-run').click();
  await expect(panel.getByTestId('import-outcome')).toContainText('Imported everything-from-claude, vscode-everything');
  await shot(page, 'servers-import-done');
  const file = JSON.parse(readFileSync(path.join(host.userDataDir, 'mcp-servers.json'), 'utf8'));
  expect(Object.keys(file.mcpServers)).toEqual(['first-one', 'everything-from-claude', 'vscode-everything']);
  expect(file.mcpServers['vscode-everything'].env).toEqual({ GREETING: 'hi from vscode' });

  await panel.getByTestId('import-close').click();
  await page.getByTestId('server-item').filter({ hasText: 'vscode-everything' }).click();
  await expect(page.getByTestId('server-detail').getByTestId('server-status')).toHaveText('ready', { timeout: 30_000 });
  await shot(page, 'servers-imported');
});

test("route a Claude Desktop entry through the console's bridge, then undo it", async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const configPath = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
  const before = readFileSync(configPath, 'utf8');
  await page.goto(host.url);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('import-servers').click();
  const panel = page.getByTestId('import-panel');
  await panel.getByTestId('import-scan').click();
  const entry = panel.getByTestId('import-source').filter({ hasText: 'Claude Desktop' }).locator('[data-name="everything-from-claude"]');
  await entry.getByTestId('import-route-run').click();
  await expect(entry.getByTestId('import-unroute')).toBeVisible();
  await expect(entry).toContainText('routed through the console');
  const routed = JSON.parse(readFileSync(configPath, 'utf8')).mcpServers['everything-from-claude'];
  expect(routed.command).toMatch(/node/);
  expect(routed.args.slice(-5)).toEqual(['bridge', '--', 'node', everything, 'stdio']);
  expect(routed.args[0]).toMatch(/scripts[\\/]mcp-approval-console\.mjs$/);
  expect(routed.env).toEqual({ API_TOKEN: 'not-for-screens' });
  expect(readFileSync(`${configPath}.bak`, 'utf8')).toBe(before);
  await expect(panel).not.toContainText('not-for-screens');
  await shot(page, 'servers-import-routed');

  await entry.getByTestId('import-unroute').click();
  await expect(entry.getByTestId('import-route-run')).toBeVisible();
  expect(JSON.parse(readFileSync(configPath, 'utf8'))).toEqual(JSON.parse(before));
});

test('a crashing server shows its reconnect attempts; Retry now tries at once', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 760 });
  await page.goto(host.url);
  await page.getByTestId('nav-servers').click();
  await page.getByTestId('add-server').click();
  const editor = page.getByTestId('server-editor');
  await editor.getByTestId('editor-name').fill('crashes');
  await editor.getByTestId('editor-command').fill('node');
  await editor.getByTestId('editor-args').fill('-e\nconsole.error("boom: missing config"); process.exit(3)');
  await editor.getByTestId('editor-save').click();
  const detail = page.getByTestId('server-detail');
  await expect(detail).toHaveAttribute('data-server-id', 'crashes');
  const banner = detail.getByTestId('reconnect-banner');
  await expect(banner.getByTestId('reconnect-attempt')).toHaveText(/^Attempt [2-8] of 8 in .+ \(at .+\)\.$/, { timeout: 15_000 });
  await expect(detail.getByTestId('server-error')).toContainText('boom: missing config');
  await shot(page, 'servers-reconnecting');
  await detail.getByTestId('retry-now').click();
  await detail.getByTestId('server-tab-log').click();
  await detail.getByTestId('log-tab-stderr').click();
  await expect(detail.getByTestId('stderr-log')).toContainText('boom: missing config');
  await detail.getByTestId('remove-server').click();
  await detail.getByTestId('confirm-remove').click();
  await expect(page.getByTestId('server-item').filter({ hasText: 'crashes' })).toHaveCount(0);
});

test.describe('OAuth', () => {
  let fx: OAuthFixture;
  test.beforeAll(async () => {
    fx = await startOAuthFixture();
  });
  test.afterAll(async () => fx?.close());

  test('sign in through a new tab, call a tool, sign out', async ({ page, context }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: 1280, height: 760 });
    await page.goto(host.url);
    await page.getByTestId('nav-servers').click();
    await page.getByTestId('add-server').click();
    const editor = page.getByTestId('server-editor');
    await editor.getByTestId('editor-name').fill('protected');
    await editor.getByTestId('editor-transport-http').check();
    await editor.getByTestId('editor-url').fill(fx.mcpUrl);
    await editor.getByTestId('editor-save').click();
    const detail = page.getByTestId('server-detail');
    await expect(detail.getByTestId('server-status')).toHaveText('sign-in needed', { timeout: 15_000 });
    await expect(detail.getByTestId('auth-banner')).toContainText('This server needs you to sign in');
    await shot(page, 'servers-oauth-needed');

    const tabOpened = context.waitForEvent('page');
    await detail.getByTestId('sign-in').click();
    const tab = await tabOpened;
    await tab.waitForLoadState();
    await expect(tab.locator('h1')).toHaveText('Signed in');
    await expect(tab.locator('body')).toContainText('You are signed in to "protected"');
    await tab.close();
    await expect(detail.getByTestId('server-status')).toHaveText('ready', { timeout: 15_000 });
    await expect(detail.getByTestId('auth-banner')).toContainText('Signed in (OAuth)');
    expect(fx.grants).toEqual(['authorization_code']);

    await detail.getByTestId('tool-item').filter({ hasText: /^echo$/ }).click();
    await detail.getByTestId('tool-field-text').fill('through the console');
    await detail.getByTestId('call-tool').click();
    await expect(detail.getByTestId('call-result').first()).toContainText('signed-in echo: through the console (client client-1)');
    await shot(page, 'servers-oauth-signed-in');
    expect(host.logs()).not.toMatch(/access_token|refresh_token/);

    await detail.getByTestId('sign-out').click();
    await expect(detail.getByTestId('server-status')).toHaveText('sign-in needed', { timeout: 15_000 });
  });
});
