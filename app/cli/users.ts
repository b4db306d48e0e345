/**
 * `mcp-approval-console users …`: a team server's people from the command line, on the team's
 * database (`--database`, else `MCP_CONSOLE_DATABASE_URL`) — above all the first admin:
 * `users add --admin <name>`. Passwords are read from a prompt that does not echo (on a
 * terminal) or from standard input (`--password-stdin`), never from the command line. Every change
 * is recorded in the audit trail as done by the command line (main/team/people-admin.ts).
 */
import { TEAM_ROLES, type TeamRole } from '../../shared/contract/roles.js';
import type { AuditActor } from '../../shared/contract/audit.js';
import { openPgAuditStore } from '../../main/audit/pg-store.js';
import { createAuditTrail } from '../../main/audit/trail.js';
import { stderrLogger } from '../../main/logger.js';
import { connectOnce, createConnection, describeTarget } from '../../main/store/pg/connection.js';
import { migrate } from '../../main/store/pg/migrate.js';
import { peopleAdmin, type PeopleAdmin } from '../../main/team/people-admin.js';
import { passwordProblem } from '../../main/team/passwords.js';
import { teamPeople, type Person, type TeamPeople } from '../../main/team/people.js';
import { EXIT } from './exit-codes.js';

/** Who the audit trail says made a change from the command line. */
export const COMMAND_LINE_ACTOR: AuditActor = { kind: 'console', name: 'command line' };

/** What the users commands run with. */
export interface UsersContext {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** Reads a password: the whole of standard input (`--password-stdin`), or a prompt that does not echo. */
  readPassword(how: 'stdin' | 'prompt', prompt: string): Promise<string>;
}

/** One users command. */
export type UsersCommand =
  | { action: 'add'; name: string; role: TeamRole; servers?: string[]; passwordFrom?: 'stdin' | 'prompt'; oidc?: { issuer: string; subject: string } }
  | { action: 'list'; json: boolean }
  | { action: 'remove'; name: string }
  | { action: 'set-role'; name: string; role: TeamRole; servers?: string[] }
  | { action: 'passwd'; name: string; passwordFrom: 'stdin' | 'prompt' };

/** Whether `role` is a team role. */
export const isTeamRole = (role: string): role is TeamRole => (TEAM_ROLES as readonly string[]).includes(role);

/**
 * Runs one users command on the database `url`.
 * @returns 0 done; 1 refused (a name taken, no such person, a password too short) or the database unreachable (said on stderr)
 */
export async function usersCommand(ctx: UsersContext, url: string, command: UsersCommand): Promise<number> {
  const target = describeTarget(url);
  let conn: ReturnType<typeof createConnection> | undefined;
  let trail: ReturnType<typeof createAuditTrail> | undefined;
  try {
    const password = 'passwordFrom' in command && command.passwordFrom ? await askPassword(ctx, command.passwordFrom) : undefined;
    const client = await connectOnce({ connection: url });
    try {
      await migrate(client, target);
    } finally {
      await client.end();
    }
    conn = createConnection({ connection: url, maxConnections: 2 });
    const people = teamPeople(conn, { instanceId: () => 'command-line' });
    trail = createAuditTrail(openPgAuditStore({ conn, where: target }), { logger: stderrLogger, now: Date.now });
    const admin = peopleAdmin({ people, audit: trail, logger: stderrLogger, now: Date.now });
    return await run(ctx, people, admin, command, password);
  } catch (err) {
    ctx.err(`mcp-approval-console users: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT.failure;
  } finally {
    await trail?.close().catch(() => undefined);
    await conn?.close().catch(() => undefined);
  }
}

/** The password, checked for length; asked twice on a prompt. @throws Error when it is too short or too long, or the two differ */
async function askPassword(ctx: UsersContext, how: 'stdin' | 'prompt'): Promise<string> {
  const password = (await ctx.readPassword(how, 'Password: ')).replace(/\r?\n$/, '');
  const problem = passwordProblem(password);
  if (problem) throw new Error(problem === 'too_short' ? 'the password is too short (at least 12 characters)' : 'the password is too long (at most 1024 characters)');
  if (how === 'prompt' && (await ctx.readPassword('prompt', 'Again: ')) !== password) throw new Error('the two passwords differ');
  return password;
}

const line = (p: Person) => [p.name, p.role, p.servers ? p.servers.join(',') : '*', p.oidc ? `oidc:${p.oidc.issuer}` : ''].join('\t').trimEnd();

async function run(ctx: UsersContext, people: TeamPeople, admin: PeopleAdmin, c: UsersCommand, password: string | undefined): Promise<number> {
  if (c.action === 'list') {
    const list = await people.list();
    ctx.out(c.json ? `${JSON.stringify(list, null, 2)}\n` : list.map((p) => `${line(p)}\n`).join(''));
    return EXIT.ok;
  }
  if (c.action === 'add') {
    const person = await admin.add({ name: c.name, role: c.role, ...(c.servers && { servers: c.servers }), ...(password !== undefined && { password }), ...(c.oidc && { oidc: c.oidc }) }, COMMAND_LINE_ACTOR);
    ctx.out(`added ${person.name} (${person.role})\n`);
    return EXIT.ok;
  }
  const person = await people.byName(c.name);
  if (!person) {
    ctx.err(`mcp-approval-console users: no person named ${c.name}\n`);
    return EXIT.failure;
  }
  if (c.action === 'remove') {
    await admin.remove(person.subject, COMMAND_LINE_ACTOR);
    ctx.out(`removed ${person.name}; their sessions ended\n`);
  } else if (c.action === 'set-role') {
    await admin.setRole(person.subject, c.role, c.servers, COMMAND_LINE_ACTOR);
    ctx.out(`${person.name} is now ${c.role}${c.servers ? ` on ${c.servers.join(', ')}` : ''}\n`);
  } else {
    await admin.setPassword(person.subject, password!, COMMAND_LINE_ACTOR);
    ctx.out(`new password set for ${person.name}\n`);
  }
  return EXIT.ok;
}

/** Reads a password from standard input (all of it) or from a terminal prompt that does not echo. @throws Error when a prompt is asked of a stdin that is not a terminal */
export async function readPasswordFromProcess(how: 'stdin' | 'prompt', prompt: string): Promise<string> {
  const stdin = process.stdin;
  if (how === 'stdin') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (!stdin.isTTY) throw new Error('no terminal to ask the password on: give --password-stdin and pipe it in');
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise<string>((resolve, reject) => {
    let typed = '';
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(() => resolve(typed));
        if (ch === '\u0003') return done(() => reject(new Error('cancelled')));
        if (ch === '\u007f') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    const done = (finish: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      finish();
    };
    stdin.on('data', onData);
  });
}
