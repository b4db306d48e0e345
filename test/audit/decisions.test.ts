/**
 * What the sampling pipeline, the elicitation queue and the rule book record in the audit trail:
 * each decision about `item:<id>`, a person's with the version they saw and the content hash
 * (`contentVersion`) of exactly what their approval let out — the same digest as History's event —
 * a rule's with its version and no hash; a big payload's record waits for its digest without
 * reordering the chain; a rule book change with the hashes of the books before and after.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { ElicitationItemView, HistoryEntry, SamplingItemView } from '../../shared/contract/state.js';
import type { LlmProvider } from '../../main/llm/provider.js';
import { openSqliteAuditStore } from '../../main/audit/sqlite-store.js';
import { createAuditTrail, type AuditTrail } from '../../main/audit/trail.js';
import { verifyAuditStore } from '../../main/audit/verify.js';
import { createElicitationQueue } from '../../main/elicitation/queue.js';
import { silentLogger } from '../../main/logger.js';
import { createPolicyService } from '../../main/policy/policy.js';
import { rulesChangeRecord } from '../../main/policy/rules-audit.js';
import { openRulesStore, RULES_FILE } from '../../main/policy/rules-store.js';
import { contentVersion } from '../../main/requests/version.js';
import { createSamplingPipeline } from '../../main/sampling/pipeline.js';
import { forServer } from '../../main/sampling/record.js';
import { createStateHub } from '../../main/state-hub.js';
import { emptyRulesFile } from '../../shared/contract/rules.js';

const params: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }], maxTokens: 100 };

function setup() {
  const trail: AuditTrail = createAuditTrail(openSqliteAuditStore(':memory:'), { logger: silentLogger, now: Date.now });
  const saved: HistoryEntry[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const llm: LlmProvider = {
    view: { id: 'llm', kind: 'openai-compatible', label: 'Loopback', models: ['m'], hasApiKey: false },
    async generate(input) {
      return { result: { role: 'assistant', content: { type: 'text', text: 'generated' }, model: input.modelId, stopReason: 'endTurn' }, finishReason: 'stop' };
    },
  };
  const rules: { action?: 'approve_all' } = {};
  const pipeline = createSamplingPipeline({
    hub,
    history: { save: (e) => void saved.push(structuredClone(e)) },
    providers: { list: () => [llm], get: () => llm, defaultModel: () => ({ providerId: 'llm', modelId: 'm' }) },
    logger: silentLogger,
    now: Date.now,
    inFlightCalls: () => [{ callId: 'c1', kind: 'tools/call', name: 'ask' }],
    onRefused: () => undefined,
    streamUpdateMs: 0,
    policy: { decide: () => (rules.action ? { kind: rules.action, rule: { serverId: 's', ruleId: 'r1', name: 'all', version: 3 } } : { kind: 'ask' }) },
    audit: trail,
  });
  const item = (): SamplingItemView => hub.items().at(-1) as SamplingItemView;
  const waitFor = async (pred: () => boolean) => {
    for (let i = 0; i < 400 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(pred()).toBe(true);
  };
  const records = async () => {
    await trail.durable();
    return (await trail.list({ limit: 100 })).reverse();
  };
  return { trail, hub, pipeline, saved, item, waitFor, rules, records, incoming: (p = params) => ({ kind: 'sampling' as const, serverId: 's', era: 'legacy' as const, params: p, signal: new AbortController().signal }) };
}

describe('decisions in the audit trail', () => {
  it("a person's approvals record the version seen and the content hash of what went out — History's digest", async () => {
    const t = setup();
    const answer = t.pipeline.handle(t.incoming());
    const seen = t.item().contentVersion!;
    const edited = { ...params, maxTokens: 50 };
    await t.pipeline.approveRequest(t.item().id, seen, edited, { providerId: 'llm', modelId: 'm' });
    await t.waitFor(() => t.item().status === 'awaiting_response_review');
    const shown = t.item().contentVersion!;
    const final: CreateMessageResult = { ...t.item().response!.draft, content: { type: 'text', text: 'edited answer' } };
    t.pipeline.approveResponse(t.item().id, shown, final);
    await answer;
    const id = t.item().id;
    const events = t.saved.at(-1)!.events;
    expect(await t.records()).toEqual([
      expect.objectContaining({ kind: 'sampling.request_approved', subject: `item:${id}`, actor: { kind: 'person' }, details: { server: 's', version: seen, edited: true, model: 'llm/m', sha256: contentVersion(edited) } }),
      expect.objectContaining({ kind: 'sampling.response_approved', subject: `item:${id}`, details: expect.objectContaining({ version: shown, edited: true, sha256: contentVersion(forServer(final)) }) }),
    ]);
    const [req, res] = await t.records();
    expect(req!.details.sha256).toBe(events.find((e) => e.kind === 'request_approved')!.sha256);
    expect(res!.details.sha256).toBe(events.find((e) => e.kind === 'response_approved')!.sha256);
    await t.trail.close();
  });

  it('a rejection records the version and only the SHA-256 of the reason typed', async () => {
    const t = setup();
    const answer = t.pipeline.handle(t.incoming()).catch(() => undefined);
    t.pipeline.rejectRequest(t.item().id, t.item().contentVersion!, 'not this one');
    await answer;
    const [r] = await t.records();
    expect(r).toMatchObject({ kind: 'sampling.request_rejected', details: { version: t.item().contentVersion ?? expect.any(String), reasonSha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(JSON.stringify(r)).not.toContain('not this one');
    await t.trail.close();
  });

  it("a rule's decision names the rule and its version, and hashes nothing", async () => {
    const t = setup();
    t.rules.action = 'approve_all';
    await t.pipeline.handle(t.incoming());
    expect(await t.records()).toEqual([expect.objectContaining({ kind: 'sampling.request_approved', actor: { kind: 'rule', id: 'r1', name: 'all' }, details: { server: 's', ruleVersion: 3, action: 'approve_all' } })]);
    await t.trail.close();
  });

  it("a big request's approval waits for its digest, and the records after it keep their order", async () => {
    const t = setup();
    const big = { ...params, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'x'.repeat(2_000_000) } }] };
    void t.pipeline.handle(t.incoming(big)).catch(() => undefined);
    await t.waitFor(() => t.item().contentVersion !== undefined);
    const bigId = t.item().id;
    const edited = { ...big, maxTokens: 7 };
    await t.pipeline.approveRequest(bigId, t.item().contentVersion!, edited, { providerId: 'llm', modelId: 'm' });
    void t.pipeline.handle(t.incoming()).catch(() => undefined);
    const small = t.item().id;
    t.pipeline.rejectRequest(small, t.item().contentVersion!);
    const records = await t.records();
    expect(records.map((r) => [r.kind, r.subject])).toEqual([
      ['sampling.request_approved', `item:${bigId}`],
      ['sampling.request_rejected', `item:${small}`],
    ]);
    expect(records[0]!.details.sha256).toBe(contentVersion(edited));
    expect(await verifyAuditStore(t.trail.store)).toMatchObject({ intact: true });
    await t.trail.close();
  });

  it("an elicitation answer records the version of the question and the answer's content hash", async () => {
    const t = setup();
    const queue = createElicitationQueue({ hub: t.hub, history: { save: () => undefined }, now: Date.now, inFlightCalls: () => [], audit: t.trail });
    const form = { message: 'Your name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } } };
    const answer = queue.handle({ kind: 'elicitation', serverId: 's', era: 'legacy', params: form, signal: new AbortController().signal });
    const item = t.hub.items().at(-1) as ElicitationItemView;
    queue.respond(item.id, item.contentVersion!, 'accept', { name: 'Ada' });
    await answer;
    expect(await t.records()).toEqual([expect.objectContaining({ kind: 'elicitation.accepted', subject: `item:${item.id}`, details: { server: 's', version: item.contentVersion, sha256: contentVersion({ action: 'accept', content: { name: 'Ada' } }) } })]);
    await t.trail.close();
  });
});

describe('rule book changes', () => {
  it('saving rules and editing rules.json by hand are recorded: by the person, by the console', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-rules-'));
    const trail = createAuditTrail(openSqliteAuditStore(':memory:'), { logger: silentLogger, now: Date.now });
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: dir, serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
    const svc = createPolicyService({ dir, hub, logger: silentLogger, now: Date.now, watch: false, audit: trail });
    try {
      const saved = await svc.saveRules({ version: 1, servers: { s: { rules: [{ id: 'ok', name: 'All', when: {}, action: { kind: 'approve_all' } }] } } });
      await svc.saveRules(saved); // the same book again: nothing to record
      const store = openRulesStore(dir, { logger: silentLogger, onChange: () => undefined, watch: false, onFileChange: (before, after) => trail.record(rulesChangeRecord(before, after, 'file_edited', { kind: 'console' })!) });
      writeFileSync(join(dir, RULES_FILE), JSON.stringify({ version: 1, servers: {} }));
      store.reload();
      store.close();
      await trail.durable();
      const records = (await trail.list({ limit: 10 })).reverse();
      expect(records).toEqual([
        expect.objectContaining({ actor: { kind: 'person' }, kind: 'rules.changed', details: expect.objectContaining({ how: 'saved', added: [{ server: 's', rule: 'ok', version: 1 }] }) }),
        expect.objectContaining({ actor: { kind: 'console' }, kind: 'rules.changed', details: expect.objectContaining({ how: 'file_edited', removed: [{ server: 's', rule: 'ok', version: 1 }] }) }),
      ]);
    } finally {
      svc.close();
      await trail.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('name the rules added and the hashes of the books before and after; an unchanged book records nothing', () => {
    const before = emptyRulesFile();
    const after = { ...before, servers: { s: { rules: [{ id: 'r1', name: 'all', version: 1, enabled: true, action: 'approve_all' }] } } } as unknown as typeof before;
    expect(rulesChangeRecord(before, before, 'saved', { kind: 'person' })).toBeUndefined();
    expect(rulesChangeRecord(before, after, 'saved', { kind: 'person' })).toEqual({
      actor: { kind: 'person' },
      kind: 'rules.changed',
      subject: 'rules',
      details: expect.objectContaining({ how: 'saved', sha256: contentVersion(after), previousSha256: contentVersion(before), added: [{ server: 's', rule: 'r1', version: 1 }] }),
    });
  });
});
