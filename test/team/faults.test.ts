/**
 * The team's faults on a real PostgreSQL: an instance SIGKILLed mid-review (a survivor ends and
 * records what it held within seconds, "the instance holding the caller stopped", and what the
 * reviewer typed is kept); a decision taken on B while the holding instance A is cut off from the
 * database (applied once when A comes back within its lease; refused — never applied — when A was
 * declared gone meanwhile); PostgreSQL stopped and restarted under gateway traffic (calls meanwhile
 * get 503 at once, instances reconnect, no answered call's record is lost).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RulesFile } from '../../shared/contract/rules.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { adminQuery, startPostgres, testDatabase, type PostgresCluster } from '../support/postgres.js';
import { databaseLink, FAST_LEASE, fakeProviders, gatewayCall, itemIdOfReply, itemOn, startTeamInstance, waitingCall, type DatabaseLink, type TeamInstance } from '../support/team.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');

/** The error a refusal names (`error.cannotAct`'s `why`). */
const why = (code: string) => ({ code: 'invalid_state', ui: { code: 'error.cannotAct', params: { why: { code } } } });

/** Starts instance-child.ts; resolves with its process and what it printed once ready. */
function startChildInstance(url: string, baseURL: string, token?: string): Promise<{ proc: ChildProcess; gatewayUrl: string; token: string; instanceId: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(here, 'fixtures', 'instance-child.ts'), url, baseURL, ...(token ? [token] : [])], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve({ proc, ...(JSON.parse(line) as { gatewayUrl: string; token: string; instanceId: string }) });
    });
    proc.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    proc.on('error', reject);
    proc.on('exit', (code) => reject(new Error(`the instance exited (${code}) before it was ready: ${err}`)));
  });
}

describe('an instance killed mid-review', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let llm: OpenAICompatibleServer;
  let b: TeamInstance;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    db = await testDatabase();
    llm = await startOpenAICompatibleServer();
    b = await startTeamInstance(db.url, fakeProviders(llm.baseURL), { timings: FAST_LEASE });
  }, 60_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await b?.dispose();
    await llm?.close();
    await db?.drop();
  });

  it('SIGKILL: within seconds the survivor ends its waiting item on every queue and in History, "the instance holding the caller stopped"; what the reviewer typed is kept', async () => {
    const a = await startChildInstance(db.url, llm.baseURL, b.token);
    child = a.proc;
    const answer = gatewayCall(a, 'asked through A').catch((err: unknown) => err);
    const seen = await waitingCall(b); // held by A, shown on B
    const draft = { request: { draft: { texts: { '0:0': 'typed on B before A died' }, editing: { '0:0': true }, systemPrompt: '', maxTokens: '32', temperature: '', model: '' }, extras: { removedBlocks: {}, removedTools: {} } } };
    await b.service.saveDraft({ itemId: seen.id, draft, version: seen.contentVersion! });

    a.proc.kill('SIGKILL');
    const killedAt = Date.now();
    const ended = await itemOn(b, seen.id, (i) => i.status === 'interrupted', 'the item ended on B', 5_000);
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    expect(ended.outcome).toMatchObject({ stopped: 'instance_stopped', ui: { code: 'outcome.instanceStopped' } });
    expect(ended.contentVersion).toBeUndefined(); // nobody can decide it any more

    const entry = await b.service.getHistoryEntry({ id: seen.id });
    expect(entry).toMatchObject({ status: 'interrupted', notDelivered: { cause: 'instance_stopped', draft: true } });
    expect(entry!.draft?.request?.draft.texts['0:0']).toBe('typed on B before A died');
    expect(entry!.events.at(-1)).toMatchObject({ kind: 'interrupted', detailUi: { code: 'event.instanceStopped' } });

    await expect(b.service.approveRequest({ itemId: seen.id, version: seen.contentVersion!, params: seen.original, model: { providerId: 'llm', modelId: 'test-model' } })).rejects.toMatchObject(why('error.holderStopped'));
    expect(await answer).toBeInstanceOf(Error); // its connection died with A
    await b.service.dismissItem({ itemId: seen.id });
    await b.waitFor(() => !b.items().some((i) => i.id === seen.id), 'the ended item dismissed');
  }, 60_000);
});

