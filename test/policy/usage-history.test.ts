/**
 * Today's usage read back from history (main/store/usage.ts via HistoryStore.usageSince): the
 * source of the daily token and spend totals after a restart. Grouped by server, provider and
 * model; entries before the start time, without usage, or re-opened as drafts are left out;
 * recorded costs are summed and tokens without a recorded cost are reported apart.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { openHistoryStore } from '../../main/store/history-store.js';

const DAY = Date.UTC(2026, 10, 22);
let n = 0;
const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
  id: `e${++n}`,
  conversationId: `c${n}`,
  serverId: 's',
  status: 'delivered',
  receivedAt: DAY + 3_600_000,
  edited: false,
  preview: '',
  original: {},
  providerId: 'llm',
  model: 'm',
  timings: {},
  events: [],
  ...over,
});

describe('usage since a time, from history', () => {
  it('sums tokens and recorded costs per server, provider and model; drafts, older entries and entries without usage are left out', () => {
    const store = openHistoryStore(':memory:');
    store.saveMany([
      entry({ usage: { inputTokens: 100, outputTokens: 10 }, costUsd: 0.5 }),
      entry({ usage: { inputTokens: 200, outputTokens: 20 }, costUsd: 0.25 }),
      entry({ usage: { inputTokens: 7, outputTokens: 3 } }), // before prices were recorded
      entry({ usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 1, model: 'other' }),
      entry({ serverId: 't', usage: { inputTokens: 5, outputTokens: 5 }, costUsd: 0.01 }),
      entry({ usage: { inputTokens: 999, outputTokens: 999 }, costUsd: 9, origin: 'draft' }),
      entry({ usage: { inputTokens: 999, outputTokens: 999 }, costUsd: 9, receivedAt: DAY - 1 }),
      entry({ status: 'rejected' }),
    ]);
    const rows = store.usageSince(DAY).sort((a, b) => `${a.serverId}${a.model}`.localeCompare(`${b.serverId}${b.model}`));
    expect(rows).toEqual([
      { serverId: 's', providerId: 'llm', model: 'm', inputTokens: 307, outputTokens: 33, costUsd: 0.75, unpricedInputTokens: 7, unpricedOutputTokens: 3 },
      { serverId: 's', providerId: 'llm', model: 'other', inputTokens: 1, outputTokens: 1, costUsd: 1, unpricedInputTokens: 0, unpricedOutputTokens: 0 },
      { serverId: 't', providerId: 'llm', model: 'm', inputTokens: 5, outputTokens: 5, costUsd: 0.01, unpricedInputTokens: 0, unpricedOutputTokens: 0 },
    ]);
    expect(store.get('e1')).toMatchObject({ costUsd: 0.5 }); // costUsd round-trips on the entry
    store.close();
  });
});
