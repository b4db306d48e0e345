/**
 * A person opens a team server (`mcp-approval-console serve`, loopback, on a real PostgreSQL named
 * by MCP_CONSOLE_DATABASE_URL):
 * the page asks for a name and password (or the team's admin token); a wrong token is refused
 * with a clear message; the right one opens the console, whose Queue is live over the signed-in
 * connection; the admin adds a person in Settings → People and signs out with the button; that
 * person signs in with their name and password; once the session ends, the page asks again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SERVING_LINE_PREFIX } from '../../app/web/serve.js';
import { startPostgres, type PostgresCluster } from '../../test/support/postgres.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_TOKEN = 'team-admin-token-in-the-browser';
let cluster: PostgresCluster;
let child: ChildProcess | undefined;
let url = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-serve-e2e-'));
  child = spawn(process.execPath, ['--import', 'tsx', 'app/bridge/cli.ts', 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, MCP_CONSOLE_DATABASE_URL: cluster.url(), MCP_CONSOLE_ADMIN_TOKEN: ADMIN_TOKEN, MCP_CONSOLE_SECRET_PASSPHRASE: 'e2e-passphrase' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith(SERVING_LINE_PREFIX));
      if (line) {
        clearTimeout(timer);
        resolve(line.slice(SERVING_LINE_PREFIX.length).trim());
      }
    };
    child!.stdout!.on('data', onData);
    child!.stderr!.on('data', onData);
    child!.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await cluster?.destroy();
});

test('the team server asks for the admin token, refuses a wrong one, opens the console with the right one, and asks again once the session ends', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(url);
  const form = page.getByTestId('team-sign-in');
  await expect(form).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('team-sign-in-page.png') });
  await page.getByText('Sign in with the admin token').click();
  await page.getByTestId('team-admin-token').fill('not-the-token');
  await page.getByTestId('team-sign-in-submit').click();
  await expect(form.getByRole('alert')).toHaveText("That token is not this team's admin token.");
  await page.screenshot({ path: test.info().outputPath('team-sign-in.png') });
  await page.getByTestId('team-admin-token').fill(ADMIN_TOKEN);
  await page.getByTestId('team-sign-in-submit').click();
  await expect(page.getByTestId('nav-queue')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('connecting')).toBeHidden({ timeout: 20_000 });
  await expect(page.getByTestId('connection-error')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('team-console.png') });

  // The admin adds a reviewer in Settings → People.
  await page.getByTestId('nav-settings').click();
  const people = page.getByTestId('settings-people');
  await expect(people).toBeVisible();
  await people.getByTestId('person-add-name').fill('Ana');
  await people.getByTestId('person-add-servers').fill('github, jira');
  await people.getByTestId('person-add-password').fill('ana-long-password');
  await people.getByTestId('person-add-submit').click();
  await expect(people.locator('[data-testid="person"][data-name="Ana"]')).toContainText('github, jira');
  await people.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('team-people.png'), fullPage: true });

  // Signed out with the button, Ana signs in with her name and password.
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('team-sign-in')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('team-name').fill('ana');
  await page.getByTestId('team-password').fill('not-her-password');
  await page.getByTestId('team-password-submit').click();
  await expect(page.getByTestId('team-sign-in').getByRole('alert')).toHaveText('That name and password do not match a person of this team.');
  await page.getByTestId('team-password').fill('ana-long-password');
  await page.getByTestId('team-password-submit').click();
  await expect(page.getByTestId('signed-in-as')).toContainText('Ana', { timeout: 20_000 });

  // The session ends elsewhere (signed out from another tab): the page asks again.
  const status = await page.evaluate(async () => {
    const { csrfToken } = (await (await fetch('/auth/session')).json()) as { csrfToken: string };
    return (await fetch('/auth/sign-out', { method: 'POST', headers: { 'X-CSRF-Token': csrfToken } })).status;
  });
  expect(status).toBe(204);
  await expect(page.getByTestId('team-sign-in')).toBeVisible({ timeout: 20_000 });
});
