/**
 * The audit trail of a team on a real PostgreSQL, two instances (real consoles) on one database:
 * a decision taken on B about a call A holds is applied by A and recorded exactly once (by the
 * holder, not again by the instance the person used); two reviewers racing on A and on B leave one
 * record; the rule book kept in the team's database records a save, a pause and an import once,
 * though every instance hears of them; gateway tokens made and revoked there are recorded with
 * their hash; and the whole chain verifies.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPgAuditStore } from '../../main/audit/pg-store.js';
import { verifyAuditStore } from '../../main/audit/verify.js';
import { sha256 } from '../../main/gateway/tokens.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import type { RulesFile } from '../../shared/contract/rules.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { testDatabase } from '../support/postgres.js';
import { fakeProviders, gatewayCall, itemOn, startTeamInstance, waitingCall, type TeamInstance } from '../support/team.js';

const MODEL = { providerId: 'llm', modelId: 'test-model' };
const rules = (servers: Record<string, unknown>) => ({ version: 1, servers }) as unknown as RulesFile;

interface Row {
  seq: string;
  kind: string;
  subject: string;
  details: string;
}

describe('the audit trail of a team', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let llm: OpenAICompatibleServer;
  let a: TeamInstance;
  let b: TeamInstance;
  const calls: Array<Promise<Response>> = [];

  beforeAll(async () => {
    db = await testDatabase();
    llm = await startOpenAICompatibleServer();
    a = await startTeamInstance(db.url, fakeProviders(llm.baseURL));
    b = await startTeamInstance(db.url, fakeProviders(llm.baseURL), { token: a.token });
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

  /** The records about `subject`, oldest first, read from the table itself. */
  const recordsOf = (subject: string) => a.team.conn.query<Row>('SELECT seq, kind, subject, details FROM audit_log WHERE subject = $1 ORDER BY seq', [subject]);
  /** Lets anything B would record late reach the table before counting. */
  const settle = () => new Promise((r) => setTimeout(r, 300));

  /** A call to A's gateway, and its item as B shows it once it awaits request review. */
  const callOnA = async () => {
    const answer = gatewayCall(a);
    calls.push(answer);
    const held = await waitingCall(a);
    const seen = (await itemOn(b, held.id, (i) => i.contentVersion === held.contentVersion, 'the call on B')) as SamplingItemView;
    return { answer, held, seen };
  };

  it('approvals taken on B about a call A holds are recorded once each', async () => {
    llm.script({ text: 'Answer from the model.' });
    const { answer, held, seen } = await callOnA();
    await b.service.approveRequest({ itemId: held.id, version: seen.contentVersion!, params: seen.original, model: MODEL });
    const review = (await itemOn(b, held.id, (i) => i.status === 'awaiting_response_review' && i.contentVersion !== undefined, 'the response on B')) as SamplingItemView;
    await b.service.approveResponse({ itemId: held.id, version: review.contentVersion!, result: review.response!.draft });
    expect((await answer).status).toBe(200);
    await settle();
    const rows = await recordsOf(`item:${held.id}`);
    expect(rows.map((r) => r.kind)).toEqual(['sampling.request_approved', 'sampling.response_approved']);
    expect(JSON.parse(rows[0]!.details)).toMatchObject({ version: seen.contentVersion });
    expect(JSON.parse(rows[1]!.details)).toMatchObject({ version: review.contentVersion });
  }, 60_000);

  it('two reviewers rejecting at once, on A and on B: one decision, one record', async () => {
    const { answer, held, seen } = await callOnA();
    const results = await Promise.allSettled([
      a.service.rejectRequest({ itemId: held.id, version: held.contentVersion!, reason: 'no from A' }),
      b.service.rejectRequest({ itemId: held.id, version: seen.contentVersion!, reason: 'no from B' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await answer).status).toBe(403);
    await settle();
    expect((await recordsOf(`item:${held.id}`)).map((r) => r.kind)).toEqual(['sampling.request_rejected']);
  }, 60_000);

  it("the team's rule book: a save, a pause and an import on A are recorded once, though B hears of each", async () => {
    const before = (await recordsOf('rules')).length;
    const { policy } = await a.state();
    await a.service.saveRules({ rules: rules({ s: { rules: [{ id: 'r1', name: 'Ask', action: { kind: 'ask' } }] } }), baseRevision: policy!.revision! });
    await a.service.setAutoApprovalPaused({ paused: true });
    await b.waitFor((s) => s.policy?.rules.paused === true, 'B to be paused');
    await a.service.importRules({ text: JSON.stringify(rules({ s: { rules: [{ id: 'r2', name: 'Imported', action: { kind: 'ask' } }] } })) });
    await b.waitFor((s) => s.policy?.rules.servers.s?.rules[0]?.id === 'r2', 'B to have the import');
    await settle();
    const rows = (await recordsOf('rules')).slice(before);
    expect(rows.map((r) => JSON.parse(r.details).how)).toEqual(['saved', 'paused', 'imported']);
    expect(JSON.parse(rows[1]!.details)).toMatchObject({ paused: true });
    expect(JSON.parse(rows[1]!.details)).not.toHaveProperty('added');
  }, 60_000);

  it('gateway tokens made and revoked in the team database are recorded with their hash', async () => {
    const { token } = await b.service.createGatewayToken({ name: 'ci-bot' });
    await a.service.revokeGatewayToken({ name: 'ci-bot' });
    await settle();
    const rows = await recordsOf('token:ci-bot');
    expect(rows.map((r) => r.kind)).toEqual(['token.created', 'token.revoked']);
    for (const r of rows) expect(JSON.parse(r.details)).toEqual({ tokenKind: 'gateway', sha256: sha256(token) });
  }, 60_000);

  it('the chain both instances wrote verifies', async () => {
    const report = await verifyAuditStore(openPgAuditStore({ conn: a.team.conn, where: a.team.target }));
    expect(report).toMatchObject({ intact: true, findings: [] });
    expect(report.records).toBeGreaterThan(5);
  }, 60_000);
});
