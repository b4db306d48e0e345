/**
 * Contract: entries saved and read back exactly, the list (order, paging, filters, session
 * places), sessions, counters, facets and usage.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { HistoryFilter } from '../../../shared/contract/history.js';
import type { HistoryEntry } from '../../../shared/contract/state.js';
import { english, ui } from '../../../shared/contract/ui-text.js';
import { fullEntry, minimalEntry } from '../fixtures/entries.js';
import { page, search, type Bed } from './history-store-contract.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1);

export function describeEntries(bed: Bed): void {
  describe('save and get', () => {
    it('round-trips a fully populated entry exactly', async () => {
      const entry = fullEntry('a');
      bed.store.save(entry);
      expect(await bed.store.get('a')).toStrictEqual(entry);
    });

    it('round-trips an entry with only the required fields, without inventing optional ones', async () => {
      const entry = minimalEntry('m', 1000);
      bed.store.save(entry);
      const got = await bed.store.get('m');
      expect(got).toStrictEqual(entry);
      expect(Object.keys(got!).sort()).toEqual(Object.keys(entry).sort());
    });

    it('keeps raw params that failed validation and fields the schema has no column for', async () => {
      const entry = { ...minimalEntry('raw', 1), original: 'not even an object', association: { exact: false } };
      bed.store.save(entry as HistoryEntry);
      expect(await bed.store.get('raw')).toStrictEqual(entry);
    });

    it('keeps text with U+0000 and a lone surrogate exactly in the parts, and finds it by its words', async () => {
      const odd = 'nul\u0000here and \ud800 alone';
      const entry = { ...minimalEntry('odd', 1000, odd), generated: { role: 'assistant' as const, content: { type: 'text' as const, text: odd }, model: 'm' } };
      bed.store.save(entry);
      const got = await bed.store.get('odd');
      expect(got?.original).toStrictEqual(entry.original);
      expect(got?.generated).toStrictEqual(entry.generated);
      expect((await search(bed.store, 'alone')).ids).toEqual(['odd']);
      expect((await search(bed.store, 'here')).ids).toEqual(['odd']);
    });

    it('returns null for an unknown id', async () => {
      expect(await bed.store.get('nope')).toBeNull();
    });

    it('survives close and re-open', async () => {
      bed.store.save(fullEntry('a'));
      const again = await bed.t.reopen();
      expect(await again.get('a')).toStrictEqual(fullEntry('a'));
    });

    it('upserts: a later save replaces the entry and its list row, without duplicating it', async () => {
      bed.store.save(minimalEntry('x', 5000, 'first draft'));
      const later: HistoryEntry = { ...fullEntry('x', 5000), status: 'rejected', decidedBy: 'console', endedAt: 9000, edited: false, error: 'timed out waiting', preview: 'updated preview' };
      bed.store.save(later);
      expect(await bed.store.get('x')).toStrictEqual(later);
      const p = await bed.store.list({ limit: 10, offset: 0 });
      expect(p.total).toBe(1);
      expect(p.entries).toEqual([
        {
          id: 'x',
          conversationId: 'conv-x',
          serverId: 'everything',
          callName: 'tools/call trigger-sampling-request',
          status: 'rejected',
          decidedBy: 'console',
          receivedAt: 5000,
          endedAt: 9000,
          model: 'gpt-4o-mini',
          providerId: 'openai',
          edited: false,
          error: 'timed out waiting',
          preview: 'updated preview',
          sessionSize: 1,
          sessionIndex: 1,
          mediaBytes: 8, // the 12-character base64 image in fullEntry
          mediaCount: 1,
        },
      ]);
    });

    it('clears optional fields that a later save no longer has', async () => {
      bed.store.save(fullEntry('x'));
      const bare = minimalEntry('x', 7);
      bed.store.save(bare);
      expect(await bed.store.get('x')).toStrictEqual(bare);
    });

    it('an unfinished entry saved again keeps exactly its latest fields, set, changed or cleared', async () => {
      const queued = minimalEntry('u', 1000, 'heron');
      bed.store.save(queued);
      const approved = { ...queued, status: 'generating' as const, decidedBy: 'rule' as const, model: 'm1', providerId: 'p', rule: { serverId: 'srv', ruleId: 'r1', name: 'R', version: 2 } };
      bed.store.save(approved);
      expect(await bed.store.get('u')).toStrictEqual(approved);
      const failed = { ...queued, status: 'awaiting_request_review' as const, error: 'provider down', model: 'm2' };
      bed.store.save(failed); // decidedBy, providerId and rule cleared; model changed; an error set
      expect(await bed.store.get('u')).toStrictEqual(failed);
      expect((await page(bed.store, { limit: 10, offset: 0, status: ['awaiting_request_review'] })).ids).toEqual(['u']);
      expect((await bed.store.list({ limit: 10, offset: 0, status: ['generating'] })).total).toBe(0);
    });

    it('rejects malformed entries with a TypeError and stores nothing', async () => {
      const bad = { ...minimalEntry('b', 1), receivedAt: Number.NaN };
      expect(() => bed.store.save(bad)).toThrow(TypeError);
      expect(() => bed.store.save({ ...minimalEntry('', 1) })).toThrow(/id/);
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      expect(() => bed.store.save({ ...minimalEntry('c', 1), original: cyclic })).toThrow(TypeError);
      expect(() => bed.store.saveMany([minimalEntry('ok', 1), { ...minimalEntry('c', 1), original: cyclic }])).toThrow(TypeError);
      await expect(bed.store.durable()).resolves.toBeUndefined();
      expect((await bed.store.list({ limit: 10, offset: 0 })).total).toBe(0);
    });

    it('after close, writes throw and reads reject; close is idempotent', async () => {
      await bed.store.close();
      await expect(bed.store.get('a')).rejects.toThrow(/closed/);
      await expect(bed.store.list({ limit: 1, offset: 0 })).rejects.toThrow(/closed/);
      expect(() => bed.store.save(minimalEntry('a', 1))).toThrow(/closed/);
      expect(() => bed.store.saveSoon(minimalEntry('a', 1))).toThrow(/closed/);
      await expect(bed.store.close()).resolves.toBeUndefined();
      await expect(bed.store.durable()).resolves.toBeUndefined();
    });

    it('lists an entry with its call arguments and the message code of its error, when it has them', async () => {
      const why = ui('validate.maxTokensPositive', { got: '0' });
      bed.store.save({ ...minimalEntry('with', 3000), callName: 'tools/call ask', callArgs: 'prompt: "hi", maxTokens: 5' });
      bed.store.save({ ...minimalEntry('refused', 2000), status: 'failed', error: english(why), errorUi: why });
      bed.store.save({ ...minimalEntry('plain', 1000), status: 'failed', error: 'provider error: 502' });
      const { entries } = await bed.store.list({ limit: 10, offset: 0 });
      expect(entries.map((e) => [e.id, e.callArgs, e.error, e.errorUi])).toEqual([
        ['with', 'prompt: "hi", maxTokens: 5', undefined, undefined],
        ['refused', undefined, 'maxTokens must be a positive integer (got 0)', why],
        ['plain', undefined, 'provider error: 502', undefined],
      ]);
      expect((await bed.store.get('refused'))?.errorUi).toEqual(why);
    });
  });

  describe('list', () => {
    beforeEach(() => {
      // Saved out of order; two share a receivedAt (tie broken by save order: the later save first).
      for (const [id, at] of [['e3', 300], ['e1', 100], ['e5', 500], ['e2', 200], ['e4', 300]] as const) bed.store.save(minimalEntry(id, at));
    });

    it('lists newest first with a stable tie-break and counts everything', async () => {
      expect(await page(bed.store, { limit: 10, offset: 0 })).toEqual({ ids: ['e5', 'e4', 'e3', 'e2', 'e1'], total: 5 });
    });

    it('pages with limit and offset; total stays the full count', async () => {
      expect((await page(bed.store, { limit: 2, offset: 0 })).ids).toEqual(['e5', 'e4']);
      expect((await page(bed.store, { limit: 2, offset: 2 })).ids).toEqual(['e3', 'e2']);
      expect(await page(bed.store, { limit: 2, offset: 4 })).toEqual({ ids: ['e1'], total: 5 });
      expect((await page(bed.store, { limit: 2, offset: 10 })).ids).toEqual([]);
      expect(await bed.store.list({ limit: 0, offset: 0 })).toEqual({ entries: [], total: 5 });
    });

    it('rejects negative or fractional paging', async () => {
      await expect(bed.store.list({ limit: -1, offset: 0 })).rejects.toThrow(RangeError);
      await expect(bed.store.list({ limit: 1.5, offset: 0 })).rejects.toThrow(RangeError);
      await expect(bed.store.list({ limit: 1, offset: -3 })).rejects.toThrow(RangeError);
      await expect(bed.store.sessions({ filter: {} }, -1)).rejects.toThrow(RangeError);
    });

    it('treats an empty or punctuation-only query as no filter', async () => {
      for (const query of ['', '   ', '"', '-', '*', '()']) expect((await search(bed.store, query)).total).toBe(5);
    });
  });

  describeFilters(bed);
}

/** A small but varied history: two servers, three sessions (one of three rounds), every filter column. */
function seed(store: Bed['store']): void {
  store.saveMany([
    fullEntry('a1', T0, { conversationId: 'conv-a', serverId: 'github', callName: 'tools/call search_issues', status: 'delivered', edited: true, usage: { inputTokens: 10, outputTokens: 5 } }),
    fullEntry('a2', T0 + 1000, { conversationId: 'conv-a', serverId: 'github', callName: 'tools/call search_issues (+1 more in flight)', status: 'delivered', edited: false, error: undefined, errorDetail: undefined, usage: { inputTokens: 20, outputTokens: 7 } }),
    fullEntry('a3', T0 + 2000, { conversationId: 'conv-a', serverId: 'github', callName: 'tools/call search_issues', status: 'rejected', edited: false, error: undefined, errorDetail: undefined, usage: undefined }),
    fullEntry('b1', T0 + DAY, { conversationId: 'conv-b', serverId: 'everything', status: 'failed', decidedBy: 'console', model: 'llama3.2', providerId: 'ollama', edited: false, usage: { inputTokens: 1 } }),
    { ...minimalEntry('c1', T0 + 2 * DAY, 'weather in lisbon'), conversationId: 'conv-c', serverId: 'everything', status: 'delivered', decidedBy: 'person' },
  ]);
}

