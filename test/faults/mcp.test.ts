/**
 * The fault matrix at the MCP doors: a sampling request pushed by a 2025-11-25 server, and one
 * embedded in a 2026-07-28 `input_required` result — each provider fault, auto-approved (the
 * caller gets the failure: the server -32052 with the provider's status and words; on 2026-07-28
 * the call fails with them) and reviewed (the person sees the failure and decides; the caller
 * gets the decision). Every cell checks the answer, its shape, History, and that nothing waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamplingServer, type StartedFixture } from '../fixtures/sampling-server.js';
import { call, finished } from '../integration/sampling-support.js';
import { answerText, approveAllFor, arm, decisionFor, endedEntry, expectHistory, expectNothingWaiting, FAULTS, reviewThroughFailure, seenItems, startFaultEnv, waitingItem, type FaultEnv } from './faults.js';

const SERVER = 'fixture';

describe.each([
  { door: 'pushed (2025-11-25)', era: 'legacy' as const },
  { door: 'embedded in input_required (2026-07-28)', era: 'modern' as const },
])('MCP sampling $door', ({ era }) => {
  let env: FaultEnv;
  let fixture: StartedFixture;
  beforeAll(async () => {
    fixture = await startSamplingServer({ transport: 'stdio', era });
    env = await startFaultEnv({ servers: { [SERVER]: fixture.config } });
    await env.h.waitFor((s) => !!s.servers.find((x) => x.id === SERVER && x.status === 'ready' && x.tools.some((t) => t.name === 'ask-text')), 'the fixture ready');
  }, 60_000);
  afterAll(async () => {
    await env?.close();
    await fixture?.close();
  });

  describe('auto-approved: the caller gets the failure', () => {
    beforeAll(() => approveAllFor(env.h, [SERVER]));

    it.each(FAULTS)('$name', async (fault) => {
      const { h, llm } = env;
      arm(llm, fault);
      const seen = await seenItems(h);
      const callId = await call(h, 'ask-text', { prompt: `auto ${fault.name}` });
      const { call: done, report } = await finished(h, callId);
      const item = (await h.state()).items.find((i) => !seen.has(i.id) && i.association.calls.some((c) => c.callId === callId))!;
      const provider = { kind: fault.kind, ...(fault.providerStatus && { status: fault.providerStatus }), ...(fault.retryAfter && { retryAfterSeconds: fault.retryAfter }), ...(fault.phase && { timeout: { phase: fault.phase } }) };
      if (era === 'legacy') {
        // The server's own request got the JSON-RPC error.
        expect(report.error).toMatchObject({ code: -32052, message: expect.stringMatching(fault.words), data: { provider } });
        expect((report.error as { message: string }).message).not.toContain(llm.baseURL);
      } else {
        // No server waits on 2026-07-28: the call the request belongs to fails with the provider's words.
        expect(done.status).toBe('failed');
        expect(done.error?.message).toMatch(fault.words);
      }
      expectHistory(await endedEntry(h, item.id), fault, 'auto');
      await expectNothingWaiting(env);
    });
  });

  describe('reviewed: the person sees the failure and decides; the caller gets the decision', () => {
    beforeAll(() => approveAllFor(env.h, []));

    it.each(FAULTS.map((fault, i) => ({ ...fault, decision: decisionFor(i) })))('$name → $decision', async ({ decision, ...fault }) => {
      const { h, llm } = env;
      arm(llm, fault);
      const seen = await seenItems(h);
      const callId = await call(h, 'ask-text', { prompt: `reviewed ${fault.name}` });
      const item = await waitingItem(h, SERVER, seen);
      await reviewThroughFailure(h, item, fault, decision);
      const { call: done, report } = await finished(h, callId);
      const text = answerText(decision);
      if (text) expect(report.result).toMatchObject({ content: { type: 'text', text } });
      else if (era === 'legacy') expect(report.error).toMatchObject({ code: -1 });
      else expect(done.status).toBe('declined');
      expectHistory(await endedEntry(h, item.id), fault, decision);
      await expectNothingWaiting(env);
    });
  });
});
