/**
 * The desktop app under Electron (`_electron.launch`). Runs only where the Electron binary is
 * installed; elsewhere it is skipped with a message saying so. Needs `npm run build:electron`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '../..');

/** The Electron executable, found without `require('electron')` (which would try to download it). */
function electronBinary(): string | null {
  try {
    const dir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = path.join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const exe = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(dir, 'dist'), readFileSync(pathFile, 'utf8').trim());
    return existsSync(exe) ? exe : null;
  } catch {
    return null;
  }
}

const executablePath = electronBinary();
const electronAvailable = executablePath !== null;

test('the desktop app opens the console with the bridged API and no Node in the page', async () => {
  test.skip(!electronAvailable, 'The Electron binary is not installed here (node_modules/electron/path.txt or dist/ missing); the web project covers the UI.');
  expect(existsSync(path.join(root, 'out/main/index.js')), 'run `npm run build:electron` first').toBe(true);
  const userData = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-e2e-'));
  const env = { ...process.env } as Record<string, string>;
  delete env.ELECTRON_RUN_AS_NODE;
  const app = await electron.launch({ executablePath: executablePath!, args: [root, `--user-data-dir=${userData}`], env });
  try {
    const win = await app.firstWindow();
    await expect(win).toHaveTitle('MCP Approval Console');
    await expect(win.getByTestId('nav-queue')).toBeVisible();
    await expect(win.getByTestId('connecting')).toHaveCount(0, { timeout: 20_000 });
    expect(await win.evaluate(() => typeof (window as { api?: unknown }).api)).toBe('object');
    expect(await win.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    await win.getByTestId('nav-servers').click();
    await expect(win.getByTestId('servers-screen')).toBeVisible();
  } finally {
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  }
});
