/**
 * The bridge in front of a server built on the v1 TypeScript SDK (`@modelcontextprotocol/sdk`
 * 1.x, test/fixtures/v1-sdk-server.ts, over stdio), with a host that declares neither sampling nor
 * elicitation: its sampling requests — plain, and a tools loop (`tool_use` answered, the server runs
 * the tool and samples again with the `tool_result`) — are reviewed in the console's queue, its
 * form elicitation is answered there, and a rejection reaches the v1 server as the error it raises.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerCommand } from '../fixtures/peer-servers.js';
import { startHarness, type Harness, seenVersion } from '../support/console-harness.js';
import { connectHost, HOST_INFO, newElicitation, newItem, ROOT, textOf, type FakeHost } from './support.js';

const MANUAL = { providerId: 'manual', modelId: 'manual' } as const;

describe('bridge to a v1 TypeScript SDK server', () => {
  let h: Harness;
  let host: FakeHost;
  const seen = new Set<string>();

  beforeAll(async () => {
    const { command, args } = peerCommand('v1', 'stdio');
    h = await startHarness({ servers: { v1: { command, args, cwd: ROOT, disabled: true } } });
    host = await connectHost({ dir: h.dir, bridgeArgs: ['v1'] });
  }, 90_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
  });

  /** The next sampling request of the v1 server, approved as it came (the manual model). */
  const approveNext = async () => {
    const item = await newItem(h, 'v1', seen);
    seen.add(item.id);
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    return item;
  };

  it('sampling with an edited prompt: the edited prompt is what was sent, the v1 server gets the answer, the host the tool result', async () => {
    const call = host.client.callTool({ name: 'push_sample_text', arguments: { prompt: 'hello from v1' } });
    const item = await newItem(h, 'v1', seen);
    seen.add(item.id);
    expect(item.via?.host).toBe(HOST_INFO.name);
    expect(item.association).toMatchObject({ exact: true, calls: [{ kind: 'tools/call', name: 'push_sample_text' }] });
    const edited = { ...item.original, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hello, edited' } }] };
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: edited, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'a v1 answer' }, model: 'manual', stopReason: 'endTurn' } });
    expect(textOf(await call)).toBe('model said: a v1 answer | protocol 2025-11-25');
    const done = await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'delivered', 'delivered');
    expect(done.items.find((i) => i.id === item.id)!.sent?.messages).toEqual(edited.messages);
  });

  it('a tools loop: tool_use answered, then the tool_result round, through the v1 SDK’s result schemas', async () => {
    const call = host.client.callTool({ name: 'push_sample_tools', arguments: {} });
    const first = await approveNext();
    expect(first.original.tools?.map((t) => t.name)).toEqual(['get_weather']);
    await h.service.approveResponse({
      itemId: first.id, version: await seenVersion(h, first.id),
      result: { role: 'assistant', content: [{ type: 'tool_use', id: 'call-1', name: 'get_weather', input: { city: 'Paris' } }], model: 'manual', stopReason: 'toolUse' },
    });
    const second = await approveNext();
    const last = second.original.messages.at(-1)!;
    expect(Array.isArray(last.content) ? last.content[0] : last.content).toMatchObject({ type: 'tool_result', toolUseId: 'call-1' });
    await h.service.approveResponse({ itemId: second.id, version: await seenVersion(h, second.id), result: { role: 'assistant', content: { type: 'text', text: 'sunny' }, model: 'manual', stopReason: 'endTurn' } });
    expect(textOf(await call)).toMatch(/^model said: sunny \(after get_weather\(\{"city": "Paris"\}\) -> /);
  });

  it('form elicitation from a host without elicitation: answered in the console', async () => {
    const call = host.client.callTool({ name: 'push_elicit_form', arguments: {} });
    const item = await newElicitation(h, 'v1');
    await h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept', content: { name: 'Ada', age: 36 } });
    expect(textOf(await call)).toBe('user answered: accept {"age": 36, "name": "Ada"} | protocol 2025-11-25');
  });

  it('a rejected request reaches the v1 server as its error; the host gets the tool’s failure', async () => {
    const call = host.client.callTool({ name: 'push_sample_text', arguments: {} });
    const item = await newItem(h, 'v1', seen);
    seen.add(item.id);
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion!, reason: 'not now' });
    const result = (await call) as { isError?: boolean };
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/not now|reject/i);
  });
});