function describeFilters(bed: Bed): void {
  const ids = async (filter: HistoryFilter, limit = 50, offset = 0) => (await page(bed.store, { ...filter, limit, offset })).ids;
  const total = async (filter: HistoryFilter) => (await bed.store.list({ ...filter, limit: 0, offset: 0 })).total;

  describe('list filters', () => {
    beforeEach(() => seed(bed.store));

    it('filters by each column, ANDs filters, and counts what matches', async () => {
      expect(await ids({ serverId: 'github' })).toEqual(['a3', 'a2', 'a1']);
      expect(await ids({ status: ['rejected', 'failed'] })).toEqual(['b1', 'a3']);
      expect(await ids({ decidedBy: 'console' })).toEqual(['b1']);
      expect(await ids({ decidedBy: 'rule' })).toEqual([]);
      expect(await ids({ id: 'a2' })).toEqual(['a2']);
      expect(await ids({ id: 'a2', serverId: 'everything' })).toEqual([]); // the entry on screen no longer matches
      expect(await ids({ id: 'c1', query: 'lisbon' })).toEqual(['c1']);
      expect(await ids({ model: 'llama3.2' })).toEqual(['b1']);
      expect(await ids({ providerId: 'openai' })).toEqual(['a3', 'a2', 'a1']);
      expect(await ids({ edited: true })).toEqual(['a1']);
      expect(await ids({ edited: false })).toEqual(['c1', 'b1', 'a3', 'a2']);
      expect(await ids({ errors: true })).toEqual(['b1', 'a1']);
      expect(await ids({ errors: false })).toEqual(['c1', 'a3', 'a2']);
      expect(await ids({ conversationId: 'conv-a' })).toEqual(['a3', 'a2', 'a1']);
      const ruled = { ...minimalEntry('ruled', T0 + 3 * DAY), kind: 'sampling' as const, decidedBy: 'rule' as const, rule: { serverId: 'srv', ruleId: 'rule-1', version: 3, name: 'Allow summaries' } };
      bed.store.save(ruled);
      expect(await ids({ rule: 'rule-1' })).toEqual(['ruled']);
      expect(await ids({ rule: 'rule-2' })).toEqual([]);
      expect((await bed.store.list({ rule: 'rule-1', limit: 1, offset: 0 })).entries[0]).toMatchObject({ kind: 'sampling', rule: ruled.rule, decidedBy: 'rule' });
      expect(await bed.store.get('ruled')).toStrictEqual(ruled);
      await bed.store.deleteSessions(['ruled']);
      expect(await ids({ serverId: 'github', status: ['delivered'], edited: false })).toEqual(['a2']);
      expect(await total({ serverId: 'github', status: ['delivered'] })).toBe(2);
    });

    it('matches a tool by its call name, including the "(+N more in flight)" form, and escapes LIKE wildcards', async () => {
      expect(await ids({ tool: 'tools/call search_issues' })).toEqual(['a3', 'a2', 'a1']);
      expect(await ids({ tool: 'tools/call search%' })).toEqual([]);
      expect(await ids({ tool: 'tools/call search_issue' })).toEqual([]);
      expect(await ids({ tool: 'tools/call trigger-sampling-request' })).toEqual(['b1']);
    });

    it('bounds receivedAt as [from, to)', async () => {
      expect(await ids({ from: T0 + DAY })).toEqual(['c1', 'b1']);
      expect(await ids({ to: T0 + DAY })).toEqual(['a3', 'a2', 'a1']);
      expect(await ids({ from: T0 + 1000, to: T0 + 2000 })).toEqual(['a2']);
      expect(await ids({ from: T0 + DAY, to: T0 + DAY + 1 })).toEqual(['b1']);
      expect(await total({ from: T0 + 3 * DAY })).toBe(0);
    });

    it('combines full-text search with filters, the date range and paging', async () => {
      expect(await ids({ query: 'zanzibar' })).toEqual(['b1', 'a3', 'a2', 'a1']);
      expect(await ids({ query: 'zanzibar', serverId: 'github', status: ['delivered'] })).toEqual(['a2', 'a1']);
      expect(await ids({ query: 'zanzibar', from: T0 + 1000, to: T0 + DAY + 1 })).toEqual(['b1', 'a3', 'a2']);
      expect(await total({ query: 'zanzibar', from: T0 + 1000, to: T0 + DAY + 1 })).toBe(3);
      expect(await ids({ query: 'zanzibar' }, 2, 1)).toEqual(['a3', 'a2']);
      expect(await ids({ query: 'lisbon', serverId: 'github' })).toEqual([]);
    });

    it('gives each row its place in its session and its media size', async () => {
      const p = await bed.store.list({ conversationId: 'conv-a', limit: 10, offset: 0 });
      expect(p.entries.map((e) => [e.id, e.sessionIndex, e.sessionSize])).toEqual([
        ['a3', 3, 3],
        ['a2', 2, 3],
        ['a1', 1, 3],
      ]);
      expect(p.entries[0]).toMatchObject({ mediaBytes: 8, mediaCount: 1 });
      expect((await bed.store.list({ conversationId: 'conv-c', limit: 10, offset: 0 })).entries[0]).toMatchObject({ sessionIndex: 1, sessionSize: 1, mediaBytes: 0, mediaCount: 0 });
    });
  });

  describeCounters(bed);
}

