/**
 * MCP sampling spec conformance on the 2026-07-28 era (Multi Round-Trip Requests), through main's
 * API, against the v2 sampling fixture over stdio AND Streamable HTTP. The fixture returns
 * `input_required` with an HMAC-sealed `requestState` and resumes on the retry; its report says
 * whether the retry carried the exact state (`requestStateVerified`) and what came back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentBlocks } from '../../shared/contract/sampling.js';
import { FIXTURE_PNG_B64 } from '../fixtures/sampling-server.js';
import {
  answerManually,
  call,
  ensureReady,
  finished,
  historyOf,
  itemOf,
  serverLog,
  startSamplingEnv,
  textResult,
  toolUse,
  type SamplingEnv,
} from './sampling-support.js';

describe.each(['stdio', 'http'] as const)('sampling on the 2026-07-28 era (MRTR) over %s', (transport) => {
  let env: SamplingEnv;
  beforeAll(async () => {
    env = await startSamplingEnv(transport, 'modern');
  }, 40_000);
  afterAll(async () => env?.close());
  afterEach(async () => env && ensureReady(env));

  it('the server era is negotiated and shown as modern', async () => {
    const state = await env.h.service.getState({});
    expect(state.servers.find((s) => s.id === 'fixture')).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
  });

  it('S-MRTR-2, S-CAP-1, S-CAP-2, S-CAP-3: every request envelope declares sampling with tools (no context), so the server may embed sampling requests', async () => {
    const { report } = await finished(env.h, await call(env.h, 'client-capabilities'));
    expect(report.era).toBe('modern');
    expect(report.capabilities).toMatchObject({ sampling: { tools: {} } });
    expect((report.capabilities as { sampling: { context?: unknown } }).sampling.context).toBeUndefined();
  });

  it('S-MRTR-1: the input request is tied exactly to its call, and the retry carries the result and the exact requestState', async () => {
    const { h } = env;
    const callId = await call(h, 'ask-text', { prompt: 'Hello over MRTR.' });
    const item = await itemOf(h, callId);
    expect(item).toMatchObject({ era: 'modern', association: { exact: true, calls: [{ callId, kind: 'tools/call', name: 'ask-text' }] } });
    expect(item.original.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello over MRTR.' } }]);
    await answerManually(h, item, textResult('Answered across a round trip.'));
    const { call: done, report } = await finished(h, callId);
    expect(done.status).toBe('succeeded');
    expect(report).toMatchObject({ era: 'modern', requestStateVerified: true, result: { content: { type: 'text', text: 'Answered across a round trip.' }, model: 'manual' } });
  });

  it('S-MRTR-3: a rejection stops the retry; the originating call shows that the person declined', async () => {
    const { h } = env;
    await serverLog(h, true); // start from an empty log
    const callId = await call(h, 'ask-text', { prompt: 'Please decline this.' });
    const item = await itemOf(h, callId);
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'not this one' });
    const { call: done } = await finished(h, callId);
    expect(done.status).toBe('declined');
    expect(done.error?.message).toMatch(/declined/i);
    await new Promise((r) => setTimeout(r, 300));
    const log = await serverLog(h);
    expect(log.filter((e) => e.tool === 'ask-text' && e.event === 'call')).toHaveLength(1);
    expect(log.filter((e) => e.tool === 'ask-text' && e.event === 'retry')).toHaveLength(0);
  });

  it('S-B64-1: an image request arrives intact over MRTR', async () => {
    const { h } = env;
    const callId = await call(h, 'ask-image');
    const item = await itemOf(h, callId);
    const image = contentBlocks(item.original.messages[0]!.content).find((b) => b.type === 'image');
    expect(image).toEqual({ type: 'image', data: FIXTURE_PNG_B64, mimeType: 'image/png' });
    await answerManually(h, item, textResult('Four coloured squares.'));
    expect((await finished(h, callId)).report).toMatchObject({ requestStateVerified: true, result: { content: { text: 'Four coloured squares.' } } });
  });

  it('S-RES-1, S-MRTR-1: a two-round parallel tool loop over MRTR is one conversation with a round counter, each round tied to the same call', async () => {
    const { h } = env;
    const callId = await call(h, 'tool-loop', { rounds: 2, parallel: true });
    const first = await itemOf(h, callId, 1);
    expect(first).toMatchObject({ era: 'modern', round: 1, association: { exact: true } });
    const uses = [toolUse('toolu_m1', 'get_weather', { city: 'Paris' }), toolUse('toolu_m2', 'get_time', { zone: 'Asia/Tokyo' })];
    await answerManually(h, first, { role: 'assistant', content: uses, model: 'manual', stopReason: 'toolUse' });
    const second = await itemOf(h, callId, 2);
    expect(second).toMatchObject({ conversationId: first.conversationId, round: 2, association: { exact: true, calls: [{ callId }] } });
    expect(second.original.toolChoice).toEqual({ mode: 'none' });
    expect(contentBlocks(second.original.messages[2]!.content).map((b) => b.type)).toEqual(['tool_result', 'tool_result']);
    await answerManually(h, second, textResult('18 °C in Paris, 14:05 in Tokyo.'));
    const { report } = await finished(h, callId);
    expect(report).toMatchObject({ era: 'modern', requestStateVerified: true, rounds: 2, ended: 'answered' });
    const transcript = report.transcript as Array<{ outcome: { result: { content: unknown } } }>;
    expect(transcript[0]!.outcome.result.content).toEqual(uses);
  });

  it('S-TR-1 over MRTR: a malformed input request is refused and recorded; no retry is sent, the call shows why', async () => {
    const { h } = env;
    await serverLog(h, true); // start from an empty log
    const since = Date.now();
    const callId = await call(h, 'ask-invalid', { shape: 'tool-result-mixed' });
    const { call: done } = await finished(h, callId);
    expect(done.status === 'failed' || done.result?.isError === true).toBe(true);
    expect(`${done.error?.message ?? ''} ${JSON.stringify(done.result ?? '')}`).toMatch(/tool_result/);
    const entry = await historyOf(h, 'ask-invalid', since);
    expect(entry).toMatchObject({ status: 'failed', errorDetail: { code: -32602, rule: 'S-TR-1' } });
    const log = await serverLog(h);
    expect(log.filter((e) => e.tool === 'ask-invalid' && e.event === 'retry')).toHaveLength(0);
  });
});
