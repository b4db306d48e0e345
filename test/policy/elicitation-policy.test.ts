/**
 * The elicitation policy (issue 7: auto-rules cover elicitation only as "always ask" or "always
 * decline") through the real console with the v2 elicitation fixture, on BOTH protocol eras
 * (2025 push and 2026-07-28 input requests): with `decline`, the server receives
 * `{action: "decline"}` at once — no person, no item left waiting — and history records the
 * elicitation as decided by the rule, with its version; with `ask`, the next one waits for the person.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleState } from '../../shared/state.js';
import { startElicitationServer, type StartedFixture } from '../fixtures/elicitation-server.js';
import { startHarness, type Harness } from '../support/console-harness.js';

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
  const waiting = (s: ConsoleState) => (s.elicitations ?? []).filter((e) => e.status === 'awaiting_input');

  it('"always decline": the server gets decline at once; history names the policy and its version', async () => {
    await h.service.saveRules({ rules: { version: 1, servers: { fx: { elicitation: { action: 'decline' } } } } as never });
    const { callId } = await h.service.callTool({ serverId: 'fx', name: 'ask-form', arguments: {} });
    const r = await report(callId);
    expect(r.era).toBe(era);
    expect(r.answers.profile).toEqual({ action: 'decline' });
    const s = await h.service.getState({});
    expect(waiting(s)).toHaveLength(0);
    expect(s.policy!.counters.fx!.elicitationDeclined).toBe(1);
    const page = await h.service.listHistory({ limit: 5, offset: 0 });
    const row = page.entries.find((e) => e.kind === 'elicitation')!;
    expect(row).toMatchObject({ status: 'rejected', decidedBy: 'rule', rule: { serverId: 'fx', ruleId: 'elicitation', version: 2, name: 'always decline elicitation from fx' } });
    const entry = await h.service.getHistoryEntry({ id: row.id });
    expect(entry).toMatchObject({ answer: { action: 'decline' } });
    expect(entry!.events.map((e) => e.detail)).toContain('Declined by rule "always decline elicitation from fx" (v2)');
  }, 60_000);

  it('back to "ask": the next elicitation waits for the person', async () => {
    await h.service.saveRules({ rules: { version: 1, servers: { fx: { elicitation: { action: 'ask' } } } } as never });
    const { callId } = await h.service.callTool({ serverId: 'fx', name: 'ask-form', arguments: {} });
    const s = await h.waitFor((x) => waiting(x).length === 1, 'the elicitation to wait for the person');
    await h.service.respondElicitation({ itemId: waiting(s)[0]!.id, action: 'cancel' });
    expect((await report(callId)).answers.profile).toEqual({ action: 'cancel' });
  }, 60_000);
});
