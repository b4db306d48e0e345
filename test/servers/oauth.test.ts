/**
 * OAuth for an HTTP server against the loopback authorization server of test/fixtures/oauth-server.ts
 * (metadata discovery, dynamic client registration, authorization code with PKCE, refresh):
 * connecting without tokens shows `needs_auth` and opens nothing; "Sign in" hands the authorization
 * URL to the injected `openExternal` (here: the fixture playing the browser), the loopback callback
 * checks the state and stores the tokens in the secret store, and the server connects; a tool call
 * works; revoked access tokens are refreshed by the SDK; "Sign out" removes the tokens.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEraCache } from '../../main/mcp/era-cache.js';
import { createServerConnection, type ServerConnection } from '../../main/mcp/connection.js';
import { createCallbackServer } from '../../main/servers/oauth/callback-server.js';
import { createOAuthService, type OAuthService } from '../../main/servers/oauth/service.js';
import { oauthSecretNames } from '../../main/servers/oauth/provider.js';
import { createMemorySecretStore, type SecretStore } from '../../main/secrets/secret-store.js';
import type { ServerView } from '../../shared/contract/state.js';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-server.js';

async function until(conn: ServerConnection, pred: (v: ServerView) => boolean, what: string): Promise<ServerView> {
  const end = Date.now() + 15_000;
  for (;;) {
    const v = conn.view();
    if (pred(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify({ status: v.status, error: v.error, auth: v.auth })}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('OAuth sign-in to a protected Streamable HTTP server', () => {
  let fx: OAuthFixture;
  let secrets: SecretStore;
  let oauth: OAuthService;
  let conn: ServerConnection;
  const opened: string[] = [];
  const callbacks: Array<{ status: number; body: string }> = [];
  const logged: string[] = [];
  const logger = {
    info: (m: string, d?: object) => void logged.push(m + JSON.stringify(d ?? {})),
    warn: (m: string, d?: object) => void logged.push(m + JSON.stringify(d ?? {})),
    error: (m: string, d?: object) => void logged.push(m + JSON.stringify(d ?? {})),
  };

  beforeAll(async () => {
    fx = await startOAuthFixture();
    const real = createMemorySecretStore();
    const written: string[] = [];
    secrets = { ...real, set: async (name, value) => (written.push(value), real.set(name, value)) };
    oauth = createOAuthService({
      secrets,
      logger,
      now: Date.now,
      onChange() {},
      callback: createCallbackServer(),
      openExternal: async (url) => {
        opened.push(url);
        // The "browser" goes on asynchronously, like a real one.
        void fx.approve(url).then((r) => callbacks.push(r));
      },
    });
    const config = { url: fx.mcpUrl };
    conn = createServerConnection('protected', config, {
      logger,
      onChange() {},
      requests: { receive: () => Promise.reject(new Error('none')) },
      // Remembered eras: after sign-out the reconnect adopts the cached modern era without a round
      // trip, so the lost sign-in only shows on the first request (the lists).
      eras: openEraCache(mkdtempSync(join(tmpdir(), 'oauth-eras-'))),
      auth: oauth.forServer('protected', config),
    });
  });
  afterAll(async () => {
    await conn?.close();
    await oauth?.close();
    await fx?.close();
  });

  it('without tokens the server needs sign-in, and nothing was opened', async () => {
    await conn.connect();
    const v = await until(conn, (x) => x.status === 'needs_auth', 'needs_auth');
    expect(v.error).toMatch(/sign in/i);
    expect(opened).toEqual([]);
    expect(fx.registrations).toBe(0);
  });

  it('sign-in: the authorization URL goes to openExternal, the callback stores tokens, the server connects', async () => {
    const start = await oauth.signIn('protected', () => conn.connect());
    expect(start.opened).toBe(true);
    expect(opened).toEqual([start.authorizationUrl]);
    const auth = new URL(start.authorizationUrl);
    expect(auth.origin).toBe(fx.issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback$/);
    expect(auth.searchParams.get('state')?.length).toBeGreaterThan(20);
    const v = await until(conn, (x) => x.status === 'ready', 'ready after sign-in');
    expect(callbacks[0]).toMatchObject({ status: 200 });
    expect(callbacks[0]!.body).toContain('You are signed in to &#34;protected&#34;');
    expect(v.auth).toMatchObject({ status: 'signed_in' });
    expect(v.auth!.expiresAt).toBeGreaterThan(Date.now());
    expect(fx.registrations).toBe(1);
    expect(fx.grants).toEqual(['authorization_code']);
    const names = oauthSecretNames('protected', fx.mcpUrl);
    expect(JSON.parse((await secrets.get(names.tokens))!).tokens.access_token).toBeTruthy();
    expect(JSON.stringify(v)).not.toMatch(/access_token|refresh_token/);
  });

  it('a tool call carries the token', async () => {
    const res = await conn.callTool('echo', { text: 'hi' }, { call: { callId: 'c1', kind: 'tools/call', name: 'echo' } });
    expect(res.content).toEqual([{ type: 'text', text: 'signed-in echo: hi (client client-1)' }]);
  });

  it('a callback with an unknown state is refused and changes nothing', async () => {
    const cb = new URL(new URL(opened[0]!).searchParams.get('redirect_uri')!);
    cb.searchParams.set('code', 'forged');
    cb.searchParams.set('state', 'not-the-state');
    const res = await fetch(cb);
    expect(res.status).toBe(400);
    expect(fx.grants).toEqual(['authorization_code']);
  });

  it('revoked access tokens are refreshed by the SDK and the call goes through', async () => {
    fx.revokeAccessTokens();
    const refusedBefore = fx.refused;
    const res = await conn.callTool('echo', { text: 'again' }, { call: { callId: 'c2', kind: 'tools/call', name: 'echo' } });
    expect(res.content).toEqual([{ type: 'text', text: 'signed-in echo: again (client client-1)' }]);
    expect(fx.refused).toBeGreaterThan(refusedBefore);
    expect(fx.grants).toEqual(['authorization_code', 'refresh_token']);
  });

  it('two calls refused at once share one refresh (the server rotates refresh tokens)', async () => {
    fx.revokeAccessTokens();
    const call = (callId: string, text: string) => conn.callTool('echo', { text }, { call: { callId, kind: 'tools/call', name: 'echo' } });
    const [a, b] = await Promise.all([call('c3', 'one'), call('c4', 'two')]);
    expect(a.content).toEqual([{ type: 'text', text: 'signed-in echo: one (client client-1)' }]);
    expect(b.content).toEqual([{ type: 'text', text: 'signed-in echo: two (client client-1)' }]);
    expect(fx.grants).toEqual(['authorization_code', 'refresh_token', 'refresh_token']);
    expect(conn.view().auth).toMatchObject({ status: 'signed_in' });
  });

  it('sign-out removes the tokens; the reconnect needs sign-in again', async () => {
    await oauth.signOut('protected', () => conn.connect());
    const v = await until(conn, (x) => x.status === 'needs_auth', 'needs_auth after sign-out');
    expect(v.auth).toBeUndefined();
    const names = oauthSecretNames('protected', fx.mcpUrl);
    expect(await secrets.get(names.tokens)).toBeUndefined();
  });

  it('never logs a token', () => {
    expect(logged.join('\n')).not.toMatch(/access_token|refresh_token|Bearer [A-Za-z0-9_-]{10}/);
  });
});
