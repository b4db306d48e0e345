/**
 * MCP sampling spec conformance on the legacy (push, ≤ 2025-11-25) era, through main's API, against
 * the v2 sampling fixture over stdio AND Streamable HTTP. Every assertion that matters is made at
 * the SERVER's side (the fixture reports what it got back: the result or the JSON-RPC error) and
 * in the console's history. Test titles name the S- rule ids they cover.
 * The 2026-07-28 (MRTR) era: sampling-spec-mrtr.test.ts.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentBlocks } from '../../shared/contract/sampling.js';
import { FIXTURE_PNG_B64, FIXTURE_WAV_B64, INVALID_SHAPES, SHAPE_RULES, type InvalidShape } from '../fixtures/sampling-server.js';
import { seenVersion } from '../support/console-harness.js';
import {
  answerManually,
  approveManual,
  ensureReady,
  call,
  expectServerError,
  finished,
  historyOf,
  itemIn,
  itemOf,
  MANUAL,
  startSamplingEnv,
  textResult,
  toolUse,
  type SamplingEnv,
} from './sampling-support.js';

/**
 * Shapes the console must refuse at intake, tested in process (tools-undeclared is accepted: the
 * console declares sampling.tools; oversized-image runs in a child process, see below).
 */
const REFUSED = INVALID_SHAPES.filter((s) => s !== 'tools-undeclared' && s !== 'oversized-image');

const CHILD = path.join(import.meta.dirname, 'sampling-oversized.child.ts');

/**
 * Runs sampling-oversized.child.ts (its own console + fixture) and returns its JSON line. Killed
 * (with its process group) after `timeoutMs`: a console that freezes on a huge request fails the
 * test instead of hanging the run.
 */
