import { describe, expect, it, vi } from 'vitest';
import { createAttentionService } from '../../main/attention/service.js';
import { createStateHub, type HubInitial, type StateHub } from '../../main/state-hub.js';
import { DEFAULT_DESKTOP_SETTINGS, type DesktopSettings } from '../../shared/contract/desktop.js';
import type { PolicyView } from '../../shared/contract/rules.js';
import { elicitation, recordingPorts, samplingItem } from './helpers.js';

/** A hub whose patches go out only when the test flushes, and a service on it. */
function setup(initial: Partial<DesktopSettings> = {}, opts: { paused?: boolean; tray?: boolean; osLocales?: () => string[] } = {}) {
  const pending: Array<() => void> = [];
  const state: HubInitial = {
    servers: [],
    calls: [],
    items: [],
    providers: [],
    notices: [],
    settings: { host: 'test', userDataDir: '/x', serversConfigPath: '/x/s', providersConfigPath: '/x/p', historyPath: '/x/h' },
    policy: { rules: { paused: opts.paused ?? false } } as unknown as PolicyView,
  };
  const hub: StateHub = createStateHub(state, (fn) => void pending.push(fn));
  const flush = () => {
    while (pending.length) pending.shift()!();
  };
  const rec = recordingPorts();
  let settings: DesktopSettings = { ...DEFAULT_DESKTOP_SETTINGS, ...initial };
  const pausedCalls: boolean[] = [];
  const service = createAttentionService({
    hub,
    ports: opts.tray === false ? { ...rec.ports, tray: undefined } : rec.ports,
    ...(opts.osLocales && { osLocales: opts.osLocales }),
    settings: () => settings,
    setDoNotDisturb: (on) => {
      settings = { ...settings, doNotDisturb: on };
      service.refresh();
    },
    setAutoApprovalPaused: (p) => void pausedCalls.push(p),
    now: () => 42,
  });
  flush();
  const attention = () => hub.get('attention')!;
  const setSettings = (s: Partial<DesktopSettings>) => {
    settings = { ...settings, ...s };
  };
  return { hub, flush, rec, service, attention, setSettings, pausedCalls };
}

