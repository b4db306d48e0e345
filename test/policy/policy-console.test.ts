/**
 * Rules, limits and redaction through the real console (createConsole) with real MCP servers:
 *
 * - LOAD: one server floods 1,000 sampling requests from one tool call while a second server stays
 *   responsive — its request still reaches review; the flood is held to the limits, every refusal
 *   is answered -32051 and recorded, and no notice is raised per refusal (counts, not times);
 * - the same limits on the 2026-07-28 era (MRTR input requests share the pipeline);
 * - an auto-approve rule sends without the person and history names it with its version; pausing
 *   auto-approval makes the next one wait;
 * - auto-redact: the LLM receives placeholders, and history keeps the original only when asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITED_CODE, type RulesFile } from '../../shared/contract/rules.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startSamplingServer } from '../fixtures/sampling-server.js';
import { startHarness, type Harness, type WholeState, seenVersion } from '../support/console-harness.js';
import { floodServerConfig } from './flood-server.js';

const FLOOD = 1000;
const WAITING = 25;

/** Starts a tool call and resolves with its finished CallView. */
async function call(h: Harness, serverId: string, name: string, args: Record<string, unknown>, timeoutMs = 60_000) {
  const { callId } = await h.service.callTool({ serverId, name, arguments: args });
  return {
    callId,
    done: () =>
      h.waitFor((s) => s.calls.some((c) => c.id === callId && c.status !== 'running'), `call ${name} to end`, timeoutMs).then((s) => s.calls.find((c) => c.id === callId)!),
  };
}
const reportOf = (c: { result?: { content: Array<Record<string, unknown>> } }): Record<string, unknown> => JSON.parse(String(c.result?.content[0]?.text)) as Record<string, unknown>;
const waiting = (s: WholeState, serverId: string) => s.items.filter((i) => i.serverId === serverId && i.status === 'awaiting_request_review');
const rules = (servers: Record<string, unknown>, extra: Partial<RulesFile> = {}) => ({ version: 1, servers, ...extra }) as unknown as RulesFile;

describe('load: a flooding server is held to its limits while another stays responsive', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ servers: { flood: floodServerConfig(), calm: floodServerConfig() } });
    await h.ready;
  }, 60_000);
  afterAll(async () => h?.dispose());

  it(`${FLOOD} requests at once: ${WAITING} queued, the rest answered "rate limited" and recorded; the other server's request reaches review`, async () => {
    await h.service.saveRules({ rules: rules({ flood: { limits: { maxWaiting: WAITING, requestsPerMinute: 10_000 } } }) });
    const flood = await call(h, 'flood', 'flood', { count: FLOOD }, 120_000);
    // The second server asks while the flood is being answered.
    const calm = await call(h, 'calm', 'ask', { prompt: 'still there?' });

    const state = await h.waitFor(
      (s) => (s.policy?.counters.flood?.rateLimited ?? 0) === FLOOD - WAITING && waiting(s, 'calm').length === 1,
      'the flood to be answered and the calm request to reach review',
      60_000,
    );
    expect(waiting(state, 'flood')).toHaveLength(WAITING);
    expect(state.items.filter((i) => i.serverId === 'flood')).toHaveLength(WAITING); // never more than the limit in the queue
    expect(state.policy!.counters.flood).toMatchObject({ rateLimited: FLOOD - WAITING, waiting: WAITING, lastLimited: { message: expect.stringContaining('Rate limited') } });
    expect(waiting(state, 'calm')[0]!.original.messages[0]!.content).toMatchObject({ text: 'still there?' });
    // No notice per refusal: the counter says it.
    expect(state.notices.filter((n) => n.message.includes('Rate limited'))).toHaveLength(0);

    // Every refusal is in history, with the code and the limit that refused it.
    const page = await h.service.listHistory({ limit: 500, offset: 0 });
    expect(page.total).toBe(FLOOD + 1);
    const refused = page.entries.filter((e) => e.serverId === 'flood' && e.status === 'failed');
    expect(refused.length).toBeGreaterThan(400);
    expect(await h.service.getHistoryEntry({ id: refused[0]!.id })).toMatchObject({ decidedBy: 'console', errorDetail: { code: RATE_LIMITED_CODE, rule: 'limit.waiting' } });

    // The person answers what was queued; the server saw exactly one outcome per request.
    for (const item of waiting(state, 'flood')) await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion! });
    await h.service.rejectRequest({ itemId: waiting(state, 'calm')[0]!.id, version: waiting(state, 'calm')[0]!.contentVersion! });
    const report = reportOf(await flood.done());
    expect(report).toMatchObject({ results: 0, errors: { [String(RATE_LIMITED_CODE)]: FLOOD - WAITING, '-1': WAITING } });
    expect((report.messages as Record<string, string>)[String(RATE_LIMITED_CODE)]).toMatch(/^Rate limited: 25 requests from "flood" are already waiting/);
    expect(reportOf(await calm.done())).toMatchObject({ error: { code: -1 } });
    const after = await h.waitFor((s) => s.policy?.counters.flood?.waiting === 0, 'waiting slots to be freed');
    expect(after.policy!.counters.calm).toMatchObject({ rateLimited: 0, waiting: 0 });
  }, 180_000);
});

