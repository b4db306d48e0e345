import { describe, expect, it } from 'vitest';
import { createStateHub } from '../../main/state-hub.js';
import type { ConsoleEvent } from '../../shared/api.js';
import type { ConsoleState, SamplingItemView } from '../../shared/state.js';
import { applyPatch, patchFits, type StatePatch } from '../../shared/state-patch.js';

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

/** A hub whose flushes the test runs (`queue`), and the events it published. */
function manualHub() {
  const queue: Array<() => void> = [];
  const hub = createStateHub(base, (fn) => queue.push(fn));
  const events: ConsoleEvent[] = [];
  hub.subscribe((e) => events.push(e));
  return { queue, hub, events };
}

describe('state hub → patches → renderer mirror', () => {
  it('coalesces changes of one tick into one patch, and the mirror converges to main state', () => {
    const { queue, hub, events } = manualHub();
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

  it('after its first patch an item travels as field-level changes: a status change does not resend the prompt, a stream sends its new text', () => {
    const { queue, hub, events } = manualHub();
    let mirror: ConsoleState = hub.snapshot();
    const tick = () => {
      queue.shift()!();
      const e = events.at(-1)!;
      if (e.type !== 'patch') throw new Error('expected a patch');
      mirror = applyPatch(mirror, e.patch);
      return JSON.parse(JSON.stringify(e.patch)) as StatePatch; // as it crosses the boundary
    };
    const prompt = 'a long prompt '.repeat(10_000);
    const first: SamplingItemView = { ...item('a'), original: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 9 }, error: { message: 'old', at: 1 } };
    hub.upsertItem(first);
    expect(tick().items!.upsert).toHaveLength(1);

    hub.upsertItem({ ...first, status: 'generating', updatedAt: 2, error: undefined, generation: { startedAt: 2, text: 'Hel' } });
    const started = tick();
    expect(started.items!.upsert).toEqual([]);
    expect(JSON.stringify(started)).not.toContain('a long prompt');
    expect(started.items!.change).toEqual([{ id: 'a', set: { status: 'generating', updatedAt: 2, generation: { startedAt: 2, text: 'Hel' } }, unset: ['error'] }]);

    hub.upsertItem({ ...hub.getItem('a')!, generation: { startedAt: 2, text: 'Hello, wor' } });
    expect(tick().items!.change).toEqual([{ id: 'a', append: 'lo, wor' }]);
    hub.upsertItem({ ...hub.getItem('a')!, generation: { startedAt: 3, text: 'Again' } }); // regenerated: whole
    expect(tick().items!.change).toEqual([{ id: 'a', set: { generation: { startedAt: 3, text: 'Again' } } }]);
    hub.upsertItem({ ...hub.getItem('a')!, status: 'awaiting_response_review', generation: undefined, response: { result: { role: 'assistant', model: 'm', content: { type: 'text', text: 'Again!' } } } as never });
    tick();
    expect(mirror).toEqual(hub.snapshot());
    expect(mirror.items[0]!.generation).toBeUndefined();
    hub.upsertItem({ ...hub.getItem('a')! }); // nothing changed: no change sent
    expect(tick().items!.change).toBeUndefined();
  });

  it('a patch with item changes fits only the version right before it', () => {
    const s: ConsoleState = { ...base, version: 3, items: [item('a')] };
    const change: StatePatch = { version: 5, items: { upsert: [], remove: [], change: [{ id: 'a', set: { status: 'rejected' } }] } };
    expect(patchFits(s, change)).toBe(false);
    expect(patchFits(s, { ...change, version: 4 })).toBe(true);
    expect(patchFits(s, { version: 9, notices: [] })).toBe(true); // whole slices fit anywhere
    expect(applyPatch(s, { ...change, version: 4 }).items[0]!.status).toBe('rejected');
  });
});
