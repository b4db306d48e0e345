import { describe, expect, it } from 'vitest';
import { createStateHub, type HubInitial } from '../../main/state-hub.js';
import type { ConsoleEvent } from '../../shared/contract/api.js';
import { projectItem } from '../../shared/domain/item-summary.js';
import type { ConsoleState, ElicitationItemView, ItemView, SamplingItemView, ServerView } from '../../shared/contract/state.js';
import { applyFieldChange, applyItemChange, applyListChange, applyPatch, fieldChange, itemChange, listChange, patchFits, type StatePatch } from '../../shared/contract/state-patch.js';

const base: HubInitial = {
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

/** {@link manualHub} with a window's mirror: `tick` sends the next patch, applies it as it crossed the boundary and returns its JSON. */
function mirroredHub() {
  const m = manualHub();
  let mirror = m.hub.snapshot();
  const tick = (): string => {
    m.queue.shift()!();
    const wire = JSON.stringify(m.events.at(-1));
    mirror = applyPatch(mirror, (JSON.parse(wire) as Extract<ConsoleEvent, { type: 'patch' }>).patch);
    return wire;
  };
  return { ...m, tick, mirror: () => mirror };
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
    const s: ConsoleState = { ...base, items: [], version: 5 };
    expect(applyPatch(s, { version: 5, notices: [] })).toBe(s);
    expect(applyPatch(s, { version: 6, items: { upsert: [projectItem(item('x'))], remove: [] } }).items).toHaveLength(1);
  });

  it('slices not in the patch keep their identity (cheap re-renders)', () => {
    const s: ConsoleState = { ...base, items: [], version: 1 };
    const next = applyPatch(s, { version: 2, notices: [] });
    expect(next.servers).toBe(s.servers);
    expect(next.items).toBe(s.items);
  });

  it('the state carries summaries only: a 1 MB prompt is never in the state, its patches or a status change', () => {
    const { queue, hub, events } = manualHub();
    const prompt = 'Summarise this\n' + 'x'.repeat(1_048_576);
    const big: SamplingItemView = { ...item('big'), original: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 9 } };
    hub.upsertItem(big);
    queue.shift()!();
    hub.upsertItem({ ...big, status: 'generating', updatedAt: 2 });
    queue.shift()!();
    const wire = JSON.stringify(events);
    expect(wire.length).toBeLessThan(4_000);
    expect(wire).not.toContain('xxxx');
    expect(JSON.stringify(hub.snapshot()).length).toBeLessThan(2_000);
    const summary = hub.snapshot().items[0]!;
    expect(summary).toMatchObject({ kind: 'sampling', id: 'big', status: 'generating', preview: 'Summarise this' });
    expect(summary.sizes.request).toBeGreaterThan(1_048_576);
    // The whole item is there for a window that opens it, current at the version it was published.
    expect(hub.published('big')).toEqual({ item: { ...big, status: 'generating', updatedAt: 2 }, version: 2 });
    expect(hub.published('nope')).toBeUndefined();
  });

  it('after its first patch an item travels as field-level changes of its summary, and of the whole item in `details` (a stream as its new text)', () => {
    const { queue, hub, events } = manualHub();
    let mirror: ConsoleState = hub.snapshot();
    let open: ItemView | undefined;
    const tick = () => {
      queue.shift()!();
      const e = events.at(-1)!;
      if (e.type !== 'patch') throw new Error('expected a patch');
      const patch = JSON.parse(JSON.stringify(e.patch)) as StatePatch; // as it crosses the boundary
      mirror = applyPatch(mirror, patch);
      for (const c of patch.details ?? []) if (open && c.id === open.id) open = applyItemChange(open, c);
      return patch;
    };
    const prompt = 'a long prompt '.repeat(10_000);
    const first: SamplingItemView = { ...item('a'), original: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 9 }, error: { message: 'old', at: 1 } };
    hub.upsertItem(first);
    const arrived = tick();
    expect(arrived.items!.upsert).toHaveLength(1);
    expect(JSON.stringify(arrived).length).toBeLessThan(1_000); // the preview line, not the prompt
    open = hub.open('a')!.item; // the window opens it (getItem)

    hub.upsertItem({ ...first, status: 'generating', updatedAt: 2, error: undefined, generation: { startedAt: 2, text: 'Hel' } });
    const started = tick();
    expect(started.items!.upsert).toEqual([]);
    expect(JSON.stringify(started)).not.toContain('a long prompt');
    expect(started.items!.change).toEqual([{ id: 'a', set: { status: 'generating', generatingSince: 2 }, unset: ['error'] }]);
    expect(started.details).toEqual([{ id: 'a', set: { status: 'generating', updatedAt: 2, generation: { startedAt: 2, text: 'Hel' } }, unset: ['error'] }]);

    hub.upsertItem({ ...hub.getItem('a')!, generation: { startedAt: 2, text: 'Hello, wor' } } as SamplingItemView);
    const streamed = tick();
    expect(streamed.details).toEqual([{ id: 'a', append: 'lo, wor' }]);
    expect(streamed.items).toBeUndefined(); // the summary did not change
    expect(open).toMatchObject({ generation: { text: 'Hello, wor' } });
    hub.upsertItem({ ...hub.getItem('a')!, generation: { startedAt: 3, text: 'Again' } } as SamplingItemView); // regenerated: whole
    expect(tick().details).toEqual([{ id: 'a', set: { generation: { startedAt: 3, text: 'Again' } } }]);
    hub.upsertItem({ ...hub.getItem('a')!, status: 'awaiting_response_review', generation: undefined, response: { draft: { role: 'assistant', model: 'm', content: { type: 'text', text: 'Again!' } }, manual: false, generatedAt: 4 } } as SamplingItemView);
    tick();
    expect(mirror).toEqual(hub.snapshot());
    expect(open).toEqual(hub.getItem('a'));
    expect(mirror.items[0]).toMatchObject({ status: 'awaiting_response_review', sizes: { response: expect.any(Number) as number } });
    const sent = events.length;
    hub.upsertItem({ ...hub.getItem('a')! }); // nothing changed: no patch sent
    queue.shift()?.();
    expect(events.length).toBe(sent);
  });

  it('an item no window opened sends no details: its request and response never travel; once opened they do', () => {
    const { queue, hub, events } = manualHub();
    const prompt = 'the secret plan '.repeat(1_000);
    const first: SamplingItemView = { ...item('a'), original: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 9 } };
    hub.upsertItem(first);
    queue.shift()!();
    // A rule approves it (the request as sent), it is generated and answered: nobody looks.
    hub.upsertItem({ ...first, status: 'generating', updatedAt: 2, sent: first.original, generation: { startedAt: 2, text: 'the answer' } });
    queue.shift()!();
    hub.upsertItem({ ...hub.getItem('a')!, status: 'delivered', updatedAt: 3, generation: undefined, response: { draft: { role: 'assistant', model: 'm', content: { type: 'text', text: 'the answer' } }, manual: false, generatedAt: 3 } } as SamplingItemView);
    queue.shift()!();
    const unseen = JSON.stringify(events);
    expect(unseen.length).toBeLessThan(2_000); // the 16 KB prompt only as the summary's preview line
    expect(unseen).not.toContain('the answer');
    expect(events.every((e) => e.type !== 'patch' || e.patch.details === undefined)).toBe(true);
    expect(hub.snapshot().items[0]).toMatchObject({ status: 'delivered' }); // the summary still follows

    expect(hub.open('a')!.item).toBe(hub.getItem('a')); // a window opens it now
    expect(hub.open('nope')).toBeUndefined();
    hub.upsertItem({ ...hub.getItem('a')!, updatedAt: 4, error: { message: 'late', at: 4 } } as SamplingItemView);
    queue.shift()!();
    const last = events.at(-1)!;
    expect(last.type === 'patch' && last.patch.details).toEqual([{ id: 'a', set: { updatedAt: 4, error: { message: 'late', at: 4 } } }]);
  });

  it("a change no summary shows (a generation starting to stream, updatedAt moving) sends no patch to a window that has not opened the item", () => {
    const { queue, hub, events } = manualHub();
    const first: SamplingItemView = { ...item('a'), status: 'generating', generation: { startedAt: 1, text: '' } };
    hub.upsertItem(first);
    queue.shift()!();
    const before = events.length;
    const version = hub.snapshot().version;
    hub.upsertItem({ ...first, updatedAt: 2, generation: { startedAt: 1, text: 'Hel' } });
    queue.shift()?.();
    expect(events.length).toBe(before); // nothing a window shows changed
    expect(hub.snapshot().version).toBe(version);
    expect(hub.snapshot().items[0]).not.toHaveProperty('updatedAt');
  });

  it('a field set to the very object another field held is sent as `same` (a request approved as it came), not again', () => {
    const original = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'y'.repeat(50_000) } }], maxTokens: 9 };
    const before: SamplingItemView = { ...item('a'), original };
    const after: SamplingItemView = { ...before, status: 'generating', sent: original };
    const change = itemChange<ItemView>(before, after)!;
    expect(change).toEqual({ id: 'a', set: { status: 'generating' }, same: { sent: 'original' } });
    expect(applyItemChange<ItemView>(before, JSON.parse(JSON.stringify(change)) as typeof change)).toEqual(after);
    // An edited request is a new object: sent whole.
    const edited = { ...original, maxTokens: 5 };
    expect(itemChange<ItemView>(before, { ...before, sent: edited })).toEqual({ id: 'a', set: { sent: edited } });
  });

  it('elicitations are items of the same slice, by kind', () => {
    const { queue, hub } = manualHub();
    const e: ElicitationItemView = {
      kind: 'elicitation',
      id: 'e',
      serverId: 's',
      era: 'legacy',
      association: { exact: true, calls: [] },
      source: 'request',
      status: 'awaiting_input',
      receivedAt: 2,
      updatedAt: 2,
      params: { message: 'Your name?\nWe need it', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } },
      secretWarning: false,
    };
    hub.upsertItem(item('a'));
    hub.upsertItem(e);
    queue.shift()!();
    expect(hub.snapshot().items.map((i) => [i.kind, i.id])).toEqual([
      ['sampling', 'a'],
      ['elicitation', 'e'],
    ]);
    expect(hub.snapshot().items[1]).toMatchObject({ kind: 'elicitation', mode: 'form', preview: 'Your name?', status: 'awaiting_input' });
    expect(hub.published('e')?.item).toBe(e);
  });

  it('a patch with item changes fits only the version right before it', () => {
    const s: ConsoleState = { ...base, version: 3, items: [projectItem(item('a'))] };
    const change: StatePatch = { version: 5, items: { upsert: [], remove: [], change: [{ id: 'a', set: { status: 'rejected' } }] } };
    expect(patchFits(s, change)).toBe(false);
    expect(patchFits(s, { ...change, version: 4 })).toBe(true);
    expect(patchFits(s, { version: 9, notices: [] })).toBe(true); // whole slices fit anywhere
    expect(applyPatch(s, { ...change, version: 4 }).items[0]!.status).toBe('rejected');
  });
});

