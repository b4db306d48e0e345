/**
 * OpenID Connect sign-in against a real OpenID provider (`oidc-provider`, run in the test) through
 * a team server's listener, driven as a browser does over HTTP: the start (CSRF token and Origin),
 * the provider's login and consent, the callback. A person registered with the provider's
 * issuer and subject gets a new session; with matching by preferred username, a person an admin
 * added is linked at their first sign-in; anyone else is refused (no session) and recorded; a
 * callback whose state was not made for this browser is refused.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditInput } from '../../shared/contract/audit.js';
import { planListening } from '../../app/web/listen-policy.js';
import { startTeamHost, type TeamHost } from '../../app/web/team-host.js';
import { teamAuth, type TeamAuthOptions } from '../../main/team/auth.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { oidcClient } from '../../main/team/oidc.js';
import { teamPeople } from '../../main/team/people.js';
import { createFakeService } from '../support/fake-service.js';
import { startTestProvider, signInAtProvider, type TestProvider } from '../support/oidc-provider.js';
import { testDatabase } from '../support/postgres.js';
import { csrfOf, request, setCookies } from '../support/team-http.js';
import { makeStaticDir } from '../hosts/helpers.js';

describe('OpenID Connect sign-in', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let team: TeamDatabase;
  const hosts: TeamHost[] = [];
  const providers: TestProvider[] = [];
  const cleanups: Array<() => void> = [];
  const records: AuditInput[] = [];
  const audit = { record: (r: AuditInput | Promise<AuditInput | undefined>) => void Promise.resolve(r).then((x) => x && records.push(x)), durable: async () => undefined };

  /** A team host on a fixed free port and a provider whose client redirects to it. */
  const start = async (matchBy?: TeamAuthOptions['oidc']) => {
    const dir = makeStaticDir();
    cleanups.push(dir.cleanup);
    // The provider must know the redirect URL: take a port, then start the provider, then the host on it.
    const probe = await startTeamHost({ plan: planListening({ port: '0' }), staticDir: dir.staticDir, auth: teamAuth(team), serviceFor: () => createFakeService().service });
    const port = probe.port;
    await probe.close();
    const provider = await startTestProvider(`http://127.0.0.1:${port}/auth/oidc/callback`);
    providers.push(provider);
    const oidc = oidcClient({ issuer: provider.issuer, clientId: 'console', clientSecret: 'console-secret', ...(matchBy?.matchBy && { matchBy: matchBy.matchBy }) });
    const host = await startTeamHost({ plan: planListening({ port: String(port) }), staticDir: dir.staticDir, auth: teamAuth(team, { audit, oidc: matchBy ?? {} }), oidc, serviceFor: () => createFakeService().service });
    hosts.push(host);
    return { host, provider };
  };

  /** A browser's whole single sign-on as `login`: the answer of the console's callback, and the cookies it holds for the console. */
  const signOn = async (host: TeamHost, login: string, opts: { swapChecks?: string } = {}) => {
    const csrf = await csrfOf(host.url);
    const started = await request(`${host.url}/auth/oidc/start`, { method: 'POST', headers: { origin: host.url, cookie: csrf.cookie, 'x-csrf-token': csrf.token } });
    expect(started.status).toBe(200);
    const checks = setCookies(started)['mcp-console-oidc']!;
    const { url } = JSON.parse(started.body) as { url: string };
    const back = await signInAtProvider(url, login, `${host.url}/auth/oidc/callback`);
    const callback = await request(back, { headers: { cookie: `mcp-console-oidc=${opts.swapChecks ?? checks}; ${csrf.cookie}` } });
    return { callback, checks };
  };
  const sessionOf = async (host: TeamHost, callback: Awaited<ReturnType<typeof request>>) => {
    const id = setCookies(callback)['mcp-console-session'];
    return id ? (JSON.parse((await request(`${host.url}/auth/session`, { headers: { cookie: `mcp-console-session=${id}` } })).body) as Record<string, unknown>) : undefined;
  };

  beforeAll(async () => {
    db = await testDatabase();
    team = await openTeamDatabase({ url: db.url });
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    await Promise.all(providers.splice(0).map((p) => p.close()));
    for (const c of cleanups.splice(0)) c();
    records.length = 0;
  });
  afterAll(async () => {
    await team?.close();
    await db?.drop();
  });

  it('a person registered with the provider signs in: code flow with PKCE, a new session, the sign-in recorded', async () => {
    const { host, provider } = await start();
    const ana = await teamPeople(team.conn, team.notifier).add({ name: 'Ana', role: 'reviewer', oidc: { issuer: provider.issuer, subject: 'ana-at-idp' } }, 1);
    expect(JSON.parse((await request(`${host.url}/auth/session`)).body)).toMatchObject({ methods: ['password', 'admin_token', 'oidc'] });
    const { callback } = await signOn(host, 'ana-at-idp');
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe('/');
    expect(setCookies(callback)['mcp-console-oidc']).toBe(''); // the checks are used once
    expect(await sessionOf(host, callback)).toMatchObject({ signedIn: true, subject: ana.subject, name: 'Ana', role: 'reviewer' });
    expect(records.map((r) => [r.kind, r.actor.id, r.details?.method])).toEqual([['session.signed_in', ana.subject, 'oidc']]);
  });

  it('an identity the team does not know gets no session, even with an account at the provider; the attempt is recorded', async () => {
    const { host } = await start();
    const { callback } = await signOn(host, 'stranger');
    expect(callback.status).toBe(303);
    expect(callback.headers.location).toBe('/?signIn=oidc_unknown');
    expect(setCookies(callback)['mcp-console-session']).toBeUndefined();
    expect(records.map((r) => r.kind)).toEqual(['session.sign_in_failed']);
  });

  it('matched by preferred username: a person an admin added is linked at the first sign-on; another identity with that name is refused', async () => {
    const { host, provider } = await start({ matchBy: 'preferred_username' });
    const bo = await teamPeople(team.conn, team.notifier).add({ name: 'bo', role: 'auditor' }, 2);
    const first = await signOn(host, 'bo');
    expect(await sessionOf(host, first.callback)).toMatchObject({ subject: bo.subject, role: 'auditor' });
    expect(await teamPeople(team.conn, team.notifier).byOidc(provider.issuer, 'bo')).toMatchObject({ subject: bo.subject });
    // Bo's next sign-on is by the link; nobody else can claim the name now.
    expect(await sessionOf(host, (await signOn(host, 'bo')).callback)).toMatchObject({ subject: bo.subject });
    await teamPeople(team.conn, team.notifier).add({ name: 'cy', role: 'reviewer', oidc: { issuer: 'https://other-idp.example', subject: 'cy' } }, 3);
    expect((await signOn(host, 'cy')).callback.headers.location).toBe('/?signIn=oidc_unknown'); // linked to another provider already
  });

  it("refuses a callback with another sign-in's checks (state, nonce, verifier), and a start without the CSRF token", async () => {
    const { host, provider } = await start();
    await teamPeople(team.conn, team.notifier).add({ name: 'Dee', role: 'reviewer', oidc: { issuer: provider.issuer, subject: 'dee' } }, 4);
    const csrf = await csrfOf(host.url);
    const other = setCookies(await request(`${host.url}/auth/oidc/start`, { method: 'POST', headers: { origin: host.url, cookie: csrf.cookie, 'x-csrf-token': csrf.token } }))['mcp-console-oidc']!;
    const { callback } = await signOn(host, 'dee', { swapChecks: other });
    expect(callback.headers.location).toBe('/?signIn=oidc_failed');
    expect(setCookies(callback)['mcp-console-session']).toBeUndefined();
    const noToken = await request(`${host.url}/auth/oidc/start`, { method: 'POST', headers: { origin: host.url, cookie: csrf.cookie } });
    expect(noToken.status).toBe(403);
    expect(setCookies(noToken)['mcp-console-oidc']).toBeUndefined();
    expect((await request(`${host.url}/auth/oidc/start`, { method: 'POST', headers: { origin: 'https://evil.example', cookie: csrf.cookie, 'x-csrf-token': csrf.token } })).status).toBe(403);
  });
});
