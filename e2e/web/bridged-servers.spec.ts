/**
 * The Servers screen's bridged servers and the Import panel's URL form, against the fake API:
 * a bridged HTTP server's sign-in state and "Sign in" (the authorization page opens in a new tab
 * when main did not open it), a row whose bridge ended while it waits for sign-in, the roots the
 * console offers a connected bridged server (added by keyboard, removed, a refusal shown), and
 * "Route as a URL" for a host that takes URLs and a name the console has (refusals shown).
 */
import type { Page } from '@playwright/test';
import type { ImportScan } from '../../shared/contract/servers.js';
import type { ServerAuthView } from '../../shared/contract/state.js';
import { emit, expect, expectNoHorizontalOverflow, failNext, recorded, shot, test } from '../support/ui.js';
import { addDesktopMethods, withDesktop } from './settings-fixture.js';
import { installFakeApi, toWire, type FakeData } from '../support/fake-api.js';

const AUTHORIZE = 'http://127.0.0.1:9/authorize?client_id=console&state=s1';
const row = (page: Page, id: string) => page.locator(`[data-testid="bridged-server"][data-server-id="${id}"]`);

/** A scan with a Claude Desktop file and a VS Code file, each with `everything` (a server the console has) and `other-one`. */
function scan(): ImportScan {
  const candidate = (name: string, status: 'new' | 'duplicate') => ({ name, transport: 'stdio' as const, target: `npx -y ${name}`, status, inputs: [], unresolved: [], warnings: [], maskedKeys: [] });
  const candidates = [candidate('everything', 'duplicate'), candidate('other-one', 'new')];
  return {
    sources: [
      { format: 'claude-desktop', label: 'Claude Desktop', path: '/home/user/.config/Claude/claude_desktop_config.json', found: true, digest: 'a'.repeat(64), candidates },
      { format: 'vscode', label: 'VS Code (user)', path: '/home/user/.config/Code/User/mcp.json', found: true, digest: 'b'.repeat(64), candidates },
    ],
  };
}

/** The fixture opened as the web host, with `signIn` answering an authorization URL main did not open and `scanImports` the scan above. */
async function open(page: Page, appUrl: string, fixture: FakeData, theme: 'light' | 'dark' = 'light'): Promise<FakeData> {
  const data = { ...fixture, state: withDesktop(fixture.state, { theme }) };
  await page.addInitScript(installFakeApi, toWire(data));
  await addDesktopMethods(page);
  await page.addInitScript(
    ([url, result]) => {
      // The fake's own method records the call (and fails when told to); this one answers.
      const api = (window as unknown as { api: Record<string, (input: unknown) => Promise<unknown>> }).api;
      const answering = (method: string, value: unknown) => {
        const recorded = api[method]!;
        api[method] = (input) => recorded(input).then(() => value);
      };
      answering('signIn', { authorizationUrl: url, opened: false });
      answering('scanImports', result);
    },
    [AUTHORIZE, scan()] as const,
  );
  await page.goto(appUrl);
  await expect(page.getByTestId('connecting')).toHaveCount(0);
  await page.getByTestId('nav-servers').click();
  return data;
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
});

