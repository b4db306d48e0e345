/**
 * OAuth for a bridged HTTP server, as the console does it for its own: the bridge holds no tokens.
 * Against the loopback authorization server of test/fixtures/oauth-server.ts: before anyone signs
 * in, the host's connection fails with a message saying where to sign in, and the bridged row asks
 * for sign-in; "Sign in" in the console (for the bridged server's id) stores the tokens; the host's
 * next connection works; a revoked access token is refreshed by the console, transparently; "Sign
 * out" in the console makes the bridge drop its token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth-server.js';
import { startHarness, type Harness } from '../support/console-harness.js';
import { connectHost, tempUserData, textOf, type FakeHost } from './support.js';

describe('bridge --url to an OAuth-protected server', () => {
  let fx: OAuthFixture;
  let h: Harness;
  const hosts: FakeHost[] = [];
  const bridge = () => connectHost({ dir: h.dir, bridgeArgs: ['--name', 'protected', '--url', fx.mcpUrl] }).then((host) => (hosts.push(host), host));

  beforeAll(async () => {
    fx = await startOAuthFixture();
    h = await startHarness({ dir: tempUserData({}) });
  }, 60_000);

  afterAll(async () => {
    for (const host of hosts) await host.close();
    await h?.dispose();
    await fx?.close();
  });

  it('before sign-in: the connection fails saying where to sign in, and the bridged row asks for it', async () => {
    await expect(bridge()).rejects.toThrow(/protected needs sign-in/);
    expect(fx.refused).toBeGreaterThan(0);
    // Listed for sign-in even once the host has ended the failed server.
    const s = await h.waitFor((st) => st.bridged?.some((b) => b.serverId === 'protected' && b.auth?.status === 'signed_out') ?? false, 'the bridged row asking for sign-in');
    expect(s.bridged!.find((b) => b.serverId === 'protected')).toMatchObject({ auth: { status: 'signed_out' } });
    const gone = await h.waitFor((st) => st.bridged?.some((b) => b.serverId === 'protected' && b.disconnected) ?? false, 'the row kept after the bridge ended');
    expect(gone.bridged!.find((b) => b.serverId === 'protected')).toEqual({ serverId: 'protected', since: expect.any(Number), pending: 0, auth: { status: 'signed_out' }, disconnected: true });
  });

  it('"Sign in" in the console for the bridged server; then the host connects and calls tools with the console’s token', async () => {
    const start = await h.service.signIn({ serverId: 'protected' });
    expect(start.authorizationUrl).toContain(new URL(fx.issuer).host);
    const callback = await fx.approve(start.authorizationUrl);
    expect(callback.status).toBe(200);
    // Still listed until the host restarts the server, now saying it is signed in.
    await h.waitFor((st) => st.bridged?.some((b) => b.serverId === 'protected' && b.disconnected && b.auth?.status === 'signed_in') ?? false, 'the row signed in, waiting for a restart');
    const host = await bridge();
    expect(textOf(await host.client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toContain('signed-in echo: hi');
    const s = await h.waitFor((st) => st.bridged?.some((b) => b.serverId === 'protected' && !b.disconnected && b.auth?.status === 'signed_in') ?? false, 'the bridged row signed in');
    expect(s.bridged!.filter((b) => b.serverId === 'protected')).toEqual([expect.objectContaining({ auth: expect.objectContaining({ status: 'signed_in' }) })]);
  }, 60_000);

  it('a revoked access token is refreshed by the console; the host notices nothing', async () => {
    const host = hosts.at(-1)!;
    fx.revokeAccessTokens();
    expect(textOf(await host.client.callTool({ name: 'echo', arguments: { text: 'again' } }))).toContain('signed-in echo: again');
    expect(fx.grants).toContain('refresh_token');
  }, 60_000);

  it('"Sign out" in the console: the bridge drops its token, the next call needs sign-in again', async () => {
    const host = hosts.at(-1)!;
    await h.service.signOut({ serverId: 'protected' });
    await expect(host.client.callTool({ name: 'echo', arguments: { text: 'after' } })).rejects.toThrow(/protected needs sign-in/);
    const s = await h.waitFor((st) => st.bridged?.some((b) => b.serverId === 'protected' && b.auth?.status === 'signed_out') ?? false, 'the bridged row signed out');
    expect(s.bridged!.find((b) => b.serverId === 'protected')!.auth).toEqual({ status: 'signed_out' });
  }, 60_000);
});
