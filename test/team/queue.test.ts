/**
 * The team's shared queue on a real PostgreSQL, two instances (real consoles) on one database: a
 * provider call held by instance A (its caller is connected to A's gateway) shows on B at once,
 * whole; a reviewer on B approves request and response; A answers its caller; History on either
 * has it. Two reviewers racing (one on each instance) decide once and the other is told; a stale
 * version is refused by the holder; a draft typed on B reaches A's item and History; big media
 * come from History; a finished item dismissed on B leaves every queue.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/contract/api.js';
import { MEDIA_REF_MIN_CHARS } from '../../shared/contract/media-refs.js';
import type { SamplingItemView } from '../../shared/contract/state.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer } from '../fixtures/openai-compatible-server.js';
import { testDatabase } from '../support/postgres.js';
import { fakeProviders, gatewayCall, itemOn, startTeamInstance, waitingCall, type TeamInstance } from '../support/team.js';

const MODEL = { providerId: 'llm', modelId: 'test-model' };

describe('one queue across two instances', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let llm: OpenAICompatibleServer;
  let a: TeamInstance;
  let b: TeamInstance;
  const calls: Array<Promise<Response>> = [];

  beforeAll(async () => {
    db = await testDatabase();
    llm = await startOpenAICompatibleServer();
    a = await startTeamInstance(db.url, fakeProviders(llm.baseURL));
    b = await startTeamInstance(db.url, fakeProviders(llm.baseURL));
  }, 60_000);
  afterEach(async () => {
    // Every call of a test is answered before the next one starts (a rejected one too).
    await Promise.allSettled(calls.splice(0));
  });
  afterAll(async () => {
    await b?.dispose();
    await a?.dispose();
    await llm?.close();
    await db?.drop();
  });

  /** A call to A's gateway, and its item as B shows it once it awaits request review. */
  const callOnA = async (content: unknown = 'hello team') => {
    const answer = gatewayCall(a, content);
    calls.push(answer);
    const held = await waitingCall(a);
    const seen = (await itemOn(b, held.id, (i) => i.contentVersion === held.contentVersion, 'the call on B')) as SamplingItemView;
    return { answer, held, seen };
  };

  it('a call held by A is reviewed on B: A answers its caller, History on both has it', async () => {
    llm.script({ text: 'Answer from the model.' });
    const { answer, held, seen } = await callOnA();
    expect(seen).toMatchObject({ id: held.id, status: 'awaiting_request_review', original: held.original, gateway: { api: 'openai' } });
    const opened = await b.service.getItem({ id: held.id });
    expect(opened.item).toMatchObject({ id: held.id, contentVersion: held.contentVersion });

    await b.service.approveRequest({ itemId: held.id, version: seen.contentVersion!, params: seen.original, model: MODEL });
    const review = (await itemOn(b, held.id, (i) => i.status === 'awaiting_response_review' && i.contentVersion !== undefined, 'the response on B')) as SamplingItemView;
    const result = { ...review.response!.draft, content: { type: 'text' as const, text: 'Checked on B.' } };
    await b.service.approveResponse({ itemId: held.id, version: review.contentVersion!, result });

    const res = await answer;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe('Checked on B.');
    for (const on of [a, b]) {
      const entry = await on.service.getHistoryEntry({ id: held.id });
      expect(entry).toMatchObject({ status: 'delivered', decidedBy: 'person' });
      expect(entry!.events.map((e) => e.kind)).toEqual(expect.arrayContaining(['request_approved', 'delivered']));
    }
    await itemOn(b, held.id, (i) => i.status === 'delivered', 'the outcome on B');
  }, 60_000);

  it('two reviewers deciding the same review at once, on A and on B: one decision, the other is told', async () => {
    const { answer, held, seen } = await callOnA();
    const results = await Promise.allSettled([
      a.service.rejectRequest({ itemId: held.id, version: held.contentVersion!, reason: 'no from A' }),
      b.service.rejectRequest({ itemId: held.id, version: seen.contentVersion!, reason: 'no from B' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(lost.reason).toBeInstanceOf(ApiError);
    expect(lost.reason).toMatchObject({ code: 'invalid_state', ui: { code: 'error.cannotAct', params: { why: { code: 'error.decidedElsewhere' } } } });
    expect((await answer).status).toBe(403);
    const entry = await b.service.getHistoryEntry({ id: held.id });
    expect(entry!.events.filter((e) => e.kind === 'rejected')).toHaveLength(1);
  }, 60_000);

  it('a decision about a version B no longer shows is refused by the holder; nothing is sent', async () => {
    const { answer, held } = await callOnA();
    await expect(b.service.rejectRequest({ itemId: held.id, version: '0'.repeat(64) })).rejects.toMatchObject({ code: 'invalid_state', ui: { params: { why: { code: 'error.staleVersion' } } } });
    expect(a.items().find((i) => i.id === held.id)?.status).toBe('awaiting_request_review');
    await a.service.rejectRequest({ itemId: held.id, version: held.contentVersion! });
    expect((await answer).status).toBe(403);
  }, 60_000);

  it('what a reviewer types on B reaches the item on A and its History entry', async () => {
    const { answer, held, seen } = await callOnA();
    const draft = { request: { draft: { texts: { '0:0': 'typed on B' }, editing: { '0:0': true }, systemPrompt: '', maxTokens: '32', temperature: '', model: '' }, extras: { removedBlocks: {}, removedTools: {} } } };
    await b.service.saveDraft({ itemId: held.id, draft, version: seen.contentVersion! });
    expect(a.items().find((i) => i.id === held.id)?.draft?.request?.draft.texts['0:0']).toBe('typed on B');
    expect((await a.service.getHistoryEntry({ id: held.id }))!.draft?.request?.draft.texts['0:0']).toBe('typed on B');
    await itemOn(b, held.id, (i) => i.draft?.request?.draft.texts['0:0'] === 'typed on B', 'the draft on B');
    await b.service.rejectRequest({ itemId: held.id, version: seen.contentVersion! });
    expect((await answer).status).toBe(403);
  }, 60_000);

  it('a draft saved on B and the approval right after it reach A in that order: nothing counts as typed after the review', async () => {
    llm.script({ text: 'Model text.' });
    const { answer, held, seen } = await callOnA();
    await b.service.approveRequest({ itemId: held.id, version: seen.contentVersion!, params: seen.original, model: MODEL });
    const review = (await itemOn(b, held.id, (i) => i.status === 'awaiting_response_review' && i.contentVersion !== undefined, 'the response on B')) as SamplingItemView;
    const result = { ...review.response!.draft, content: { type: 'text' as const, text: 'Edited on B.' } };
    const draft = { response: { draft: { texts: { '0:0': 'Edited on B.' }, editing: { '0:0': true } }, extras: { toolInputs: {}, added: [] } } };
    // Not awaited in between, as a page saving on the approve click does.
    await Promise.all([b.service.saveDraft({ itemId: held.id, draft, version: review.contentVersion! }), b.service.approveResponse({ itemId: held.id, version: review.contentVersion!, result })]);
    expect((await answer).status).toBe(200);
    const entry = await b.service.getHistoryEntry({ id: held.id });
    expect(entry).toMatchObject({ status: 'delivered' });
    expect(entry!.draft?.late).toBeUndefined();
  }, 60_000);

  it("an image of a call held by A opens on B by reference, its payload from History", async () => {
    const image = Buffer.alloc(MEDIA_REF_MIN_CHARS, 7).toString('base64');
    const { answer, held } = await callOnA([
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${image}` } },
    ]);
    const opened = await b.service.getItem({ id: held.id });
    expect(opened.media).toHaveLength(1);
    expect(JSON.stringify(opened.item)).not.toContain(image.slice(0, 1000));
    const { media } = await b.service.getItemMedia({ id: held.id, refs: [opened.media![0]!.ref] });
    expect(media).toEqual([{ ref: opened.media![0]!.ref, data: image }]);
    await b.service.rejectRequest({ itemId: held.id, version: held.contentVersion! });
    expect((await answer).status).toBe(403);
  }, 60_000);

  it('a finished call dismissed on B leaves both queues', async () => {
    const { answer, held } = await callOnA();
    await b.service.rejectRequest({ itemId: held.id, version: held.contentVersion! });
    await answer;
    await itemOn(b, held.id, (i) => i.status === 'rejected', 'the outcome on B');
    await b.service.dismissItem({ itemId: held.id });
    await a.waitFor(() => !a.items().some((i) => i.id === held.id), 'gone from A');
    await b.waitFor(() => !b.items().some((i) => i.id === held.id), 'gone from B');
  }, 60_000);
});
