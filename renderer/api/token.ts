/**
 * The web host's access token on the renderer side: taken from `?token=` once, kept in
 * sessionStorage (per tab, gone when the tab closes), and removed from the address bar so it does
 * not linger in history, screenshots or screen shares. The web host's reload helper
 * (app/web/server.ts, `/__reauth.js`) reads the same sessionStorage key.
 */

/** sessionStorage key of the token; must equal `TOKEN_STORAGE_KEY` in app/web/server.ts. */
export const TOKEN_STORAGE_KEY = 'mcp-console-token';

/** The browser objects {@link takeToken} touches (injectable for tests). */
export interface TokenEnv {
  location: { pathname: string; search: string; hash: string };
  history: { state: unknown; replaceState(data: unknown, unused: string, url?: string | null): void };
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
}

/**
 * Returns the access token: from the URL's `token` parameter if present (then stores it and
 * rewrites the URL without it, keeping other parameters and the hash), else from sessionStorage.
 * @returns the token, or null when there is none. Never throws (storage may be unavailable).
 */
export function takeToken(env: TokenEnv): string | null {
  const params = new URLSearchParams(env.location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    try {
      env.sessionStorage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    } catch {
      // storage disabled: the token still works for this page load
    }
    params.delete('token');
    const rest = params.toString();
    try {
      env.history.replaceState(env.history.state, '', `${env.location.pathname}${rest ? `?${rest}` : ''}${env.location.hash}`);
    } catch {
      // ignore: the URL keeps the token, nothing breaks
    }
    return fromUrl;
  }
  try {
    return env.sessionStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}
