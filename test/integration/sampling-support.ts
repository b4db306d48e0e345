/**
 * Helpers for the sampling conformance tests: start the console harness with the sampling fixture
 * (test/fixtures/sampling-server.ts) and a loopback LLM, call fixture tools, find the queue items
 * and history entries they produce, and read the fixture's JSON report (what the SERVER got back).
 */
import { expect } from 'vitest';
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { CallView, HistoryEntry, SamplingItemView, SamplingStatus } from '../../shared/contract/state.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { startSamplingServer, type FixtureEra, type StartedFixture } from '../fixtures/sampling-server.js';
import { startHarness, type Harness, type WholeState, seenVersion } from '../support/console-harness.js';

/** The fixture's key in mcp-servers.json. */
export const SERVER = 'fixture';
/** The manual provider ("write the response myself"). */
export const MANUAL = { providerId: 'manual', modelId: 'manual' } as const;
/** The loopback OpenAI-compatible provider. */
export const LOOPBACK = { providerId: 'loopback', modelId: 'loop-1' } as const;

/** A console with the fixture and a loopback LLM. */
export interface SamplingEnv {
  h: Harness;
  fixture: StartedFixture;
  llm: OpenAICompatibleServer;
  close(): Promise<void>;
}

/** Starts fixture (per transport/era), loopback LLM and console; waits until the fixture is ready. */
export async function startSamplingEnv(transport: 'stdio' | 'http', era: FixtureEra): Promise<SamplingEnv> {
  const llm = await startOpenAICompatibleServer({ models: ['loop-1'] });
  let fixture: StartedFixture | undefined;
  let h: Harness | undefined;
  try {
    fixture = await startSamplingServer({ transport, era });
    h = await startHarness({
      servers: { [SERVER]: fixture.config },
      providers: { providers: [{ id: 'loopback', kind: 'openai-compatible', label: 'Loopback', baseURL: llm.baseURL, models: ['loop-1'] }] },
    });
    await h.ready;
    await h.waitFor((s) => !!s.servers.find((x) => x.id === SERVER && x.status === 'ready' && x.tools.some((t) => t.name === 'ask-text')), 'the fixture ready with its tools');
  } catch (err) {
    // Nothing started here may outlive a failed start (an HTTP fixture would be orphaned).
    await h?.dispose().catch(() => undefined);
    await fixture?.close();
    await llm.close();
    throw err;
  }
  return {
    h,
    fixture,
    llm,
    async close() {
      await h.dispose();
      await fixture.close();
      await llm.close();
    },
  };
}

/**
 * Reconnects the fixture if a test left it disconnected (e.g. a message over the stdio buffer limit
 * closed the transport), so one failure does not cascade into the next tests.
 */
export async function ensureReady(env: SamplingEnv): Promise<void> {
  const state = await env.h.state();
  if (state.servers.find((s) => s.id === SERVER)?.status === 'ready') return;
  await env.h.service.restartServer({ serverId: SERVER });
  await env.h.waitFor((s) => s.servers.find((x) => x.id === SERVER)?.status === 'ready', 'the fixture ready again');
}

/** Starts a fixture tool; returns the call id. */
export async function call(h: Harness, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const { callId } = await h.service.callTool({ serverId: SERVER, name, arguments: args });
  return callId;
}

const belongsTo = (i: SamplingItemView, callId: string) => i.association.calls.some((c) => c.callId === callId);

/** Waits for the `round`-th item (1-based, by arrival) that belongs to `callId`. */
export async function itemOf(h: Harness, callId: string, round = 1, timeoutMs?: number): Promise<SamplingItemView> {
  const pick = (s: WholeState) => s.items.filter((i) => belongsTo(i, callId)).sort((a, b) => a.receivedAt - b.receivedAt)[round - 1];
  return pick(await h.waitFor((s) => !!pick(s), `item ${round} of call ${callId}`, timeoutMs))!;
}

/** Waits until item `id` is in one of `statuses`; returns it. */
export async function itemIn(h: Harness, id: string, statuses: SamplingStatus[], timeoutMs?: number): Promise<SamplingItemView> {
  const s = await h.waitFor((st) => statuses.includes(st.items.find((i) => i.id === id)?.status as SamplingStatus), `item ${id} in ${statuses.join('/')}`, timeoutMs);
  return s.items.find((i) => i.id === id)!;
}

/** The fixture's JSON report for a finished call (`{}` when the call failed without a result). */
export async function finished(h: Harness, callId: string, timeoutMs?: number): Promise<{ call: CallView; report: Record<string, unknown> }> {
  const s = await h.waitFor((st) => st.calls.some((c) => c.id === callId && c.status !== 'running'), `call ${callId} to finish`, timeoutMs);
  const done = s.calls.find((c) => c.id === callId)!;
  const text = (done.result?.content ?? []).map((b) => (typeof b.text === 'string' ? b.text : '')).join('');
  let report: Record<string, unknown>;
  try {
    report = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    report = { raw: text };
  }
  return { call: done, report };
}

/** A text CreateMessageResult written by the person. */
export const textResult = (text: string): CreateMessageResult => ({ role: 'assistant', content: { type: 'text', text }, model: 'manual', stopReason: 'endTurn' });

/** Approves the request unchanged (or with `params`) for the manual provider and waits for response review. */
export async function approveManual(h: Harness, item: SamplingItemView, params?: CreateMessageParams): Promise<void> {
  await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: params ?? item.original, model: MANUAL });
  await itemIn(h, item.id, ['awaiting_response_review']);
}

/** Approves the request for the manual provider, then delivers `result`. */
export async function answerManually(h: Harness, item: SamplingItemView, result: CreateMessageResult): Promise<void> {
  await approveManual(h, item);
  await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result });
}

/** The newest history entry of the fixture received at/after `since` whose call name contains `tool`. */
export async function historyOf(h: Harness, tool: string, since: number, timeoutMs = 10_000): Promise<HistoryEntry> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const page = await h.service.listHistory({ limit: 50, offset: 0 });
    const hit = page.entries.find((e) => e.serverId === SERVER && e.receivedAt >= since && (e.callName ?? '').includes(tool));
    if (hit) {
      const entry = await h.service.getHistoryEntry({ id: hit.id });
      if (entry) return entry;
    }
    if (Date.now() > until) throw new Error(`no history entry for ${tool} since ${since}: ${JSON.stringify(page.entries.slice(0, 5))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The fixture's own log (calls, MRTR retries, requests, outcomes); `clear` empties it after reading. */
export async function serverLog(h: Harness, clear = false): Promise<Array<{ tool: string; event: string; era: string; detail?: Record<string, unknown> }>> {
  const id = await call(h, 'server-log', { clear });
  const { report } = await finished(h, id);
  return report.log as Array<{ tool: string; event: string; era: string; detail?: Record<string, unknown> }>;
}

/** Expects the fixture to report JSON-RPC error `code` (what the SERVER received). */
export function expectServerError(report: Record<string, unknown>, code: number, message?: RegExp): void {
  expect(report.error, `the server should have received an error, got ${JSON.stringify(report).slice(0, 400)}`).toBeDefined();
  const error = report.error as { code: unknown; message: string };
  expect(error.code, `server received ${JSON.stringify(error).slice(0, 400)}`).toBe(code);
  if (message) expect(error.message).toMatch(message);
}

/** A tool_use block. */
export const toolUse = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id, name, input });