describe('list slices travel as the entries that changed', () => {
  type Entry = { id: string; n: number; big?: string };
  /** A small deterministic generator (the same cases every run). */
  const random = (seed: number) => () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);

  it('applying the change to the list before gives the list after, in order, for lists that change as the calls slice does', () => {
    const next = random(7);
    let id = 0;
    let list: Entry[] = [];
    for (let step = 0; step < 500; step++) {
      let after = list.filter(() => next() > 0.1); // oldest ones drop out, any may
      after = after.map((e) => (next() < 0.2 ? { ...e, n: e.n + 1 } : e)); // some change (new objects), others keep their identity
      while (next() < 0.4) after.push({ id: `e${id++}`, n: 0 }); // new ones at the end
      const change = listChange(list, after);
      expect(change?.all).toBeUndefined();
      expect(applyListChange(list, JSON.parse(JSON.stringify(change ?? {})) as typeof change & object)).toEqual(after);
      list = after;
    }
  });

  it('sends only the entries that are new or changed, a changed one field by field', () => {
    const quiet: Entry = { id: 'a', n: 1, big: 'x'.repeat(100_000) };
    const busy: Entry = { id: 'b', n: 1 };
    expect(listChange([quiet, busy], [quiet, { ...busy, n: 2 }])).toEqual({ change: [{ id: 'b', set: { n: 2 } }] });
    expect(listChange([quiet, busy], [busy, { id: 'c', n: 0 }])).toEqual({ upsert: [{ id: 'c', n: 0 }], remove: ['a'] });
    expect(listChange([quiet, busy], [quiet, busy])).toBeUndefined();
  });

  it('a list whose order removal, change and appending cannot give is sent whole', () => {
    const [a, b, c] = [{ id: 'a', n: 0 }, { id: 'b', n: 0 }, { id: 'c', n: 0 }];
    expect(listChange([a, b], [b, a])).toEqual({ all: [b, a] });
    expect(listChange([a, b], [c, a, b])).toEqual({ all: [c, a, b] });
    expect(applyListChange([a, b], { all: [b, a] })).toEqual([b, a]);
  });

  it('a patch with list changes fits only the version right before it; a whole list anywhere', () => {
    const s: ConsoleState = { ...base, version: 3, items: [] };
    expect(patchFits(s, { version: 5, calls: { remove: ['x'] } })).toBe(false);
    expect(patchFits(s, { version: 5, calls: { all: [] } })).toBe(true);
    expect(patchFits(s, { version: 4, calls: { remove: ['x'] } })).toBe(true);
  });
});

