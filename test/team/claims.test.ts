/**
 * Claims and two-person approval on a real PostgreSQL, two instances (real consoles) on one
 * database, people of `team_people` each on a UI connection of their own (the team server's
 * `connections.serve`, as the host does it): a claim taken on B shows on A; only the holder
 * decides (a watcher's approval and draft are refused, the holder's draft reaches the watcher);
 * a decision on a free item claims it; an admin's take-over leaves the former holder unable to
 * decide with their draft kept; closing a connection or a silent page releases its claims; the
 * audit trail records each. A two-person rule sends a request only at the second approval from a
 * different reviewer, never the requester's, and an edit voids earlier approvals.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiParsedInput, ConsoleService } from '../../shared/contract/api.js';
import type { Viewer } from '../../shared/contract/roles.js';
import type { RulesFile } from '../../shared/contract/rules.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { teamPeople } from '../../main/team/people.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { testDatabase } from '../support/postgres.js';
import { fakeProviders, gatewayCall, itemOn, startTeamInstance, waitingCall, type TeamInstance } from '../support/team.js';

const MODEL = { providerId: 'llm', modelId: 'test-model' };
const TIMEOUT_MS = 1_500;

/** A person's UI connection to one instance: its service (each call as that person) and its closing. */
interface Seat {
  api: ConsoleService;
  close(): void;
}

