/**
 * A URL-mode elicitation of a bridged server whose host has no URL elicitation: the console shows
 * it, and when the server later sends `notifications/elicitation/complete` for it, the bridge
 * passes that to the console, which marks the item completed (the host never saw the elicitation,
 * so it is not told either).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/console-harness.js';
import { connectHost, newElicitation, ROOT, tempUserData, textOf, type FakeHost } from './support.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/elicitation-server.ts');

describe('bridge: a URL elicitation the console showed, completed by the server', () => {
  let h: Harness;
  let host: FakeHost;
  let notified = 0;

  beforeAll(async () => {
    const dir = tempUserData({});
    h = await startHarness({ dir });
    host = await connectHost({
      dir,
      bridgeArgs: ['--name', 'elicit', '--', process.execPath, '--import', 'tsx', FIXTURE, 'stdio', '--era', 'legacy'],
      setup: (client) => client.setNotificationHandler('notifications/elicitation/complete', () => void notified++),
    });
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await h?.dispose();
  });

  it('the console marks the item completed; the host gets no notification for it', async () => {
    const call = host.client.callTool({ name: 'url-then-complete', arguments: { url: 'https://auth.example.com/sign-in', elicitationId: 'bridged-1' } });
    const item = await newElicitation(h, 'elicit');
    expect(item.params).toMatchObject({ mode: 'url', elicitationId: 'bridged-1' });
    await h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept' });
    expect(textOf(await call)).toContain('accept');
    const state = await h.waitFor((s) => s.elicitations.find((e) => e.id === item.id)?.status === 'completed', 'the item marked completed');
    expect(state.elicitations.find((e) => e.id === item.id)!.outcome?.message).toMatch(/reported the URL flow complete/);
    expect(notified).toBe(0);
  }, 60_000);
});
