/**
 * What a signed-in person may call on a team server, checked in main for every API call before the
 * method runs (the UI only hides what the role cannot do): {@link guardedService} wraps the
 * console's service for one connection's principal.
 *
 * - Each method needs the access `API_ACCESS` gives it (shared/contract/roles.ts); a role that does
 *   not have it is refused with ApiError `forbidden` (`error.forbiddenRole`).
 * - A `decide` method of a reviewer assigned to servers is refused (`error.forbiddenServer`) unless
 *   the item it names belongs to one of them (the queue's item, else its History entry; an item
 *   neither knows is left to the method, which answers not_found). They may still read the queue.
 * - `whoAmI` answers the principal; every call runs inside `actingAs` the person, so the audit
 *   trail, History ("decided by") and the decisions taken on another instance name them.
 */
import { ApiError, type ApiMethod, type ApiParsedInput, type ConsoleService } from '../../shared/contract/api.js';
import { API_ACCESS, roleAllows, type Viewer } from '../../shared/contract/roles.js';
import { ui } from '../../shared/contract/ui-text.js';
import { actingAs } from '../audit/actor.js';

/** The audit actor of `principal`: a person with their subject and name. */
export function actorOf(principal: Viewer): { kind: 'person'; id: string; name: string } {
  return { kind: 'person', id: principal.subject, name: principal.name };
}

/**
 * The server of the item a `decide` call names (`itemId`, or `id` for `reopenHistoryEntry`):
 * the queue's item, else its History entry; undefined when neither has it.
 */
async function serverOfItem(service: ConsoleService, method: ApiMethod, input: unknown): Promise<string | undefined> {
  const { itemId, id } = input as { itemId?: string; id?: string };
  const target = method === 'reopenHistoryEntry' ? id : itemId;
  if (target === undefined) return undefined;
  if (method !== 'reopenHistoryEntry') {
    const found = await service.getItem({ id: target }).catch(() => undefined);
    if (found) return found.item.serverId;
  }
  const entry = await service.getHistoryEntry({ id: target }).catch(() => null);
  return entry?.serverId;
}

/**
 * Checks that `principal` may call `method` with `input`.
 * @throws (rejects) ApiError `forbidden` (`error.forbiddenRole`: the role lacks the method's
 *   access; `error.forbiddenServer`: a reviewer deciding about another server's item)
 */
export async function checkAccess(service: ConsoleService, principal: Viewer, method: ApiMethod, input: unknown): Promise<void> {
  const access = API_ACCESS[method];
  if (!roleAllows(principal.role, access)) throw new ApiError('forbidden', ui('error.forbiddenRole', { role: principal.role }));
  if (access !== 'decide' || principal.role !== 'reviewer' || !principal.servers) return;
  const server = await serverOfItem(service, method, input);
  if (server !== undefined && !principal.servers.includes(server)) throw new ApiError('forbidden', ui('error.forbiddenServer', { server }));
}

/**
 * The console service as `principal` may use it: each method checked ({@link checkAccess}) and run
 * as them (`actingAs`), `whoAmI` answering them. Events pass through whole (every role may read
 * the queue).
 */
export function guardedService(service: ConsoleService, principal: Viewer): ConsoleService {
  const actor = actorOf(principal);
  const guarded = {} as Record<ApiMethod, (input: unknown) => Promise<unknown>>;
  for (const method of Object.keys(API_ACCESS) as ApiMethod[]) {
    const call = method === 'whoAmI' ? async () => principal : (service[method] as (input: unknown) => Promise<unknown>);
    guarded[method] = (input) =>
      actingAs(actor, async () => {
        await checkAccess(service, principal, method, input);
        return call(input as ApiParsedInput<typeof method>);
      });
  }
  return { ...(guarded as unknown as ConsoleService), onEvent: (listener) => service.onEvent(listener) };
}