function describeCounters(bed: Bed): void {
  describe('sessions, counters, facets and usage', () => {
    beforeEach(() => seed(bed.store));

    it('selects whole sessions by entry ids or by filter, newest session first', async () => {
      expect(await bed.store.sessions({ ids: ['a1', 'c1', 'nope'] }, 10)).toEqual(['conv-c', 'conv-a']);
      expect(await bed.store.sessions({ filter: { status: ['rejected'] } }, 10)).toEqual(['conv-a']);
      expect(await bed.store.sessions({ filter: {} }, 10)).toEqual(['conv-c', 'conv-b', 'conv-a']);
      expect(await bed.store.sessions({ filter: {} }, 2)).toEqual(['conv-c', 'conv-b']);
      expect((await bed.store.conversation('conv-a')).map((e) => e.id)).toEqual(['a1', 'a2', 'a3']);
      expect((await bed.store.conversation('conv-a'))[0]).toStrictEqual(fullEntry('a1', T0, { conversationId: 'conv-a', serverId: 'github', callName: 'tools/call search_issues', status: 'delivered', edited: true, usage: { inputTokens: 10, outputTokens: 5 } }));
      expect(await bed.store.conversation('nope')).toEqual([]);
    });

    it('counts requests, approvals, rejections, rule decisions and tokens per server for a period', async () => {
      expect(await bed.store.stats({})).toEqual({
        servers: [
          { serverId: 'everything', requests: 2, approved: 1, rejected: 0, auto: 0, tokens: 1, cost: null },
          { serverId: 'github', requests: 3, approved: 2, rejected: 1, auto: 0, tokens: 42, cost: null },
        ],
      });
      expect(await bed.store.stats({ from: T0 + 500, to: T0 + DAY })).toEqual({
        from: T0 + 500,
        to: T0 + DAY,
        servers: [{ serverId: 'github', requests: 2, approved: 1, rejected: 1, auto: 0, tokens: 27, cost: null }],
      });
      bed.store.save({ ...minimalEntry('r1', T0 + 3 * DAY), status: 'delivered', decidedBy: 'rule' as never });
      expect((await bed.store.stats({ from: T0 + 3 * DAY })).servers).toEqual([{ serverId: 'srv', requests: 1, approved: 1, rejected: 0, auto: 1, tokens: 0, cost: null }]);
    });

    it("a team's people: who decided and who requested round-trip, filter the list, and count per person for a period", async () => {
      const ana = { subject: 'p_ana', name: 'Ana' };
      const bo = { subject: 'p_bo', name: 'Bo' };
      bed.store.save(fullEntry('d1', T0 + 5 * DAY, { conversationId: 'conv-d', status: 'delivered', decider: ana, requestedBy: bo }));
      bed.store.save(fullEntry('d2', T0 + 5 * DAY + 1, { conversationId: 'conv-d', status: 'rejected', decider: ana }));
      bed.store.save(fullEntry('d3', T0 + 5 * DAY + 2, { conversationId: 'conv-e', status: 'delivered', decider: { ...bo, name: 'Bo B.' }, requestedBy: ana }));
      expect(await bed.store.get('d1')).toStrictEqual(fullEntry('d1', T0 + 5 * DAY, { conversationId: 'conv-d', status: 'delivered', decider: ana, requestedBy: bo }));
      const listed = await bed.store.list({ decider: 'p_ana', limit: 50, offset: 0 });
      expect(listed.entries.map((e) => e.id)).toEqual(['d2', 'd1']);
      expect(listed.entries[1]).toMatchObject({ decider: ana, requestedBy: bo });
      expect((await page(bed.store, { requestedBy: 'p_ana', limit: 50, offset: 0 })).ids).toEqual(['d3']);
      expect((await page(bed.store, { decider: 'p_bo', requestedBy: 'p_ana', limit: 50, offset: 0 })).total).toBe(1);
      expect((await page(bed.store, { decider: 'p_nobody', limit: 50, offset: 0 })).total).toBe(0);
      expect((await bed.store.stats({ from: T0 + 5 * DAY })).people).toEqual([
        { subject: 'p_ana', name: 'Ana', decided: 2, approved: 1, rejected: 1, requested: 1 },
        // The name of their newest entry in the period.
        { subject: 'p_bo', name: 'Bo B.', decided: 1, approved: 1, rejected: 0, requested: 1 },
      ]);
      expect((await bed.store.stats({ from: T0 + 5 * DAY + 1 })).people).toEqual([
        { subject: 'p_ana', name: 'Ana', decided: 1, approved: 0, rejected: 1, requested: 1 },
        { subject: 'p_bo', name: 'Bo B.', decided: 1, approved: 1, rejected: 0, requested: 0 },
      ]);
      expect((await bed.store.stats({ to: T0 + 5 * DAY })).people).toBeUndefined();
      expect((await bed.store.facets()).people).toEqual([ana, { subject: 'p_bo', name: 'Bo B.' }]);
    });

    it('sums the recorded generation costs per server for the period (null while none was priced)', async () => {
      bed.store.save(fullEntry('p1', T0 + 4 * DAY, { conversationId: 'conv-p', serverId: 'github', status: 'delivered', usage: { inputTokens: 1000, outputTokens: 100 }, costUsd: 0.0125 }));
      bed.store.save(fullEntry('p2', T0 + 4 * DAY + 1, { conversationId: 'conv-p', serverId: 'github', status: 'delivered', usage: { inputTokens: 10, outputTokens: 10 }, costUsd: 0.0005 }));
      bed.store.save(fullEntry('p3', T0 + 4 * DAY + 2, { conversationId: 'conv-q', serverId: 'everything', status: 'delivered', usage: { inputTokens: 10, outputTokens: 10 } }));
      const servers = async (range: { from?: number; to?: number }) => (await bed.store.stats(range)).servers;
      expect((await servers({})).find((x) => x.serverId === 'github')!.cost).toBeCloseTo(0.013, 10);
      expect((await servers({})).find((x) => x.serverId === 'everything')!.cost).toBeNull();
      // Bounded like the other counters: the priced entries fall outside this period.
      expect((await servers({ to: T0 + 4 * DAY })).find((x) => x.serverId === 'github')!.cost).toBeNull();
      expect((await servers({ from: T0 + 4 * DAY + 1 })).find((x) => x.serverId === 'github')!.cost).toBeCloseTo(0.0005, 10);
    });

    it('lists distinct values for the filter menus', async () => {
      expect(await bed.store.facets()).toEqual({
        servers: ['everything', 'github'],
        tools: ['tools/call search_issues', 'tools/call trigger-sampling-request'],
        models: ['gpt-4o-mini', 'llama3.2'],
        providers: ['ollama', 'openai'],
        rules: [],
      });
      bed.store.save({ ...minimalEntry('r1', T0 + 5 * DAY), decidedBy: 'rule', rule: { serverId: 'srv', ruleId: 'rule-7', version: 1, name: 'Old name' } });
      bed.store.save({ ...minimalEntry('r2', T0 + 6 * DAY), decidedBy: 'rule', rule: { serverId: 'srv', ruleId: 'rule-7', version: 2, name: 'Summaries ok' } });
      expect((await bed.store.facets()).rules).toEqual([{ ruleId: 'rule-7', name: 'Summaries ok', serverId: 'srv' }]);
    });
  });

  describeUsage(bed);
}

