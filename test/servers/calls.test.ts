/**
 * The call tracker with prompts/get and resources/read: while one runs it is "in flight" to its
 * server with its kind (what S-ASSOC-1 association reads), and its result lands in the call. A
 * call's items are linked to it, and the state stays small however many it makes.
 */
import { describe, expect, it } from 'vitest';
import { createCallTracker } from '../../main/mcp/calls.js';
import type { ServerConnection } from '../../main/mcp/connection.js';
import { ServerLog } from '../../main/mcp/protocol-log.js';
import { createStateHub } from '../../main/state-hub.js';
import type { ConsoleEvent } from '../../shared/contract/api.js';
import { CALL_ITEM_IDS_KEPT } from '../../shared/contract/calls.js';
import { applyPatch } from '../../shared/contract/state-patch.js';
import { ApiError } from '../../shared/contract/api.js';
import { MEDIA_REF_MIN_CHARS } from '../../shared/contract/media-refs.js';
import { mediaRefsIn, parseMediaRef } from '../../shared/domain/media-refs.js';

function fakeConnection(hold: Promise<void>): ServerConnection {
  return {
    id: 's',
    log: new ServerLog(),
    view: () => ({ id: 's', transport: 'stdio', target: 's', status: 'ready', stderrTail: [], tools: [], inFlight: 0 }),
    connect: async () => undefined,
    close: async () => undefined,
    callTool: async () => ({ content: [] }),
    getPrompt: async (name) => (await hold, { messages: [{ role: 'user', content: { type: 'text', text: `prompt ${name}` } }] }),
    readResource: async (uri) => (await hold, { contents: [{ uri, text: 'body' }] }),
    inFlight: () => 0,
    notifyRootsChanged: async () => undefined,
  };
}

describe('call tracker: prompts/get and resources/read', () => {
  it('are in flight with their kind while they run, then hold their results', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
    const tracker = createCallTracker({ hub, now: () => 1, connection: () => fakeConnection(hold) });
    const p = tracker.startPromptGet('s', 'greet', { who: 'Ana' });
    const r = tracker.startResourceRead('s', 'demo://x');
    expect(tracker.inFlight('s')).toEqual([
      { callId: p, kind: 'prompts/get', name: 'greet', args: 'who: "Ana"' },
      { callId: r, kind: 'resources/read', name: 'demo://x', args: 'uri: "demo://x"' },
    ]);
    tracker.linkItem([p], 'item-1');
    release();
    await new Promise((res) => setTimeout(res, 0));
    const calls = hub.get('calls');
    expect(calls.find((c) => c.id === p)).toMatchObject({ status: 'succeeded', samplingItemIds: ['item-1'], prompt: { messages: [{ role: 'user', content: { text: 'prompt greet' } }] } });
    expect(calls.find((c) => c.id === r)).toMatchObject({ status: 'succeeded', arguments: { uri: 'demo://x' }, resource: { contents: [{ uri: 'demo://x', text: 'body' }] } });
    expect(tracker.inFlight('s')).toEqual([]);
  });
});

describe('call tracker: a call that makes thousands of sampling requests', () => {
  it('keeps its newest item ids and the count, and each patch carries only what changed (not every id, not the other calls)', async () => {
    const queue: Array<() => void> = [];
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => queue.push(fn));
    const events: ConsoleEvent[] = [];
    hub.subscribe((e) => events.push(e));
    let mirror = hub.snapshot();
    const tick = (): string => {
      queue.shift()!();
      const wire = JSON.stringify(events.at(-1)); // as it crosses the boundary
      mirror = applyPatch(mirror, (JSON.parse(wire) as Extract<ConsoleEvent, { type: 'patch' }>).patch);
      return wire;
    };
    const bigResult = { content: [{ type: 'text', text: 'r'.repeat(200_000) }] };
    const conn = { ...fakeConnection(Promise.resolve()), callTool: async () => bigResult };
    const tracker = createCallTracker({ hub, now: () => 1, connection: () => conn });
    tracker.startToolCall('s', 'earlier', {});
    await new Promise((res) => setTimeout(res, 0));
    tick();
    const loop = tracker.startPromptGet('s', 'loop', {}); // held: in flight while its items arrive
    tick();
    const sizes: number[] = [];
    for (let n = 1; n <= 3_000; n++) {
      tracker.linkItem([loop], `item-${n}`);
      sizes.push(tick().length);
    }
    const call = hub.get('calls').find((c) => c.id === loop)!;
    expect(call.samplingItemCount).toBe(3_000);
    expect(call.samplingItemIds).toEqual(Array.from({ length: CALL_ITEM_IDS_KEPT }, (_, i) => `item-${3_000 - CALL_ITEM_IDS_KEPT + i + 1}`));
    expect(Math.max(...sizes)).toBeLessThan(1_500); // was the whole slice: every id so far and the other call's 200 KB result
    expect(sizes.at(-1)!).toBeLessThan(sizes[100]! + 60); // the same change; only its numbers have more digits
    expect(mirror.calls).toEqual(hub.get('calls'));
  });
});

