/**
 * A team's people on a real PostgreSQL: added with a role (names unique, case-insensitively, among
 * those not removed), found by subject and sign-in name, and removed — which ends their sessions at
 * once, so the sign-in no longer resolves them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTokenAuth } from '../../main/team/auth.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { teamPeople } from '../../main/team/people.js';
import { teamSessions } from '../../main/team/sessions.js';
import { testDatabase } from '../support/postgres.js';

describe('team people', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let team: TeamDatabase;
  beforeAll(async () => {
    db = await testDatabase();
    team = await openTeamDatabase({ url: db.url });
  });
  afterAll(async () => {
    await team?.close();
    await db?.drop();
  });

  it('adds people with a role, refuses a taken name, finds them by subject and name', async () => {
    const people = teamPeople(team.conn, team.notifier);
    const ana = await people.add({ name: 'Ana', role: 'reviewer', servers: ['srv-a'], passwordHash: '$argon2id$x' }, 1000);
    expect(ana).toMatchObject({ name: 'Ana', role: 'reviewer', servers: ['srv-a'], createdAt: 1000 });
    await expect(people.add({ name: 'ana', role: 'auditor' }, 1001)).rejects.toThrow(/a person named ana exists/);
    expect(await people.find(ana.subject)).toMatchObject({ name: 'Ana' });
    expect(await people.byName('ANA')).toMatchObject({ subject: ana.subject, passwordHash: '$argon2id$x' });
    expect((await people.list()).map((p) => p.name)).toEqual(['Ana']);
  });

  it('removing a person ends their sessions: the sign-in no longer resolves them, and the name is free again', async () => {
    const people = teamPeople(team.conn, team.notifier);
    const bo = await people.add({ name: 'Bo', role: 'auditor' }, 2000);
    const auth = adminTokenAuth(team);
    const session = await teamSessions(team.conn, team.notifier).open(bo.subject);
    expect(await auth.session(session.id)).toEqual({ subject: bo.subject, name: 'Bo', role: 'auditor' });
    expect(await people.remove(bo.subject, 3000)).toBe(true);
    expect(await auth.session(session.id)).toBeUndefined();
    expect(await people.find(bo.subject)).toBeUndefined();
    expect(await people.remove(bo.subject, 3001)).toBe(false);
    await people.add({ name: 'Bo', role: 'reviewer' }, 4000);
  });
});
