/**
 * Request checks of the loopback web host: the access token, the `Host` header (DNS-rebinding
 * defence) and the WebSocket `Origin` (cross-site WebSocket hijacking defence). Pure functions,
 * no I/O, so each rule is unit-tested on its own.
 */
import { randomBytes } from 'node:crypto';

/** Query parameter that carries the access token (page URL and WebSocket URL). */
export const TOKEN_PARAM = 'token';

/**
 * A fresh access token: 32 random bytes, base64url (43 characters, no padding).
 * Security: unguessable; it is the only credential of the web host.
 */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether a `Host` header names this host: exactly `127.0.0.1:PORT` or `localhost:PORT`
 * (case-insensitive host part). Anything else — another name that resolves to 127.0.0.1 through
 * DNS rebinding, a missing header, another port — is refused.
 *
 * @param host the raw `Host` header value (may be undefined).
 * @param port the port the host listens on.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const h = host.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/**
 * Whether a WebSocket upgrade's `Origin` is this host's own page origin, compared exactly
 * (`http://127.0.0.1:PORT`). A missing Origin is refused too: browsers always send it, and the
 * web host has no non-browser clients.
 *
 * @param origin the raw `Origin` header value (may be undefined).
 * @param expected this host's origin, `http://127.0.0.1:PORT`.
 */
export function isAllowedOrigin(origin: string | undefined, expected: string): boolean {
  return typeof origin === 'string' && origin === expected;
}

/**
 * The token from a request target's query string (`/path?token=…`), or null.
 * @param url the request target as received (`req.url`), relative to the host.
 */
export function tokenFromUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url, 'http://127.0.0.1').searchParams.get(TOKEN_PARAM);
  } catch {
    return null;
  }
}
