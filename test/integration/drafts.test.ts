/**
 * Nothing a person typed is lost (docs/history.md, "Drafts"), end to end through main's API against the v2
 * sampling fixture (legacy push era, stdio): a draft saved with `saveDraft` is committed to the
 * history database at once (read back through a second connection), stays on the item and in
 * history when the server stops waiting (its timeout, its cancel, a disconnect), is found by a
 * history search, can be re-opened where it was typed, and is there after the console closed or
 * crashed and started again over the same user-data folder. An item whose tool call ended while
 * it waited leaves "awaiting review" at once and says why. The same for an elicitation form's
 * fields (the v2 elicitation fixture, legacy era).
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole } from '../../main/console.js';
import { openHistoryStore } from '../../main/store/history-store.js';
import type { DraftInput } from '../../shared/contract/drafts.js';
import type { ElicitationItemView } from '../../shared/contract/state.js';
import { startElicitationServer, type StartedFixture } from '../fixtures/elicitation-server.js';
import { startHarness, wholeState, type Harness } from '../support/console-harness.js';
import { approveManual, call, ensureReady, finished, itemIn, itemOf, serverLog, SERVER, startSamplingEnv, type SamplingEnv } from './sampling-support.js';

/** A hand-written response being typed (the manual provider's response draft). */
const writing = (text: string): DraftInput => ({ response: { draft: { texts: { '0:0': text }, editing: {} }, extras: { toolInputs: {}, added: [] } } });

/** What history.db holds for `id`, read through a connection of its own (what a restart would find). */
async function onDisk(dir: string, id: string) {
  const store = openHistoryStore(join(dir, 'history.db'));
  try {
    return await store.get(id);
  } finally {
    await store.close();
  }
}

let env: SamplingEnv;

beforeAll(async () => {
  env = await startSamplingEnv('stdio', 'legacy');
}, 60_000);

afterAll(async () => {
  await env?.close();
  if (env) rmSync(env.h.dir, { recursive: true, force: true });
});

