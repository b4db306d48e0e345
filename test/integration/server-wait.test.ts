/**
 * Time made visible, end to end through main's API with the real server-everything
 * over stdio: each waiting sampling and elicitation item carries how long its server waits —
 * `serverTimeoutMs` from mcp-servers.json when set, else the SDK default of 60 s.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingStdio, startHarness, type Harness } from '../support/console-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ servers: { patient: { ...everythingStdio(), serverTimeoutMs: 300_000 }, plain: everythingStdio() } });
  await h.waitFor((s) => ['patient', 'plain'].every((id) => s.servers.some((x) => x.id === id && x.status === 'ready' && x.tools.length > 0)), 'both servers ready');
}, 30_000);

afterAll(async () => {
  await h?.dispose();
  rmSync(h.dir, { recursive: true, force: true });
});

async function sampleFrom(serverId: string) {
  const { callId } = await h.service.callTool({ serverId, name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 16 } });
  const s = await h.waitFor((st) => st.items.some((i) => i.association.calls.some((c) => c.callId === callId)), `the sampling item of ${serverId}`);
  return s.items.find((i) => i.association.calls.some((c) => c.callId === callId))!;
}

describe('server wait on queued items', () => {
  it('a configured server: serverTimeoutMs from the config, counted from arrival', async () => {
    const item = await sampleFrom('patient');
    expect(item.serverWait).toEqual({ until: item.receivedAt + 300_000, ms: 300_000, source: 'configured' });
  });

  it('an unconfigured server: the SDK default of 60 s', async () => {
    const item = await sampleFrom('plain');
    expect(item.serverWait).toEqual({ until: item.receivedAt + 60_000, ms: 60_000, source: 'sdk-default' });
  });

  it('an elicitation carries its server wait too', async () => {
    const { callId } = await h.service.callTool({ serverId: 'patient', name: 'trigger-elicitation-request', arguments: {} });
    const s = await h.waitFor((st) => (st.elicitations ?? []).some((e) => e.association.calls.some((c) => c.callId === callId)), 'the elicitation item');
    const item = s.elicitations!.find((e) => e.association.calls.some((c) => c.callId === callId))!;
    expect(item.serverWait).toEqual({ until: item.receivedAt + 300_000, ms: 300_000, source: 'configured' });
  });
});
