import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryStore, type HistoryStore } from '../../main/store/history-store.js';
import type { HistoryFilter } from '../../shared/contract/history.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { fullEntry, minimalEntry } from './fixtures/entries.js';

let store: HistoryStore;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1);

/** A small but varied history: two servers, three sessions (one of three rounds), every filter column. */
function seed(): HistoryEntry[] {
  const entries: HistoryEntry[] = [
    fullEntry('a1', T0, { conversationId: 'conv-a', serverId: 'github', callName: 'tools/call search_issues', status: 'delivered', edited: true, usage: { inputTokens: 10, outputTokens: 5 } }),
    fullEntry('a2', T0 + 1000, { conversationId: 'conv-a', serverId: 'github', callName: 'tools/call search_issues (+1 more in flight)', status: 'delivered', edited: false, error: undefined, errorDetail: undefined, usage: { inputTokens: 20, outputTokens: 7 } }),
    fullEntry('a3', T0 + 2000, { conversationId: 'conv-a', serverId: 'github', callName: 'tools/call search_issues', status: 'rejected', edited: false, error: undefined, errorDetail: undefined, usage: undefined }),
    fullEntry('b1', T0 + DAY, { conversationId: 'conv-b', serverId: 'everything', status: 'failed', decidedBy: 'console', model: 'llama3.2', providerId: 'ollama', edited: false, usage: { inputTokens: 1 } }),
    { ...minimalEntry('c1', T0 + 2 * DAY, 'weather in lisbon'), conversationId: 'conv-c', serverId: 'everything', status: 'delivered', decidedBy: 'person' },
  ];
  store.saveMany(entries);
  return entries;
}

const ids = (filter: HistoryFilter, limit = 50, offset = 0) => store.list({ ...filter, limit, offset }).entries.map((e) => e.id);
const total = (filter: HistoryFilter) => store.list({ ...filter, limit: 0, offset: 0 }).total;

beforeEach(() => {
  store = openHistoryStore(':memory:');
  seed();
});
afterEach(() => store.close());

describe('list filters', () => {
  it('filters by each column, ANDs filters, and counts what matches', () => {
    expect(ids({ serverId: 'github' })).toEqual(['a3', 'a2', 'a1']);
    expect(ids({ status: ['rejected', 'failed'] })).toEqual(['b1', 'a3']);
    expect(ids({ decidedBy: 'console' })).toEqual(['b1']);
    expect(ids({ decidedBy: 'rule' })).toEqual([]);
    expect(ids({ id: 'a2' })).toEqual(['a2']);
    expect(ids({ id: 'a2', serverId: 'everything' })).toEqual([]); // the entry on screen no longer matches
    expect(ids({ id: 'c1', query: 'lisbon' })).toEqual(['c1']);
    expect(ids({ model: 'llama3.2' })).toEqual(['b1']);
    expect(ids({ providerId: 'openai' })).toEqual(['a3', 'a2', 'a1']);
    expect(ids({ edited: true })).toEqual(['a1']);
    expect(ids({ edited: false })).toEqual(['c1', 'b1', 'a3', 'a2']);
    expect(ids({ errors: true })).toEqual(['b1', 'a1']);
    expect(ids({ errors: false })).toEqual(['c1', 'a3', 'a2']);
    expect(ids({ conversationId: 'conv-a' })).toEqual(['a3', 'a2', 'a1']);
    const ruled = { ...minimalEntry('ruled', T0 + 3 * DAY), kind: 'sampling' as const, decidedBy: 'rule' as const, rule: { serverId: 'srv', ruleId: 'rule-1', version: 3, name: 'Allow summaries' } };
    store.save(ruled);
    expect(ids({ rule: 'rule-1' })).toEqual(['ruled']);
    expect(ids({ rule: 'rule-2' })).toEqual([]);
    expect(store.list({ rule: 'rule-1', limit: 1, offset: 0 }).entries[0]).toMatchObject({ kind: 'sampling', rule: ruled.rule, decidedBy: 'rule' });
    expect(store.get('ruled')).toStrictEqual(ruled);
    store.deleteSessions(['ruled']);
    expect(ids({ serverId: 'github', status: ['delivered'], edited: false })).toEqual(['a2']);
    expect(total({ serverId: 'github', status: ['delivered'] })).toBe(2);
  });

  it('matches a tool by its call name, including the "(+N more in flight)" form, and escapes LIKE wildcards', () => {
    expect(ids({ tool: 'tools/call search_issues' })).toEqual(['a3', 'a2', 'a1']);
    expect(ids({ tool: 'tools/call search%' })).toEqual([]);
    expect(ids({ tool: 'tools/call search_issue' })).toEqual([]);
    expect(ids({ tool: 'tools/call trigger-sampling-request' })).toEqual(['b1']);
  });

  it('bounds receivedAt as [from, to)', () => {
    expect(ids({ from: T0 + DAY })).toEqual(['c1', 'b1']);
    expect(ids({ to: T0 + DAY })).toEqual(['a3', 'a2', 'a1']);
    expect(ids({ from: T0 + 1000, to: T0 + 2000 })).toEqual(['a2']);
    expect(ids({ from: T0 + DAY, to: T0 + DAY + 1 })).toEqual(['b1']);
    expect(total({ from: T0 + 3 * DAY })).toBe(0);
  });

  it('combines full-text search with filters, the date range and paging', () => {
    expect(ids({ query: 'zanzibar' })).toEqual(['b1', 'a3', 'a2', 'a1']);
    expect(ids({ query: 'zanzibar', serverId: 'github', status: ['delivered'] })).toEqual(['a2', 'a1']);
    expect(ids({ query: 'zanzibar', from: T0 + 1000, to: T0 + DAY + 1 })).toEqual(['b1', 'a3', 'a2']);
    expect(total({ query: 'zanzibar', from: T0 + 1000, to: T0 + DAY + 1 })).toBe(3);
    expect(ids({ query: 'zanzibar' }, 2, 1)).toEqual(['a3', 'a2']);
    expect(ids({ query: 'lisbon', serverId: 'github' })).toEqual([]);
  });

  it('gives each row its place in its session and its media size', () => {
    const page = store.list({ conversationId: 'conv-a', limit: 10, offset: 0 });
    expect(page.entries.map((e) => [e.id, e.sessionIndex, e.sessionSize])).toEqual([
      ['a3', 3, 3],
      ['a2', 2, 3],
      ['a1', 1, 3],
    ]);
    expect(page.entries[0]).toMatchObject({ mediaBytes: 8, mediaCount: 1 });
    expect(store.list({ conversationId: 'conv-c', limit: 10, offset: 0 }).entries[0]).toMatchObject({ sessionIndex: 1, sessionSize: 1, mediaBytes: 0, mediaCount: 0 });
  });
});