describe('field slices travel as the fields that changed', () => {
  type Policy = NonNullable<ConsoleState['policy']>;
  const policy = (autoApproved: number, rules = 40): Policy => ({
    rules: { version: 1, paused: false, servers: { s: { rules: Array.from({ length: rules }, (_, i) => ({ id: `r${i}`, name: `Rule ${i}: summaries of the weekly build log`, action: { kind: 'approve_all' } })) } } } as unknown as Policy['rules'],
    path: '/rules.json',
    problems: [],
    counters: { s: { rateLimited: 0, autoApproved, autoRejected: 0, elicitationDeclined: 0, waiting: 0, day: '2026-11-26', tokensToday: 0, spendTodayUsd: 0 } },
    globalRateLimited: 0,
    pricesKnown: true,
  });

  it("a request's counters send the counters, not the rules file (rebuilt objects compared by value)", () => {
    const { queue, hub, events, tick, mirror } = mirroredHub();
    const first = policy(0);
    hub.set('policy', first);
    expect(tick().length).toBeGreaterThan(2_000); // the first one whole
    hub.set('policy', { ...policy(1), rules: first.rules });
    const counted = tick();
    expect(counted.length).toBeLessThan(400); // was the whole slice, rules included, at every request
    expect(counted).not.toContain('weekly build log');
    hub.set('policy', { ...policy(1), rules: first.rules, problems: ['rules.json line 2: bad'] });
    expect(tick()).toContain('"set":{"problems"');
    const sent = events.length;
    hub.set('policy', { ...policy(1), problems: ['rules.json line 2: bad'] }); // rebuilt, the same by value
    queue.shift()!();
    expect(events).toHaveLength(sent); // nothing to send: no patch, no new version
    expect(mirror().policy).toEqual(hub.get('policy'));
    expect(hub.snapshot().version).toBe(mirror().version);
  });

  it('applying the change gives the slice after; nothing when nothing changed', () => {
    const a = policy(1);
    const b = { ...policy(2), notes: ['an unknown field is kept'] };
    expect(applyFieldChange(a, fieldChange(a, b)!)).toEqual(b);
    expect(applyFieldChange(b, fieldChange(b, a)!)).toEqual(a);
    expect(fieldChange(a, policy(1))).toBeUndefined();
    expect(fieldChange(undefined, a)).toEqual({ all: a });
  });
});

