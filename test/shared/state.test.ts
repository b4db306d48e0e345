import { describe, expect, it } from 'vitest';
import { createStateHub } from '../../main/state-hub.js';
import type { ConsoleEvent } from '../../shared/api.js';
import { applyPatch, type ConsoleState, type SamplingItemView } from '../../shared/state.js';

const base: Omit<ConsoleState, 'version'> = {
  servers: [],
  calls: [],
  items: [],
  providers: [],
  notices: [],
  settings: { host: 'test', userDataDir: '/u', serversConfigPath: '/u/s', providersConfigPath: '/u/p', historyPath: '/u/h' },
};
const item = (id: string, status: SamplingItemView['status'] = 'awaiting_request_review'): SamplingItemView => ({
  id,
  conversationId: id,
  origin: 'server',
  round: 1,
  serverId: 's',
  era: 'legacy',
  association: { exact: true, calls: [] },
  status,
  receivedAt: 1,
  updatedAt: 1,
  original: { messages: [], maxTokens: 1 },
  model: { providerId: 'manual', modelId: 'manual', reason: '' },
});

describe('state hub → patches → renderer mirror', () => {
  it('coalesces changes of one tick into one patch, and the mirror converges to main state', () => {
    const queue: Array<() => void> = [];
    const hub = createStateHub(base, (fn) => queue.push(fn));
    const events: ConsoleEvent[] = [];
    hub.subscribe((e) => events.push(e));
    let mirror: ConsoleState = hub.snapshot();
    hub.upsertItem(item('a'));
    hub.upsertItem(item('b'));
    hub.upsertItem(item('a', 'generating'));
    hub.set('notices', [{ id: 'n', level: 'info', message: 'hi', at: 1 }]);
    expect(queue).toHaveLength(1);
    queue.shift()!();
    expect(events).toHaveLength(1);
    hub.removeItem('b');
    queue.shift()!();
    for (const e of events) if (e.type === 'patch') mirror = applyPatch(mirror, e.patch);
    expect(mirror).toEqual(hub.snapshot());
    expect(mirror.items.map((i) => [i.id, i.status])).toEqual([['a', 'generating']]);
    expect(mirror.notices).toHaveLength(1);
  });

  it('a stale patch (version not newer) is ignored', () => {
    const s: ConsoleState = { ...base, version: 5 };
    expect(applyPatch(s, { version: 5, notices: [] })).toBe(s);
    expect(applyPatch(s, { version: 6, items: { upsert: [item('x')], remove: [] } }).items).toHaveLength(1);
  });

  it('slices not in the patch keep their identity (cheap re-renders)', () => {
    const s: ConsoleState = { ...base, version: 1 };
    const next = applyPatch(s, { version: 2, calls: [] });
    expect(next.servers).toBe(s.servers);
    expect(next.items).toBe(s.items);
  });
});
