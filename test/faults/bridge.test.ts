/**
 * The fault matrix at the bridge: an agent host (an SDK Client) runs the sampling fixture through
 * the bridge; the fixture's sampling requests reach the console's queue — pushed (2025-11-25) or
 * embedded in `input_required` (2026-07-28, the host on that era). Each provider fault,
 * auto-approved (the server gets -32052 with the provider's status and words; on 2026-07-28 the
 * host's call fails with them) and reviewed (the person decides; the caller gets the decision),
 * with History and nothing left waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamplingServer } from '../fixtures/sampling-server.js';
import { connectHost, textOf, type FakeHost } from '../bridge/support.js';
import { answerText, approveAllFor, arm, decisionFor, endedEntry, expectHistory, expectNothingWaiting, FAULTS, reviewThroughFailure, seenItems, startFaultEnv, waitingItem, type FaultEnv } from './faults.js';

const SERVER = 'fixture';

/** What the host's `tools/call ask-text` ended with: the fixture's report, or the call's JSON-RPC error. */
async function askText(host: FakeHost, prompt: string): Promise<{ report?: Record<string, unknown>; error?: { code: number; message: string } }> {
  try {
    const result = await host.client.callTool({ name: 'ask-text', arguments: { prompt } });
    return { report: JSON.parse(textOf(result)) as Record<string, unknown> };
  } catch (err) {
    return { error: err as { code: number; message: string } };
  }
}

describe.each([
  { door: 'pushed (2025-11-25)', era: 'legacy' as const },
  { door: 'embedded in input_required (2026-07-28)', era: 'modern' as const },
])('the bridge, sampling $door', ({ era }) => {
  let env: FaultEnv;
  let host: FakeHost;
  beforeAll(async () => {
    const fixture = await startSamplingServer({ transport: 'stdio', era });
    env = await startFaultEnv({ servers: { [SERVER]: { ...fixture.config, disabled: true } } });
    const pin = era === 'modern' ? { clientOptions: { versionNegotiation: { mode: { pin: '2026-07-28' } } } } : {};
    host = await connectHost({ dir: env.h.dir, bridgeArgs: [SERVER], ...pin });
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await env?.close();
  });

  describe('auto-approved: the caller gets the failure', () => {
    beforeAll(() => approveAllFor(env.h, [SERVER]));

    it.each(FAULTS)('$name', async (fault) => {
      const { h, llm } = env;
      arm(llm, fault);
      const seen = await seenItems(h);
      const { report, error } = await askText(host, `auto ${fault.name}`);
      const provider = { kind: fault.kind, ...(fault.providerStatus && { status: fault.providerStatus }), ...(fault.retryAfter && { retryAfterSeconds: fault.retryAfter }), ...(fault.phase && { timeout: { phase: fault.phase } }) };
      // Pushed: the server's own sampling request gets the error; embedded: the host's tools/call does.
      expect(era === 'legacy' ? report?.error : error).toMatchObject({ code: -32052, message: expect.stringMatching(fault.words), data: { provider } });
      const item = (await h.state()).items.find((i) => i.serverId === SERVER && !seen.has(i.id))!;
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
      const answer = askText(host, `reviewed ${fault.name}`);
      const item = await waitingItem(h, SERVER, seen);
      await reviewThroughFailure(h, item, fault, decision);
      const { report, error } = await answer;
      const text = answerText(decision);
      if (text) expect(report?.result).toMatchObject({ content: { type: 'text', text } });
      else if (era === 'legacy') expect(report?.error).toMatchObject({ code: -1 });
      else expect(error).toMatchObject({ code: -1 });
      expectHistory(await endedEntry(h, item.id), fault, decision);
      await expectNothingWaiting(env);
    });
  });
});