function runOversizedChild(transport: 'stdio' | 'http', timeoutMs: number): Promise<{ report: Record<string, unknown>; entry: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, transport], { cwd: path.resolve(import.meta.dirname, '../..'), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`the console gave no answer to a 12 MB image within ${timeoutMs / 1000} s (is its event loop blocked?)\n${err}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { report: Record<string, unknown>; entry: Record<string, unknown> });
      else reject(new Error(`oversized child exited ${code} without a result\n${err}`));
    });
  });
}

/** Readable reasons the console gives (a person must be able to act on them). */
const REASONS: Partial<Record<InvalidShape, RegExp>> = {
  'tool-result-mixed': /message 3 holds tool_result and text/,
  'tool-use-unanswered': /tool_result|Tool result missing/i,
  'bad-role': /role/,
  'no-max-tokens': /maxTokens/,
  'oversized-image': /limit/,
};

describe.each(['stdio', 'http'] as const)('sampling on the push era over %s', (transport) => {
  let env: SamplingEnv;
  beforeAll(async () => {
    env = await startSamplingEnv(transport, 'legacy');
  }, 40_000);
  afterAll(async () => env?.close());
  afterEach(async () => env && ensureReady(env));

  it('S-CAP-1, S-CAP-2, S-CAP-3: the server sees sampling and sampling.tools declared, and no sampling.context', async () => {
    const { report } = await finished(env.h, await call(env.h, 'client-capabilities'));
    const caps = report.capabilities as { sampling?: { tools?: unknown; context?: unknown } };
    expect(caps.sampling).toBeDefined();
    expect(caps.sampling?.tools).toEqual({});
    expect(caps.sampling?.context).toBeUndefined();
  });

  it('S-MAX-1, S-CAP-3: a text request is shown exactly as sent (includeContext thisServer accepted, shared as none); the edited answer reaches the server', async () => {
    const { h } = env;
    const callId = await call(h, 'ask-text', { prompt: 'Say hello to the fixture.', maxTokens: 77 });
    const item = await itemOf(h, callId);
    expect(item).toMatchObject({ era: 'legacy', status: 'awaiting_request_review', association: { exact: true, calls: [{ callId, name: 'ask-text' }] } });
    expect(item.original).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to the fixture.' } }],
      systemPrompt: 'You are the sampling fixture. Answer in one short sentence.',
      maxTokens: 77,
      temperature: 0.3,
      stopSequences: ['END'],
      includeContext: 'thisServer',
      metadata: { fixture: 'ask-text' },
      modelPreferences: { hints: [{ name: 'claude-3-sonnet' }, { name: 'gpt-4o' }], costPriority: 0.2, speedPriority: 0.5, intelligencePriority: 0.9 },
    });
    await answerManually(h, item, textResult('Hello, fixture — from a person.'));
    const { call: done, report } = await finished(h, callId);
    expect(done.status).toBe('succeeded');
    expect(report.result).toEqual({ role: 'assistant', content: { type: 'text', text: 'Hello, fixture — from a person.' }, model: 'manual', stopReason: 'endTurn' });
  });

  it.each([
    ['ask-image', 'image', 'image/png', FIXTURE_PNG_B64, [0x89, 0x50, 0x4e, 0x47]],
    ['ask-audio', 'audio', 'audio/wav', FIXTURE_WAV_B64, [0x52, 0x49, 0x46, 0x46]],
  ] as const)('S-B64-1: %s arrives intact (bytes and MIME) and the approved response reaches the server', async (tool, kind, mimeType, data, magic) => {
    const { h } = env;
    const callId = await call(h, tool);
    const item = await itemOf(h, callId);
    const media = contentBlocks(item.original.messages[0]!.content).find((b) => b.type === kind) as { data: string; mimeType: string };
    expect(media.mimeType).toBe(mimeType);
    expect(media.data).toBe(data);
    expect([...Buffer.from(media.data, 'base64').subarray(0, 4)]).toEqual(magic);
    await answerManually(h, item, textResult(`I received the ${kind}.`));
    const { report } = await finished(h, callId);
    expect(report.result).toMatchObject({ content: { type: 'text', text: `I received the ${kind}.` } });
  });

  it.each(REFUSED.map((shape) => [SHAPE_RULES[shape], shape] as const))('%s: %s is answered -32602 before anyone sees it, and recorded with its rule', async (rule, shape) => {
    const { h } = env;
    const since = Date.now();
    const callId = await call(h, 'ask-invalid', { shape });
    const { report } = await finished(h, callId, 30_000);
    expectServerError(report, -32602);
    const entry = await historyOf(h, 'ask-invalid', since);
    expect(entry).toMatchObject({ status: 'failed', decidedBy: 'console', errorDetail: { code: -32602, rule } });
    if (REASONS[shape]) expect(entry.errorDetail!.message).toMatch(REASONS[shape]);
    expect((await h.state()).items.some((i) => i.association.calls.some((c) => c.callId === callId))).toBe(false);
  });

  it('S-SIZE-1: oversized-image (12 MB) is answered -32602 before anyone sees it, recorded with its rule, and the console stays responsive', async () => {
    const { report, entry } = await runOversizedChild(transport, 60_000);
    expectServerError(report, -32602, /limit/);
    expect(entry).toMatchObject({ status: 'failed', decidedBy: 'console', errorDetail: { code: -32602, rule: 'S-SIZE-1' } });
  }, 90_000);

  it('S-CAP-2: with sampling.tools declared, a request carrying tools reaches the person; rejecting it sends -1', async () => {
    const { h } = env;
    const callId = await call(h, 'ask-invalid', { shape: 'tools-undeclared' });
    const item = await itemOf(h, callId);
    expect(item.original.tools?.map((t) => t.name)).toEqual(['get_weather', 'get_time']);
    expect(item.original.toolChoice).toEqual({ mode: 'auto' });
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'not now' });
    expectServerError((await finished(h, callId)).report, -1, /User rejected sampling request/);
  });

  it('S-RES-1, S-TR-2: a two-round parallel tool loop, approved each round, is one conversation with a round counter; the server sees the whole transcript', async () => {
    const { h } = env;
    const callId = await call(h, 'tool-loop', { rounds: 2, parallel: true });
    const first = await itemOf(h, callId, 1);
    expect(first.round).toBe(1);
    expect(first.original.tools?.map((t) => t.name)).toEqual(['get_weather', 'get_time']);
    expect(first.original.toolChoice).toEqual({ mode: 'auto' });
    const uses = [toolUse('toolu_a', 'get_weather', { city: 'Paris' }), toolUse('toolu_b', 'get_time', { zone: 'Asia/Tokyo' })];
    await answerManually(h, first, { role: 'assistant', content: uses, model: 'manual', stopReason: 'toolUse' });

    const second = await itemOf(h, callId, 2);
    expect(second).toMatchObject({ conversationId: first.conversationId, round: 2 });
    expect(second.original.toolChoice).toEqual({ mode: 'none' });
    expect(second.original.messages).toHaveLength(3);
    expect(second.original.messages[1]).toEqual({ role: 'assistant', content: uses });
    const results = contentBlocks(second.original.messages[2]!.content);
    expect(results.map((b) => b.type === 'tool_result' && b.toolUseId)).toEqual(['toolu_a', 'toolu_b']);
    await answerManually(h, second, textResult('Paris is 18 °C and cloudy; it is 14:05 in Tokyo.'));

    const { report } = await finished(h, callId);
    expect(report).toMatchObject({ rounds: 2, ended: 'answered' });
    const transcript = report.transcript as Array<{ round: number; toolChoice: string; outcome: { result: { content: unknown; stopReason: string } } }>;
    expect(transcript.map((r) => [r.round, r.toolChoice, r.outcome.result.stopReason])).toEqual([
      [1, 'auto', 'toolUse'],
      [2, 'none', 'endTurn'],
    ]);
    expect(transcript[0]!.outcome.result.content).toEqual(uses);
    expect(transcript[1]!.outcome.result.content).toEqual({ type: 'text', text: 'Paris is 18 °C and cloudy; it is 14:05 in Tokyo.' });
  });

  it('S-RES-1: a provider that answers with parallel tool calls yields tool_use blocks and stopReason toolUse; round 2 carries the tool results to the LLM', async () => {
    const { h, llm } = env;
    llm.reset();
    llm.script(
      { toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: { city: 'Paris' } }, { id: 'call_t', name: 'get_time', arguments: { zone: 'Asia/Tokyo' } }] },
      { text: 'It is 18 °C in Paris and 14:05 in Tokyo.' },
    );
    const callId = await call(h, 'tool-loop', { rounds: 2, parallel: true });
    for (const round of [1, 2]) {
      const item = await itemOf(h, callId, round);
      await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: { providerId: 'loopback', modelId: 'loop-1' } });
      const reviewed = await itemIn(h, item.id, ['awaiting_response_review']);
      if (round === 1) {
        expect(reviewed.response?.generated).toMatchObject({
          stopReason: 'toolUse',
          content: [toolUse('call_w', 'get_weather', { city: 'Paris' }), toolUse('call_t', 'get_time', { zone: 'Asia/Tokyo' })],
        });
      }
      await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: reviewed.response!.draft });
    }
    const { report } = await finished(h, callId);
    expect(report).toMatchObject({ rounds: 2, ended: 'answered' });
    const toLlm = JSON.stringify(llm.requests[1]!.body.messages);
    expect(toLlm).toContain('call_w');
    expect(toLlm).toContain('cloudy');
    expect(llm.requests[0]!.body.tools?.map((t) => t.function.name)).toEqual(['get_weather', 'get_time']);
  });

  it('S-LOOP-1: the per-server round cap (default 10) ends a longer loop with a clear error and a history entry', async () => {
    const { h } = env;
    const since = Date.now();
    const callId = await call(h, 'tool-loop', { rounds: 12 });
    for (let round = 1; round <= 10; round++) {
      const item = await itemOf(h, callId, round);
      expect(item.round).toBe(round);
      await answerManually(h, item, { role: 'assistant', content: [toolUse(`toolu_${round}`, 'get_weather', { city: 'Paris' })], model: 'manual', stopReason: 'toolUse' });
    }
    const { report } = await finished(h, callId, 30_000);
    expect(report).toMatchObject({ rounds: 11, ended: 'error' });
    const last = (report.transcript as Array<{ outcome: { error?: { code: number; message: string } } }>).at(-1)!;
    expect(last.outcome.error?.message).toMatch(/round|loop/i);
    const entry = await historyOf(h, 'tool-loop', since);
    expect(entry.status).toBe('failed');
    expect(entry.errorDetail?.message ?? entry.error).toMatch(/10/);
  }, 60_000);

  it('cancellation: the server cancels (notifications/cancelled) → the item is cancelled with a reason and a late approve is refused', async () => {
    const { h } = env;
    const callId = await call(h, 'ask-then-cancel', { afterMs: 400 });
    const item = await itemOf(h, callId);
    const ended = await itemIn(h, item.id, ['cancelled']);
    expect(ended.outcome?.message).toMatch(/cancel/i);
    await expect(h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL })).rejects.toThrow(/Nothing was sent/);
    expect((await finished(h, callId)).report.error).toBeDefined();
    expect(await h.service.getHistoryEntry({ id: item.id })).toMatchObject({ status: 'cancelled' });
  });

  it('timeout: the server gives up on its request → the item ends timed out, with the reason, and a late approve is refused', async () => {
    const { h } = env;
    const callId = await call(h, 'ask-with-timeout', { timeoutMs: 600 });
    const item = await itemOf(h, callId);
    const ended = await itemIn(h, item.id, ['timed_out', 'cancelled']);
    // The SDK's cancel reason is typed once, where it enters (main/mcp/server-requests.ts).
    expect(ended.status).toBe('timed_out');
    expect(ended.outcome?.message).toMatch(/time/i);
    const entry = await h.service.getHistoryEntry({ id: item.id });
    expect(entry?.events.find((e) => e.kind === 'server_reason')?.detail).toMatch(/timed out/i);
    await expect(h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL })).rejects.toThrow(/Nothing was sent/);
    expect((await finished(h, callId)).report.error).toMatchObject({ message: expect.stringMatching(/time/i) });
  });

  it('progress: with a progressToken the server hears "awaiting review" while the person reviews', async () => {
    const { h } = env;
    const callId = await call(h, 'ask-with-progress');
    const item = await itemOf(h, callId);
    await new Promise((r) => setTimeout(r, 1500)); // the person reads the request
    await approveManual(h, item);
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: textResult('done reviewing') });
    const { report } = await finished(h, callId);
    expect(report.result).toMatchObject({ content: { text: 'done reviewing' } });
    const progress = report.progress as Array<{ progress: number; message?: string; at: number }>;
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.some((p) => /review/i.test(p.message ?? ''))).toBe(true);
    const values = progress.map((p) => p.progress);
    expect([...values].sort((a, b) => a - b)).toEqual(values); // progress only grows
  });

  it('S-ASSOC-1: a request sent while no client request is in flight is answered -32602 and recorded', async () => {
    const { h } = env;
    const since = Date.now();
    await finished(h, await call(h, 'unassociated', { afterMs: 300 }));
    let report: Record<string, unknown> = { pending: true };
    for (let i = 0; i < 100 && report.pending; i++) {
      await new Promise((r) => setTimeout(r, 100));
      report = (await finished(h, await call(h, 'last-unassociated-result'))).report;
    }
    expectServerError(report, -32602, /no client request/i);
    const page = await h.service.listHistory({ limit: 20, offset: 0 });
    const hit = page.entries.find((e) => e.receivedAt >= since && e.status === 'failed' && !e.callName);
    expect(hit, 'a history entry for the unassociated request').toBeDefined();
    expect(await h.service.getHistoryEntry({ id: hit!.id })).toMatchObject({ errorDetail: { code: -32602, rule: 'S-ASSOC-1' } });
  });

  it('a closed connection ends the pending item with a visible reason; a late decision is not sent anywhere', async () => {
    const { h } = env;
    const callId = await call(h, 'ask-text', { prompt: 'This server is about to restart.' });
    const item = await itemOf(h, callId);
    await h.service.restartServer({ serverId: 'fixture' });
    const ended = await itemIn(h, item.id, ['cancelled', 'failed']);
    expect(ended.outcome?.message).toMatch(/clos|disconnect|restart/i);
    await expect(h.service.rejectRequest({ itemId: item.id, version: item.contentVersion! })).rejects.toThrow(/Nothing was sent/);
    expect(await h.service.getHistoryEntry({ id: item.id })).toMatchObject({ status: ended.status });
  });
});