describe('claims and two-person approval across two instances', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let llm: OpenAICompatibleServer;
  let a: TeamInstance;
  let b: TeamInstance;
  const people: Record<'ana' | 'bo' | 'cy' | 'boss', Viewer> = {} as never;
  const calls: Array<Promise<Response>> = [];
  const seats: Seat[] = [];

  beforeAll(async () => {
    db = await testDatabase();
    llm = await startOpenAICompatibleServer();
    const env = { MCP_CONSOLE_CLAIM_TIMEOUT_MS: String(TIMEOUT_MS) };
    a = await startTeamInstance(db.url, fakeProviders(llm.baseURL), { env });
    b = await startTeamInstance(db.url, fakeProviders(llm.baseURL), { token: a.token, env });
    const team = teamPeople(a.team.conn, a.team.notifier);
    people.ana = await team.add({ name: 'Ana', role: 'reviewer' }, Date.now());
    people.bo = await team.add({ name: 'Bo', role: 'reviewer' }, Date.now());
    people.cy = await team.add({ name: 'Cy', role: 'reviewer' }, Date.now());
    people.boss = await team.add({ name: 'Boss', role: 'admin' }, Date.now());
  }, 60_000);
  afterEach(async () => {
    for (const s of seats.splice(0)) s.close();
    await Promise.allSettled(calls.splice(0));
  });
  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
    await llm?.close();
    await db?.drop();
  });

  /** `who` opens the UI on instance `on`. */
  const seat = (on: TeamInstance, who: Viewer): Seat => {
    const api = on.connections!.serve(who, on.service);
    const off = api.onEvent(() => undefined);
    const s = { api, close: off };
    seats.push(s);
    return s;
  };
  /** A call to A's gateway, and its item on B once it awaits request review there. */
  const callOnA = async (content = 'hello team') => {
    const answer = gatewayCall(a, content);
    calls.push(answer);
    const held = await waitingCall(a);
    await itemOn(b, held.id, (i) => i.contentVersion === held.contentVersion, 'the call on B');
    return { answer, held };
  };
  const approval = (held: SamplingItemView, params = held.original): ApiParsedInput<'approveRequest'> => ({ itemId: held.id, version: held.contentVersion!, params, model: MODEL });
  const claimOf = async (on: TeamInstance, id: string, name: string | undefined) =>
    on.waitFor((s) => s.team?.claims[id]?.name === name, `${name ?? 'nobody'} holding ${id}`, 10_000);
  const auditOf = (id: string) => a.team.conn.query<{ kind: string; actor_id: string; actor_name: string; details: string }>('SELECT kind, actor_id, actor_name, details FROM audit_log WHERE subject = $1 ORDER BY seq', [`item:${id}`]);
  const kindsOf = async (id: string) => (await auditOf(id)).map((r) => r.kind);
  const settle = () => new Promise((r) => setTimeout(r, 300));
  /** A request draft whose first text is `text`. */
  const draftOf = (text: string) => ({ request: { draft: { texts: { '0:0': text }, editing: { '0:0': true }, systemPrompt: '', maxTokens: '32', temperature: '', model: '' }, extras: { removedBlocks: {}, removedTools: {} } } });
  const typed = (i: { draft?: SamplingItemView['draft'] }) => i.draft?.request?.draft.texts['0:0'];

  it('a claim taken on B shows on A; only its holder decides, the watcher sees the draft live', async () => {
    llm.script({ text: 'Answer.' });
    const { answer, held } = await callOnA();
    const ana = seat(b, people.ana);
    const bo = seat(a, people.bo);

    await expect(ana.api.claimItem({ itemId: held.id })).resolves.toMatchObject({ mine: true, holder: { name: 'Ana', subject: people.ana.subject } });
    await claimOf(a, held.id, 'Ana');
    await expect(bo.api.claimItem({ itemId: held.id })).resolves.toMatchObject({ mine: false, holder: { name: 'Ana' } });

    await expect(bo.api.approveRequest(approval(held))).rejects.toMatchObject({ code: 'forbidden', ui: { params: { why: { code: 'error.claimedBy', params: { name: 'Ana' } } } } });
    await expect(bo.api.saveDraft({ itemId: held.id, draft: draftOf('seven'), version: held.contentVersion! })).rejects.toMatchObject({ code: 'forbidden' });
    await ana.api.saveDraft({ itemId: held.id, draft: draftOf('typed by Ana'), version: held.contentVersion! });
    await itemOn(a, held.id, (i) => typed(i) === 'typed by Ana', "Ana's draft on A, where Bo watches");
    expect(a.items().find((i) => i.id === held.id)?.status).toBe('awaiting_request_review');

    await ana.api.approveRequest(approval(held));
    const review = (await itemOn(a, held.id, (i) => i.status === 'awaiting_response_review' && i.contentVersion !== undefined, 'the response')) as SamplingItemView;
    await itemOn(b, held.id, (i) => i.contentVersion === review.contentVersion, 'the response on B, where Ana decides'); // a decision names the review its own instance shows
    await claimOf(a, held.id, 'Ana'); // she keeps it through the response review
    await expect(bo.api.approveResponse({ itemId: held.id, version: review.contentVersion!, result: review.response!.draft })).rejects.toMatchObject({ code: 'forbidden' });
    await ana.api.approveResponse({ itemId: held.id, version: review.contentVersion!, result: review.response!.draft });
    expect((await answer).status).toBe(200);
    await settle();
    expect(await kindsOf(held.id)).toEqual(expect.arrayContaining(['claim.taken', 'sampling.request_approved', 'sampling.response_approved']));
    expect((await kindsOf(held.id)).filter((k) => k === 'claim.taken')).toHaveLength(1);
  });

  it('a decision on a free item claims it (a draft does not); closing the connection releases it on every instance', async () => {
    llm.script({ text: 'Answer.' });
    const { answer, held } = await callOnA();
    const ana = seat(a, people.ana);
    const bo = seat(b, people.bo);
    await ana.api.saveDraft({ itemId: held.id, draft: draftOf('draft'), version: held.contentVersion! });
    await settle();
    expect((await b.state()).team?.claims[held.id]).toBeUndefined();
    await ana.api.approveRequest(approval(held));
    await claimOf(b, held.id, 'Ana');
    const review = (await itemOn(b, held.id, (i) => i.status === 'awaiting_response_review' && i.contentVersion !== undefined, 'the response')) as SamplingItemView;
    ana.close();
    await claimOf(b, held.id, undefined);
    await claimOf(a, held.id, undefined);
    await expect(bo.api.claimItem({ itemId: held.id })).resolves.toMatchObject({ mine: true });
    await bo.api.approveResponse({ itemId: held.id, version: review.contentVersion!, result: review.response!.draft });
    expect((await answer).status).toBe(200);
    await settle();
    const records = await auditOf(held.id);
    expect(records.filter((r) => r.kind === 'claim.released').map((r) => JSON.parse(r.details) as unknown)).toContainEqual({ why: 'disconnected' });
  });

  it("an admin takes a claim over: the former holder cannot decide, their draft is kept", async () => {
    const { held } = await callOnA();
    const ana = seat(a, people.ana);
    const boss = seat(b, people.boss);
    const bo = seat(b, people.bo);
    await ana.api.claimItem({ itemId: held.id });
    await ana.api.saveDraft({ itemId: held.id, draft: draftOf('Ana was typing this'), version: held.contentVersion! });
    await claimOf(b, held.id, 'Ana');

    await expect(bo.api.takeOverClaim({ itemId: held.id })).rejects.toMatchObject({ code: 'forbidden', ui: { code: 'error.takeOverAdminOnly' } });
    await boss.api.takeOverClaim({ itemId: held.id });
    await claimOf(a, held.id, 'Boss');
    // Her page keeps beating: it never takes the claim back.
    await expect(ana.api.claimItem({ itemId: held.id })).resolves.toMatchObject({ mine: false, holder: { name: 'Boss' } });
    await expect(ana.api.approveRequest(approval(held))).rejects.toMatchObject({ code: 'forbidden' });
    const kept = await itemOn(b, held.id, (i) => typed(i) === 'Ana was typing this', 'her draft');
    expect(kept.status).toBe('awaiting_request_review');

    await boss.api.rejectRequest({ itemId: held.id, version: held.contentVersion!, reason: 'taken over' });
    await itemOn(a, held.id, (i) => i.status === 'rejected', 'rejected');
    await settle();
    const over = (await auditOf(held.id)).find((r) => r.kind === 'claim.taken_over');
    expect(over?.actor_id).toBe(people.boss.subject);
    expect(over && JSON.parse(over.details)).toMatchObject({ from: people.ana.subject, fromName: 'Ana' });
  });

  it('a claim lasts while heartbeats come, and is free once they stop', async () => {
    const { held } = await callOnA();
    const ana = seat(a, people.ana);
    const bo = seat(b, people.bo);
    await ana.api.claimItem({ itemId: held.id });
    // Her page beats for twice the timeout: nobody else gets it.
    const until = Date.now() + TIMEOUT_MS * 2;
    while (Date.now() < until) {
      await ana.api.claimItem({ itemId: held.id });
      await expect(bo.api.claimItem({ itemId: held.id })).resolves.toMatchObject({ mine: false });
      await new Promise((r) => setTimeout(r, TIMEOUT_MS / 5));
    }
    // Her page went quiet (its connection still open): past the timeout the claim is free.
    await claimOf(b, held.id, undefined);
    await expect(bo.api.claimItem({ itemId: held.id })).resolves.toMatchObject({ mine: true });
    await bo.api.rejectRequest({ itemId: held.id, version: held.contentVersion!, reason: 'no' });
    await settle();
    const released = (await auditOf(held.id)).filter((r) => r.kind === 'claim.released').map((r) => JSON.parse(r.details) as unknown);
    expect(released).toContainEqual({ why: 'timeout' });
  });

  it('a two-person rule sends the request only at the second approval of one version, never the requester’s', async () => {
    const { held: probe } = await callOnA('probe');
    const serverId = probe.serverId;
    const policy = (await a.state()).policy!;
    const rules = { version: 1, servers: { [serverId]: { rules: [{ id: 'two', name: 'Two people', action: { kind: 'ask', approvals: 2 } }] } } } as unknown as RulesFile;
    await a.service.saveRules({ rules, baseRevision: policy.revision! });
    await a.service.rejectRequest({ itemId: probe.id, version: probe.contentVersion!, reason: 'probe' });
    await b.waitFor((s) => JSON.stringify(s.policy ?? {}).includes('Two people'), 'the rule on B');

    llm.script({ text: 'Two approved.' });
    const answer = gatewayCall(a, 'needs two');
    calls.push(answer);
    const held = await waitingCall(a);
    expect(held.policy?.approvalsNeeded).toBe(2);
    await itemOn(b, held.id, (i) => i.contentVersion === held.contentVersion, 'the call on B');
    // The caller's token was Bo's (set directly on both instances' item, as a personal token would).
    for (const on of [a, b]) Object.assign(on.items().find((i) => i.id === held.id)!, { requestedBy: { subject: people.bo.subject, name: 'Bo' } });
    const ana = seat(a, people.ana);
    const bo = seat(b, people.bo);
    const cy = seat(b, people.cy);
    const boss = seat(a, people.boss);

    await ana.api.approveRequest(approval(held));
    await b.waitFor((s) => s.team?.approvals[held.id]?.given.length === 1, '1 of 2 approvals on B');
    expect((await b.state()).team?.approvals[held.id]).toEqual({ needed: 2, given: [{ subject: people.ana.subject, name: 'Ana' }] });
    expect(a.items().find((i) => i.id === held.id)?.status).toBe('awaiting_request_review');
    await claimOf(a, held.id, undefined); // released for the next reviewer
    await expect(ana.api.approveRequest(approval(held))).rejects.toMatchObject({ code: 'invalid_state', ui: { params: { why: { code: 'error.alreadyApproved' } } } });
    await ana.api.releaseClaim({ itemId: held.id });
    await expect(bo.api.approveRequest(approval(held))).rejects.toMatchObject({ code: 'forbidden', ui: { params: { why: { code: 'error.ownRequest' } } } });
    await bo.api.releaseClaim({ itemId: held.id });

    // Cy approves an edited request: another version, a new count (Ana's does not cover it).
    const edited = { ...held.original, maxTokens: 16 };
    await cy.api.approveRequest(approval(held, edited));
    await a.waitFor((s) => s.team?.approvals[held.id]?.given.map((g) => g.name).join() === 'Cy', 'the edit voided her approval');
    expect(a.items().find((i) => i.id === held.id)?.status).toBe('awaiting_request_review');

    // The second approval of Cy's version sends it, exactly as approved.
    await boss.api.approveRequest(approval(held, edited));
    const review = (await itemOn(a, held.id, (i) => i.status === 'awaiting_response_review' && i.contentVersion !== undefined, 'the response')) as SamplingItemView;
    expect(review.sent?.maxTokens).toBe(16);
    await boss.api.approveResponse({ itemId: held.id, version: review.contentVersion!, result: review.response!.draft });
    expect((await answer).status).toBe(200);
    await settle();
    const given = (await auditOf(held.id)).filter((r) => r.kind === 'approval.given').map((r) => ({ actor: r.actor_name, given: (JSON.parse(r.details) as { given: number }).given }));
    expect(given).toEqual([
      { actor: 'Ana', given: 1 },
      { actor: 'Cy', given: 1 },
      { actor: 'Boss', given: 2 },
    ]);
  });
});
