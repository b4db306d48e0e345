/**
 * The bridge between a fake agent host and the real @modelcontextprotocol/server-everything (a
 * 2025-era v1 SDK server): everything but the server's requests of the client passes through
 * unchanged; its sampling requests reach the console's queue (via the host) and the person's
 * answer — or rejection — reaches the server.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEverythingEntry } from '../../main/config.js';
import { startHarness, type Harness, seenVersion } from '../support/console-harness.js';
import { connectHost, HOST_INFO, newElicitation, newItem, tempUserData, textOf, type FakeHost } from './support.js';

const MANUAL = { providerId: 'manual', modelId: 'manual' } as const;

describe('bridge <name> to server-everything', () => {
  let h: Harness;
  let host: FakeHost;

  beforeAll(async () => {
    // Disabled: the console itself does not connect; only the bridge runs it.
    h = await startHarness({ servers: { everything: { command: process.execPath, args: [serverEverythingEntry(), 'stdio'], disabled: true } } });
    host = await connectHost({ dir: h.dir, bridgeArgs: ['everything'] });
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
  });

  it('passes the handshake through: server info, capabilities, and the bridge declares sampling, elicitation and roots', async () => {
    expect(host.client.getServerVersion()?.name).toMatch(/everything/i);
    const tools = await host.client.listTools();
    const names = tools.tools.map((t) => t.name);
    // Registered only for a client that declares sampling / elicitation / roots: the bridge does.
    expect(names).toEqual(expect.arrayContaining(['echo', 'trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list']));
  });

  it('passes tools, prompts, resources, completions, logging and ping through unchanged', async () => {
    const echoed = await host.client.callTool({ name: 'echo', arguments: { message: 'through the bridge' } });
    expect(textOf(echoed)).toContain('through the bridge');
    const prompts = await host.client.listPrompts();
    expect(prompts.prompts.length).toBeGreaterThan(0);
    const simple = prompts.prompts.find((p) => !(p.arguments ?? []).some((a) => a.required)) ?? prompts.prompts[0]!;
    const got = await host.client.getPrompt({ name: simple.name, arguments: {} });
    expect(got.messages.length).toBeGreaterThan(0);
    const resources = await host.client.listResources();
    const first = resources.resources[0]!;
    const read = await host.client.readResource({ uri: first.uri });
    expect(read.contents[0]?.uri).toBe(first.uri);
    await host.client.subscribeResource({ uri: first.uri });
    await host.client.unsubscribeResource({ uri: first.uri });
    await host.client.setLoggingLevel('debug');
    await expect(host.client.ping()).resolves.toBeDefined();
  });

  it("the console shows the bridged server's log and the host's recent calls (from the bridge's activity reports)", async () => {
    await host.client.callTool({ name: 'echo', arguments: { message: 'for the log' } });
    const s = await h.waitFor((st) => st.bridged?.some((b) => b.serverId === 'everything' && (b.calls ?? []).some((c) => c.name === 'echo' && c.endedAt !== undefined)) ?? false, 'the echo call on the bridged row');
    expect(s.bridged!.find((b) => b.serverId === 'everything')!.calls![0]).toMatchObject({ kind: 'tools/call', name: 'echo', args: expect.stringContaining('for the log') });
    const log = await h.service.getServerLog({ serverId: 'everything', query: 'tools/call', limit: 50 });
    expect(log.protocol.map((e) => [e.direction, e.kind, e.method])).toEqual(expect.arrayContaining([['out', 'request', 'tools/call'], ['in', 'response', 'tools/call']]));
  });

  it('passes progress notifications of a long-running tool through', async () => {
    const steps: number[] = [];
    const result = await host.client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, { onprogress: (p) => steps.push(p.progress) });
    expect(textOf(result)).toMatch(/completed/i);
    expect(steps.length).toBeGreaterThanOrEqual(2);
  });

  it('passes cancellation through: the host aborts a long call and the bridge keeps working', async () => {
    const abort = new AbortController();
    const call = host.client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }, { signal: abort.signal });
    setTimeout(() => abort.abort('enough'), 300);
    await expect(call).rejects.toThrow();
    const echoed = await host.client.callTool({ name: 'echo', arguments: { message: 'still here' } });
    expect(textOf(echoed)).toContain('still here');
  });

  it("a server's sampling request reaches the console's queue via the host; the person's answer reaches the server", async () => {
    const call = host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'bridged hello', maxTokens: 32 } });
    const item = await newItem(h, 'everything');
    expect(item.via).toEqual({ host: HOST_INFO.name, version: HOST_INFO.version });
    expect(JSON.stringify(item.original.messages)).toContain('bridged hello');
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'answered by a person' }, model: 'manual', stopReason: 'endTurn' } });
    expect(textOf(await call)).toContain('answered by a person');
    const entry = await h.service.getHistoryEntry({ id: item.id });
    expect(entry).toMatchObject({ serverId: 'everything', status: 'delivered', via: { host: HOST_INFO.name } });
  });

  it('a rejection reaches the server as -1', async () => {
    const seen = new Set((await h.service.getState({})).items.map((i) => i.id));
    const call = host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'please reject', maxTokens: 16 } });
    const item = await newItem(h, 'everything', seen);
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'not today' });
    const result = await call.then(
      (r) => textOf(r),
      (err: unknown) => String(err),
    );
    expect(result).toMatch(/-1|reject|not today/i);
  });
});

describe('bridge: elicitation and roots go to the host that declares them, else to the console', () => {
  let h: Harness;
  let plain: FakeHost;
  let capable: FakeHost;

  beforeAll(async () => {
    const dir = tempUserData({ everything: { command: process.execPath, args: [serverEverythingEntry(), 'stdio'], disabled: true } });
    writeFileSync(path.join(dir, 'roots.json'), JSON.stringify({ everything: [dir] }));
    h = await startHarness({ dir });
    plain = await connectHost({ dir, bridgeArgs: ['everything'] });
    capable = await connectHost({
      dir,
      bridgeArgs: ['everything'],
      capabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
      setup: (client) => {
        client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
        client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///host-root', name: 'host-root' }] }));
      },
    });
  }, 60_000);

  afterAll(async () => {
    await plain?.close();
    await capable?.close();
    await h?.dispose();
  });

  it('elicitation: to the host when it declares elicitation (the console sees nothing)', async () => {
    const result = await capable.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(textOf(result)).toMatch(/decline/i);
    expect((await h.state()).elicitations).toHaveLength(0);
  });

  it("elicitation: to the console's queue, via the host, when the host does not declare it", async () => {
    const call = plain.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const item = await newElicitation(h, 'everything');
    expect(item.via?.host).toBe(HOST_INFO.name);
    expect(item.association.calls[0]).toMatchObject({ kind: 'tools/call', name: 'trigger-elicitation-request' });
    await h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'decline' });
    expect(textOf(await call)).toMatch(/decline/i);
  });

  it("roots: the host's when it declares roots, else the console's roots for the server", async () => {
    expect(textOf(await capable.client.callTool({ name: 'get-roots-list', arguments: {} }))).toContain('file:///host-root');
    expect(textOf(await plain.client.callTool({ name: 'get-roots-list', arguments: {} }))).toContain(pathToFileURL(h.dir).href);
  });

  it("roots: a change of the console's roots reaches a bridged server whose host has none (notifications/roots/list_changed)", async () => {
    const other = tempUserData();
    expect(textOf(await plain.client.callTool({ name: 'get-roots-list', arguments: {} }))).not.toContain(pathToFileURL(other).href);
    await h.service.setServerRoots({ serverId: 'everything', folders: [other] });
    // The bridged rows show the console's roots for it (the Servers screen edits them there).
    await h.waitFor((st) => st.bridged?.some((b) => b.serverId === 'everything' && b.roots?.some((r) => r.uri === pathToFileURL(other).href)) ?? false, "the bridged row with the console's roots");
    // server-everything keeps the roots it got and asks again only when told they changed.
    await expect.poll(async () => textOf(await plain.client.callTool({ name: 'get-roots-list', arguments: {} })), { timeout: 10_000 }).toContain(pathToFileURL(other).href);
    // The host that has roots of its own keeps answering with them.
    expect(textOf(await capable.client.callTool({ name: 'get-roots-list', arguments: {} }))).toContain('file:///host-root');
  });

  it('sampling: to the console even when the host declares it; to that host only with --sampling host', async () => {
    const answered: string[] = [];
    const sampler = (tag: string) => async () => {
      answered.push(tag);
      return { role: 'assistant' as const, content: { type: 'text' as const, text: `from the ${tag} host` }, model: 'host-model' };
    };
    const hostFor = (extra: string[], tag: string) =>
      connectHost({ dir: h.dir, bridgeArgs: [...extra, 'everything'], capabilities: { sampling: {} }, setup: (client) => client.setRequestHandler('sampling/createMessage', sampler(tag)) });
    const byDefault = await hostFor([], 'default');
    const toHost = await hostFor(['--sampling', 'host'], 'chosen');
    try {
      const viaHost = await toHost.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 10 } });
      expect(textOf(viaHost)).toContain('from the chosen host');
      const seen = new Set((await h.state()).items.map((i) => i.id));
      const call = byDefault.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 10 } });
      const item = await newItem(h, 'everything', seen);
      await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion! });
      await call.catch(() => undefined);
      expect(answered).toEqual(['chosen']);
    } finally {
      await byDefault.close();
      await toHost.close();
    }
  }, 60_000);
});
