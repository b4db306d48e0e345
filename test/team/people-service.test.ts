/**
 * The People API methods of a team server on a real PostgreSQL, called as a signed-in admin
 * (main/audit/actor.ts): people added (a taken name refused with its message code), listed without
 * any password, their role and servers changed, a password reset that then signs in, removal —
 * each recorded in the audit trail naming the admin who did it; an admin cannot remove or demote
 * themselves; the desktop refuses every method.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditInput } from '../../shared/contract/audit.js';
import { ApiError } from '../../shared/contract/api.js';
import { actingAs } from '../../main/audit/actor.js';
import { teamAuth } from '../../main/team/auth.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { peopleAdmin } from '../../main/team/people-admin.js';
import { desktopPeopleMethods, teamPeopleMethods, type PeopleMethods } from '../../main/team/people-service.js';
import { teamPeople } from '../../main/team/people.js';
import { testDatabase } from '../support/postgres.js';

describe('People API methods', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let team: TeamDatabase;
  let api: PeopleMethods;
  const records: AuditInput[] = [];
  const ADMIN = { kind: 'person' as const, id: 'p_admin', name: 'Root' };
  const asAdmin = <T>(fn: () => Promise<T>) => actingAs(ADMIN, fn);
  const codeOf = async (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (e instanceof ApiError ? `${e.code}:${e.ui?.code}` : String(e)));

  beforeAll(async () => {
    db = await testDatabase();
    team = await openTeamDatabase({ url: db.url });
    const people = teamPeople(team.conn, team.notifier);
    const audit = { record: (r: AuditInput | Promise<AuditInput | undefined>) => void Promise.resolve(r).then((x) => x && records.push(x)), durable: async () => undefined };
    api = teamPeopleMethods(peopleAdmin({ people, audit, now: () => 1_000 }), () => people.list());
  });
  afterAll(async () => {
    await team?.close();
    await db?.drop();
  });

  it('adds, lists, changes the role, resets the password and removes, each recorded as the admin', async () => {
    const { person } = await asAdmin(() => api.addPerson({ name: 'Ana', role: 'reviewer', servers: ['github'], password: 'ana-first-password' }));
    expect(person).toEqual({ subject: expect.stringMatching(/^p_/), name: 'Ana', role: 'reviewer', servers: ['github'], createdAt: 1_000 });
    expect(await codeOf(asAdmin(() => api.addPerson({ name: 'ANA', role: 'auditor' })))).toBe('invalid_input:error.personNameTaken');
    await asAdmin(() => api.addPerson({ name: 'Sso', role: 'auditor', sso: { issuer: 'https://idp.example', subject: 's-1' } }));
    const listed = await asAdmin(() => api.listPeople({}));
    expect(listed.people.map((p) => [p.name, p.role, p.ssoIssuer])).toEqual([['Ana', 'reviewer', undefined], ['Sso', 'auditor', 'https://idp.example']]);
    expect(JSON.stringify(listed)).not.toContain('argon2');
    expect((await asAdmin(() => api.setPersonRole({ subject: person.subject, role: 'admin' }))).person).toMatchObject({ role: 'admin' });
    await asAdmin(() => api.resetPassword({ subject: person.subject, password: 'ana-second-password' }));
    expect(await teamAuth(team).signIn({ method: 'password', name: 'Ana', password: 'ana-first-password' })).toBeUndefined();
    expect(await teamAuth(team).signIn({ method: 'password', name: 'Ana', password: 'ana-second-password' })).toBeDefined();
    await asAdmin(() => api.removePerson({ subject: person.subject }));
    expect(await codeOf(asAdmin(() => api.removePerson({ subject: person.subject })))).toBe('not_found:error.noPerson');
    expect(records.map((r) => [r.kind, r.actor.id])).toEqual([
      ['person.added', 'p_admin'],
      ['person.added', 'p_admin'],
      ['person.role_changed', 'p_admin'],
      ['person.password_set', 'p_admin'],
      ['person.removed', 'p_admin'],
    ]);
    expect(records[2]!.details).toEqual({ before: { name: 'Ana', role: 'reviewer', servers: ['github'] }, after: { name: 'Ana', role: 'admin' } });
    expect(JSON.stringify(records)).not.toContain('ana-second-password');
  });

  it('an admin cannot remove or demote themselves', async () => {
    const { person } = await asAdmin(() => api.addPerson({ name: 'Self', role: 'admin', password: 'self-long-password' }));
    const self = { kind: 'person' as const, id: person.subject, name: 'Self' };
    expect(await codeOf(actingAs(self, () => api.removePerson({ subject: person.subject })))).toBe('invalid_state:error.notYourself');
    expect(await codeOf(actingAs(self, () => api.setPersonRole({ subject: person.subject, role: 'reviewer' })))).toBe('invalid_state:error.notYourself');
  });

  it('the desktop has no people', async () => {
    expect(await codeOf(desktopPeopleMethods().listPeople({}))).toBe('invalid_state:error.teamOnly');
  });
});
