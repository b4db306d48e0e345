import { describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY as SERVER_KEY } from '../../app/web/server.js';
import { takeToken, TOKEN_STORAGE_KEY, type TokenEnv } from '../../renderer/api/token.js';

function env(search: string, stored: string | null = null, hash = '') {
  const store = new Map<string, string>(stored ? [[TOKEN_STORAGE_KEY, stored]] : []);
  const replaced: string[] = [];
  const e: TokenEnv = {
    location: { pathname: '/', search, hash },
    history: { state: null, replaceState: (_d, _u, url) => void replaced.push(String(url)) },
    sessionStorage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
  };
  return { e, store, replaced };
}

describe('takeToken', () => {
  it('takes the token from the URL, stores it and strips it from the address bar', () => {
    const { e, store, replaced } = env('?token=abc&view=queue', null, '#x');
    expect(takeToken(e)).toBe('abc');
    expect(store.get(TOKEN_STORAGE_KEY)).toBe('abc');
    expect(replaced).toEqual(['/?view=queue#x']);
  });
  it('falls back to sessionStorage after a reload and leaves the URL alone', () => {
    const { e, replaced } = env('', 'stored');
    expect(takeToken(e)).toBe('stored');
    expect(replaced).toEqual([]);
  });
  it('returns null when there is none, and survives a broken storage', () => {
    expect(takeToken(env('').e)).toBeNull();
    const { e } = env('?token=t');
    e.sessionStorage.setItem = () => {
      throw new Error('denied');
    };
    expect(takeToken(e)).toBe('t');
  });
  it('uses the same storage key as the web host reload helper', () => {
    expect(TOKEN_STORAGE_KEY).toBe(SERVER_KEY);
  });
});
