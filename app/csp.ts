/**
 * The Content-Security-Policy both hosts send with the renderer page. One definition, so the web
 * host and the Electron window cannot drift apart. No `electron` import: shared by app/web and
 * app/electron and unit-tested in plain Node.
 */

/**
 * Builds the renderer's CSP header value.
 *
 * @param connectSrc extra `connect-src` sources besides `'self'` (e.g. `ws://127.0.0.1:PORT` for
 *   the web host's WebSocket). Each must be a plain source expression without `;` or `,`.
 * @returns a policy that allows only the app's own scripts (no inline script, no eval), inline
 *   styles, `data:`/`blob:` images and media (the renderer shows sampled images and audio), no
 *   plugins, no `<base>` rewriting and no framing by other pages.
 * @throws Error when a source contains `;`, `,` or whitespace (header injection guard).
 */
export function rendererCsp(connectSrc: readonly string[] = []): string {
  for (const src of connectSrc) {
    if (!src || /[;,\s]/.test(src)) throw new Error(`invalid CSP source ${JSON.stringify(src)}`);
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    `connect-src ${["'self'", ...connectSrc].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
