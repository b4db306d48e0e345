/**
 * The bridge with Python peers on either side:
 * - in front of a server built on the official Python `mcp` library
 *   (test/fixtures/python/mcp_server.py, over stdio): its push-style sampling and roots requests
 *   reach the console (via the host), the person's answer reaches the Python server;
 * - in front of a `fastmcp` server (test/fixtures/python/fastmcp_server.py), whose guard-style
 *   tools ask for sampling in 2026-07-28 `input_required` results, behind a host that initializes
 *   on 2025-11-25 as agent hosts do: the tool runs on the bridge's 2026-07-28 session of the server,
 *   whose round the bridge answers through the console and retries (test/bridge/eras.test.ts has
 *   every style behind hosts of both eras);
 * - behind a host played by the Python `mcp` client (test/fixtures/python/bridge_host.py), which
 *   declares no sampling: server-everything's sampling request reaches the console and the
 *   person's edited answer reaches the host as the tool result; a rejection reaches it as -1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { serverEverythingEntry } from '../../main/config.js';
import { peerCommand } from '../fixtures/peer-servers.js';
import { pythonForTests } from '../support/python.js';
import { startHarness, type Harness, seenVersion } from '../support/console-harness.js';
import { BRIDGE_CLI, connectHost, HOST_INFO, newItem, ROOT, textOf, type FakeHost } from './support.js';

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
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'a pythonic answer' }, model: 'manual', stopReason: 'endTurn' } });
    expect(textOf(await call)).toContain('a pythonic answer');
  });

  it("roots/list from a host without roots: the console's (none set here)", async () => {
    const text = textOf(await host.client.callTool({ name: 'push_list_roots', arguments: {} }));
    expect(text).toMatch(/^roots: \(none\) \| protocol 2025-11-25/);
  });
});

describe('bridge to a fastmcp server (guard-style sampling, 2026-07-28 input rounds) behind a 2025-11-25 host', () => {
  let h: Harness;
  let host: FakeHost;

  beforeAll(async () => {
    const { command, args } = peerCommand('fastmcp', 'stdio');
    h = await startHarness({ servers: { fast: { command, args, cwd: ROOT, disabled: true } } });
    host = await connectHost({ dir: h.dir, bridgeArgs: ['fast'] });
  }, 90_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
  });

  it("the round's sampling request reaches the console; the person's answer reaches the fastmcp tool", async () => {
    const call = host.client.callTool({ name: 'guard_sample_text', arguments: {} });
    const item = await newItem(h, 'fast', new Set(), 30_000);
    expect(item.via?.host).toBe(HOST_INFO.name);
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'answered for fastmcp' }, model: 'manual', stopReason: 'endTurn' } });
    expect(textOf(await call)).toContain('answered for fastmcp');
  }, 60_000);
});

describe('a host played by the Python mcp client, in front of the bridge', () => {
  let h: Harness;
  const run = (tool: string, args: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const bridge = [process.execPath, '--import', 'tsx', BRIDGE_CLI, 'bridge', 'everything'];
      execFile(pythonForTests(), [path.join(ROOT, 'test/fixtures/python/bridge_host.py'), tool, JSON.stringify(args), '--', ...bridge], { cwd: ROOT, env: { ...process.env, MCP_CONSOLE_USER_DATA: h.dir, MCP_CONSOLE_BRIDGE_NO_LAUNCH: '1' }, timeout: 60_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as Record<string, unknown>),
      );
    });

  beforeAll(async () => {
    h = await startHarness({ servers: { everything: { command: process.execPath, args: [serverEverythingEntry(), 'stdio'], disabled: true } } });
  }, 60_000);

  afterAll(async () => h?.dispose());

  it('approve with an edit: the server gets the edited text and the Python host the tool result; reject: -1', async () => {
    const approved = run('trigger-sampling-request', { prompt: 'from a Python host', maxTokens: 20 });
    const item = await newItem(h, 'everything', new Set(), 30_000);
    expect(item.via?.host).toBeTruthy();
    expect(JSON.stringify(item.original.messages)).toContain('from a Python host');
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'edited by the person' }, model: 'manual', stopReason: 'endTurn' } });
    const out = await approved;
    expect(out.tools).toEqual(expect.arrayContaining(['echo', 'trigger-sampling-request']));
    expect(out.text).toContain('edited by the person');

    const seen = new Set((await h.state()).items.map((i) => i.id));
    const rejected = run('trigger-sampling-request', { prompt: 'reject me', maxTokens: 20 });
    const toReject = await newItem(h, 'everything', seen, 30_000);
    await h.service.rejectRequest({ itemId: toReject.id, version: toReject.contentVersion! });
    const out2 = await rejected;
    expect(JSON.stringify(out2)).toMatch(/-1|reject/i);
  }, 90_000);
});
