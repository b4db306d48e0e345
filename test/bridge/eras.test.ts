/**
 * The bridge serves every style of tool whatever protocol era the host speaks, and the host never
 * sees an era refusal. Hosts: a client that initializes on 2025-11-25 (every agent host today) and
 * one pinned to 2026-07-28. Servers (test/fixtures/python/README.md): Python `mcp` (push, push that
 * catches every exception, `Resolve` both-eras), `fastmcp` (guard `InputRequiredResult`, catching
 * push, push `ctx.elicit`), the v2 TypeScript SDK (catching push, `inputRequired` both-eras) and
 * the v1 one (catching push; it speaks only 2025-11-25, so only behind the 2025 host), over stdio
 * and, for one server behind each host, Streamable HTTP. Each tool is
 * called twice: its sampling request reaches the console's queue both times and the person's answer
 * is what the tool reports. A tool that needs the era the host did not open is called on a second
 * session of the server in that era, learned from its refusal on the first call. A 2025-11-25 host
 * that declared elicitation and roots is asked for the ones embedded in a guard-style tool's rounds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedFixture } from '../fixtures/launch.js';
import { peerCommand, startPeerServer, type PeerKind } from '../fixtures/peer-servers.js';
import { seenVersion, startHarness, type Harness } from '../support/console-harness.js';
import { connectHost, HOST_INFO, newElicitation, newItem, ROOT, textOf, type FakeHost } from './support.js';

const MANUAL = { providerId: 'manual', modelId: 'manual' } as const;
const MODERN_HOST = { versionNegotiation: { mode: { pin: '2026-07-28' } } };

/** The sampling tools of each server, by style. */
const SAMPLING_TOOLS: Record<PeerKind, string[]> = {
  mcp: ['push_sample_text', 'caught_sample_text', 'resolve_sample_text'],
  fastmcp: ['guard_sample_text', 'caught_sample_text'],
  v2: ['caught_sample_text', 'both_sample_text'],
  v1: ['caught_sample_text'],
};

describe.each([
  ['mcp', 'stdio', '2025-11-25'],
  ['mcp', 'stdio', '2026-07-28'],
  ['fastmcp', 'stdio', '2025-11-25'],
  ['fastmcp', 'stdio', '2026-07-28'],
  ['fastmcp', 'http', '2025-11-25'],
  ['mcp', 'http', '2026-07-28'],
  ['v2', 'stdio', '2025-11-25'],
  ['v2', 'stdio', '2026-07-28'],
  ['v1', 'stdio', '2025-11-25'],
] as const)('the bridge to a %s server over %s, behind a host on %s', (kind: PeerKind, transport, hostEra) => {
  let h: Harness;
  let host: FakeHost;
  let server: StartedFixture | undefined;
  const seen = new Set<string>();

  beforeAll(async () => {
    server = await startPeerServer(kind, transport);
    h = await startHarness({ servers: { peer: { ...server.config, disabled: true } } });
    host = await connectHost({ dir: h.dir, bridgeArgs: ['peer'], ...(hostEra === '2026-07-28' && { clientOptions: MODERN_HOST }) });
  }, 90_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
    await server?.close();
  });

  /** Calls `tool` through the bridge and answers its sampling request as the person with `text`. */
  async function callAndAnswer(tool: string, text: string): Promise<unknown> {
    const call = host.client.callTool({ name: tool, arguments: {} });
    // A refusal the host must never see would settle the call before any request reaches the queue.
    const item = await Promise.race([newItem(h, 'peer', seen, 30_000), call.then((r) => Promise.reject(new Error(`${tool} answered before asking: ${JSON.stringify(r)}`)))]);
    seen.add(item.id);
    expect(item.via?.host).toBe(HOST_INFO.name);
    expect(item.association.calls.map((c) => c.name)).toContain(tool);
    await h.service.approveRequest({ itemId: item.id, version: await seenVersion(h, item.id), params: item.original, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { role: 'assistant', content: { type: 'text', text }, model: 'manual', stopReason: 'endTurn' } });
    return call;
  }

  it.each(SAMPLING_TOOLS[kind])("%s: the sampling request reaches the queue on the first call and the next; the host gets the person's answer", async (tool) => {
    for (const n of [1, 2]) {
      const result = (await callAndAnswer(tool, `${tool} answer ${n}`)) as { isError?: boolean };
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(textOf(result)).toMatch(new RegExp(`^model said: ${tool} answer ${n} \\| protocol 20`));
    }
  }, 90_000);
});

describe('a host on 2025-11-25 that answers elicitation and roots itself, in front of fastmcp guard-style tools', () => {
  let h: Harness;
  let host: FakeHost;
  const asked: string[] = [];

  beforeAll(async () => {
    const { command, args } = peerCommand('fastmcp', 'stdio');
    h = await startHarness({ servers: { fast: { command, args, cwd: ROOT, disabled: true } } });
    host = await connectHost({
      dir: h.dir,
      bridgeArgs: ['fast'],
      capabilities: { elicitation: { form: {}, url: {} }, roots: {} },
      setup(client) {
        client.setRequestHandler('elicitation/create', async (request) => {
          asked.push(`elicitation/create ${request.params.mode ?? 'form'}`);
          return request.params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { name: 'Host', age: 7 } };
        });
        client.setRequestHandler('roots/list', async () => (asked.push('roots/list'), { roots: [{ uri: 'file:///host/project', name: 'project' }] }));
      },
    });
  }, 90_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
  });

  it('the embedded elicitation and roots requests are put to the host, as requests it can answer on 2025-11-25', async () => {
    expect(textOf(await host.client.callTool({ name: 'guard_elicit_form', arguments: {} }))).toBe('user answered: accept {"age": 7, "name": "Host"} | protocol 2026-07-28');
    expect(textOf(await host.client.callTool({ name: 'guard_list_roots', arguments: {} }))).toBe('roots: file:///host/project | protocol 2026-07-28');
    expect(textOf(await host.client.callTool({ name: 'guard_elicit_url', arguments: {} }))).toBe('user answered: accept (url py-fastmcp-url-1) | protocol 2026-07-28');
    expect(asked).toEqual(['elicitation/create form', 'roots/list', 'elicitation/create url']);
    expect((await h.state()).elicitations).toEqual([]);
  }, 60_000);
});

describe('a host on 2026-07-28 in front of a push-style elicitation (fastmcp ctx.elicit)', () => {
  let h: Harness;
  let host: FakeHost;

  beforeAll(async () => {
    const { command, args } = peerCommand('fastmcp', 'stdio');
    h = await startHarness({ servers: { fast: { command, args, cwd: ROOT, disabled: true } } });
    host = await connectHost({ dir: h.dir, bridgeArgs: ['fast'], clientOptions: MODERN_HOST });
  }, 90_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
  });

  it('is called on a 2025-11-25 session, where it can ask; the console answers it', async () => {
    const call = host.client.callTool({ name: 'push_elicit_form', arguments: {} });
    const item = await newElicitation(h, 'fast', 30_000);
    await h.service.respondElicitation({ itemId: item.id, version: await seenVersion(h, item.id), action: 'accept', content: { name: 'Ada', age: 36 } });
    expect(textOf(await call)).toBe('user answered: accept {"age": 36, "name": "Ada"} | protocol 2025-11-25');
  }, 60_000);
});