describe('drafts through the server giving up', () => {
  it('the server times out while a response is being written: the text is on disk at once, stays on the ended item and in history, is searchable and re-opens where it was typed', async () => {
    await ensureReady(env);
    const { h } = env;
    const callId = await call(h, 'ask-with-timeout', { timeoutMs: 4000 });
    const item = await itemOf(h, callId);
    await approveManual(h, item);
    const text = 'My careful answer, typed over several minutes';
    await h.service.saveDraft({ itemId: item.id, draft: writing(text) });
    // Committed when saveDraft returns: another connection (a restarted console) reads it.
    expect((await onDisk(h.dir, item.id))?.draft?.response?.draft.texts['0:0']).toBe(text);

    const ended = await itemIn(h, item.id, ['timed_out', 'cancelled'], 15_000);
    expect(ended.outcome).toMatchObject({ stopped: 'server_stopped_waiting' });
    expect(ended.draft?.response?.draft.texts['0:0']).toBe(text);
    expect(ended.sentToModelAt).toBeUndefined(); // "Write the response myself": no model was called
    expect((await finished(h, callId)).report.error).toBeDefined();

    const entry = await h.service.getHistoryEntry({ id: item.id });
    expect(entry).toMatchObject({ status: ended.status, notDelivered: { cause: 'server_stopped_waiting', at: ended.outcome!.at, draft: true } });
    expect(entry?.draft?.response?.draft.texts['0:0']).toBe(text);
    expect(entry?.delivered).toBeUndefined();
    const listed = await h.service.listHistory({ query: 'careful answer', limit: 10, offset: 0 });
    expect(listed.entries.find((e) => e.id === item.id)?.notDelivered).toEqual({ cause: 'server_stopped_waiting', at: ended.outcome!.at, draft: true });

    // A save that was still on its way when the server gave up is kept too.
    await h.service.saveDraft({ itemId: item.id, draft: writing(`${text}, and one last line`) });
    expect((await onDisk(h.dir, item.id))?.draft?.response?.draft.texts['0:0']).toBe(`${text}, and one last line`);

    const { itemId } = await h.service.reopenHistoryEntry({ id: item.id });
    const reopened = (await h.state()).items.find((i) => i.id === itemId)!;
    expect(reopened).toMatchObject({ origin: 'draft', status: 'awaiting_response_review', response: { manual: true } });
    expect(reopened.draft?.response?.draft.texts['0:0']).toBe(`${text}, and one last line`);
  }, 40_000);

  it('the server cancels while the request is being edited: the edited request is kept, not delivered', async () => {
    await ensureReady(env);
    const { h } = env;
    const callId = await call(h, 'ask-then-cancel', { afterMs: 2500 });
    const item = await itemOf(h, callId);
    const edit: DraftInput = {
      request: {
        draft: { texts: { '0:0': 'A sharper question, rewritten by hand' }, editing: { '0:0': true }, systemPrompt: '', maxTokens: '64', temperature: '', model: '["manual","manual"]' },
        extras: { removedBlocks: {}, removedTools: {} },
      },
    };
    await h.service.saveDraft({ itemId: item.id, draft: edit });
    const ended = await itemIn(h, item.id, ['cancelled'], 15_000);
    expect(ended.outcome?.stopped).toBe('server_stopped_waiting');
    expect(ended.draft?.request?.draft.texts['0:0']).toBe('A sharper question, rewritten by hand');
    const entry = await onDisk(h.dir, item.id);
    expect(entry).toMatchObject({ status: 'cancelled', notDelivered: { cause: 'server_stopped_waiting', draft: true } });
    expect(entry?.draft?.request?.draft.texts['0:0']).toBe('A sharper question, rewritten by hand');
  }, 30_000);

  it('a disconnect mid-response keeps the draft', async () => {
    await ensureReady(env);
    const { h } = env;
    const callId = await call(h, 'ask-text', { prompt: 'This server is about to go away.' });
    const item = await itemOf(h, callId);
    await approveManual(h, item);
    await h.service.saveDraft({ itemId: item.id, draft: writing('Half an answer') });
    await h.service.restartServer({ serverId: SERVER });
    const ended = await itemIn(h, item.id, ['cancelled', 'timed_out'], 15_000);
    expect(ended.outcome?.stopped).toMatch(/server_stopped_waiting|call_ended/);
    expect((await onDisk(h.dir, item.id))?.draft?.response?.draft.texts['0:0']).toBe('Half an answer');
  }, 30_000);

  it('the tool call ends while its request still waits (no cancel sent): the item leaves "awaiting review" at once and says why', async () => {
    await ensureReady(env);
    const { h } = env;
    const callId = await call(h, 'ask-then-return', { afterMs: 500 });
    const item = await itemOf(h, callId);
    expect(item.status).toBe('awaiting_request_review');
    await h.service.saveDraft({ itemId: item.id, draft: writing('typed before the call ended') }); // ignored: no response yet
    const { call: done } = await finished(h, callId);
    expect(done.status).toBe('succeeded');
    const ended = await itemIn(h, item.id, ['cancelled'], 3000);
    expect(ended.outcome).toMatchObject({ stopped: 'call_ended', message: expect.stringMatching(/tools\/call ask-then-return ended/) });
    expect(await h.service.getHistoryEntry({ id: item.id })).toMatchObject({ status: 'cancelled', notDelivered: { cause: 'call_ended' } });
    // The server, still waiting on its request, is told it will get no answer.
    await expect.poll(async () => (await serverLog(h)).some((e) => e.tool === 'ask-then-return' && e.event === 'outcome' && 'error' in (e.detail ?? {})), { timeout: 5000 }).toBe(true);
  }, 30_000);
});

