/**
 * A decision acts only on the version of the item the person saw (main/sampling/versions.ts,
 * main/elicitation/queue.ts): the item under review carries its content version, a decision about
 * any other version is refused with a clear `invalid_state` and changes nothing, History records
 * the version decided about and the digest of what the approval let out, nothing is hashed for a
 * request a rule decides, and what is typed in a review the item has moved on from is kept apart.
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/contract/api.js';
import type { CreateMessageParams, CreateMessageResult } from '../../shared/contract/sampling.js';
import type { ElicitationItemView, HistoryEntry, SamplingItemView } from '../../shared/contract/state.js';
import type { DraftInput } from '../../shared/contract/drafts.js';
import type { LlmProvider } from '../../main/llm/provider.js';
import { createSamplingPipeline, type SamplingPipeline } from '../../main/sampling/pipeline.js';
import { createElicitationQueue } from '../../main/elicitation/queue.js';
import { createStateHub } from '../../main/state-hub.js';
import { silentLogger } from '../../main/ports.js';
import { forServer } from '../../main/sampling/record.js';
import { entryWithDraft } from '../../main/history/kept-drafts.js';
import * as version from '../../main/requests/version.js';

vi.mock('../../main/requests/version.js', async (original) => {
  const real = await original<typeof import('../../main/requests/version.js')>();
  return { ...real, versionOf: vi.fn(real.versionOf) };
});

const params: CreateMessageParams = { messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }], maxTokens: 100 };
const STALE = '0'.repeat(64);

function setup() {
  const saved: HistoryEntry[] = [];
  const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
  let n = 0;
  const llm: LlmProvider = {
    view: { id: 'llm', kind: 'openai-compatible', label: 'Loopback', models: ['m'], hasApiKey: false },
    async generate(input) {
      const text = `generation ${++n}`;
      return { result: { role: 'assistant', content: { type: 'text', text }, model: input.modelId, stopReason: 'endTurn' }, finishReason: 'stop' };
    },
  };
  const providers = [llm];
  const rules: { action?: 'approve_all' } = {};
  const pipeline: SamplingPipeline = createSamplingPipeline({
    hub,
    history: { save: (e) => void saved.push(structuredClone(e)) },
    providers: { list: () => providers, get: (id) => providers.find((p) => p.view.id === id), defaultModel: () => ({ providerId: 'llm', modelId: 'm' }) },
    logger: silentLogger,
    now: Date.now,
    inFlightCalls: () => [{ callId: 'c1', kind: 'tools/call', name: 'ask' }],
    onRefused: () => undefined,
    streamUpdateMs: 0,
    policy: { decide: () => (rules.action ? { kind: rules.action, rule: { serverId: 's', ruleId: 'r', name: 'all', version: 1 } } : { kind: 'ask' }) },
  });
  const item = (): SamplingItemView => hub.items().at(-1) as SamplingItemView;
  const waitFor = async (pred: () => boolean) => {
    for (let i = 0; i < 200 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(pred()).toBe(true);
  };
  const incoming = () => ({ kind: 'sampling' as const, serverId: 's', era: 'legacy' as const, params, signal: new AbortController().signal });
  return { hub, pipeline, saved, item, waitFor, incoming, rules };
}

const refusal = { name: 'ApiError', code: 'invalid_state', message: expect.stringMatching(/not the version you saw.*Nothing was sent/) };

describe('decisions name the version the person saw', () => {
  it('an item under request review carries the version of the request as it would be sent', () => {
    const t = setup();
    void t.pipeline.handle(t.incoming());
    expect(t.item().contentVersion).toBe(version.contentVersion(params));
  });

  it('approve and reject about another version are refused and change nothing; the right one is recorded with the digest of what was sent', async () => {
    const t = setup();
    const answer = t.pipeline.handle(t.incoming());
    await expect(t.pipeline.approveRequest(t.item().id, STALE, params, { providerId: 'llm', modelId: 'm' })).rejects.toMatchObject(refusal);
    expect(() => t.pipeline.rejectRequest(t.item().id, STALE)).toThrow(ApiError);
    expect(t.item().status).toBe('awaiting_request_review');

    const seen = t.item().contentVersion!;
    const edited = { ...params, maxTokens: 50 };
    await t.pipeline.approveRequest(t.item().id, seen, edited, { providerId: 'llm', modelId: 'm' });
    await t.waitFor(() => t.item().status === 'awaiting_response_review');
    const shown = t.item().response!.draft;
    expect(t.item().contentVersion).toBe(version.contentVersion(shown));
    expect(() => t.pipeline.approveResponse(t.item().id, seen, shown)).toThrow(expect.objectContaining(refusal)); // the request's version is not the response's

    const final: CreateMessageResult = { ...shown, content: { type: 'text', text: 'edited answer' } };
    t.pipeline.approveResponse(t.item().id, t.item().contentVersion!, final);
    await expect(answer).resolves.toEqual(final);
    const events = t.saved.at(-1)!.events;
    expect(events.find((e) => e.kind === 'request_approved')).toMatchObject({ version: seen, sha256: version.contentVersion(edited) });
    expect(events.find((e) => e.kind === 'response_approved')).toMatchObject({ version: version.contentVersion(shown), sha256: version.contentVersion(forServer(final)) });
  });

  it('a response regenerated elsewhere is a new version: approving, rejecting or regenerating the one seen is refused', async () => {
    const t = setup();
    void t.pipeline.handle(t.incoming()).catch(() => undefined);
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'llm', modelId: 'm' });
    await t.waitFor(() => t.item().status === 'awaiting_response_review');
    const seen = t.item().contentVersion!;
    const seenResponse = t.item().response!.draft;
    await t.pipeline.regenerate(t.item().id, seen); // another window
    await t.waitFor(() => t.item().status === 'awaiting_response_review' && t.item().contentVersion !== undefined);
    expect(t.item().contentVersion).not.toBe(seen);
    expect(() => t.pipeline.approveResponse(t.item().id, seen, seenResponse)).toThrow(expect.objectContaining(refusal));
    expect(() => t.pipeline.rejectResponse(t.item().id, seen)).toThrow(expect.objectContaining(refusal));
    await expect(t.pipeline.regenerate(t.item().id, seen)).rejects.toMatchObject(refusal);
    expect(t.item().status).toBe('awaiting_response_review');
    const current = t.item().contentVersion!;
    t.pipeline.rejectResponse(t.item().id, current);
    const events = t.saved.at(-1)!.events;
    expect(events.find((e) => e.kind === 'regenerate')).toMatchObject({ version: seen });
    expect(events.find((e) => e.kind === 'rejected')).toMatchObject({ version: current });
  });

  it('nothing is hashed for a request a rule approves and delivers', async () => {
    const t = setup();
    t.rules.action = 'approve_all';
    vi.mocked(version.versionOf).mockClear();
    await t.pipeline.handle(t.incoming());
    expect(t.item().status).toBe('delivered');
    expect(version.versionOf).not.toHaveBeenCalled();
    expect(t.saved.at(-1)!.events.some((e) => e.version !== undefined || e.sha256 !== undefined)).toBe(false);
  });

  it('a big request: decisions wait for its version (refused as "still reading"), which comes in slices', async () => {
    const t = setup();
    const big = { ...params, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'x'.repeat(2_000_000) } }] };
    void t.pipeline.handle({ ...t.incoming(), params: big }).catch(() => undefined);
    expect(t.item().contentVersion).toBeUndefined();
    expect(() => t.pipeline.rejectRequest(t.item().id, version.contentVersion(big))).toThrow(expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/still reading/) }));
    expect(() => t.pipeline.rejectRequest(t.item().id, undefined as unknown as string)).toThrow(ApiError); // naming no version is no way around it
    await t.waitFor(() => t.item().contentVersion !== undefined);
    expect(t.item().contentVersion).toBe(version.contentVersion(big));
    t.pipeline.rejectRequest(t.item().id, t.item().contentVersion!);
    expect(t.item().status).toBe('rejected');
  });
});

describe('what is typed after the review moved on', () => {
  const typed = (text: string): DraftInput => ({ response: { draft: { texts: { '0:0': text }, editing: {} }, extras: { toolInputs: {}, added: [] } } });

  it('typed against an older version while the item is open: kept as late, not applied to the new review', async () => {
    const t = setup();
    void t.pipeline.handle(t.incoming()).catch(() => undefined);
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'llm', modelId: 'm' });
    await t.waitFor(() => t.item().status === 'awaiting_response_review');
    const seen = t.item().contentVersion!;
    await t.pipeline.regenerate(t.item().id, seen);
    await t.waitFor(() => t.item().status === 'awaiting_response_review' && t.item().contentVersion !== undefined);
    t.pipeline.saveDraft(t.item().id, typed('typed on the first response'), seen);
    expect(t.item().draft?.response).toBeUndefined();
    expect(t.item().draft?.late?.response?.draft.texts['0:0']).toBe('typed on the first response');
  });

  it('typed after the response went out: kept in History as the late part', async () => {
    const t = setup();
    void t.pipeline.handle(t.incoming()).catch(() => undefined);
    await t.pipeline.approveRequest(t.item().id, t.item().contentVersion!, params, { providerId: 'llm', modelId: 'm' });
    await t.waitFor(() => t.item().status === 'awaiting_response_review');
    const seen = t.item().contentVersion!;
    t.pipeline.approveResponse(t.item().id, seen, t.item().response!.draft); // another window sends it
    t.pipeline.saveDraft(t.item().id, typed('still typing here'), seen);
    expect(t.saved.at(-1)).toMatchObject({ status: 'delivered', draft: { late: { response: { draft: { texts: { '0:0': 'still typing here' } } } } } });
  });

  it('an entry the queue no longer holds keeps it: merged when nothing went out, late after delivery', () => {
    const base = { id: 'x', conversationId: 'x', serverId: 's', receivedAt: 1, edited: false, preview: '', original: params, timings: {}, events: [] };
    const interrupted: HistoryEntry = { ...base, status: 'interrupted', notDelivered: { cause: 'console_stopped', at: 2, draft: false } };
    expect(entryWithDraft(interrupted, typed('after the restart'), 5)).toMatchObject({ draft: { response: { draft: { texts: { '0:0': 'after the restart' } } }, savedAt: 5 }, notDelivered: { draft: true } });
    const delivered: HistoryEntry = { ...base, status: 'delivered' };
    expect(entryWithDraft(delivered, typed('late'), 5)).toMatchObject({ draft: { late: { response: { draft: { texts: { '0:0': 'late' } } } } } });
    expect(entryWithDraft(delivered, typed('late'), 5).draft?.response).toBeUndefined();
  });
});

describe('elicitation answers name the version of the question', () => {
  it('an answer about another version is refused; the right one records the version and the digest of the answer', async () => {
    const saved: HistoryEntry[] = [];
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
    const queue = createElicitationQueue({ hub, history: { save: (e) => void saved.push(structuredClone(e)) }, now: Date.now, inFlightCalls: () => [{ callId: 'c1', kind: 'tools/call', name: 'ask' }] });
    const form = { message: 'Your name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } } };
    const answer = queue.handle({ kind: 'elicitation', serverId: 's', era: 'legacy', params: form, signal: new AbortController().signal });
    const item = hub.items().at(-1) as ElicitationItemView;
    expect(item.contentVersion).toBe(version.contentVersion(item.params));
    expect(() => queue.respond(item.id, STALE, 'decline')).toThrow(expect.objectContaining({ code: 'invalid_state', message: expect.stringMatching(/answer this question: it is not the version you saw/) }));
    queue.respond(item.id, item.contentVersion!, 'accept', { name: 'Ada' });
    await expect(answer).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(saved.at(-1)!.events.at(-1)).toMatchObject({ kind: 'accepted', version: item.contentVersion, sha256: version.contentVersion({ action: 'accept', content: { name: 'Ada' } }) });
  });
});
