/**
 * The console on PostgreSQL (ConsolePorts.openHistory = postgresHistory(url)): a request a rule
 * approves is answered and recorded in the database, the History screen reads it from there,
 * requests a stopped console left unfinished are marked interrupted at start, and today's usage
 * comes back from the database after a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgHistoryStore, postgresHistory } from '../../../main/store/pg/store.js';
import { defaultModelFacts } from '../../../shared/contract/providers.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../../fixtures/openai-compatible-server.js';
import { floodServerConfig } from '../../policy/flood-server.js';
import { startHarness, type Harness } from '../../support/console-harness.js';
import { testDatabase } from '../../support/postgres.js';
import { minimalEntry } from '../fixtures/entries.js';

describe('the console with its history on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let llm: OpenAICompatibleServer;
  let h: Harness | undefined;
  const providers = {
    providers: [{ id: 'llm', kind: 'openai-compatible', baseURL: '', models: ['test-model'], modelFacts: { 'test-model': { ...defaultModelFacts('openai-compatible', 'test-model'), price: { inputPerMTok: 1000, outputPerMTok: 1000 } } } }],
    defaultProvider: 'llm',
    defaultModel: 'test-model',
  };
  beforeAll(async () => {
    db = await testDatabase();
    llm = await startOpenAICompatibleServer();
    providers.providers[0]!.baseURL = llm.baseURL;
    // A request another console left waiting when it stopped.
    const before = await openPgHistoryStore({ connection: db.url });
    before.save(minimalEntry('left-waiting', Date.now() - 60_000, 'never answered'));
    await before.close();
  }, 60_000);
  afterAll(async () => {
    await h?.dispose();
    await llm?.close();
    await db?.drop();
  });

  it('answers a request a rule approves, records it in the database and lists it on the History screen', async () => {
    h = await startHarness({ servers: { srv: floodServerConfig() }, providers, openHistory: postgresHistory(db.url) });
    await h.ready;
    expect(await h.service.getHistoryEntry({ id: 'left-waiting' })).toMatchObject({ status: 'interrupted', notDelivered: { cause: 'console_stopped' } });
    await h.service.saveRules({ rules: { version: 1, servers: { srv: { rules: [{ id: 'all', name: 'All', action: { kind: 'approve_all' } }] } } } as never });
    llm.script({ usage: { promptTokens: 100, completionTokens: 20 } });
    const { callId } = await h.service.callTool({ serverId: 'srv', name: 'ask', arguments: { prompt: 'hello postgres' } });
    const s = await h.waitFor((x) => x.calls.some((k) => k.id === callId && k.status !== 'running'), 'the call to end', 30_000);
    expect(JSON.parse(String(s.calls.find((k) => k.id === callId)!.result?.content[0]?.text))).toHaveProperty('result');

    const page = await h.service.listHistory({ query: 'hello postgr', limit: 10, offset: 0 });
    expect(page.entries).toMatchObject([{ serverId: 'srv', status: 'delivered', decidedBy: 'rule' }]);
    const other = await openPgHistoryStore({ connection: db.url });
    try {
      expect(await other.get(page.entries[0]!.id)).toMatchObject({ status: 'delivered', usage: { inputTokens: 100, outputTokens: 20 } });
    } finally {
      await other.close();
    }
  }, 60_000);

  it("after a restart, today's tokens come back from the database", async () => {
    const dir = h!.dir;
    await h!.dispose();
    h = await startHarness({ dir, servers: { srv: floodServerConfig() }, providers, openHistory: postgresHistory(db.url) });
    await h.ready;
    const s = await h.waitFor((x) => x.policy?.counters.srv !== undefined, 'the counters');
    expect(s.policy!.counters.srv).toMatchObject({ tokensToday: 120 });
  }, 60_000);
});
