/**
 * The elicitation policy (auto-rules cover elicitation only as "always ask" or "always
 * decline") through the real console with the v2 elicitation fixture, on BOTH protocol eras
 * (2025 push and 2026-07-28 input requests): with `decline`, the server receives
 * `{action: "decline"}` at once — no person, no item left waiting — and history records the
 * elicitation as decided by the rule, with its version; with `ask`, the next one waits for the person.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isElicitationItem, type ElicitationItemView, type HistoryEntry } from '../../shared/contract/state.js';
import { createElicitationQueue } from '../../main/elicitation/queue.js';
import { createStateHub } from '../../main/state-hub.js';
import { startElicitationServer, type StartedFixture } from '../fixtures/elicitation-server.js';
import { startHarness, type Harness, type WholeState } from '../support/console-harness.js';

describe('the queue with a declining policy', () => {
  it('answers decline at once, records it with the rule, and never shows the item as waiting', async () => {
    const saved: HistoryEntry[] = [];
    const seen: ElicitationItemView['status'][] = [];
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
    hub.subscribe(() => seen.push(...hub.items().filter(isElicitationItem).map((e) => e.status)));
    const rule = { serverId: 's', ruleId: 'elicitation', version: 3, name: 'always decline elicitation from s' };
    const queue = createElicitationQueue({ hub, history: { save: (e) => saved.push(structuredClone(e)) }, now: Date.now, inFlightCalls: () => [], decide: () => ({ kind: 'decline', rule }) });
    const answer = await queue.handle({ kind: 'elicitation', serverId: 's', era: 'legacy', params: { message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } }, signal: new AbortController().signal });
    expect(answer).toEqual({ action: 'decline' });
    expect(seen).not.toContain('awaiting_input');
    expect(seen).toContain('declined');
    expect(saved).toHaveLength(1); // one record, already final
    expect(saved[0]).toMatchObject({ kind: 'elicitation', status: 'declined', decidedBy: 'rule', rule, answer: { action: 'decline' } });
  });
});

describe.each(['legacy', 'modern'] as const)('elicitation policy on the %s era', (era) => {
  let fixture: StartedFixture | undefined;
  let h: Harness;
  beforeAll(async () => {
    fixture = await startElicitationServer({ transport: 'stdio', era });
    h = await startHarness({ servers: { fx: fixture.config } });
    await h.waitFor((s) => !!s.servers.find((x) => x.id === 'fx' && x.status === 'ready' && x.tools.some((t) => t.name === 'ask-form')), 'the fixture ready');
  }, 40_000);
  afterAll(async () => {
    await h?.dispose();
    if (h) rmSync(h.dir, { recursive: true, force: true });
    await fixture?.close();
  });

  const report = async (callId: string) => {
    const s = await h.waitFor((x) => x.calls.some((c) => c.id === callId && c.status !== 'running'), 'the call to end', 30_000);
    return JSON.parse(String(s.calls.find((c) => c.id === callId)!.result?.content[0]?.text)) as { era: string; answers: Record<string, unknown> };
  };
  const waiting = (s: WholeState) => (s.elicitations ?? []).filter((e) => e.status === 'awaiting_input');

  it('"always decline": the server gets decline at once; history names the policy and its version', async () => {
    await h.service.saveRules({ rules: { version: 1, servers: { fx: { elicitation: { action: 'decline' } } } } as never });
    const { callId } = await h.service.callTool({ serverId: 'fx', name: 'ask-form', arguments: {} });
    const r = await report(callId);
    expect(r.era).toBe(era);
    expect(r.answers.profile).toEqual({ action: 'decline' });
    const s = await h.state();
    expect(waiting(s)).toHaveLength(0);
    expect(s.policy!.counters.fx!.elicitationDeclined).toBe(1);
    const page = await h.service.listHistory({ limit: 5, offset: 0 });
    const row = page.entries.find((e) => e.kind === 'elicitation')!;
    expect(row).toMatchObject({ status: 'declined', decidedBy: 'rule', rule: { serverId: 'fx', ruleId: 'elicitation', version: 2, name: 'always decline elicitation from fx' } });
    const entry = await h.service.getHistoryEntry({ id: row.id });
    expect(entry).toMatchObject({ answer: { action: 'decline' } });
    expect(entry!.events.map((e) => e.detail)).toContain('Declined by rule "always decline elicitation from fx" (v2)');
  }, 60_000);

  it('back to "ask": the next elicitation waits for the person', async () => {
    await h.service.saveRules({ rules: { version: 1, servers: { fx: { elicitation: { action: 'ask' } } } } as never });
    const { callId } = await h.service.callTool({ serverId: 'fx', name: 'ask-form', arguments: {} });
    const s = await h.waitFor((x) => waiting(x).length === 1, 'the elicitation to wait for the person');
    await h.service.respondElicitation({ itemId: waiting(s)[0]!.id, version: waiting(s)[0]!.contentVersion!, action: 'cancel' });
    expect((await report(callId)).answers.profile).toEqual({ action: 'cancel' });
  }, 60_000);
});