describe('limits on the 2026-07-28 era', () => {
  let h: Harness;
  beforeAll(async () => {
    const fixture = await startSamplingServer({ transport: 'stdio', era: 'modern' });
    h = await startHarness({ servers: { modern: fixture.config } });
    await h.ready;
  }, 60_000);
  afterAll(async () => h?.dispose());

  it('a request over the per-minute limit is refused with -32051 and recorded, as on the push era', async () => {
    await h.service.saveRules({ rules: rules({ modern: { limits: { requestsPerMinute: 1 } } }) });
    const first = await call(h, 'modern', 'ask-text', { prompt: 'one' });
    const s = await h.waitFor((st) => waiting(st, 'modern').length === 1, 'the first request in review');
    expect(s.servers.find((x) => x.id === 'modern')?.era).toBe('modern');
    const second = await call(h, 'modern', 'ask-text', { prompt: 'two' });
    const failed = await second.done();
    expect(failed.status).toBe('failed');
    expect(JSON.stringify(failed)).toContain('Rate limited: more than 1 requests per minute from \\"modern\\"');
    const st = await h.waitFor((x) => x.policy?.counters.modern?.rateLimited === 1, 'the counter');
    expect(waiting(st, 'modern')).toHaveLength(1);
    const page = await h.service.listHistory({ limit: 10, offset: 0 });
    const entry = await h.service.getHistoryEntry({ id: page.entries.find((e) => e.status === 'failed')!.id });
    expect(entry?.errorDetail).toMatchObject({ code: RATE_LIMITED_CODE, rule: 'limit.rpm' });
    await h.service.rejectRequest({ itemId: waiting(st, 'modern')[0]!.id, version: waiting(st, 'modern')[0]!.contentVersion! });
    await first.done();
  }, 60_000);
});

