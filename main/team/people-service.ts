/**
 * The People API methods (shared/contract/people.ts): on a team server over {@link peopleAdmin}
 * (each change recorded in the audit trail as the person acting: main/audit/actor.ts), on the
 * desktop refused (`invalid_state`, error.teamOnly). Whether the caller may call them at all
 * (admins only: shared/contract/roles.ts) is checked by the host before a method runs.
 */
import { ApiError, type ConsoleService } from '../../shared/contract/api.js';
import type { PersonView } from '../../shared/contract/people.js';
import { ui } from '../../shared/contract/ui-text.js';
import { currentActor, personActing } from '../audit/actor.js';
import type { PeopleAdmin } from './people-admin.js';
import type { Person } from './people.js';

/** The People methods. */
export type PeopleMethods = Pick<ConsoleService, 'listPeople' | 'addPerson' | 'setPersonRole' | 'resetPassword' | 'removePerson'>;

const viewOf = (p: Person): PersonView => ({ subject: p.subject, name: p.name, role: p.role, ...(p.servers && { servers: p.servers }), createdAt: p.createdAt, ...(p.oidc && { ssoIssuer: p.oidc.issuer }) });

/** Refuses a change of the person acting on themselves (an admin locking themselves out). */
function notYourself(subject: string): void {
  if (currentActor()?.id === subject) throw new ApiError('invalid_state', ui('error.notYourself'));
}

/** The methods of a team server over `admin` (and `list`, the people as stored). */
export function teamPeopleMethods(admin: PeopleAdmin, list: () => Promise<Person[]>): PeopleMethods {
  return {
    listPeople: async () => ({ people: (await list()).map(viewOf) }),
    async addPerson({ name, role, servers, password, sso }) {
      try {
        const person = await admin.add({ name, role, ...(servers && { servers }), ...(password !== undefined && { password }), ...(sso && { oidc: sso }) }, personActing());
        return { person: viewOf(person) };
      } catch (err) {
        if (err instanceof Error && /^a person named /.test(err.message)) throw new ApiError('invalid_input', ui('error.personNameTaken', { name }));
        throw err;
      }
    },
    async setPersonRole({ subject, role, servers }) {
      notYourself(subject);
      const person = await admin.setRole(subject, role, servers, personActing());
      if (!person) throw new ApiError('not_found', ui('error.noPerson'));
      return { person: viewOf(person) };
    },
    async resetPassword({ subject, password }) {
      if (!(await admin.setPassword(subject, password, personActing()))) throw new ApiError('not_found', ui('error.noPerson'));
    },
    async removePerson({ subject }) {
      notYourself(subject);
      if (!(await admin.remove(subject, personActing()))) throw new ApiError('not_found', ui('error.noPerson'));
    },
  };
}

/** The desktop's: there are no people to manage. */
export function desktopPeopleMethods(): PeopleMethods {
  const refuse = async (): Promise<never> => {
    throw new ApiError('invalid_state', ui('error.teamOnly'));
  };
  return { listPeople: refuse, addPerson: refuse, setPersonRole: refuse, resetPassword: refuse, removePerson: refuse };
}
