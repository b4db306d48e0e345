import { describe, expect, it } from 'vitest';
import { BrowserNotFoundError, findBrowser, howToGetBrowser, type BrowserSearchHost } from '../../e2e/support/browser.js';

/** A machine where exactly `files` exist and are executable. */
function machine(platform: NodeJS.Platform, env: Record<string, string>, files: string[], own?: string): BrowserSearchHost {
  const present = new Set(files);
  return { env, platform, isExecutable: (f) => present.has(f), playwrightChromium: () => own };
}

describe('finding the e2e browser', () => {
  it('takes the executable an environment variable names before anything else', () => {
    const host = machine('linux', { PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: '/opt/b/chrome', PATH: '/usr/bin' }, ['/opt/b/chrome', '/usr/bin/chromium'], '/pw/chrome');
    expect(findBrowser(host)).toEqual({ path: '/opt/b/chrome', source: 'env' });
  });

  it('reads CHROME_PATH when the Playwright variable is not set', () => {
    const host = machine('darwin', { CHROME_PATH: '/x/Chrome' }, ['/x/Chrome']);
    expect(findBrowser(host)).toEqual({ path: '/x/Chrome', source: 'env' });
  });

  it('refuses a variable that names a missing file instead of quietly using another browser', () => {
    const host = machine('linux', { PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH: '/nope', PATH: '/usr/bin' }, ['/usr/bin/chromium']);
    expect(() => findBrowser(host)).toThrow(/PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH names \/nope/);
  });

  it("prefers Playwright's own download, when present, over the system's browsers", () => {
    const host = machine('linux', { PATH: '/usr/bin' }, ['/pw/chrome', '/usr/bin/chromium'], '/pw/chrome');
    expect(findBrowser(host)).toEqual({ path: '/pw/chrome', source: 'playwright' });
  });

  it('finds Debian chromium, Ubuntu chromium-browser and Google Chrome on the PATH', () => {
    const path = '/usr/local/bin:/usr/bin';
    expect(findBrowser(machine('linux', { PATH: path }, ['/usr/bin/chromium'], '/pw/missing')).path).toBe('/usr/bin/chromium');
    expect(findBrowser(machine('linux', { PATH: path }, ['/usr/bin/chromium-browser'])).path).toBe('/usr/bin/chromium-browser');
    expect(findBrowser(machine('linux', { PATH: path }, ['/usr/local/bin/google-chrome'])).path).toBe('/usr/local/bin/google-chrome');
    expect(findBrowser(machine('linux', { PATH: '' }, ['/snap/bin/chromium'])).path).toBe('/snap/bin/chromium');
  });

  it('finds Chrome or Edge in the macOS Applications folders', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(findBrowser(machine('darwin', { HOME: '/Users/a' }, [chrome])).path).toBe(chrome);
    const userEdge = '/Users/a/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';
    expect(findBrowser(machine('darwin', { HOME: '/Users/a' }, [userEdge])).path).toBe(userEdge);
  });

  it('finds Chrome or Edge under Program Files and LocalAppData on Windows', () => {
    const env = { PROGRAMFILES: 'C:\\Program Files', 'PROGRAMFILES(X86)': 'C:\\Program Files (x86)', LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' };
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(findBrowser(machine('win32', env, [edge])).path).toBe(edge);
    const userChrome = 'C:\\Users\\a\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
    expect(findBrowser(machine('win32', env, [userChrome])).path).toBe(userChrome);
  });

  it('stops with one line that says how to get a browser when there is none', () => {
    let error: unknown;
    try {
      findBrowser(machine('linux', { PATH: '/usr/bin' }, [], '/pw/missing'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BrowserNotFoundError);
    expect((error as Error).message).toBe(howToGetBrowser());
    expect(howToGetBrowser()).not.toContain('\n');
    expect(howToGetBrowser()).toMatch(/PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH/);
  });
});

describe('the Playwright config on a machine without a browser', () => {
  it('stops the web project with the one line, and still lists the electron project', async () => {
    const { spawnSync } = await import('node:child_process');
    const { mkdtempSync } = await import('node:fs');
    const os = await import('node:os');
    const cli = new URL('../../node_modules/@playwright/test/cli.js', import.meta.url).pathname;
    const cwd = new URL('../..', import.meta.url).pathname;
    const empty = mkdtempSync(`${os.tmpdir()}/no-browsers-`);
    const env = { PATH: empty, HOME: empty, PLAYWRIGHT_BROWSERS_PATH: empty };
    const run = (project: string) => spawnSync(process.execPath, [cli, 'test', '--list', `--project=${project}`], { cwd, env, encoding: 'utf8', timeout: 60_000 });
    const web = run('web');
    expect(web.status).toBe(1);
    expect(web.stderr.trim()).toBe(howToGetBrowser());
    expect(run('electron').status).toBe(0);
  }, 90_000);
});