describe('auto-approval, pause and redaction', () => {
  let h: Harness;
  let llm: OpenAICompatibleServer;
  beforeAll(async () => {
    llm = await startOpenAICompatibleServer();
    h = await startHarness({
      servers: { srv: floodServerConfig() },
      providers: { providers: [{ id: 'llm', kind: 'openai-compatible', baseURL: llm.baseURL, models: ['test-model'] }], defaultProvider: 'llm', defaultModel: 'test-model' },
    });
    await h.ready;
  }, 60_000);
  afterAll(async () => {
    await h?.dispose();
    await llm?.close();
  });

  const approveSmall = { id: 'small-asks', name: 'Small asks', when: { toolCall: 'ask', maxTokensAtMost: 100, sensitive: 'absent' }, action: { kind: 'approve_all' } };

  it('a matching rule sends request and response without the person; history names the rule and its version', async () => {
    await h.service.saveRules({ rules: rules({ srv: { rules: [approveSmall] } }) });
    await h.service.saveRules({ rules: rules({ srv: { rules: [{ ...approveSmall, name: 'Small asks (edited)' }] } }) }); // → version 2
    const c = await call(h, 'srv', 'ask', { prompt: 'hello there' });
    const done = await c.done();
    expect(reportOf(done)).toMatchObject({ result: { role: 'assistant' } });
    const page = await h.service.listHistory({ limit: 5, offset: 0 });
    expect(page.entries[0]).toMatchObject({ status: 'delivered', decidedBy: 'rule' });
    const entry = await h.service.getHistoryEntry({ id: page.entries[0]!.id });
    expect(entry).toMatchObject({ rule: { serverId: 'srv', ruleId: 'small-asks', version: 2, name: 'Small asks (edited)' } });
    expect(entry!.events.map((e) => e.detail)).toContain('by rule "Small asks (edited)" (v2)');
    const s = await h.waitFor((x) => x.policy?.counters.srv?.autoApproved === 1, 'the auto-approved counter');
    expect(s.policy!.counters.srv!.tokensToday).toBeGreaterThan(0);
  }, 60_000);

  it('a request the rule does not cover (maxTokens too high, or sensitive data) waits for the person', async () => {
    const big = await call(h, 'srv', 'ask', { prompt: 'long one', maxTokens: 5000 });
    const withMail = await call(h, 'srv', 'ask', { prompt: 'write to jane@example.com' });
    const s = await h.waitFor((x) => waiting(x, 'srv').length === 2, 'both to wait for review');
    for (const i of waiting(s, 'srv')) await h.service.rejectRequest({ itemId: i.id, version: i.contentVersion! });
    await big.done();
    await withMail.done();
  }, 60_000);

  it('pausing auto-approval makes the next matching request wait; resuming lets the one after through', async () => {
    await h.service.setAutoApprovalPaused({ paused: true });
    const paused = await call(h, 'srv', 'ask', { prompt: 'while paused' });
    const s = await h.waitFor((x) => waiting(x, 'srv').length === 1 && x.policy?.rules.paused === true, 'the request to wait');
    expect(waiting(s, 'srv')[0]!.auto).toBeUndefined();
    await h.service.rejectRequest({ itemId: waiting(s, 'srv')[0]!.id, version: waiting(s, 'srv')[0]!.contentVersion! });
    await paused.done();
    await h.service.setAutoApprovalPaused({ paused: false });
    expect(reportOf(await (await call(h, 'srv', 'ask', { prompt: 'resumed' })).done())).toMatchObject({ result: {} });
  }, 60_000);

  it('auto-redact: the LLM gets placeholders; history keeps what was sent and not the unredacted original', async () => {
    await h.service.saveRules({
      rules: rules({ srv: { rules: [{ id: 'redact', name: 'Redact then send', when: { toolCall: 'ask' }, action: { kind: 'redact', then: 'approve_all' } }] } }),
    });
    const before = llm.requests.length;
    const c = await call(h, 'srv', 'ask', { prompt: 'mail jane@example.com, key AKIAIOSFODNN7EXAMPLE', systemPrompt: 'card 4111 1111 1111 1111' });
    await c.done();
    const sentToLlm = JSON.stringify(llm.requests.slice(before).map((r) => r.body.messages));
    expect(sentToLlm).toContain('mail [REDACTED:email], key [REDACTED:api_key]');
    expect(sentToLlm).toContain('card [REDACTED:card]');
    expect(sentToLlm).not.toMatch(/jane@example|AKIAIOSFODNN7EXAMPLE|4111 1111/);
    const page = await h.service.listHistory({ limit: 1, offset: 0 });
    const entry = (await h.service.getHistoryEntry({ id: page.entries[0]!.id }))!;
    expect(entry).toMatchObject({ decidedBy: 'rule', rule: { ruleId: 'redact' }, edited: true });
    expect(JSON.stringify(entry.sent)).toContain('[REDACTED:email]');
    expect(JSON.stringify(entry.original)).not.toMatch(/jane@example|AKIAIOSFODNN7EXAMPLE|4111 1111/);
    expect(entry.preview).not.toContain('jane@example');
  }, 60_000);

  it('the person may choose to keep the unredacted original', async () => {
    await h.service.saveRules({ rules: rules({ srv: { rules: [] } }) });
    const c = await call(h, 'srv', 'ask', { prompt: 'mail jane@example.com' });
    const s = await h.waitFor((x) => waiting(x, 'srv').length === 1, 'the request in review');
    const item = waiting(s, 'srv')[0]!;
    await h.service.setKeepOriginal({ itemId: item.id, keep: true });
    const redacted = { ...item.original, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'mail [REDACTED:email]' } }] };
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: redacted, model: { providerId: 'llm', modelId: 'test-model' } });
    const r = await h.waitFor((x) => x.items.some((i) => i.id === item.id && i.status === 'awaiting_response_review'), 'the response');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: r.items.find((i) => i.id === item.id)!.response!.draft });
    await c.done();
    const entry = (await h.service.getHistoryEntry({ id: item.id }))!;
    expect(JSON.stringify(entry.original)).toContain('jane@example.com');
    expect(JSON.stringify(entry.sent)).not.toContain('jane@example.com');
  }, 60_000);
});
