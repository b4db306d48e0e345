/**
 * Finds the Chromium-family browser the web e2e tests and the renderer bench drive, the way a
 * developer expects on any machine (README, "Tests"):
 *
 * 1. `PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH`, else `CHROME_PATH`, naming an executable (set but
 *    missing is an error, never silently skipped);
 * 2. Playwright's own downloaded Chromium (`npx playwright install chromium`) when present;
 * 3. the usual system locations: `chromium`, `chromium-browser`, `google-chrome(-stable)`,
 *    `microsoft-edge` on the PATH (Linux and other Unixes), Chrome, Chromium and Edge in
 *    `/Applications` (macOS) and under Program Files / LocalAppData (Windows);
 * 4. otherwise {@link BrowserNotFoundError}, whose message is one line saying how to get one.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Environment variables that name the browser executable, in the order they are read. */
export const BROWSER_ENV_VARS = ['PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH', 'CHROME_PATH'] as const;

/** Where the browser was found. */
export type BrowserSource = 'env' | 'playwright' | 'system';

/** A browser executable and how it was found. */
export interface FoundBrowser {
  /** Absolute path of the executable. */
  path: string;
  source: BrowserSource;
}

/** The machine facts the search reads; injected so every platform's rules are testable here. */
export interface BrowserSearchHost {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** Whether `file` exists and is an executable file (on Windows: exists). */
  isExecutable(file: string): boolean;
  /** Where Playwright's own Chromium would be, or undefined when Playwright knows none. */
  playwrightChromium(): string | undefined;
}

/** No browser could be found, or the one an environment variable names does not exist. */
export class BrowserNotFoundError extends Error {
  override name = 'BrowserNotFoundError';
}

const UNIX_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable'];
const UNIX_EXTRA = ['/snap/bin/chromium'];
const MAC_APPS = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
];
const WINDOWS_APPS = ['Google\\Chrome\\Application\\chrome.exe', 'Chromium\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];

/** The system locations to try on `host.platform`, most likely first. */
export function systemCandidates(host: Pick<BrowserSearchHost, 'env' | 'platform'>): string[] {
  const { env, platform } = host;
  if (platform === 'win32') {
    const roots = [env['PROGRAMFILES'], env['PROGRAMFILES(X86)'], env['LOCALAPPDATA']].filter((r): r is string => !!r);
    return WINDOWS_APPS.flatMap((app) => roots.map((root) => path.win32.join(root, app)));
  }
  if (platform === 'darwin') {
    const dirs = ['/Applications', ...(env['HOME'] ? [path.posix.join(env['HOME'], 'Applications')] : [])];
    return MAC_APPS.flatMap((app) => dirs.map((dir) => path.posix.join(dir, app)));
  }
  const pathDirs = (env['PATH'] ?? '').split(':').filter(Boolean);
  return [...UNIX_NAMES.flatMap((name) => pathDirs.map((dir) => path.posix.join(dir, name))), ...UNIX_EXTRA];
}

/** One line telling a developer how to get a browser for the tests. */
export function howToGetBrowser(): string {
  return (
    'No Chromium-family browser found for the e2e tests: set PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH to one, ' +
    'or install Chromium, Google Chrome or Microsoft Edge (Debian/Ubuntu: apt-get install chromium), ' +
    'or run `npx playwright install chromium`.'
  );
}

/**
 * Finds the browser in the order the module doc gives.
 * @throws {BrowserNotFoundError} when an environment variable names a missing file, or nothing is found.
 */
export function findBrowser(host: BrowserSearchHost): FoundBrowser {
  for (const name of BROWSER_ENV_VARS) {
    const named = host.env[name];
    if (!named) continue;
    if (!host.isExecutable(named)) throw new BrowserNotFoundError(`${name} names ${named}, which is not an executable file.`);
    return { path: named, source: 'env' };
  }
  const own = host.playwrightChromium();
  if (own && host.isExecutable(own)) return { path: own, source: 'playwright' };
  const system = systemCandidates(host).find((file) => host.isExecutable(file));
  if (system) return { path: system, source: 'system' };
  throw new BrowserNotFoundError(howToGetBrowser());
}

/** `isExecutable` for this machine. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The search host of this machine; `playwrightChromium` asks Playwright where its download would be. */
export function thisMachine(playwrightChromium: () => string | undefined): BrowserSearchHost {
  return { env: process.env, platform: process.platform, isExecutable: isExecutableFile, playwrightChromium };
}

/** Flags every launch uses: no sandbox (root in CI), no GPU, no background traffic on closed networks. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
