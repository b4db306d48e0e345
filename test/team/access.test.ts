/**
 * Roles on a team server, checked in main (main/team/access.ts) over a real team console on a real
 * PostgreSQL: every method a role may not call is refused before it runs (the whole API_ACCESS
 * table, for each role); a reviewer decides, an auditor cannot; a reviewer assigned to other servers
 * reads the queue but cannot decide its items, one assigned to the item's server can; an auditor
 * exports History, a reviewer cannot; `whoAmI` answers the person; and a decision is recorded in the audit trail under their name.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardedService } from '../../main/team/access.js';
import { teamPeople } from '../../main/team/people.js';
import { ApiError, type ApiMethod, type ConsoleService } from '../../shared/contract/api.js';
import { API_ACCESS, roleAllows, TEAM_ROLES, type Viewer } from '../../shared/contract/roles.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { testDatabase } from '../support/postgres.js';
import { fakeProviders, gatewayCall, itemOn, startTeamInstance, waitingCall, type TeamInstance } from '../support/team.js';

/** The rejection of `call`, as an ApiError (fails when it resolves). */
async function refusalOf(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
}

describe('roles on a team console', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let llm: OpenAICompatibleServer;
  let a: TeamInstance;
  const people: Record<'ana' | 'bo' | 'cy', Viewer> = {} as never;
  const admin: Viewer = { subject: 'admin', name: 'admin token', role: 'admin' };
  const calls: Array<Promise<Response>> = [];

  beforeAll(async () => {
    db = await testDatabase();
    llm = await startOpenAICompatibleServer();
    a = await startTeamInstance(db.url, fakeProviders(llm.baseURL));
    const team = teamPeople(a.team.conn, a.team.notifier);
    const toViewer = ({ subject, name, role, servers }: Viewer): Viewer => ({ subject, name, role, ...(servers && { servers }) });
    people.ana = toViewer(await team.add({ name: 'Ana', role: 'reviewer' }, Date.now()));
    people.bo = toViewer(await team.add({ name: 'Bo', role: 'reviewer', servers: ['other-server'] }, Date.now()));
    people.cy = toViewer(await team.add({ name: 'Cy', role: 'auditor' }, Date.now()));
  }, 60_000);
  afterEach(async () => {
    await Promise.allSettled(calls.splice(0));
  });
  afterAll(async () => {
    await a?.dispose();
    await llm?.close();
    await db?.drop();
  });

  /** The first audit record of a decision about `subject`, once there is one (the claim a decision takes has records of its own). */
  const auditRecordOf = async (subject: string) => {
    for (let tries = 0; tries < 100; tries++) {
      const [row] = await a.team.conn.query<{ actor_kind: string; actor_id: string; actor_name: string; kind: string }>(
        "SELECT actor_kind, actor_id, actor_name, kind FROM audit_log WHERE subject = $1 AND kind LIKE 'sampling.%' ORDER BY seq",
        [subject],
      );
      if (row) return row;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no audit record about ${subject}`);
  };
  const as = (p: Viewer): ConsoleService => guardedService(a.service, p);
  const waiting = async () => {
    const answer = gatewayCall(a);
    calls.push(answer);
    return { answer, item: await waitingCall(a) };
  };

  it('refuses every method a role lacks the access for, before the method runs', async () => {
    const refused: string[] = [];
    for (const role of TEAM_ROLES) {
      const principal: Viewer = { subject: `s-${role}`, name: role, role };
      for (const method of Object.keys(API_ACCESS) as ApiMethod[]) {
        if (roleAllows(role, API_ACCESS[method])) continue;
        // Inputs are not even parsed here (the host parses them): refusal comes before anything else.
        const err = await refusalOf((guardedService(a.service, principal)[method] as (i: unknown) => Promise<unknown>)({}));
        expect(err.code, `${role} ${method}`).toBe('forbidden');
        expect(err.ui?.code).toBe('error.forbiddenRole');
        refused.push(`${role}:${method}`);
      }
    }
    // Reviewers are refused every admin and audit method; auditors every admin and decide method.
    expect(refused).toContain('reviewer:saveRules');
    expect(refused).toContain('reviewer:createGatewayToken');
    expect(refused).toContain('reviewer:exportHistory');
    expect(refused).toContain('auditor:approveRequest');
    expect(refused).toContain('auditor:respondElicitation');
    expect(refused.some((r) => r.startsWith('admin:'))).toBe(false);
  });

  it('a reviewer cannot change the rules or make tokens; the admin can', async () => {
    const rules = await a.service.exportRules({});
    expect((await refusalOf(as(people.ana).createGatewayToken({ name: 'sneaky' }))).code).toBe('forbidden');
    expect((await a.service.getState({})).gateway?.tokens.map((t) => t.name)).not.toContain('sneaky');
    await expect(as(admin).exportRules({})).resolves.toEqual(rules);
    expect((await refusalOf(as(people.ana).exportRules({}))).code).toBe('forbidden');
  });

  it('an auditor cannot decide; the item stays waiting; a reviewer then decides it, recorded under their name', async () => {
    const { answer, item } = await waiting();
    const err = await refusalOf(as(people.cy).rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'auditor says no' }));
    expect(err.code).toBe('forbidden');
    expect(a.items().find((i) => i.id === item.id)?.status).toBe('awaiting_request_review');
    await as(people.ana).rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'no' });
    expect((await answer).status).toBeGreaterThanOrEqual(400);
    const row = await auditRecordOf(`item:${item.id}`);
    expect(row).toEqual({ actor_kind: 'person', actor_id: people.ana.subject, actor_name: 'Ana', kind: 'sampling.request_rejected' });
  }, 60_000);

  it('a reviewer assigned to other servers reads the queue but cannot decide its items', async () => {
    const { item } = await waiting();
    const seen = await as(people.bo).getItem({ id: item.id });
    expect(seen.item.serverId).toBe('gateway:caller');
    const err = await refusalOf(as(people.bo).rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'not mine' }));
    expect(err.code).toBe('forbidden');
    expect(err.ui).toEqual({ code: 'error.forbiddenServer', params: { server: 'gateway:caller' } });
    expect((await refusalOf(as(people.bo).saveDraft({ itemId: item.id, draft: {} }))).code).toBe('forbidden');
    await itemOn(a, item.id, (i) => i.status === 'awaiting_request_review', 'still waiting');
    // A reviewer assigned to this very server decides it.
    const own = await teamPeople(a.team.conn, a.team.notifier).add({ name: 'Di', role: 'reviewer', servers: ['gateway:caller'] }, Date.now());
    await as({ subject: own.subject, name: own.name, role: 'reviewer', servers: ['gateway:caller'] }).rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'mine' });
    await itemOn(a, item.id, (i) => i.status === 'rejected', 'rejected by the assigned reviewer');
  }, 60_000);

  it('an auditor exports History; a reviewer cannot', async () => {
    const file = await as(people.cy).exportHistory({ format: 'jsonl' });
    expect(file.entries).toBeGreaterThan(0);
    expect((await refusalOf(as(people.ana).exportHistory({ format: 'jsonl' }))).code).toBe('forbidden');
    await expect(as(people.ana).listHistory({ limit: 10, offset: 0 })).resolves.toMatchObject({ total: file.entries });
  }, 60_000);

  it('whoAmI answers the signed-in person', async () => {
    await expect(as(people.bo).whoAmI({})).resolves.toEqual(people.bo);
    await expect(as(admin).whoAmI({})).resolves.toEqual(admin);
  });
});