describe('attention service', () => {
  it('reads the OS locale and builds its messages only once it has something to say (a headless start says nothing)', () => {
    const osLocales = vi.fn(() => ['zh-CN']);
    const t = setup({ language: 'system' }, { tray: false, osLocales });
    t.service.refresh();
    expect(osLocales).not.toHaveBeenCalled();
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review', { tool: 'summarise', prompt: 'Summarise README.md' }));
    t.flush();
    expect(osLocales).toHaveBeenCalled();
    expect(t.rec.shown.at(-1)?.request.title).toBe('everything 请求一次补全');
  });

  it('notifies once per item needing a person, with server, tool and first prompt line', () => {
    const t = setup();
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review', { tool: 'trigger-sampling-request', prompt: 'Write a limerick\nabout cats' }));
    t.flush();
    expect(t.rec.shown.map((s) => s.request)).toEqual([
      { title: 'everything asks for a completion', body: 'trigger-sampling-request: Write a limerick', silent: true, itemId: 'a' },
    ]);
    expect(t.rec.badges.at(-1)).toBe(1);
    expect(t.attention()).toMatchObject({ count: 1, doNotDisturb: false, notifications: [{ seq: 1, itemId: 'a', at: 42 }] });

    // approve → generating → response review: the badge follows, no second notification
    t.hub.upsertItem(samplingItem('a', 'generating'));
    t.flush();
    expect(t.rec.badges.at(-1)).toBe(0);
    t.hub.upsertItem(samplingItem('a', 'awaiting_response_review'));
    t.flush();
    t.service.refresh();
    expect(t.rec.shown).toHaveLength(1);
    expect(t.rec.badges).toEqual([0, 1, 0, 1]);
    expect(t.attention().count).toBe(1);
  });

  it('speaks the UI language: a Chinese setting gives Chinese notifications and tray menu', () => {
    const t = setup({ language: 'zh-CN' });
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review', { tool: 'summarise', prompt: 'Summarise README.md' }));
    t.flush();
    expect(t.rec.shown.at(-1)?.request).toMatchObject({ title: 'everything 请求一次补全', body: 'summarise：Summarise README.md' });
    expect(t.rec.trays.at(-1)?.tooltip).toBe('MCP Approval Console — 1 项待处理');
    t.setSettings({ language: 'en' });
    t.service.testNotification();
    expect(t.rec.shown.at(-1)?.request.title).toBe('Notifications work');
  });

  it('counts elicitations awaiting input and notifies about them', () => {
    const t = setup();
    t.hub.upsertItem(elicitation('e1', 'Pick a colour'));
    t.flush();
    expect(t.rec.shown[0]?.request).toMatchObject({ title: 'forms asks for your input', body: 'ask-user: Pick a colour', itemId: 'e1' });
    expect(t.attention().count).toBe(1);
  });

  it('do not disturb: no notifications, the badge and count still move; items that came during DND stay quiet', () => {
    const t = setup({ doNotDisturb: true });
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review'));
    t.flush();
    expect(t.rec.shown).toEqual([]);
    expect(t.rec.badges.at(-1)).toBe(1);
    expect(t.attention()).toMatchObject({ count: 1, doNotDisturb: true, notifications: [] });

    t.setSettings({ doNotDisturb: false });
    t.service.refresh();
    expect(t.rec.shown).toEqual([]);
    t.hub.upsertItem(samplingItem('b', 'awaiting_request_review', { at: 2000 }));
    t.flush();
    expect(t.rec.shown.map((s) => s.request.itemId)).toEqual(['b']);
    expect(t.rec.badges.at(-1)).toBe(2);
  });

  it('notifications off: nothing shown; sound on: not silent', () => {
    const off = setup({ notifications: false });
    off.hub.upsertItem(samplingItem('a', 'awaiting_request_review'));
    off.flush();
    expect(off.rec.shown).toEqual([]);
    expect(off.attention().count).toBe(1);

    const loud = setup({ sound: true });
    loud.hub.upsertItem(samplingItem('a', 'awaiting_request_review'));
    loud.flush();
    expect(loud.rec.shown[0]?.request.silent).toBe(false);
  });

  it('a draft re-opened from history is counted but not notified', () => {
    const t = setup();
    t.hub.upsertItem(samplingItem('d', 'awaiting_request_review', { origin: 'draft' }));
    t.flush();
    expect(t.rec.shown).toEqual([]);
    expect(t.attention().count).toBe(1);
  });

  it('an item dismissed and seen again is forgotten, so the notified set does not grow forever', () => {
    const t = setup();
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review'));
    t.flush();
    t.hub.removeItem('a');
    t.flush();
    expect(t.attention().count).toBe(0);
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review'));
    t.flush();
    expect(t.rec.shown).toHaveLength(2);
  });

  it('"Review" on a notification focuses the window and asks the renderer to open that item', () => {
    const t = setup();
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review'));
    t.flush();
    t.rec.shown[0]!.review();
    expect(t.rec.focused).toBe(1);
    expect(t.attention().focus).toEqual({ itemId: 'a', seq: 1, at: 42 });
    t.rec.shown[0]!.review();
    expect(t.attention().focus).toEqual({ itemId: 'a', seq: 2, at: 42 });
  });

  it('keeps only the latest 10 notifications, with growing seq', () => {
    const t = setup();
    for (let i = 0; i < 12; i++) t.hub.upsertItem(samplingItem(`i${i}`, 'awaiting_request_review', { at: i }));
    t.flush();
    const seqs = t.attention().notifications.map((n) => n.seq);
    expect(seqs).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(t.attention().count).toBe(12);
  });

  it('the test notification goes through the notifier even in DND, without an item', () => {
    const t = setup({ doNotDisturb: true });
    t.service.testNotification();
    expect(t.rec.shown.map((s) => s.request)).toEqual([{ title: 'Notifications work', body: 'Requests that need you will show up like this.', silent: true }]);
    expect(t.attention().notifications[0]).not.toHaveProperty('itemId');
    t.rec.shown[0]!.review();
    expect(t.rec.focused).toBe(1);
  });

  it('tray: shows the count and switches; its menu opens, pauses auto-approval, toggles DND and quits', () => {
    const t = setup({}, { paused: true });
    expect(t.rec.trays.at(-1)).toMatchObject({ count: 0, tooltip: 'MCP Approval Console — nothing waiting' });
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review'));
    t.flush();
    const tray = t.rec.trays.at(-1)!;
    expect(tray.count).toBe(1);
    expect(tray.menu.find((m) => m.kind === 'checkbox' && m.id === 'pause-auto-approval')).toMatchObject({ checked: true });

    t.rec.clickTray('pause-auto-approval');
    expect(t.pausedCalls).toEqual([false]);
    t.rec.clickTray('do-not-disturb');
    expect(t.rec.trays.at(-1)!.menu.find((m) => m.kind === 'checkbox' && m.id === 'do-not-disturb')).toMatchObject({ checked: true });
    t.rec.clickTray('open');
    t.rec.clickTray('quit');
    expect([t.rec.focused, t.rec.quit]).toEqual([1, 1]);
  });

  it('does not touch the tray or badge again when nothing they show changed', () => {
    const t = setup();
    const trays = t.rec.trays.length;
    const badges = t.rec.badges.length;
    t.hub.upsertItem(samplingItem('g', 'generating'));
    t.flush();
    t.service.refresh();
    expect(t.rec.trays).toHaveLength(trays);
    expect(t.rec.badges).toHaveLength(badges);
  });

  it('patches that touch no waiting item (a request auto-approved and delivered) do not walk the items; one that does is followed', () => {
    const t = setup();
    for (const id of ['a', 'b', 'c']) t.hub.upsertItem(samplingItem(id, 'awaiting_request_review'));
    t.flush();
    expect(t.attention().count).toBe(3);
    const walks = vi.spyOn(t.hub, 'items');
    t.hub.upsertItem(samplingItem('auto', 'generating'));
    t.flush();
    t.hub.upsertItem(samplingItem('auto', 'delivered'));
    t.flush();
    t.hub.removeItem('auto');
    t.flush();
    t.hub.set('policy', { rules: { paused: false }, counters: { n: 1 } } as unknown as PolicyView); // counters moved, the switch did not
    t.flush();
    expect(walks).not.toHaveBeenCalled();
    t.hub.upsertItem(samplingItem('b', 'generating')); // a waiting one was approved
    t.flush();
    expect(walks).toHaveBeenCalledTimes(1);
    expect(t.attention().count).toBe(2);
    t.hub.upsertItem(samplingItem('auto2', 'generating'));
    t.flush();
    t.hub.upsertItem(samplingItem('auto2', 'awaiting_response_review')); // now it waits: notified, counted
    t.flush();
    expect(t.attention().count).toBe(3);
    expect(t.rec.shown.at(-1)?.request.itemId).toBe('auto2');
    t.hub.removeItem('a'); // a waiting one left
    t.flush();
    expect(t.attention().count).toBe(2);
    t.hub.set('policy', { rules: { paused: true } } as unknown as PolicyView); // the switch: the tray follows
    t.flush();
    expect(t.rec.trays.at(-1)!.menu.find((m) => m.kind === 'checkbox' && m.id === 'pause-auto-approval')).toMatchObject({ checked: true });
  });

  it('stops watching after dispose', () => {
    const t = setup();
    t.service.dispose();
    t.hub.upsertItem(samplingItem('a', 'awaiting_request_review'));
    t.flush();
    expect(t.rec.shown).toEqual([]);
  });
});