describe('sessions, counters and facets', () => {
  it('selects whole sessions by entry ids or by filter, newest session first', () => {
    expect(store.sessions({ ids: ['a1', 'c1', 'nope'] }, 10)).toEqual(['conv-c', 'conv-a']);
    expect(store.sessions({ filter: { status: ['rejected'] } }, 10)).toEqual(['conv-a']);
    expect(store.sessions({ filter: {} }, 10)).toEqual(['conv-c', 'conv-b', 'conv-a']);
    expect(store.sessions({ filter: {} }, 2)).toEqual(['conv-c', 'conv-b']);
    expect(store.conversation('conv-a').map((e) => e.id)).toEqual(['a1', 'a2', 'a3']);
    expect(store.conversation('conv-a')[0]).toStrictEqual(fullEntry('a1', T0, { conversationId: 'conv-a', serverId: 'github', callName: 'tools/call search_issues', status: 'delivered', edited: true, usage: { inputTokens: 10, outputTokens: 5 } }));
  });

  it('counts requests, approvals, rejections, rule decisions and tokens per server for a period', () => {
    expect(store.stats({})).toEqual({
      servers: [
        { serverId: 'everything', requests: 2, approved: 1, rejected: 0, auto: 0, tokens: 1, cost: null },
        { serverId: 'github', requests: 3, approved: 2, rejected: 1, auto: 0, tokens: 42, cost: null },
      ],
    });
    expect(store.stats({ from: T0 + 500, to: T0 + DAY })).toEqual({
      from: T0 + 500,
      to: T0 + DAY,
      servers: [{ serverId: 'github', requests: 2, approved: 1, rejected: 1, auto: 0, tokens: 27, cost: null }],
    });
    store.save({ ...minimalEntry('r1', T0 + 3 * DAY), status: 'delivered', decidedBy: 'rule' as never });
    expect(store.stats({ from: T0 + 3 * DAY }).servers).toEqual([{ serverId: 'srv', requests: 1, approved: 1, rejected: 0, auto: 1, tokens: 0, cost: null }]);
  });

  it('sums the recorded generation costs per server for the period (null while none was priced)', () => {
    store.save(fullEntry('p1', T0 + 4 * DAY, { conversationId: 'conv-p', serverId: 'github', status: 'delivered', usage: { inputTokens: 1000, outputTokens: 100 }, costUsd: 0.0125 }));
    store.save(fullEntry('p2', T0 + 4 * DAY + 1, { conversationId: 'conv-p', serverId: 'github', status: 'delivered', usage: { inputTokens: 10, outputTokens: 10 }, costUsd: 0.0005 }));
    store.save(fullEntry('p3', T0 + 4 * DAY + 2, { conversationId: 'conv-q', serverId: 'everything', status: 'delivered', usage: { inputTokens: 10, outputTokens: 10 } }));
    const github = store.stats({}).servers.find((x) => x.serverId === 'github')!;
    expect(github.cost).toBeCloseTo(0.013, 10);
    expect(store.stats({}).servers.find((x) => x.serverId === 'everything')!.cost).toBeNull();
    // Bounded like the other counters: the priced entries fall outside this period.
    expect(store.stats({ to: T0 + 4 * DAY }).servers.find((x) => x.serverId === 'github')!.cost).toBeNull();
    expect(store.stats({ from: T0 + 4 * DAY + 1 }).servers.find((x) => x.serverId === 'github')!.cost).toBeCloseTo(0.0005, 10);
  });

  it('lists distinct values for the filter menus', () => {
    expect(store.facets()).toEqual({
      servers: ['everything', 'github'],
      tools: ['tools/call search_issues', 'tools/call trigger-sampling-request'],
      models: ['gpt-4o-mini', 'llama3.2'],
      providers: ['ollama', 'openai'],
      rules: [],
    });
    store.save({ ...minimalEntry('r1', T0 + 5 * DAY), decidedBy: 'rule', rule: { serverId: 'srv', ruleId: 'rule-7', version: 1, name: 'Old name' } });
    store.save({ ...minimalEntry('r2', T0 + 6 * DAY), decidedBy: 'rule', rule: { serverId: 'srv', ruleId: 'rule-7', version: 2, name: 'Summaries ok' } });
    expect(store.facets().rules).toEqual([{ ruleId: 'rule-7', name: 'Summaries ok', serverId: 'srv' }]);
  });
});
