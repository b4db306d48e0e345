/**
 * Who is acting, carried with the work they started (node:async_hooks `AsyncLocalStorage`), so a
 * record made deep inside the pipeline names the person whose API call led to it without every
 * function passing them along. A host that knows who called (a team server's signed-in session)
 * runs the call inside {@link actingAs}; the desktop, where one person sits at the console, runs
 * none, and a person's action is recorded as `{ kind: 'person' }` (no id).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditActor } from '../../shared/contract/audit.js';
import type { DecidedBy } from '../../shared/contract/history-entry.js';
import type { PersonRef } from '../../shared/contract/personal-tokens.js';

const current = new AsyncLocalStorage<AuditActor>();

/** Runs `fn` with `actor` as the one acting (for everything it starts, awaited or not). */
export function actingAs<T>(actor: AuditActor, fn: () => T): T {
  return current.run(actor, fn);
}

/** The actor of the work running now, if a host said who it is. */
export function currentActor(): AuditActor | undefined {
  return current.getStore();
}

/** The person acting now: the host's signed-in person, else the desktop's one person (`{ kind: 'person' }`). */
export function personActing(): AuditActor {
  const actor = current.getStore();
  return actor?.kind === 'person' ? actor : { kind: 'person' };
}

/** The signed-in person acting now (a team server's: subject and name), else undefined (the desktop, a rule, the console). */
export function personDeciding(): PersonRef | undefined {
  const actor = current.getStore();
  return actor?.kind === 'person' && actor.id ? { subject: actor.id, name: actor.name ?? actor.id } : undefined;
}

/** Marks a record decided by the person acting now: `decidedBy: 'person'` and, on a team server, `decider` (History's "decided by"). */
export function decideAsPerson(rec: { decidedBy?: DecidedBy; decider?: PersonRef }): void {
  rec.decidedBy = 'person';
  const person = personDeciding();
  if (person) rec.decider = person;
  else delete rec.decider;
}
