/**
 * Personal tokens and "requested by" / "decided by" on a real team (two real consoles on one
 * real PostgreSQL): a person makes their own token (only its SHA-256 stored; recorded in the audit
 * trail); a gateway call with it on either instance is "requested by" them on the item and in
 * History; a reviewer on the other instance decides it and History and the audit trail name the
 * reviewer; each person lists and revokes only their own (an admin anyone's); a revoked token,
 * and a removed person's, is refused at once on the other instance; a token scoped to bridges is
 * refused by the gateway with a 403 in the provider's shape, and a bridge caller carries its
 * owner, scope and validity.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../main/gateway/tokens.js';
import { guardedService } from '../../main/team/access.js';
import { teamPeople } from '../../main/team/people.js';
import { ApiError, type ConsoleService } from '../../shared/contract/api.js';
import type { Viewer } from '../../shared/contract/roles.js';
import type { HistoryEntry, SamplingItemView } from '../../shared/contract/state.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { testDatabase } from '../support/postgres.js';
import { fakeProviders, gatewayCall, itemOn, startTeamInstance, waitingCall, type TeamInstance } from '../support/team.js';

const admin: Viewer = { subject: 'admin', name: 'admin token', role: 'admin' };

describe('personal tokens on a team', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let llm: OpenAICompatibleServer;
  let a: TeamInstance;
  let b: TeamInstance;
  let ana: Viewer;
  let bo: Viewer;
  const calls: Array<Promise<Response>> = [];

  beforeAll(async () => {
    db = await testDatabase();
    llm = await startOpenAICompatibleServer();
    a = await startTeamInstance(db.url, fakeProviders(llm.baseURL));
    b = await startTeamInstance(db.url, fakeProviders(llm.baseURL), { token: a.token });
    const people = teamPeople(a.team.conn, a.team.notifier);
    const viewer = ({ subject, name, role }: Viewer): Viewer => ({ subject, name, role });
    ana = viewer(await people.add({ name: 'Ana', role: 'reviewer' }, Date.now()));
    bo = viewer(await people.add({ name: 'Bo', role: 'reviewer' }, Date.now()));
  }, 60_000);
  afterEach(async () => {
    await Promise.allSettled(calls.splice(0));
  });
  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
    await llm?.close();
    await db?.drop();
  });

  const on = (h: TeamInstance, p: Viewer): ConsoleService => guardedService(h.service, p);
  /** A gateway call to `h` with `token` (not awaited: it waits on a person). */
  const call = (h: TeamInstance, token: string) => {
    const answer = gatewayCall({ gatewayUrl: h.gatewayUrl, token });
    calls.push(answer);
    return answer;
  };
  /** The History entry `id` as `h` reads it, once `pred` holds. */
  const entryOn = async (h: TeamInstance, id: string, pred: (e: HistoryEntry) => boolean): Promise<HistoryEntry> => {
    for (let tries = 0; tries < 200; tries++) {
      const e = await h.service.getHistoryEntry({ id });
      if (e && pred(e)) return e;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`History entry ${id} never matched`);
  };
  const refusal = async (p: Promise<unknown>): Promise<ApiError> => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
    return err;
  };

  it('a call with a personal token on B is requested by its owner; a reviewer on A decides it; History and the audit trail name both', async () => {
    const { token, view } = await on(a, ana).createPersonalToken({ name: 'ana-laptop' });
    expect(view).toMatchObject({ name: 'ana-laptop', owner: { subject: ana.subject, name: 'Ana' }, calls: 0 });
    const [stored] = await a.team.conn.query<Record<string, unknown>>('SELECT * FROM team_personal_tokens WHERE id = $1', [view.id]);
    expect(stored!.sha256).toBe(sha256(token));
    expect(Object.values(stored!).map(String).join(' ')).not.toContain(token);

    llm.script({ text: 'Answer.' });
    const answer = call(b, token);
    const held = await waitingCall(b);
    expect(held.requestedBy).toEqual({ subject: ana.subject, name: 'Ana' });
    expect(held.serverId).toBe('gateway:ana-laptop');
    const seen = (await itemOn(a, held.id, (i) => i.contentVersion === held.contentVersion, 'the call on A')) as SamplingItemView;
    expect(a.items().find((i) => i.id === held.id)?.requestedBy).toEqual({ subject: ana.subject, name: 'Ana' });
    await on(a, bo).rejectRequest({ itemId: held.id, version: seen.contentVersion!, reason: 'not now' });
    expect((await answer).status).toBe(403);

    const entry = await entryOn(a, held.id, (e) => e.status === 'rejected');
    expect(entry).toMatchObject({ decidedBy: 'person', decider: { subject: bo.subject, name: 'Bo' }, requestedBy: { subject: ana.subject, name: 'Ana' } });
    const mine = await on(a, ana).listHistory({ requestedBy: ana.subject, limit: 10, offset: 0 });
    expect(mine.entries.map((e) => e.id)).toEqual([held.id]);
    expect((await on(a, ana).listHistory({ decider: bo.subject, limit: 10, offset: 0 })).entries.map((e) => e.id)).toEqual([held.id]);
    const people = (await on(a, ana).historyStats({})).people;
    expect(people).toEqual([
      { subject: ana.subject, name: 'Ana', decided: 0, approved: 0, rejected: 0, requested: 1 },
      { subject: bo.subject, name: 'Bo', decided: 1, approved: 0, rejected: 1, requested: 0 },
    ]);
    const audit = await a.team.conn.query<{ actor_id: string; kind: string; details: string }>(
      "SELECT actor_id, kind, details FROM audit_log WHERE (subject = $1 OR subject = $2) AND kind NOT LIKE 'claim.%' ORDER BY seq", // the decision's claim has records of its own
      [`token:${view.id}`, `item:${held.id}`],
    );
    expect(audit.map((r) => [r.actor_id, r.kind])).toEqual([
      [ana.subject, 'token.created'],
      [bo.subject, 'sampling.request_rejected'],
    ]);
    expect(JSON.parse(audit[0]!.details)).toMatchObject({ tokenKind: 'personal', owner: ana.subject, sha256: sha256(token) });
  }, 60_000);

  it('each person lists and revokes their own; an admin lists and revokes anyone’s; a revoked token is refused at once on the other instance', async () => {
    const { token, view } = await on(a, ana).createPersonalToken({ name: 'ana-ci' });
    expect((await on(b, ana).listPersonalTokens({})).tokens.map((t) => t.name)).toContain('ana-ci');
    expect((await on(b, bo).listPersonalTokens({})).tokens.map((t) => t.name)).not.toContain('ana-ci');
    expect((await refusal(on(b, bo).listPersonalTokens({ everyone: true }))).code).toBe('forbidden');
    expect((await on(b, admin).listPersonalTokens({ everyone: true })).tokens.map((t) => t.name)).toContain('ana-ci');
    expect((await refusal(on(b, bo).revokePersonalToken({ id: view.id }))).code).toBe('not_found');

    // Used once on B (counted), then revoked on A: B refuses the very next call.
    const first = call(b, token);
    const held = await waitingCall(b);
    await on(b, bo).rejectRequest({ itemId: held.id, version: held.contentVersion!, reason: 'x' });
    await first;
    await on(a, ana).revokePersonalToken({ id: view.id });
    expect((await call(b, token)).status).toBe(401);
    expect((await on(a, ana).listPersonalTokens({})).tokens.map((t) => t.name)).not.toContain('ana-ci');
    const [rec] = await a.team.conn.query<{ actor_id: string; details: string }>("SELECT actor_id, details FROM audit_log WHERE subject = $1 AND kind = 'token.revoked'", [`token:${view.id}`]);
    expect(rec!.actor_id).toBe(ana.subject);
    expect(JSON.parse(rec!.details)).toMatchObject({ sha256: sha256(token), owner: ana.subject });

    // An admin revokes someone else's.
    const other = await on(a, bo).createPersonalToken({ name: 'bo-script' });
    await on(b, admin).revokePersonalToken({ id: other.view.id });
    expect((await call(a, other.token)).status).toBe(401);
  }, 60_000);

  it("a removed person's tokens are refused at once on every instance", async () => {
    const people = teamPeople(a.team.conn, a.team.notifier);
    const cy = await people.add({ name: 'Cy', role: 'reviewer' }, Date.now());
    const { token } = await on(a, { subject: cy.subject, name: cy.name, role: cy.role }).createPersonalToken({ name: 'cy-agent' });
    const first = call(b, token);
    const held = await waitingCall(b);
    expect(held.requestedBy).toEqual({ subject: cy.subject, name: 'Cy' });
    await on(b, ana).rejectRequest({ itemId: held.id, version: held.contentVersion!, reason: 'x' });
    await first;
    expect(await people.remove(cy.subject, Date.now())).toBe(true);
    expect((await call(b, token)).status).toBe(401);
    expect((await call(a, token)).status).toBe(401);
  }, 60_000);

  it('scope: a token for bridges only is refused by the gateway (403, provider shape); a bridge caller carries owner, servers and validity', async () => {
    const bridgeOnly = await on(a, ana).createPersonalToken({ name: 'ana-bridge', servers: ['github'], callers: ['bridge'] });
    const refused = await call(b, bridgeOnly.token);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { type: 'permission_error' } });

    const caller = await b.remote!.caller(bridgeOnly.token);
    expect(caller).toMatchObject({ name: 'ana-bridge', requestedBy: { subject: ana.subject, name: 'Ana' }, servers: ['github'] });
    expect(await caller!.valid!()).toBe(true);
    await on(a, ana).revokePersonalToken({ id: bridgeOnly.view.id });
    expect(await caller!.valid!()).toBe(false);
    expect(await b.remote!.caller(bridgeOnly.token)).toBeUndefined();

    const gatewayOnly = await on(a, ana).createPersonalToken({ name: 'ana-gw', callers: ['gateway'] });
    expect(await b.remote!.caller(gatewayOnly.token)).toBeUndefined();
  }, 60_000);

  it('without a signed-in person no personal token is made', async () => {
    expect((await refusal(a.service.createPersonalToken({ name: 'nobody' }))).code).toBe('forbidden');
  });
});
