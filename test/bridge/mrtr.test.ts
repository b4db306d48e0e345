/**
 * The bridge on the 2026-07-28 era, with the repo's sampling fixture (test/fixtures/sampling-server.ts)
 * pinned to it: the host's request carries its capabilities in `_meta` (the server sees the
 * bridge's), the fixture answers `tools/call` with `input_required` embedding a sampling request,
 * the console answers it (tied to the host's exact call), the bridge retries and the host gets the
 * final result under its own id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSamplingServer } from '../fixtures/sampling-server.js';
import { startHarness, type Harness, seenVersion } from '../support/console-harness.js';
import { connectHost, HOST_INFO, newItem, textOf, type FakeHost } from './support.js';

const MANUAL = { providerId: 'manual', modelId: 'manual' } as const;

describe('bridge, 2026-07-28 input rounds (sampling fixture, modern era)', () => {
  let h: Harness;
  let host: FakeHost;

  beforeAll(async () => {
    const fixture = await startSamplingServer({ transport: 'stdio', era: 'modern' });
    const config = fixture.config as { command: string; args: string[]; cwd: string };
    h = await startHarness({ servers: { fixture: { ...config, disabled: true } } });
    host = await connectHost({ dir: h.dir, bridgeArgs: ['fixture'], clientOptions: { versionNegotiation: { mode: { pin: '2026-07-28' } } } });
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
  });

  it('the server sees sampling declared by the bridge, on top of what the host declared', async () => {
    const report = JSON.parse(textOf(await host.client.callTool({ name: 'client-capabilities', arguments: {} }))) as Record<string, unknown>;
    expect(JSON.stringify(report)).toContain('sampling');
  });

  it("an embedded sampling request is answered in the console's queue (exact call, via the host); the host gets the final result", async () => {
    const call = host.client.callTool({ name: 'ask-text', arguments: { prompt: 'modern through the bridge' } });
    const item = await newItem(h, 'fixture');
    expect(item.era).toBe('modern');
    expect(item.via?.host).toBe(HOST_INFO.name);
    expect(item.association).toMatchObject({ exact: true, calls: [{ kind: 'tools/call', name: 'ask-text' }] });
    await h.service.approveRequest({ itemId: item.id, version: item.contentVersion!, params: item.original, model: MANUAL });
    await h.waitFor((s) => s.items.find((i) => i.id === item.id)?.status === 'awaiting_response_review', 'response review');
    await h.service.approveResponse({ itemId: item.id, version: await seenVersion(h, item.id), result: { role: 'assistant', content: { type: 'text', text: 'modern answer' }, model: 'manual', stopReason: 'endTurn' } });
    const report = JSON.parse(textOf(await call)) as { era: string; result?: { content: { text: string } }; requestStateVerified?: boolean };
    expect(report).toMatchObject({ era: 'modern', requestStateVerified: true, result: { content: { text: 'modern answer' } } });
  });

  it("a rejection ends the host's call with -1 (MRTR cannot tell the server)", async () => {
    const seen = new Set((await h.service.getState({})).items.map((i) => i.id));
    const call = host.client.callTool({ name: 'ask-text', arguments: { prompt: 'reject me' } });
    const item = await newItem(h, 'fixture', seen);
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion! });
    await expect(call).rejects.toMatchObject({ code: -1 });
  });
});
