/**
 * The call tracker with prompts/get and resources/read: while one runs it is "in flight" to its
 * server with its kind (what S-ASSOC-1 association reads), and its result lands in the call.
 */
import { describe, expect, it } from 'vitest';
import { createCallTracker } from '../../main/mcp/calls.js';
import type { ServerConnection } from '../../main/mcp/connection.js';
import { ServerLog } from '../../main/mcp/protocol-log.js';
import { createStateHub } from '../../main/state-hub.js';

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
