/**
 * The policy service (main/policy/policy.ts) on its own: how engine decisions become pipeline
 * actions (pause, redact, ask with/without a rule), the `policy` state slice, export/import, the
 * history filter that keeps unredacted originals out, and the request → rule prefill.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { HistoryEntry, SamplingItemView } from '../../shared/contract/state.js';
import { conditionFailures, RuleSchema } from '../../shared/contract/rules.js';
import { createPolicyService } from '../../main/policy/policy.js';
import { silentLogger } from '../../main/ports.js';
import { createStateHub } from '../../main/state-hub.js';
import { ruleFromRequest } from '../../shared/domain/rule-prefill.js';

const params = (text: string, extra: Partial<CreateMessageParams> = {}): CreateMessageParams => ({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 100, ...extra });
const item = (p: CreateMessageParams): SamplingItemView => ({
  id: 'i1',
  origin: 'server',
  conversationId: 'i1',
  round: 1,
  serverId: 's',
  era: 'legacy',
  association: { exact: true, calls: [{ callId: 'c', kind: 'tools/call', name: 'summarise' }] },
  status: 'awaiting_request_review',
  receivedAt: 0,
  updatedAt: 0,
  original: p,
  model: { providerId: 'llm', modelId: 'm', reason: 'test' },
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'policy-'));
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: dir, serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  const svc = createPolicyService({ dir, hub, logger: silentLogger, now: () => new Date(2026, 0, 5, 12, 0).getTime(), watch: false });
  const decide = (p: CreateMessageParams) => svc.policy.decide({ serverId: 's', item: item(p), params: p, model: item(p).model, now: new Date(2026, 0, 5, 12, 0).getTime() });
  return { svc, hub, decide };
}
/** The slice is published once per tick (a flood changes counters 1,000 times). */
const tick = () => new Promise((r) => setTimeout(r, 0));
const file = (rules: unknown[], extra: Record<string, unknown> = {}) => ({ version: 1, servers: { s: { rules } }, ...extra });

describe('decisions', () => {
  it('approve, ask-by-rule, default ask, reject', async () => {
    const t = setup();
    t.svc.saveRules(
      file([
        { id: 'block', name: 'Block deletes', when: { messageText: { pattern: 'delete' } }, action: { kind: 'reject', reason: 'never delete' } },
        { id: 'careful', name: 'Ask on money', when: { messageText: { pattern: 'invoice' } }, action: { kind: 'ask' } },
        { id: 'ok', name: 'Summaries', when: { toolCall: 'summarise', sensitive: 'absent' }, action: { kind: 'approve_all' } },
      ]),
    );
    expect(t.decide(params('summarise this'))).toEqual({ kind: 'approve_all', rule: { serverId: 's', ruleId: 'ok', version: 1, name: 'Summaries' }, estimate: { tokens: 104 } });
    expect(t.decide(params('delete everything'))).toMatchObject({ kind: 'reject', reason: 'never delete', rule: { ruleId: 'block' } });
    expect(t.decide(params('the invoice'))).toMatchObject({ kind: 'ask', rule: { ruleId: 'careful' }, notes: [{ kind: 'ask_rule', rule: { ruleId: 'careful' } }] });
    const byDefault = t.decide(params('mail a@b.io'));
    expect(byDefault).toMatchObject({ kind: 'ask' }); // default: no rule named, nothing recorded as a rule
    expect(byDefault).not.toHaveProperty('rule');
    expect(byDefault).not.toHaveProperty('notes');
    await tick();
    expect(t.hub.get('policy')!.counters.s!.autoRejected).toBe(1);
  });

  it('paused: approvals ask instead, rejections still apply; the slice and the file say paused', async () => {
    const t = setup();
    t.svc.saveRules(file([{ id: 'no', name: 'No images', when: { media: [], messageText: { pattern: 'image' } }, action: { kind: 'reject', reason: 'x' } }, { id: 'ok', name: 'All', action: { kind: 'approve_all' } }]));
    t.svc.setPaused(true);
    expect(t.decide(params('hello'))).toMatchObject({ kind: 'ask', notes: [{ kind: 'paused', rule: { ruleId: 'ok' } }] });
    expect(t.decide(params('image please'))).toMatchObject({ kind: 'reject' });
    await tick();
    expect(t.hub.get('policy')!.rules.paused).toBe(true);
    expect(JSON.parse(t.svc.exportRules().text).paused).toBe(true);
    t.svc.setPaused(false);
    expect(t.decide(params('hello'))).toMatchObject({ kind: 'approve_all' });
  });

  it('redact: sends a redacted copy and approves as the rule says', () => {
    const t = setup();
    t.svc.saveRules(file([{ id: 'r', name: 'Redact', action: { kind: 'redact', then: 'approve_request' } }]));
    const out = t.decide(params('mail a@b.io', { systemPrompt: 'key AKIAIOSFODNN7EXAMPLE' }));
    expect(out).toMatchObject({ kind: 'approve_request', params: { systemPrompt: 'key [REDACTED:api_key]', messages: [{ content: { text: 'mail [REDACTED:email]' } }] } });
  });

  it('custom redaction patterns count as sensitive data', () => {
    const t = setup();
    t.svc.saveRules(file([{ id: 'ok', name: 'Clean only', when: { sensitive: 'absent' }, action: { kind: 'approve_all' } }], { redaction: { patterns: [{ id: 'emp', label: 'Employee', regex: 'EMP-\\d{4}' }] } }));
    expect(t.decide(params('about EMP-1234'))).toMatchObject({ kind: 'ask' });
    expect(t.decide(params('about EMP-1234'))).not.toHaveProperty('rule');
    expect(t.decide(params('about EMP-12'))).toMatchObject({ kind: 'approve_all' });
  });
});

