/**
 * Prices, cost and the daily budget through the real console (createConsole) with a real MCP
 * server and a loopback LLM whose model has a price set in providers.json (model facts `price`):
 *
 * - the rule condition "estimated cost ≤ $X" lets a cheap request through and holds an expensive
 *   one for the person, whose review shows the estimate;
 * - the generation's cost is recorded in history and counted for today (UTC);
 * - the per-server "spend per day" limit refuses the next request with -32051 once reached;
 * - after a restart (a new console on the same folder) today's tokens and spend are still there,
 *   so the limit still holds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import { defaultModelFacts } from '../../shared/contract/providers.js';
import { RATE_LIMITED_CODE } from '../../shared/contract/rules.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startHarness, wholeState, type Harness, type WholeState } from '../support/console-harness.js';
import { floodServerConfig } from './flood-server.js';

/** $0.001 per token, in and out. */
const PRICE = { inputPerMTok: 1000, outputPerMTok: 1000 };

async function waitFor(c: ConsoleHandle, pred: (s: WholeState) => boolean, what: string, timeoutMs = 20_000): Promise<WholeState> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = await wholeState(c);
    if (pred(s)) return s;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function ask(c: ConsoleHandle, args: Record<string, unknown>) {
  const { callId } = await c.service.callTool({ serverId: 'srv', name: 'ask', arguments: args });
  return {
    callId,
    report: async () => {
      const s = await waitFor(c, (x) => x.calls.some((k) => k.id === callId && k.status !== 'running'), 'the call to end', 30_000);
      return JSON.parse(String(s.calls.find((k) => k.id === callId)!.result?.content[0]?.text)) as { result?: unknown; error?: { code: number; message: string } };
    },
  };
}

describe('cost: the condition, the record, the daily spend limit, and a restart', () => {
  let h: Harness;
  let llm: OpenAICompatibleServer;
  let second: ConsoleHandle | undefined;
  beforeAll(async () => {
    llm = await startOpenAICompatibleServer();
    h = await startHarness({
      servers: { srv: floodServerConfig() },
      providers: {
        providers: [{ id: 'llm', kind: 'openai-compatible', baseURL: llm.baseURL, models: ['test-model'], modelFacts: { 'test-model': { ...defaultModelFacts('openai-compatible', 'test-model'), price: PRICE } } }],
        defaultProvider: 'llm',
        defaultModel: 'test-model',
      },
    });
    await h.ready;
  }, 60_000);
  afterAll(async () => {
    await second?.dispose();
    await h?.dispose();
    await llm?.close();
  });

  it('"estimated cost ≤ $0.1": maxTokens 50 goes through (≈ $0.05), maxTokens 500 waits with its estimate (≈ $0.5)', async () => {
    await h.service.saveRules({ rules: { version: 1, servers: { srv: { rules: [{ id: 'cheap', name: 'Cheap asks', when: { maxCostUsd: 0.1 }, action: { kind: 'approve_all' } }] } } } as never });
    llm.script({ usage: { promptTokens: 100, completionTokens: 20 } });
    const cheap = await ask(h, { prompt: 'hello', maxTokens: 50 });
    expect((await cheap.report()).result).toBeDefined();

    const dear = await ask(h, { prompt: 'hello', maxTokens: 500 });
    const s = await waitFor(h, (x) => x.items.some((i) => i.serverId === 'srv' && i.status === 'awaiting_request_review'), 'the expensive request to wait');
    const item = s.items.find((i) => i.status === 'awaiting_request_review')!;
    expect(item.policy?.estimatedCostUsd).toBeGreaterThan(0.5);
    expect(item.policy?.estimatedCostUsd).toBeLessThan(0.52);
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion! });
    expect((await dear.report()).error?.code).toBe(-1);

    const page = await h.service.listHistory({ limit: 5, offset: 0 });
    const delivered = page.entries.find((e) => e.status === 'delivered')!;
    expect(delivered).toMatchObject({ decidedBy: 'rule', rule: { ruleId: 'cheap', version: 1, name: 'Cheap asks' } });
    const entry = await h.service.getHistoryEntry({ id: delivered.id });
    expect(entry?.costUsd).toBeCloseTo(0.12, 9); // 120 tokens × $0.001
    const after = await waitFor(h, (x) => x.policy?.counters.srv?.tokensToday === 120, "today's tokens");
    expect(after.policy!.counters.srv!.spendTodayUsd).toBeCloseTo(0.12, 9);
  }, 60_000);

  it('spend per day: once reached, the next request is refused with -32051 and recorded', async () => {
    await h.service.saveRules({ rules: { version: 1, servers: { srv: { limits: { spendPerDayUsd: 0.1 } } } } as never });
    const r = await (await ask(h, { prompt: 'more' })).report();
    expect(r.error).toMatchObject({ code: RATE_LIMITED_CODE, message: expect.stringMatching(/^Rate limited: "srv" spent \$0\.12 of \$0\.1 today \(UTC\)/) });
    const page = await h.service.listHistory({ limit: 1, offset: 0 });
    expect(await h.service.getHistoryEntry({ id: page.entries[0]!.id })).toMatchObject({ status: 'failed', errorDetail: { code: RATE_LIMITED_CODE, rule: 'limit.spend' } });
  }, 60_000);

  it("a restart keeps today's tokens and spend, so the limit still holds", async () => {
    await h.dispose();
    writeFileSync(join(h.dir, 'rules.json'), JSON.stringify({ version: 1, servers: { srv: { limits: { spendPerDayUsd: 0.1, tokensPerDay: 1000 } } } }));
    second = await createConsole({ host: 'test', userDataDir: h.dir, nodeRuntime: { command: process.execPath }, env: {} });
    await second.ready;
    const s = await waitFor(second, (x) => x.policy?.counters.srv !== undefined, 'the counters');
    expect(s.policy!.counters.srv).toMatchObject({ tokensToday: 120, rateLimited: 0 });
    expect(s.policy!.counters.srv!.spendTodayUsd).toBeCloseTo(0.12, 9);
    const r = await (await ask(second, { prompt: 'after restart' })).report();
    expect(r.error).toMatchObject({ code: RATE_LIMITED_CODE, message: expect.stringContaining('spent $0.12 of $0.1') });
  }, 60_000);
});
