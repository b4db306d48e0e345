/**
 * Managing a team's people, as the People settings (API methods) and the command line
 * (`mcp-approval-console users …`) both do it: add (with a password hashed here), change a role
 * and assigned servers, set a new password, remove — each recorded in the audit trail
 * (`person.added`, `person.role_changed`, `person.password_set`, `person.removed`; the password
 * itself never).
 *
 * Removing a person ends their sessions on every instance (their open connections close at once);
 * what else ends with a person is added through {@link PeopleAdminOptions.onRemoved}.
 */
import type { AuditActor, AuditInput } from '../../shared/contract/audit.js';
import type { TeamRole } from '../../shared/contract/roles.js';
import type { AuditTrail } from '../audit/trail.js';
import type { Logger } from '../logger.js';
import { hashPassword } from './passwords.js';
import type { NewPerson, Person, TeamPeople } from './people.js';

/** What {@link peopleAdmin} needs. */
export interface PeopleAdminOptions {
  people: TeamPeople;
  audit?: Pick<AuditTrail, 'record' | 'durable'>;
  logger?: Logger;
  now: () => number;
  /** Work that ends with a removed person (their personal tokens revoked, …), run after the removal; a failure is logged. */
  onRemoved?: Array<(person: Person) => Promise<void>>;
}

/** A person to add: as stored, with a password in the clear (hashed here) instead of its hash. */
export type PersonToAdd = Omit<NewPerson, 'passwordHash'> & { password?: string };

/** The operations; every one rejects with HistoryUnavailableError while the database cannot be reached. */
export interface PeopleAdmin {
  /** @throws Error `a person named … exists`; Error when the password is too short or too long */
  add(person: PersonToAdd, actor: AuditActor): Promise<Person>;
  /** The person as changed, or undefined when there is no such person. */
  setRole(subject: string, role: TeamRole, servers: readonly string[] | undefined, actor: AuditActor): Promise<Person | undefined>;
  /** False when there is no such person. @throws Error when the password is too short or too long */
  setPassword(subject: string, password: string, actor: AuditActor): Promise<boolean>;
  /** The person removed, or undefined when there was none. */
  remove(subject: string, actor: AuditActor): Promise<Person | undefined>;
}

const who = (p: Person) => ({ name: p.name, role: p.role, ...(p.servers && { servers: [...p.servers] }) });

/** The people operations over `opts.people`. */
export function peopleAdmin(opts: PeopleAdminOptions): PeopleAdmin {
  const { people } = opts;
  const recorded = async (input: AuditInput): Promise<void> => {
    if (!opts.audit) return;
    opts.audit.record(input);
    await opts.audit.durable().catch((err: unknown) => opts.logger?.warn('team people: the audit record is not durable yet', { error: String(err) }));
  };
  return {
    async add(p, actor) {
      const { password, ...rest } = p;
      const passwordHash = password === undefined ? undefined : await hashPassword(password);
      const person = await people.add({ ...rest, ...(passwordHash && { passwordHash }) }, opts.now());
      await recorded({ actor, kind: 'person.added', subject: `person:${person.subject}`, details: { ...who(person), password: passwordHash !== undefined, ...(person.oidc && { oidcIssuer: person.oidc.issuer }) } });
      return person;
    },
    async setRole(subject, role, servers, actor) {
      const changed = await people.setRole(subject, role, servers);
      if (!changed) return undefined;
      await recorded({ actor, kind: 'person.role_changed', subject: `person:${subject}`, details: { before: who(changed.before), after: who(changed.after) } });
      return changed.after;
    },
    async setPassword(subject, password, actor) {
      const done = await people.setPassword(subject, await hashPassword(password));
      if (done) await recorded({ actor, kind: 'person.password_set', subject: `person:${subject}`, details: {} });
      return done;
    },
    async remove(subject, actor) {
      const person = await people.find(subject);
      if (!person || !(await people.remove(subject, opts.now()))) return undefined;
      await recorded({ actor, kind: 'person.removed', subject: `person:${subject}`, details: who(person) });
      for (const work of opts.onRemoved ?? []) await work(person).catch((err: unknown) => opts.logger?.warn('team people: work after a removal failed', { error: String(err) }));
      return person;
    },
  };
}