describe('export and import', () => {
  it('round-trips; a bad import is refused with its line and changes nothing', async () => {
    const t = setup();
    await t.svc.saveRules(file([{ id: 'ok', name: 'All', action: { kind: 'approve_all' } }]));
    const { fileName, text } = t.svc.exportRules();
    expect(fileName).toBe('rules.json');
    const other = setup();
    expect((await other.svc.importRules(text)).servers.s!.rules[0]!.name).toBe('All');
    await expect(other.svc.importRules('{\n  "version": 1,\n  "servers": {"s": {"rules": [{"id": "x"}]}}\n}')).rejects.toThrow(/^Nothing was imported: imported file line 3/);
    await tick();
    expect(other.hub.get('policy')!.rules.servers.s!.rules[0]!.id).toBe('ok');
  });
});

describe('history keeps only what was sent', () => {
  const entry = (original: unknown, sent?: CreateMessageParams): HistoryEntry => ({
    id: 'e1',
    conversationId: 'e1',
    serverId: 's',
    status: 'delivered',
    receivedAt: 0,
    edited: true,
    preview: 'mail jane@example.com and bob@example.com',
    original,
    sent,
    timings: {},
    events: [],
  });
  const capture = () => {
    const saved: HistoryEntry[] = [];
    return { saved, sink: { save: (e: HistoryEntry) => void saved.push(e) } };
  };

  it('replaces, in the original, what was not sent; keeps what was sent (the person chose to send it)', () => {
    const t = setup();
    const c = capture();
    const original = params('mail jane@example.com and bob@example.com');
    t.svc.historySink(c.sink).save(entry(original, params('mail [REDACTED:email] and bob@example.com')));
    expect(JSON.stringify(c.saved[0]!.original)).toContain('mail [REDACTED:email] and bob@example.com');
    expect(c.saved[0]!.preview).toBe('mail [REDACTED:email] and bob@example.com');
  });

  it('nothing sent yet (or refused): nothing sensitive is kept', () => {
    const t = setup();
    const c = capture();
    t.svc.historySink(c.sink).save(entry({ raw: 'token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8' }));
    expect(c.saved[0]!.original).toEqual({ raw: 'token [REDACTED:token]' });
  });

  it('kept when the person chose so for this request, or for all in settings', () => {
    const t = setup();
    const c = capture();
    const original = params('mail jane@example.com');
    t.svc.setKeepOriginal('e1', true);
    t.svc.historySink(c.sink).save(entry(original, params('mail [REDACTED:email]')));
    expect(c.saved[0]!.original).toBe(original);
    t.svc.setKeepOriginal('e1', false);
    t.svc.saveRules({ version: 1, redaction: { keepOriginals: true } });
    t.svc.historySink(c.sink).save(entry(original, params('mail [REDACTED:email]')));
    expect(c.saved[1]!.original).toBe(original);
  });

  it('goes through the store\'s shared commit (saveSoon) when it has one, scrubbed the same way', () => {
    const t = setup();
    const soon: HistoryEntry[] = [];
    const direct: HistoryEntry[] = [];
    const sink = { save: (e: HistoryEntry) => void direct.push(e), saveSoon: (e: HistoryEntry) => void soon.push(e) };
    t.svc.historySink(sink).save(entry({ raw: 'token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8' }));
    expect(direct).toEqual([]);
    expect(soon[0]!.original).toEqual({ raw: 'token [REDACTED:token]' });
    // What the person typed is committed at once (a failure reaches their action).
    const typed: HistoryEntry = { ...entry({ raw: 'x' }), status: 'awaiting_request_review', draft: { savedAt: 1 } };
    t.svc.historySink(sink).save(typed);
    expect(direct.map((e) => e.draft)).toEqual([typed.draft]);
    expect(soon).toHaveLength(1);
  });
});

describe('"Always allow requests like this" prefill', () => {
  it('is a valid rule that matches the request it came from, and not a bigger one', () => {
    const p = params('summarise', { tools: [{ name: 'get_time', inputSchema: { type: 'object' } }] });
    const rule = RuleSchema.parse(ruleFromRequest(item(p)));
    expect(rule.when).toMatchObject({ toolCall: 'summarise', maxTokensAtMost: 100, models: [{ providerId: 'llm', modelId: 'm' }], media: [], tools: { kind: 'only', names: ['get_time'] }, sensitive: 'absent' });
    expect(rule.action).toEqual({ kind: 'approve_request' });
    const facts = { callNames: ['summarise'], maxTokens: 100, model: { providerId: 'llm', modelId: 'm' }, kinds: ['text'], toolNames: ['get_time'], systemPrompt: '', messageText: 'summarise', local: { weekday: 1, minutes: 0 }, sensitiveCount: 0 };
    expect(conditionFailures(rule.when, facts)).toEqual([]);
    expect(conditionFailures(rule.when, { ...facts, maxTokens: 101 })).toHaveLength(1);
    expect(conditionFailures(rule.when, { ...facts, kinds: ['image', 'text'] })).toHaveLength(1);
  });

  it('a request holding sensitive data gives a redacting rule', () => {
    expect(ruleFromRequest(item(params('mail a@b.io'))).action).toEqual({ kind: 'redact', then: 'approve_request' });
  });
});