test('bridged rows: sign-in state and "Sign in" (a new tab on the authorization page), a row waiting for sign-in', async ({ page, appUrl, fixture, context }) => {
  const data = await open(page, appUrl, fixture);
  await expect(page.getByTestId('bridged-server')).toHaveCount(3);
  // A stdio server: no sign-in.
  await expect(row(page, 'notes').getByTestId('bridged-auth')).toHaveCount(0);
  // An HTTP server whose sign-in failed: its state, the failure, "Sign in".
  const wiki = row(page, 'wiki');
  await expect(wiki.getByTestId('via-host')).toHaveText('via cursor-vscode');
  await expect(wiki.getByTestId('bridged-auth-status')).toHaveText('Needs sign-in (OAuth)');
  await expect(wiki.getByTestId('bridged-auth-error')).toHaveText('invalid_grant: refresh token expired');
  await expect(wiki.getByRole('group', { name: 'Sign-in of wiki' })).toBeVisible();
  // A server whose bridge ended: muted, waiting for sign-in, no roots to edit.
  const calendar = row(page, 'calendar');
  await expect(calendar).toHaveAttribute('data-disconnected', 'true');
  await expect(calendar.getByTestId('bridged-not-running')).toHaveText('not running');
  await expect(calendar.getByTestId('bridged-waiting')).toHaveText('Waiting for sign-in; restart the server in your agent host afterwards.');
  await expect(calendar.getByTestId('bridged-roots')).toHaveCount(0);
  await expect(calendar.getByTestId('bridged-sign-in')).toHaveText('Sign in');
  await shot(page, 'bridged-rows');

  // Sign in: the tab opens on the click and goes to the authorization page main did not open.
  await context.route('http://127.0.0.1:9/**', (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<title>Authorize</title>' }));
  const popup = context.waitForEvent('page');
  await calendar.getByTestId('bridged-sign-in').click();
  const tab = await popup;
  await expect.poll(() => tab.url()).toContain('/authorize?client_id=console');
  await tab.close();
  expect(await recorded(page, 'signIn')).toEqual([{ serverId: 'calendar' }]);

  // Main publishes the sign-in under way, then done: "Start again", then no button.
  const bridged = data.state.bridged!;
  const withAuth = (auth: ServerAuthView) => bridged.map((b) => (b.serverId === 'calendar' ? { ...b, auth } : b));
  await emit(page, { type: 'patch', patch: { version: data.state.version + 1, bridged: withAuth({ status: 'pending' }) } });
  await expect(calendar.getByTestId('bridged-auth-status')).toHaveText('Waiting for you to sign in');
  await expect(calendar.getByTestId('bridged-auth-link')).toHaveAttribute('href', AUTHORIZE);
  await expect(calendar.getByTestId('bridged-sign-in')).toHaveText('Start again');
  await emit(page, { type: 'patch', patch: { version: data.state.version + 2, bridged: withAuth({ status: 'signed_in' }) } });
  await expect(calendar.getByTestId('bridged-auth-status')).toHaveText('Signed in (OAuth)');
  await expect(calendar.getByTestId('bridged-sign-in')).toHaveCount(0);
  await expect(calendar.getByTestId('bridged-sign-out')).toHaveText('Sign out');
  await expect(calendar.getByTestId('bridged-waiting')).toHaveText('Signed in; restart the server in your agent host to use it.');
  await shot(page, 'bridged-row-signed-in');
  await calendar.getByTestId('bridged-sign-out').click();
  expect(await recorded(page, 'signOut')).toEqual([{ serverId: 'calendar' }]);

  // A refusal is shown on the row.
  await failNext(page, 'signIn', 'no such server: wiki');
  const next = context.waitForEvent('page');
  await wiki.getByTestId('bridged-sign-in').click();
  await (await next).close();
  await expect(wiki.getByRole('alert')).toContainText('no such server: wiki');
});

test('bridged rows: the roots the console offers a connected server, edited from its row by keyboard', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  const notes = row(page, 'notes');
  const roots = notes.getByTestId('bridged-roots');
  await expect(roots.locator('summary')).toHaveText('Roots (1)');
  await roots.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(roots).toHaveAttribute('open', '');
  await expect(roots).toContainText('Offered to the server when claude-ai declares no roots of its own');
  await expect(roots.getByTestId('root-item')).toHaveAttribute('data-uri', 'file:///home/user/notes');

  // Add a folder: type it and press Enter.
  await roots.getByLabel('Add a folder').fill('/home/user/projects');
  await page.keyboard.press('Enter');
  await expect.poll(() => recorded(page, 'setServerRoots')).toEqual([{ serverId: 'notes', folders: ['file:///home/user/notes', '/home/user/projects'] }]);
  await expect(roots.getByLabel('Add a folder')).toHaveValue('');
  await shot(page, 'bridged-roots-open');

  // Remove it; a refusal is shown.
  await failNext(page, 'setServerRoots', 'not a folder: /home/user/notes');
  await roots.getByRole('button', { name: 'Remove notes' }).click();
  await expect(roots.getByRole('alert')).toContainText('not a folder');
  await roots.getByRole('button', { name: 'Remove notes' }).click();
  await expect.poll(async () => (await recorded(page, 'setServerRoots')).at(-1)).toEqual({ serverId: 'notes', folders: [] });

  // An HTTP server's row has none yet.
  await row(page, 'wiki').getByTestId('bridged-roots').locator('summary').click();
  await expect(row(page, 'wiki').getByTestId('roots-empty')).toHaveText('No folders are shared with wiki.');
  await page.setViewportSize({ width: 1024, height: 700 });
  await expectNoHorizontalOverflow(page);
  await shot(page, '1024x700-bridged-roots');
});

test('bridged rows: the host\'s recent calls, and the server\'s log (from its bridge\'s reports)', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  const notes = row(page, 'notes');
  await notes.getByTestId('bridged-calls').locator('summary').click();
  const calls = notes.getByTestId('bridged-call');
  await expect(calls).toHaveCount(2);
  await expect(calls.first()).toContainText('tools/call summarize_note');
  await expect(calls.first()).toHaveAttribute('data-running', 'true');
  await expect(calls.nth(1)).toContainText('ended');
  await notes.getByTestId('bridged-log').locator('summary').click();
  await expect.poll(() => recorded(page, 'getServerLog')).toContainEqual(expect.objectContaining({ serverId: 'notes' }));
  await shot(page, 'bridged-calls-log');
});