describe('the servers slice travels as the servers that changed', () => {
  const tools = Array.from({ length: 40 }, (_, i) => ({ name: `tool_${i}`, description: 'Creates or updates a file in a repository, with its contents', inputSchema: { type: 'object', properties: { owner: { type: 'string' }, repo: { type: 'string' }, path: { type: 'string' } } } }));
  const server = (id: string, stderrTail: string[]): ServerView => ({ id, transport: 'stdio', target: `python -m ${id}`, status: 'ready', stderrTail, tools, inFlight: 0, logTotals: { protocol: 10, stderr: stderrTail.length } });

  it('a server writing a line to stderr sends that line, not every server with its tools again', () => {
    const { hub, tick, mirror } = mirroredHub();
    hub.set('servers', ['github', 'files', 'search'].map((id) => server(id, [])));
    expect(tick().length).toBeGreaterThan(20_000);
    // Every publish rebuilds each view (the console's publishServers): the others compare equal by value.
    hub.set('servers', [server('github', []), server('files', ['INFO Processing request of type CallToolRequest']), server('search', [])]);
    const line = tick();
    expect(line.length).toBeLessThan(400); // was the whole slice, every server's tools, at every line
    expect(line).toContain('Processing request of type CallToolRequest');
    expect(mirror().servers).toEqual(hub.get('servers'));
  });
});