/**
 * Today's usage read back from history (`usageSince`): the source of the daily token and spend
 * totals after a restart.
 */
function describeUsage(bed: Bed): void {
  const DAY0 = Date.UTC(2026, 10, 22);
  let n = 0;
  const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
    id: `e${++n}`,
    conversationId: `c${n}`,
    serverId: 's',
    status: 'delivered',
    receivedAt: DAY0 + 3_600_000,
    edited: false,
    preview: '',
    original: {},
    providerId: 'llm',
    model: 'm',
    timings: {},
    events: [],
    ...over,
  });

  it('usage: sums tokens and recorded costs per server, provider and model; drafts, older entries and entries without usage are left out', async () => {
    n = 0;
    bed.store.saveMany([
      entry({ usage: { inputTokens: 100, outputTokens: 10 }, costUsd: 0.5 }),
      entry({ usage: { inputTokens: 200, outputTokens: 20 }, costUsd: 0.25 }),
      entry({ usage: { inputTokens: 7, outputTokens: 3 } }), // before prices were recorded
      entry({ usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 1, model: 'other' }),
      entry({ serverId: 't', usage: { inputTokens: 5, outputTokens: 5 }, costUsd: 0.01 }),
      entry({ usage: { inputTokens: 999, outputTokens: 999 }, costUsd: 9, origin: 'draft' }),
      entry({ usage: { inputTokens: 999, outputTokens: 999 }, costUsd: 9, receivedAt: DAY0 - 1 }),
      entry({ status: 'rejected' }),
    ]);
    const rows = (await bed.store.usageSince(DAY0)).sort((a, b) => `${a.serverId}${a.model}`.localeCompare(`${b.serverId}${b.model}`));
    expect(rows).toEqual([
      { serverId: 's', providerId: 'llm', model: 'm', inputTokens: 307, outputTokens: 33, costUsd: 0.75, unpricedInputTokens: 7, unpricedOutputTokens: 3 },
      { serverId: 's', providerId: 'llm', model: 'other', inputTokens: 1, outputTokens: 1, costUsd: 1, unpricedInputTokens: 0, unpricedOutputTokens: 0 },
      { serverId: 't', providerId: 'llm', model: 'm', inputTokens: 5, outputTokens: 5, costUsd: 0.01, unpricedInputTokens: 0, unpricedOutputTokens: 0 },
    ]);
    expect(await bed.store.get('e1')).toMatchObject({ costUsd: 0.5 }); // costUsd round-trips on the entry
  });
}