test('import: "Route as a URL" for a host that takes URLs and a name the console has; refusals shown', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture);
  await page.getByTestId('import-servers').click();
  const panel = page.getByTestId('import-panel');
  await expect(panel.getByTestId('import-route-forms')).toContainText('“Route as a URL” (VS Code, Claude Code, Cursor and Windsurf');
  await panel.getByTestId('import-scan').click();
  const entry = (source: string, name: string) => panel.getByTestId('import-source').filter({ hasText: source }).locator(`[data-name="${name}"]`);
  // Claude Desktop's file takes commands only; a name the console lacks has nothing to serve.
  await expect(entry('Claude Desktop', 'everything').getByTestId('import-route-url')).toHaveCount(0);
  await expect(entry('Claude Desktop', 'everything').getByTestId('import-route-run')).toBeVisible();
  await expect(entry('VS Code', 'other-one').getByTestId('import-route-url')).toHaveCount(0);
  const vscode = entry('VS Code', 'everything');
  await expect(vscode.getByTestId('import-route-url')).toHaveText('Route as a URL');
  await expect(vscode.getByTestId('import-route-url')).toHaveAttribute('title', /the console's own server “everything” over loopback HTTP/);
  await shot(page, 'import-url-form');

  await failNext(page, 'routeServer', 'The console does not serve its servers over HTTP now (the gateway is not listening)');
  await vscode.getByTestId('import-route-url').click();
  await expect(vscode.getByRole('alert')).toContainText('not listening');
  await vscode.getByTestId('import-route-url').click();
  await expect.poll(() => recorded(page, 'routeServer')).toEqual([
    { path: '/home/user/.config/Code/User/mcp.json', format: 'vscode', name: 'everything', seen: 'b'.repeat(64), how: 'url' },
    { path: '/home/user/.config/Code/User/mcp.json', format: 'vscode', name: 'everything', seen: 'b'.repeat(64), how: 'url' },
  ]);
  // The command form is sent as before (no `how`).
  await entry('Claude Desktop', 'everything').getByTestId('import-route-run').click();
  await expect.poll(async () => (await recorded(page, 'routeServer')).at(-1)).toEqual({ path: '/home/user/.config/Claude/claude_desktop_config.json', format: 'claude-desktop', name: 'everything', seen: 'a'.repeat(64) });
});

test('dark theme: the bridged rows and the Import panel (screenshots to look at)', async ({ page, appUrl, fixture }) => {
  await open(page, appUrl, fixture, 'dark');
  await row(page, 'notes').getByTestId('bridged-roots').locator('summary').click();
  await shot(page, 'dark-bridged-rows');
  await page.getByTestId('import-servers').click();
  await page.getByTestId('import-scan').click();
  await expect(page.getByTestId('import-route-url')).toHaveCount(1);
  await shot(page, 'dark-import-url-form');
});
