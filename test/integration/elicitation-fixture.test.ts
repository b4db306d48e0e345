/**
 * Elicitation and roots the 2026-07-28 way (MRTR), through main's API, against the v2
 * elicitation fixture (test/fixtures/elicitation-server.ts) over stdio AND Streamable HTTP: the
 * tool returns `input_required` carrying an elicitation (or roots/list) request; the item joins the
 * same queue as every other, tied exactly to its call; the person's accept / decline / cancel goes
 * back on the retry with the byte-exact requestState; the tool result (the fixture's report of
 * what the SERVER received) reflects it. Form content that fails the requestedSchema is refused
 * before anything is sent; a non-flat requestedSchema is refused (-32602, recorded) and no retry
 * is sent. The 2025 era of the same fixture covers the SDK's push shim and
 * `notifications/elicitation/complete`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallView, ElicitationItemView } from '../../shared/contract/state.js';
import { startElicitationServer, type StartedFixture } from '../fixtures/elicitation-server.js';
import type { FixtureEra } from '../fixtures/sampling/http.js';
import { startHarness, type Harness } from '../support/console-harness.js';

const SERVER = 'fixture';
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** A console with the fixture connected (per transport and era), and helpers over it. */
function useFixture(transport: 'stdio' | 'http', era: FixtureEra) {
  let fixture: StartedFixture | undefined;
  const env = { h: undefined as unknown as Harness };
  beforeAll(async () => {
    fixture = await startElicitationServer({ transport, era });
    env.h = await startHarness({ servers: { [SERVER]: fixture.config } });
    await env.h.waitFor((s) => !!s.servers.find((x) => x.id === SERVER && x.status === 'ready' && x.tools.some((t) => t.name === 'ask-form')), 'the fixture ready with its tools');
  }, 40_000);
  afterAll(async () => {
    await env.h?.dispose();
    if (env.h) rmSync(env.h.dir, { recursive: true, force: true });
    await fixture?.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => (await env.h.service.callTool({ serverId: SERVER, name, arguments: args })).callId;
  const itemOf = async (callId: string): Promise<ElicitationItemView> => {
    const mine = (e: ElicitationItemView) => e.association.calls.some((c) => c.callId === callId);
    return (await env.h.waitFor((s) => (s.elicitations ?? []).some(mine), `the elicitation of call ${callId}`)).elicitations!.find(mine)!;
  };
  const finished = async (callId: string): Promise<{ call: CallView; report: Record<string, unknown> }> => {
    const s = await env.h.waitFor((st) => st.calls.some((c) => c.id === callId && c.status !== 'running'), `call ${callId} to finish`);
    const done = s.calls.find((c) => c.id === callId)!;
    const text = (done.result?.content ?? []).map((b) => String(b.text ?? '')).join('');
    return { call: done, report: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const serverLog = async (clear = false) => (await finished(await call('server-log', { clear }))).report.log as Array<{ tool: string; event: string; era: string }>;
  return { env, call, itemOf, finished, serverLog };
}

describe.each(['stdio', 'http'] as const)('MRTR elicitation and roots (2026-07-28) over %s', (transport) => {
  const { env, call, itemOf, finished, serverLog } = useFixture(transport, 'modern');

  it('the fixture speaks 2026-07-28', async () => {
    const state = await env.h.state();
    expect(state.servers.find((s) => s.id === SERVER)).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
  });

  it('form accept: the item joins the queue tied to its call; the validated content (defaults applied) reaches the server on the retry', async () => {
    const callId = await call('ask-form', { message: 'Tell us about **you**.' });
    const item = await itemOf(callId);
    expect(item).toMatchObject({
      serverId: SERVER,
      era: 'modern',
      source: 'request',
      status: 'awaiting_input',
      association: { exact: true, calls: [{ callId, kind: 'tools/call', name: 'ask-form' }] },
      params: { message: 'Tell us about **you**.', requestedSchema: { required: ['name'] } },
    });
    // The same queue as sampling: the call lists the item beside its sampling items.
    const running = (await env.h.state()).calls.find((c) => c.id === callId)!;
    expect(running.samplingItemIds).toContain(item.id);

    await env.h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept', content: { name: 'Ada', age: 36, colour: 'g' } });
    const { call: done, report } = await finished(callId);
    expect(done.status).toBe('succeeded');
    expect(report).toMatchObject({ era: 'modern', requestStateVerified: true, valid: true, answers: { profile: { action: 'accept', content: { name: 'Ada', age: 36, colour: 'g', newsletter: true } } } });
    const after = (await env.h.state()).elicitations!.find((e) => e.id === item.id)!;
    expect(after).toMatchObject({ status: 'accepted', answer: { action: 'accept' } });
  });

  it.each(['decline', 'cancel'] as const)('form %s: an ordinary answer on MRTR — the retry carries it and the tool result says so', async (action) => {
    const callId = await call('ask-form');
    const item = await itemOf(callId);
    await env.h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action });
    const { call: done, report } = await finished(callId);
    expect(done.status).toBe('succeeded');
    expect(report).toMatchObject({ requestStateVerified: true, answers: { profile: { action } } });
    expect((report.answers as { profile: Record<string, unknown> }).profile.content).toBeUndefined();
    expect((await env.h.state()).elicitations!.find((e) => e.id === item.id)!.status).toBe(action === 'decline' ? 'declined' : 'cancelled');
  });

  it('form content that fails the requestedSchema is refused before sending: no retry until a valid answer', async () => {
    await serverLog(true);
    const callId = await call('ask-form');
    const item = await itemOf(callId);
    for (const [content, why] of [
      [{ age: 3 }, /name is required/],
      [{ name: 'A' }, /name must be at least 2 characters/],
      [{ name: 'Ada', age: 200 }, /age must be at most 150/],
      [{ name: 'Ada', colour: 'blue' }, /colour .*listed choices/],
      [{ name: 'Ada', age: 1.5 }, /age must be a whole number/],
      [{ name: 'Ada', shoeSize: '42' }, /shoeSize was not asked for/],
    ] as const) {
      await expect(env.h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept', content })).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(why) });
    }
    const state = await env.h.state();
    expect(state.elicitations!.find((e) => e.id === item.id)!.status).toBe('awaiting_input');
    expect(state.calls.find((c) => c.id === callId)!.status).toBe('running');
    expect((await serverLog()).filter((e) => e.tool === 'ask-form' && e.event === 'retry')).toHaveLength(0);

    await env.h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept', content: { name: 'Grace' } });
    expect((await finished(callId)).report).toMatchObject({ valid: true, answers: { profile: { action: 'accept', content: { name: 'Grace', newsletter: true } } } });
    expect((await serverLog()).filter((e) => e.tool === 'ask-form' && e.event === 'retry')).toHaveLength(1);
  });

  it('URL mode: shown with its URL, answered on the retry (accept and decline)', async () => {
    const url = `https://pay.example.com/approve?tx=${transport}`;
    const first = await call('ask-url', { url });
    const item = await itemOf(first);
    expect(item).toMatchObject({ era: 'modern', source: 'request', params: { mode: 'url', url }, secretWarning: false, association: { exact: true } });
    await env.h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept' });
    expect((await finished(first)).report).toMatchObject({ requestStateVerified: true, answers: { consent: { action: 'accept' } } });

    const second = await call('ask-url', { url });
    const declined = await itemOf(second);
    await env.h.service.respondElicitation({ itemId: declined.id, version: declined.contentVersion!, action: 'decline' });
    expect((await finished(second)).report).toMatchObject({ answers: { consent: { action: 'decline' } } });
  });

  it('roots the MRTR way: the roots/list embedded in input_required is answered with the folders the person picked, and changes are seen on the next call', async () => {
    const a = mkdtempSync(join(tmpdir(), 'mrtr-roots-a-'));
    const b = mkdtempSync(join(tmpdir(), 'mrtr-roots-b-'));
    folders.push(a, b);
    await env.h.service.setServerRoots({ serverId: SERVER, folders: [a, b] });
    const first = await finished(await call('ask-roots'));
    expect(first.call.status).toBe('succeeded');
    expect(first.report).toMatchObject({ requestStateVerified: true, answers: { roots: { roots: [{ uri: pathToFileURL(a).href }, { uri: pathToFileURL(b).href }] } } });
    // Nothing for the person to answer: roots come from the server's settings.
    expect((await env.h.state()).elicitations!.some((e) => e.association.calls.some((c) => c.callId === first.call.id))).toBe(false);

    await env.h.service.setServerRoots({ serverId: SERVER, folders: [b] });
    const second = await finished(await call('ask-roots'));
    expect((second.report.answers as { roots: { roots: unknown[] } }).roots.roots).toEqual([{ uri: pathToFileURL(b).href, name: expect.any(String) }]);
    await env.h.service.setServerRoots({ serverId: SERVER, folders: [] });
  });

  it('a form and roots in one round: the person answers the form, the roots go with it on the same retry', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mrtr-roots-c-'));
    folders.push(root);
    await env.h.service.setServerRoots({ serverId: SERVER, folders: [root] });
    const callId = await call('ask-form-and-roots');
    const item = await itemOf(callId);
    await env.h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept', content: { name: 'Ada' } });
    const { report } = await finished(callId);
    expect(report).toMatchObject({ answers: { profile: { action: 'accept', content: { name: 'Ada' } }, roots: { roots: [{ uri: pathToFileURL(root).href }] } } });
    await env.h.service.setServerRoots({ serverId: SERVER, folders: [] });
  });

  it('a requestedSchema that is not flat is refused with -32602 and recorded; no retry is sent, the call says why', async () => {
    await serverLog(true);
    const since = Date.now();
    const callId = await call('ask-invalid-form');
    const { call: done } = await finished(callId);
    expect(done.status).toBe('failed');
    expect(done.error?.message).toMatch(/requestedSchema\.properties\.address: is not a field the spec allows/);
    expect(done.error?.message).toMatch(/not retried/);
    expect((await serverLog()).filter((e) => e.tool === 'ask-invalid-form' && e.event === 'retry')).toHaveLength(0);
    const page = await env.h.service.listHistory({ limit: 20, offset: 0 });
    const entry = page.entries.find((e) => e.kind === 'elicitation' && e.serverId === SERVER && e.receivedAt >= since && e.status === 'failed');
    expect(entry).toBeDefined();
    expect(await env.h.service.getHistoryEntry({ id: entry!.id })).toMatchObject({ decidedBy: 'console', errorDetail: { code: -32602 } });
  });
});

describe.each(['stdio', 'http'] as const)('the same fixture on the 2025 era (pushed requests) over %s', (transport) => {
  const { env, call, itemOf, finished } = useFixture(transport, 'legacy');

  it("the SDK's push shim: elicitation/create arrives as a push request and the answer reaches the tool", async () => {
    const callId = await call('ask-form');
    const item = await itemOf(callId);
    expect(item).toMatchObject({ era: 'legacy', association: { calls: [{ callId }] } });
    await env.h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept', content: { name: 'Ada' } });
    expect((await finished(callId)).report).toMatchObject({ era: 'legacy', valid: true, answers: { profile: { action: 'accept', content: { name: 'Ada', newsletter: true } } } });
  });

  it('notifications/elicitation/complete marks the URL item completed', async () => {
    const elicitationId = `done-${transport}`;
    const callId = await call('url-then-complete', { url: 'https://auth.example.com/sign-in', elicitationId });
    const item = await itemOf(callId);
    expect(item.params).toMatchObject({ mode: 'url', elicitationId });
    await env.h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept' });
    expect((await finished(callId)).report).toMatchObject({ answers: { consent: { action: 'accept' } } });
    const state = await env.h.waitFor((s) => s.elicitations?.find((e) => e.id === item.id)?.status === 'completed', 'the item marked completed');
    expect(state.elicitations!.find((e) => e.id === item.id)!.outcome?.message).toMatch(/reported the URL flow complete/);
  });
});