describe('drafts through a console restart', () => {
  it('closed mid-response and started again over the same folder: History has the draft, not delivered', async () => {
    await ensureReady(env);
    const first = env.h;
    const callId = await call(first, 'ask-text', { prompt: 'Answer before the console closes.' });
    const item = await itemOf(first, callId);
    await approveManual(first, item);
    await first.service.saveDraft({ itemId: item.id, draft: writing('Typed just before closing the console') });

    // A crash: the files as they are on disk right now, opened by a new console in another folder.
    const crashed = mkdtempSync(join(tmpdir(), 'mcp-console-crash-'));
    try {
      for (const f of ['history.db', 'history.db-wal']) if (existsSync(join(first.dir, f))) copyFileSync(join(first.dir, f), join(crashed, f));
      const afterCrash = await createConsole({ host: 'test', userDataDir: crashed, nodeRuntime: { command: process.execPath }, env: {} });
      try {
        const entry = await afterCrash.service.getHistoryEntry({ id: item.id });
        expect(entry).toMatchObject({ status: 'interrupted', notDelivered: { cause: 'console_stopped', draft: true } });
        expect(entry?.draft?.response?.draft.texts['0:0']).toBe('Typed just before closing the console');
        // The window kept its review open and the person typed on: the new console holds no such
        // item, and what was typed reaches the old item's History entry.
        const later = 'Typed just before closing the console, and on while it restarted';
        await afterCrash.service.saveDraft({ itemId: item.id, draft: writing(later) });
        expect(await afterCrash.service.getHistoryEntry({ id: item.id })).toMatchObject({ status: 'interrupted', notDelivered: { draft: true }, draft: { response: { draft: { texts: { '0:0': later } } } } });
        await expect(afterCrash.service.saveDraft({ itemId: 'never-was', draft: writing('x') })).rejects.toMatchObject({ code: 'not_found' });
        const { itemId } = await afterCrash.service.reopenHistoryEntry({ id: item.id });
        expect((await wholeState(afterCrash)).items.find((i) => i.id === itemId)?.draft?.response?.draft.texts['0:0']).toBe(later);
      } finally {
        await afterCrash.dispose();
      }
    } finally {
      rmSync(crashed, { recursive: true, force: true });
    }

    // A clean close, then a new console over the same folder.
    await first.dispose();
    const again = await createConsole({ host: 'test', userDataDir: first.dir, nodeRuntime: { command: process.execPath }, env: {} });
    try {
      const entry = await again.service.getHistoryEntry({ id: item.id });
      expect(entry).toMatchObject({ status: 'cancelled', notDelivered: { cause: 'console_stopped', draft: true } });
      expect(entry?.draft?.response?.draft.texts['0:0']).toBe('Typed just before closing the console');
    } finally {
      await again.dispose();
    }
  }, 40_000);
});

describe('elicitation form drafts', () => {
  let fixture: StartedFixture | undefined;
  let h: Harness;
  beforeAll(async () => {
    fixture = await startElicitationServer({ transport: 'stdio', era: 'legacy' });
    h = await startHarness({ servers: { forms: fixture.config } });
    await h.waitFor((s) => !!s.servers.find((x) => x.id === 'forms' && x.status === 'ready' && x.tools.some((t) => t.name === 'ask-form')), 'the elicitation fixture ready');
  }, 40_000);
  afterAll(async () => {
    await h?.dispose();
    if (h) rmSync(h.dir, { recursive: true, force: true });
    await fixture?.close();
  });

  it('the fields typed into a form are kept when the server goes away, on the item and in history', async () => {
    const { callId } = await h.service.callTool({ serverId: 'forms', name: 'ask-form', arguments: {} });
    const mine = (e: ElicitationItemView) => e.association.calls.some((c) => c.callId === callId);
    const item = (await h.waitFor((s) => (s.elicitations ?? []).some(mine), 'the form')).elicitations!.find(mine)!;
    await h.service.saveDraft({ itemId: item.id, draft: { form: { name: 'Ada Lovelace', age: '36', newsletter: false } } });
    expect((await onDisk(h.dir, item.id))?.draft?.form).toEqual({ name: 'Ada Lovelace', age: '36', newsletter: false });
    await h.service.restartServer({ serverId: 'forms' });
    const ended = (await h.waitFor((s) => s.elicitations?.find((e) => e.id === item.id)?.status === 'withdrawn', 'the form withdrawn')).elicitations!.find((e) => e.id === item.id)!;
    expect(ended.outcome?.stopped).toMatch(/server_stopped_waiting|call_ended/);
    expect(ended.draft?.form?.name).toBe('Ada Lovelace');
    expect(await h.service.getHistoryEntry({ id: item.id })).toMatchObject({ kind: 'elicitation', status: 'withdrawn', notDelivered: { draft: true }, draft: { form: { name: 'Ada Lovelace' } } });
  }, 30_000);
});
