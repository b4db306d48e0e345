/**
 * The bridge in front of a server built on the official Python `mcp` library
 * (test/fixtures/python/mcp_server.py, over stdio): its push-style sampling and roots requests
 * reach the console (via the host), the person's answer reaches the Python server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerCommand } from '../fixtures/peer-servers.js';
import { startHarness, type Harness } from '../support/console-harness.js';
import { connectHost, HOST_INFO, newItem, ROOT, textOf, type FakeHost } from './support.js';

const MANUAL = { providerId: 'manual', modelId: 'manual' } as const;

describe('bridge to a Python mcp server', () => {
  let h: Harness;
  let host: FakeHost;

  beforeAll(async () => {
    const { command, args } = peerCommand('mcp', 'stdio');
    h = await startHarness({ servers: { py: { command, args, cwd: ROOT, disabled: true } } });
    host = await connectHost({ dir: h.dir, bridgeArgs: ['py'] });
  }, 90_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
  });

  it('lists its tools through the bridge', async () => {
    const tools = await host.client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['push_sample_text', 'push_list_roots']));
  });

  it("push-style sampling: the console's queue via the host, the answer back to the Python server", async () => {
    const call = host.client.callTool({ name: 'push_sample_text', arguments: { prompt: 'hello from python' } });
    const item = await newItem(h, 'py');
    expect(item.via?.host).toBe(HOST_INFO.name);
    expect(item.association).toMatchObject({ exact: true, calls: [{ kind: 'tools/call', name: 'push_sample_text' }] });
    await h.service.approveRequest({ itemId: item.id, params: item.original, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, result: { role: 'assistant', content: { type: 'text', text: 'a pythonic answer' }, model: 'manual', stopReason: 'endTurn' } });
    expect(textOf(await call)).toContain('a pythonic answer');
  });

  it("roots/list from a host without roots: the console's (none set here)", async () => {
    const text = textOf(await host.client.callTool({ name: 'push_list_roots', arguments: {} }));
    expect(text).toMatch(/^roots: \(none\) \| protocol 2025-11-25/);
  });
});
