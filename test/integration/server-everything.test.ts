/**
 * The walking skeleton end to end through main's API (no UI), against the real
 * @modelcontextprotocol/server-everything (built on SDK v1: a real legacy peer), over stdio and over
 * Streamable HTTP: the person approves with edits and the server receives the edited response; the
 * person rejects and the server receives -1.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { everythingStdio, startHarness, type Harness, seenVersion } from '../support/console-harness.js';
import { startEverythingHttp } from '../support/everything-http.js';

type Transport = 'stdio' | 'http';

/** Calls trigger-sampling-request and returns the call id and the queued item. */
async function trigger(h: Harness, prompt: string) {
  await h.waitFor((s) => !!s.servers.find((x) => x.id === 'everything' && x.status === 'ready' && x.tools.some((t) => t.name === 'trigger-sampling-request')), 'server-everything ready with trigger-sampling-request');
  const { callId } = await h.service.callTool({ serverId: 'everything', name: 'trigger-sampling-request', arguments: { prompt, maxTokens: 64 } });
  const state = await h.waitFor((s) => s.items.some((i) => i.association.calls.some((c) => c.callId === callId)), 'the sampling request in the queue');
  const item = state.items.find((i) => i.association.calls.some((c) => c.callId === callId))!;
  return { callId, item };
}

const callResultText = async (h: Harness, callId: string) => {
  const s = await h.waitFor((st) => st.calls.some((c) => c.id === callId && c.status !== 'running'), 'the tool call to finish');
  const call = s.calls.find((c) => c.id === callId)!;
  return { call, text: (call.result?.content ?? []).map((b) => String(b.text ?? '')).join('\n') };
};

describe.each<Transport>(['stdio', 'http'])('server-everything over %s', (transport) => {
  let h: Harness;
  let llm: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;
  let httpServer: { child: ChildProcess } | undefined;

  beforeAll(async () => {
    llm = await startOpenAICompatibleServer();
    let everything: Record<string, unknown> = everythingStdio();
    if (transport === 'http') {
      const started = await startEverythingHttp();
      httpServer = started;
      everything = { url: started.url };
    }
    h = await startHarness({
      servers: { everything },
      providers: { providers: [{ id: 'loopback', kind: 'openai-compatible', label: 'Loopback', baseURL: llm.baseURL, models: ['loop-1'] }] },
    });
    await h.ready;
  }, 40_000);

  afterAll(async () => {
    await h?.dispose();
    httpServer?.child.kill();
    await llm?.close();
  });

  it('shows the request with the call it belongs to, exactly as the server sent it', async () => {
    const { callId, item } = await trigger(h, 'hello from the test');
    expect(item.association).toMatchObject({ exact: true, calls: [{ callId, kind: 'tools/call', name: 'trigger-sampling-request' }] });
    expect(item.original).toMatchObject({ systemPrompt: 'You are a helpful test server.', maxTokens: 64, temperature: 0.7 });
    expect(JSON.stringify(item.original.messages)).toContain('hello from the test');
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion! });
    await callResultText(h, callId);
  });

  it('approve with edits (manual provider): the server receives the edited response', async () => {
    const { callId, item } = await trigger(h, 'original prompt');
    const edited = { ...item.original, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'edited prompt' } }], systemPrompt: 'edited system' };
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: edited, model: { providerId: 'manual', modelId: 'manual' } });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'written by a person' }, model: 'manual', stopReason: 'endTurn' } });
    const { call, text } = await callResultText(h, callId);
    expect(call.status).toBe('succeeded');
    expect(text).toContain('written by a person');
    const entry = await h.service.getHistoryEntry({ id: item.id });
    expect(entry).toMatchObject({ status: 'delivered', edited: true, sent: { systemPrompt: 'edited system' } });
  });

  it('approve with edits (OpenAI-compatible provider): the LLM gets the edited prompt, the server the edited response', async () => {
    llm.script({ text: 'the model says hi', chunks: 3 });
    const { callId, item } = await trigger(h, 'ask the model');
    const edited = { ...item.original, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'edited for the model' } }], maxTokens: 32 };
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: edited, model: { providerId: 'loopback', modelId: 'loop-1' } });
    const s = await h.waitFor((st) => st.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'generated response');
    const reviewed = s.items.find((i) => i.id === item.id)!;
    expect(reviewed.response?.generated?.content).toMatchObject({ type: 'text', text: 'the model says hi' });
    const sentToLlm = JSON.stringify(llm.requests.at(-1));
    expect(sentToLlm).toContain('edited for the model');
    expect(sentToLlm).not.toContain('ask the model');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { ...reviewed.response!.draft, content: { type: 'text', text: 'the model says hi, edited' } } });
    const { text } = await callResultText(h, callId);
    expect(text).toContain('the model says hi, edited');
    expect(text).toContain('"model": "loop-1"');
  });

  it('reject: the server receives error -1 and the call result shows it', async () => {
    const { callId, item } = await trigger(h, 'please reject me');
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'no' });
    const { call, text } = await callResultText(h, callId);
    const shown = `${text} ${call.error?.message ?? ''}`;
    expect(shown).toMatch(/User rejected sampling request/);
    expect(shown).toMatch(/-1/);
    const entry = await h.service.getHistoryEntry({ id: item.id });
    expect(entry).toMatchObject({ status: 'rejected', decidedBy: 'person' });
  });
});