describe('a decision taken on B while the holding instance A is cut off from the database', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let llm: OpenAICompatibleServer;
  let link: DatabaseLink;
  let a: TeamInstance;
  let b: TeamInstance;
  const timings = { heartbeatMs: 100, leaseMs: 3_000, sweepMs: 100 };

  beforeAll(async () => {
    db = await testDatabase();
    llm = await startOpenAICompatibleServer();
    link = await databaseLink(db.url);
    a = await startTeamInstance(link.url, fakeProviders(llm.baseURL), { timings });
    b = await startTeamInstance(db.url, fakeProviders(llm.baseURL), { timings, token: a.token }); // the team's token, made through the link
  }, 60_000);
  afterEach(() => link.restore());
  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
    await link?.close();
    await llm?.close();
    await db?.drop();
  });

  const callOnA = async () => {
    const answer = gatewayCall(a);
    const held = await waitingCall(a);
    const seen = (await itemOn(b, held.id, (i) => i.contentVersion === held.contentVersion, 'the call on B')) as SamplingItemView;
    return { answer, held, seen };
  };

  it('A back within its lease: the decision is applied once, and B is told so', async () => {
    const { answer, seen } = await callOnA();
    link.cut();
    const decided = b.service.rejectRequest({ itemId: seen.id, version: seen.contentVersion!, reason: 'decided on B' });
    await new Promise((r) => setTimeout(r, 500));
    expect(a.items().find((i) => i.id === seen.id)?.status).toBe('awaiting_request_review'); // not applied while cut off
    link.restore();
    await expect(decided).resolves.toBeUndefined();
    expect((await answer).status).toBe(403);
    // A's History writes of the cut-off time are retried once its pool reconnects.
    for (const until = Date.now() + 10_000; (await b.service.getHistoryEntry({ id: seen.id }))?.status !== 'rejected' && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    const entry = await b.service.getHistoryEntry({ id: seen.id });
    expect(entry!.events.filter((e) => e.kind === 'rejected')).toHaveLength(1);
    // Taken again (a second reviewer, a retry): refused, never applied twice.
    await expect(b.service.rejectRequest({ itemId: seen.id, version: seen.contentVersion! })).rejects.toBeDefined();
    expect((await b.service.getHistoryEntry({ id: seen.id }))!.events.filter((e) => e.kind === 'rejected')).toHaveLength(1);
  }, 60_000);

  it('A declared gone meanwhile: the decision is refused and never applied; A ends its item when it comes back, and works again under a new id', async () => {
    const { answer, seen } = await callOnA();
    const oldId = a.instanceId();
    link.cut();
    await expect(b.service.rejectRequest({ itemId: seen.id, version: seen.contentVersion!, reason: 'decided on B' })).rejects.toMatchObject(why('error.holderStopped'));
    await itemOn(b, seen.id, (i) => i.status === 'interrupted' && i.outcome?.stopped === 'instance_stopped', 'the item ended by B');
    link.restore();

    const res = await answer;
    expect(res.status).not.toBe(403); // the rejection never reached the caller: the item ended instead
    expect(res.status).toBeGreaterThanOrEqual(500);
    await a.waitFor(() => a.instanceId() !== oldId, 'A registered again');
    await itemOn(a, seen.id, (i) => i.outcome?.stopped === 'instance_stopped', 'the item ended on A too');
    const entry = await b.service.getHistoryEntry({ id: seen.id });
    expect(entry).toMatchObject({ notDelivered: { cause: 'instance_stopped' } });
    expect(entry!.events.some((e) => e.kind === 'rejected')).toBe(false);

    // A is an instance of the team again: its next call is reviewed on B.
    const next = await callOnA();
    await b.service.rejectRequest({ itemId: next.seen.id, version: next.seen.contentVersion! });
    expect((await next.answer).status).toBe(403);
  }, 60_000);
});

describe('PostgreSQL stopped and restarted under gateway traffic', () => {
  let cluster: PostgresCluster;
  let llm: OpenAICompatibleServer;
  let a: TeamInstance;
  let b: TeamInstance;

  beforeAll(async () => {
    cluster = await startPostgres();
    await adminQuery(cluster.url(), 'CREATE DATABASE team');
    llm = await startOpenAICompatibleServer();
    a = await startTeamInstance(cluster.url('team'), fakeProviders(llm.baseURL), { timings: FAST_LEASE });
    b = await startTeamInstance(cluster.url('team'), fakeProviders(llm.baseURL), { timings: FAST_LEASE });
    const rules = { version: 1, servers: { 'gateway:caller': { rules: [{ id: 'all', name: 'Bulk jobs', when: {}, action: { kind: 'approve_all' } }] } } } as unknown as RulesFile;
    for (const on of [a, b]) await on.service.saveRules({ rules });
  }, 90_000);
  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
    await llm?.close();
    await cluster?.destroy();
  });

  /** One auto-approved call (bounded: a hang fails the test); its status and the item its answer names. */
  const call = async (on: TeamInstance, n: number) => {
    const started = Date.now();
    const res = await gatewayCall(on, `call ${n}`, AbortSignal.timeout(15_000));
    const body = (await res.json()) as { id?: string; error?: { message?: string } };
    return { status: res.status, itemId: res.status === 200 ? itemIdOfReply(body.id!) : undefined, ms: Date.now() - started, error: body.error?.message };
  };

  it('calls while it is down get 503 at once; afterwards both instances serve again and every answered call is recorded', async () => {
    const answered: string[] = [];
    let n = 0;
    const traffic = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const r = await call(n % 2 === 0 ? a : b, n++);
        expect([200, 503]).toContain(r.status);
        if (r.itemId) answered.push(r.itemId);
      }
    };
    /** Calls each instance until it answers 200 again (503 meanwhile), within 20 s. */
    const servingAgain = async () => {
      for (const on of [a, b]) {
        const until = Date.now() + 20_000;
        for (;;) {
          const r = await call(on, n++);
          expect([200, 503]).toContain(r.status);
          if (r.itemId) answered.push(r.itemId);
          if (r.status === 200) break;
          if (Date.now() > until) throw new Error('the instance did not serve again after the restart');
          await new Promise((res) => setTimeout(res, 200));
        }
      }
    };
    await traffic(10);
    expect(answered).toHaveLength(10);

    await cluster.stop();
    for (const on of [a, b, a, b]) {
      const r = await call(on, n++);
      expect(r).toMatchObject({ status: 503 });
      expect(r.ms).toBeLessThan(5_000);
    }

    await cluster.start();
    await servingAgain();
    const restartDuringTraffic = traffic(20);
    await new Promise((res) => setTimeout(res, 300));
    await cluster.restart();
    await restartDuringTraffic;
    await servingAgain();

    for (const id of answered) {
      const entry = await b.service.getHistoryEntry({ id });
      expect(entry?.status, `the entry of answered call ${id}`).toBe('delivered');
    }
  }, 120_000);
});
