/**
 * People's own accounts through a team server's listener, on a real PostgreSQL: a person added
 * with a password signs in with their name (HTTP, as the page does), and is refused with a wrong
 * password; every sign-in, failed sign-in (the name tried, never the password) and sign-out is in
 * the audit trail. A session id brought to a sign-in is never carried into the signed-in session
 * (session fixation); a state-changing call without the CSRF token is refused; failures are
 * limited per name across addresses as well as per address; a removed person's open connection
 * is closed at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { AuditInput } from '../../shared/contract/audit.js';
import { planListening, type ListenPlan } from '../../app/web/listen-policy.js';
import { SESSION_ENDED_CLOSE, startTeamHost, type TeamHost } from '../../app/web/team-host.js';
import { SIGN_IN_ATTEMPTS } from '../../app/web/team-sign-in.js';
import { teamAuth } from '../../main/team/auth.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { hashPassword } from '../../main/team/passwords.js';
import { teamPeople } from '../../main/team/people.js';
import { createFakeService } from '../support/fake-service.js';
import { adminQuery, testDatabase } from '../support/postgres.js';
import { csrfOf, postSignIn, request, setCookies } from '../support/team-http.js';
import { makeStaticDir } from '../hosts/helpers.js';

const ANA_PASSWORD = 'ana-has-a-long-password';

describe('team accounts over HTTP', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let team: TeamDatabase;
  let anaSubject = '';
  const hosts: TeamHost[] = [];
  const cleanups: Array<() => void> = [];
  const records: AuditInput[] = [];
  const audit = { record: (r: AuditInput | Promise<AuditInput | undefined>) => void Promise.resolve(r).then((x) => x && records.push(x)), durable: async () => undefined };
  const start = async (plan: ListenPlan = planListening({ port: '0' })) => {
    const dir = makeStaticDir();
    cleanups.push(dir.cleanup);
    const host = await startTeamHost({ plan, staticDir: dir.staticDir, auth: teamAuth(team, { audit }), serviceFor: () => createFakeService().service });
    hosts.push(host);
    return host;
  };

  beforeAll(async () => {
    db = await testDatabase();
    team = await openTeamDatabase({ url: db.url });
    const people = teamPeople(team.conn, team.notifier);
    anaSubject = (await people.add({ name: 'Ana', role: 'reviewer', passwordHash: await hashPassword(ANA_PASSWORD) }, 1)).subject;
    await people.add({ name: 'Bo', role: 'auditor', passwordHash: await hashPassword('bo-has-a-long-password') }, 2);
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    for (const c of cleanups.splice(0)) c();
    await adminQuery(db.url, 'DELETE FROM team_sessions');
    records.length = 0;
  });
  afterAll(async () => {
    await team?.close();
    await db?.drop();
  });

  it('a person signs in with name and password (any case of the name); a wrong password is refused and recorded with the name only', async () => {
    const host = await start();
    const wrong = await postSignIn(host.url, host.url, { method: 'password', name: 'Ana', password: 'not-her-password' });
    expect(wrong.status).toBe(401);
    expect(setCookies(wrong)['mcp-console-session']).toBeUndefined();
    const ok = await postSignIn(host.url, host.url, { method: 'password', name: 'ana', password: ANA_PASSWORD });
    expect(ok.status).toBe(204);
    const cookie = `mcp-console-session=${setCookies(ok)['mcp-console-session']}`;
    const session = JSON.parse((await request(`${host.url}/auth/session`, { headers: { cookie } })).body) as Record<string, unknown>;
    expect(session).toMatchObject({ signedIn: true, subject: anaSubject, name: 'Ana', role: 'reviewer' });
    const csrf = await csrfOf(host.url);
    expect((await request(`${host.url}/auth/sign-out`, { method: 'POST', headers: { origin: host.url, cookie: `${cookie}; ${csrf.cookie}`, 'x-csrf-token': csrf.token } })).status).toBe(204);
    expect(JSON.parse((await request(`${host.url}/auth/session`, { headers: { cookie } })).body)).toMatchObject({ signedIn: false });
    expect(records.map((r) => [r.kind, r.actor, r.details])).toEqual([
      ['session.sign_in_failed', { kind: 'person', name: 'Ana' }, { method: 'password', name: 'Ana', address: '127.0.0.1' }],
      ['session.signed_in', { kind: 'person', id: anaSubject, name: 'Ana' }, { method: 'password', address: '127.0.0.1' }],
      ['session.signed_out', { kind: 'person', id: anaSubject, name: 'Ana' }, { address: '127.0.0.1' }],
    ]);
    expect(JSON.stringify(records)).not.toContain('not-her-password');
    expect(JSON.stringify(records)).not.toContain(ANA_PASSWORD);
  });

  it('an unknown name and a person without a password are refused like a wrong password', async () => {
    const host = await start();
    await teamPeople(team.conn, team.notifier).add({ name: 'Sso Only', role: 'reviewer', oidc: { issuer: 'https://idp.example', subject: 'u1' } }, 3);
    expect((await postSignIn(host.url, host.url, { method: 'password', name: 'Nobody', password: ANA_PASSWORD })).status).toBe(401);
    expect((await postSignIn(host.url, host.url, { method: 'password', name: 'Sso Only', password: 'anything-at-all-really' })).status).toBe(401);
  });

  it('session fixation: a session id brought to a sign-in is ended, never carried into the new session', async () => {
    const host = await start();
    // An attacker signs in as Bo and plants that session's cookie in Ana's browser.
    const planted = setCookies(await postSignIn(host.url, host.url, { method: 'password', name: 'Bo', password: 'bo-has-a-long-password' }))['mcp-console-session']!;
    const ok = await postSignIn(host.url, host.url, { method: 'password', name: 'Ana', password: ANA_PASSWORD }, { cookie: `mcp-console-session=${planted}` });
    expect(ok.status).toBe(204);
    const fresh = setCookies(ok)['mcp-console-session']!;
    expect(fresh).not.toBe(planted);
    expect(JSON.parse((await request(`${host.url}/auth/session`, { headers: { cookie: `mcp-console-session=${planted}` } })).body)).toMatchObject({ signedIn: false });
    expect(JSON.parse((await request(`${host.url}/auth/session`, { headers: { cookie: `mcp-console-session=${fresh}` } })).body)).toMatchObject({ signedIn: true, name: 'Ana' });
    // A made-up id brought along is not taken either.
    const made = await postSignIn(host.url, host.url, { method: 'password', name: 'Ana', password: ANA_PASSWORD }, { cookie: 'mcp-console-session=chosen-by-the-attacker' });
    expect(setCookies(made)['mcp-console-session']).not.toBe('chosen-by-the-attacker');
    expect(JSON.parse((await request(`${host.url}/auth/session`, { headers: { cookie: 'mcp-console-session=chosen-by-the-attacker' } })).body)).toMatchObject({ signedIn: false });
  });

  it('CSRF: sign-in, sign-out and the single sign-on start without the token (or with another) are refused, and change nothing', async () => {
    const host = await start();
    const body = JSON.stringify({ method: 'password', name: 'Ana', password: ANA_PASSWORD });
    const csrf = await csrfOf(host.url);
    const other = await csrfOf(host.url);
    const json = { origin: host.url, 'content-type': 'application/json' };
    const noToken = await request(`${host.url}/auth/sign-in`, { method: 'POST', headers: { ...json, cookie: csrf.cookie }, body });
    expect(noToken.status).toBe(403);
    expect(JSON.parse(noToken.body)).toMatchObject({ error: 'csrf' });
    expect(setCookies(noToken)['mcp-console-session']).toBeUndefined();
    expect((await request(`${host.url}/auth/sign-in`, { method: 'POST', headers: { ...json, 'x-csrf-token': csrf.token }, body })).status).toBe(403); // no cookie
    expect((await request(`${host.url}/auth/sign-in`, { method: 'POST', headers: { ...json, cookie: csrf.cookie, 'x-csrf-token': other.token }, body })).status).toBe(403);
    // Signed in, a sign-out without the token leaves the session whole.
    const session = `mcp-console-session=${setCookies(await postSignIn(host.url, host.url, JSON.parse(body)))['mcp-console-session']}`;
    expect((await request(`${host.url}/auth/sign-out`, { method: 'POST', headers: { origin: host.url, cookie: `${session}; ${csrf.cookie}` } })).status).toBe(403);
    expect(JSON.parse((await request(`${host.url}/auth/session`, { headers: { cookie: session } })).body)).toMatchObject({ signedIn: true });
    expect((await request(`${host.url}/auth/oidc/start`, { method: 'POST', headers: { origin: host.url, cookie: csrf.cookie } })).status).toBe(404); // not configured here; the OIDC tests refuse it configured
    expect(records.filter((r) => r.kind === 'session.signed_in')).toHaveLength(1);
  });

  it('failed sign-ins are limited per name across addresses, and per address', async () => {
    const host = await start(planListening({ port: '0', behindTlsProxy: true, publicUrl: 'https://console.example.com' }));
    const at = `http://127.0.0.1:${host.port}`;
    const from = (address: string) => ({ headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': address } });
    const origin = 'https://console.example.com';
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) expect((await postSignIn(at, origin, { method: 'password', name: 'Ana', password: `guess-number-${i}-guess` }, from(`10.0.0.${i + 1}`))).status).toBe(401);
    const limited = await postSignIn(at, origin, { method: 'password', name: 'ANA', password: ANA_PASSWORD }, from('10.0.1.1'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await postSignIn(at, origin, { method: 'password', name: 'Bo', password: 'bo-has-a-long-password' }, from('10.0.1.1'))).status).toBe(204); // another name from a new address
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++) await postSignIn(at, origin, { method: 'password', name: `someone-${i}`, password: 'wrong-wrong-wrong' }, from('10.0.2.2'));
    expect((await postSignIn(at, origin, { method: 'password', name: 'Bo', password: 'bo-has-a-long-password' }, from('10.0.2.2'))).status).toBe(429);
  });

  it("removing a person closes their open connections at once and refuses their session", async () => {
    const host = await start();
    const people = teamPeople(team.conn, team.notifier);
    const cy = await people.add({ name: 'Cy', role: 'reviewer', passwordHash: await hashPassword('cy-has-a-long-password') }, 4);
    const cookie = `mcp-console-session=${setCookies(await postSignIn(host.url, host.url, { method: 'password', name: 'Cy', password: 'cy-has-a-long-password' }))['mcp-console-session']}`;
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api`, { headers: { origin: host.url, cookie } });
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    expect(await people.remove(cy.subject, 5)).toBe(true);
    expect(await closed).toBe(SESSION_ENDED_CLOSE); // on the notification, well before the periodic check
    expect(JSON.parse((await request(`${host.url}/auth/session`, { headers: { cookie } })).body)).toMatchObject({ signedIn: false });
    expect((await postSignIn(host.url, host.url, { method: 'password', name: 'Cy', password: 'cy-has-a-long-password' })).status).toBe(401);
  });
});
