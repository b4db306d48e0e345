// Playwright: project `web` runs in the Chromium-family browser e2e/support/browser.ts finds
// (PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, Playwright's own download, then the system's Chromium,
// Chrome or Edge); project `electron` drives the desktop app with `_electron.launch` where the
// Electron binary is installed.
import { chromium, defineConfig } from '@playwright/test';
import { BrowserNotFoundError, CHROMIUM_ARGS, findBrowser, thisMachine } from './e2e/support/browser.js';

/** Where Playwright's own Chromium would be (it may not be downloaded). */
function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** Only the electron project was asked for: it needs no browser. */
const electronOnly = process.argv.some((a) => a === '--project=electron') && !process.argv.some((a) => a === '--project=web');

/** The browser for the web project; without one, one clear line and exit (unless only electron runs). */
function webBrowser(): string | undefined {
  try {
    return findBrowser(thisMachine(playwrightChromium)).path;
  } catch (e) {
    if (!(e instanceof BrowserNotFoundError) || electronOnly) return undefined;
    console.error(e.message);
    process.exit(1);
  }
}

export default defineConfig({
  workers: 1,
  outputDir: 'test-results',
  timeout: 30_000,
  expect: {
    timeout: 5_000,
    // The documentation's screenshots (e2e/web/docs-screenshots.spec.ts) are compared with the
    // committed images in docs/images/; `npm run screenshots` rewrites those that changed. The
    // tolerance absorbs anti-aliasing differences, not a changed screen.
    toHaveScreenshot: { pathTemplate: '{testDir}/../../docs/images/{arg}{ext}', threshold: 0.2, maxDiffPixels: 4 },
  },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  forbidOnly: !!process.env.CI,
  projects: [
    {
      name: 'web',
      testDir: 'e2e/web',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: webBrowser(),
          args: CHROMIUM_ARGS,
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
