/**
 * `mcp-approval-console users …` on a real PostgreSQL: the first admin made from the command line
 * (`users add --admin`), who then signs in with that password; a reviewer with assigned servers;
 * list, set-role, passwd and remove; the password read from standard input and checked for
 * length; every change recorded in the audit trail as made by the command line; usage errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../app/cli/program.js';
import { EXIT } from '../../app/cli/exit-codes.js';
import { connectPgAuditStore } from '../../main/audit/pg-store.js';
import { teamAuth } from '../../main/team/auth.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { teamPeople } from '../../main/team/people.js';
import { teamSessions } from '../../main/team/sessions.js';
import { testDatabase } from '../support/postgres.js';

describe('users on the command line', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let team: TeamDatabase;
  /** Runs the command line with `stdin` as what standard input holds. */
  const cli = async (argv: string[], stdin = '') => {
    let out = '';
    let err = '';
    const asked: string[] = [];
    const code = await runCli(argv, {
      version: '0.0.0',
      userDataDir: '/tmp/no-console-here',
      platform: 'linux',
      env: { MCP_CONSOLE_DATABASE_URL: db.url },
      cwd: process.cwd(),
      installRoot: '/nowhere',
      nodeVersion: '22.14.0',
      launcher: { command: process.execPath, args: [] },
      consoleLaunch: { command: process.execPath, args: [] },
      out: (t) => (out += t),
      err: (t) => (err += t),
      openUrl: async () => false,
      readPassword: async (how) => (asked.push(how), stdin),
    });
    return { code, out, err, asked };
  };

  beforeAll(async () => {
    db = await testDatabase();
  });
  afterAll(async () => {
    await team?.close();
    await db?.drop();
  });

  it('users add --admin makes the first admin, who signs in with that password', async () => {
    const added = await cli(['users', 'add', '--admin', 'Ana', '--password-stdin'], 'the-first-admin-password\n');
    expect(added).toMatchObject({ code: EXIT.ok, out: 'added Ana (admin)\n', asked: ['stdin'] });
    team = await openTeamDatabase({ url: db.url });
    const signedIn = await teamAuth(team).signIn({ method: 'password', name: 'ana', password: 'the-first-admin-password' });
    expect(signedIn?.principal).toMatchObject({ name: 'Ana', role: 'admin' });
    expect(await teamAuth(team).signIn({ method: 'password', name: 'Ana', password: 'the-first-admin-password\n' })).toBeUndefined();
  });

  it('adds a reviewer on some servers, lists, changes the role, sets a password, removes (ending their sessions)', async () => {
    expect((await cli(['users', 'add', 'bo', '--role', 'reviewer', '--servers', 'github, jira', '--password-stdin'], 'bo-long-password-1')).code).toBe(EXIT.ok);
    expect((await cli(['users', 'add', 'cy', '--role', 'auditor', '--oidc-issuer', 'https://idp.example', '--oidc-subject', 'cy-1'])).asked).toEqual([]);
    expect((await cli(['users', 'list'])).out).toBe('Ana\tadmin\t*\nbo\treviewer\tgithub,jira\ncy\tauditor\t*\toidc:https://idp.example\n');
    expect((await cli(['users', 'set-role', 'BO', 'admin'])).out).toBe('bo is now admin\n');
    expect((await cli(['users', 'passwd', 'bo', '--password-stdin'], 'bo-long-password-2')).code).toBe(EXIT.ok);
    const people = teamPeople(team.conn, team.notifier);
    const bo = (await people.byName('bo'))!;
    expect(bo).toMatchObject({ role: 'admin' });
    expect(bo.servers).toBeUndefined();
    expect(await teamAuth(team).signIn({ method: 'password', name: 'bo', password: 'bo-long-password-2' })).toBeDefined();
    const session = await teamSessions(team.conn, team.notifier).open(bo.subject);
    expect((await cli(['users', 'remove', 'bo'])).out).toBe('removed bo; their sessions ended\n');
    expect(await teamAuth(team).session(session.id)).toBeUndefined();
    const store = await connectPgAuditStore(db.url);
    const kinds = (await store.list({ limit: 50 })).map((r) => [r.kind, r.actorKind, r.actorName]);
    await store.close();
    expect(kinds.reverse()).toEqual([
      ['person.added', 'console', 'command line'],
      ['person.added', 'console', 'command line'],
      ['person.added', 'console', 'command line'],
      ['person.role_changed', 'console', 'command line'],
      ['person.password_set', 'console', 'command line'],
      ['person.removed', 'console', 'command line'],
    ]);
  });

  it('refuses a short password, a taken name, an unknown person, a missing role, and no database', async () => {
    expect(await cli(['users', 'add', 'dee', '--role', 'reviewer', '--password-stdin'], 'short')).toMatchObject({ code: EXIT.failure, err: expect.stringMatching(/too short/) });
    expect(await cli(['users', 'add', 'ana', '--role', 'reviewer', '--password-stdin'], 'long-enough-password')).toMatchObject({ code: EXIT.failure, err: expect.stringMatching(/a person named ana exists/) });
    expect(await cli(['users', 'remove', 'nobody'])).toMatchObject({ code: EXIT.failure, err: expect.stringMatching(/no person named nobody/) });
    expect((await cli(['users', 'add', 'dee'])).code).toBe(EXIT.usage);
    expect((await cli(['users', 'add', 'dee', '--role', 'boss'])).code).toBe(EXIT.usage);
  });
});
