/**
 * Who may call the console API over IPC and where the window may navigate. Pure functions with no
 * `electron` import, so every rule is unit-tested in plain Node (test/hosts/sender-check.test.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app's own renderer: the built `index.html` loaded from disk, or — in development only — the
 * electron-vite dev server (`ELECTRON_RENDERER_URL`).
 */
export type ExpectedRenderer = { kind: 'file'; indexHtmlPath: string } | { kind: 'dev'; url: string };

/**
 * Whether `url` is a page of the app's own renderer.
 *
 * - `file` kind: a `file:` URL whose path (query and hash ignored, dot segments resolved, on
 *   Windows compared case-insensitively) is exactly `indexHtmlPath`; any other file is refused.
 * - `dev` kind: an `http:`/`https:` URL with exactly the dev server's origin.
 *
 * Security: this is the IPC sender check (with {@link isTrustedIpcEvent}) and the navigation
 * allow-list; unparsable URLs and every other scheme (`data:`, `blob:`, `about:`, `chrome:`,
 * `devtools:`) are refused.
 */
export function isTrustedSender(url: string, expected: ExpectedRenderer, platform: NodeJS.Platform = process.platform): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (expected.kind === 'dev') {
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    try {
      return u.origin === new URL(expected.url).origin;
    } catch {
      return false;
    }
  }
  if (u.protocol !== 'file:') return false;
  u.search = '';
  u.hash = '';
  let file: string;
  try {
    file = fileURLToPath(u, { windows: platform === 'win32' });
  } catch {
    return false;
  }
  const p = platform === 'win32' ? path.win32 : path.posix;
  const a = p.resolve(file);
  const b = p.resolve(expected.indexHtmlPath);
  return platform === 'win32' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** The parts of an `IpcMainInvokeEvent` the check reads (Electron's type satisfies this). */
export interface SenderEventLike {
  sender: unknown;
  senderFrame: { url: string; parent: unknown } | null;
}

/**
 * Whether an IPC request comes from the app's own page in the main window: the sending
 * webContents must be `mainWebContents` (not another window, not a webview), the frame must be its
 * top frame (no iframes), and the frame's URL must pass {@link isTrustedSender}.
 * @param mainWebContents the main window's webContents, or null when there is no window.
 */
export function isTrustedIpcEvent(event: SenderEventLike, mainWebContents: unknown, expected: ExpectedRenderer): boolean {
  if (mainWebContents === null || mainWebContents === undefined || event.sender !== mainWebContents) return false;
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return isTrustedSender(frame.url, expected);
}

/**
 * Whether `url` may be handed to the system browser: absolute http(s) URLs only (never file:,
 * javascript:, custom schemes or relative URLs).
 */
export function isExternalWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
