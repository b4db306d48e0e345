/**
 * The Roots panel of a server's page against a fake API: the server's roots listed, remove one and
 * add a folder by path (the exact setServerRoots payloads), and main's refusal shown next to the
 * input. Screenshot: e2e/artifacts/roots-panel.png.
 */
import { emit, expect, failNext, openConsole, recorded, shot, test } from '../support/ui.js';

test('roots: listed, removed and added with the exact payloads; main\'s error shown', async ({ page, appUrl, fixture }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const roots = [
    { uri: 'file:///home/ada/projects/analytical-engine', name: 'analytical-engine' },
    { uri: 'file:///home/ada/notes%20and%20drafts', name: 'notes and drafts' },
  ];
  fixture.state.servers[0]!.roots = roots;
  await openConsole(page, appUrl, fixture);
  await page.getByTestId('nav-servers').click();
  await page.locator('[data-testid="server-item"][data-server-id="everything"]').click();
  const panel = page.getByTestId('roots-panel');
  await expect(panel).toContainText('Roots (2)');
  await expect(panel.getByTestId('root-item')).toHaveCount(2);
  await expect(panel.getByTestId('root-item').first()).toContainText('analytical-engine');
  await expect(panel.getByTestId('root-item').first()).toContainText('file:///home/ada/projects/analytical-engine');
  await panel.getByTestId('root-add-input').fill('/home/ada/datasets');
  await shot(page, 'roots-panel');

  // Add: the current roots plus the typed path.
  await panel.getByRole('button', { name: 'Add folder' }).click();
  await expect.poll(() => recorded(page, 'setServerRoots')).toEqual([
    { serverId: 'everything', folders: ['file:///home/ada/projects/analytical-engine', 'file:///home/ada/notes%20and%20drafts', '/home/ada/datasets'] },
  ]);
  await expect(panel.getByTestId('root-add-input')).toHaveValue('');

  // Remove: every root but that one.
  await panel.getByRole('button', { name: 'Remove notes and drafts' }).click();
  await expect.poll(async () => (await recorded(page, 'setServerRoots')).at(-1)).toEqual({ serverId: 'everything', folders: ['file:///home/ada/projects/analytical-engine'] });

  // Main refuses a path: its message shows by the input, and the typed path stays.
  await failNext(page, 'setServerRoots', '"relative/dir" is not an absolute folder path');
  await panel.getByTestId('root-add-input').fill('relative/dir');
  await panel.getByTestId('root-add-input').press('Enter');
  await expect(panel.getByTestId('root-add-error')).toHaveText('"relative/dir" is not an absolute folder path');
  await expect(panel.getByTestId('root-add-input')).toHaveValue('relative/dir');
  await shot(page, 'roots-panel-error');

  // The list follows main's state.
  await emit(page, { type: 'patch', patch: { version: 100, servers: { all: fixture.state.servers.map((s) => (s.id === 'everything' ? { ...s, roots: [] } : s)) } } });
  await expect(panel.getByTestId('roots-empty')).toContainText('No folders are shared with everything');
});