describe('call tracker: big result media', () => {
  it('the calls slice holds a big result image by reference (the same object while the call does not change); media() sends it', async () => {
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
    const screenshot = 'A'.repeat(MEDIA_REF_MIN_CHARS + 4);
    const conn = { ...fakeConnection(new Promise<void>(() => undefined)), callTool: async () => ({ content: [{ type: 'text', text: 'the page' }, { type: 'image', mimeType: 'image/png', data: screenshot }] }) };
    const tracker = createCallTracker({ hub, now: () => 1, connection: () => conn });
    const shot = tracker.startToolCall('s', 'screenshot', {});
    await new Promise((res) => setTimeout(res, 0));
    const inState = hub.get('calls').find((c) => c.id === shot)!;
    expect(JSON.stringify(hub.snapshot()).length).toBeLessThan(2_000); // not the 256 KB image
    const [ref] = mediaRefsIn(inState);
    expect(inState.result!.content[0]).toEqual({ type: 'text', text: 'the page' });
    expect(parseMediaRef(ref!)).toEqual({ chars: screenshot.length, bytes: (screenshot.length / 4) * 3 });
    expect(tracker.media(shot, [ref!, 'mcp-console-media:1:1:elsewhere'])).toEqual([{ ref, data: screenshot }]);

    const loop = tracker.startPromptGet('s', 'loop', {}); // held: in flight
    tracker.linkItem([loop], 'item-1');
    expect(hub.get('calls').find((c) => c.id === shot)).toBe(inState); // unchanged: its patches leave it out
    expect(() => tracker.media('gone', [ref!])).toThrow(ApiError);
  });

  it('holds a long result text (a tool that read a 1 MB file) by reference too, its UTF-8 size named; media() sends it', async () => {
    const hub = createStateHub({ servers: [], calls: [], items: [], providers: [], notices: [], settings: { host: 'test', userDataDir: '', serversConfigPath: '', providersConfigPath: '', historyPath: '' } }, (fn) => fn());
    const file = 'é'.repeat(500_000); // 500,000 characters, 1,000,000 bytes
    const log = 'line\n'.repeat(60_000);
    const conn = { ...fakeConnection(new Promise<void>(() => undefined)), callTool: async () => ({ content: [{ type: 'text', text: 'read 1 file' }, { type: 'text', text: file }, { type: 'resource', resource: { uri: 'file:///app.log', text: log } }] }) };
    const tracker = createCallTracker({ hub, now: () => 1, connection: () => conn });
    const read = tracker.startToolCall('s', 'read_file', {});
    await new Promise((res) => setTimeout(res, 0));
    const inState = hub.get('calls').find((c) => c.id === read)!;
    expect(JSON.stringify(hub.snapshot()).length).toBeLessThan(2_000);
    expect(inState.result!.content[0]).toEqual({ type: 'text', text: 'read 1 file' }); // short texts stay
    expect(mediaRefsIn(inState)).toEqual([]); // an item's view of it: texts are never references there
    const refs = mediaRefsIn(inState, { texts: true });
    expect(refs).toHaveLength(2);
    expect(parseMediaRef(refs[0]!, true)).toEqual({ chars: 500_000, bytes: 1_000_000 });
    expect(parseMediaRef(refs[0]!)).toBeUndefined(); // not a media reference
    expect(tracker.media(read, refs)).toEqual([{ ref: refs[0], data: file }, { ref: refs[1], data: log }]);
  });
});
