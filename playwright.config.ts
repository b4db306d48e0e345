// Playwright: project `web` runs in Debian's Chromium (no downloaded browsers: never run
// `npx playwright install`); project `electron` drives the desktop app with `_electron.launch`
// where the Electron binary is installed.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  workers: 1,
  outputDir: 'test-results',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  forbidOnly: !!process.env.CI,
  projects: [
    {
      name: 'web',
      testDir: 'e2e/web',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
        screenshot: 'only-on-failure',
        trace: 'retain-on-failure',
      },
    },
    {
      name: 'electron',
      testDir: 'e2e/electron',
      use: { screenshot: 'only-on-failure', trace: 'retain-on-failure' },
    },
  ],
});
