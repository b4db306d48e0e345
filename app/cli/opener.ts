/**
 * Opening a URL in the person's browser from the command line: `open` on macOS, the URL protocol
 * handler on Windows, `xdg-open` on Linux and other Unixes when a display is there (a terminal
 * over SSH has none: nothing is launched, the caller prints the address instead).
 */
import { spawn } from 'node:child_process';

/** The program and arguments that open `url` on `platform`, or undefined when there is no browser to open. */
export function openerCommand(url: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): { command: string; args: string[] } | undefined {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // rundll32 takes the URL as one argument: `cmd /c start` would split it at `&`.
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [url] };
}

/**
 * Opens `url` in the browser.
 * @returns true once the opener was started; false when there is no browser here or the opener
 *   program is missing
 */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const opener = openerCommand(url, platform, env);
  if (!opener) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(opener.command, opener.args, { detached: true, stdio: 'ignore', windowsHide: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
