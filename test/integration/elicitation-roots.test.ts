/**
 * Elicitation and roots end to end through main's API (no UI) against the real
 * @modelcontextprotocol/server-everything (a 2025-era server), over stdio AND Streamable HTTP:
 * trigger-elicitation-request answered with accept / decline / cancel (checked in the tool result
 * the server builds from what it received), trigger-url-elicitation on the request path and on the
 * -32042 error path (then re-run with rerunCall once the page was opened), and get-roots-list
 * returning the folders set with setServerRoots, each change announced with
 * notifications/roots/list_changed (seen in the protocol log, then in the server's answer).
 *
 * server-everything never sends `notifications/elicitation/complete`; that notification is covered
 * by the v2 fixture (test/integration/elicitation-fixture.test.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElicitationItemView } from '../../shared/contract/state.js';
import { everythingStdio, startHarness, type Harness } from '../support/console-harness.js';
import { startEverythingHttp } from '../support/everything-http.js';

const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

describe.each(['stdio', 'http'] as const)('server-everything over %s', (transport) => {
  let h: Harness;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    let config: Record<string, unknown> = everythingStdio();
    if (transport === 'http') {
      const started = await startEverythingHttp();
      child = started.child;
      config = { url: started.url };
    }
    h = await startHarness({ servers: { everything: config } });
    await h.waitFor(
      (s) => !!s.servers.find((x) => x.id === 'everything' && x.status === 'ready' && x.tools.some((t) => t.name === 'trigger-elicitation-request')),
      'server-everything ready with its elicitation tools',
    );
  }, 40_000);

  afterAll(async () => {
    await h?.dispose();
    if (h) rmSync(h.dir, { recursive: true, force: true });
    child?.kill('SIGTERM');
  });

  /** Calls a tool and waits for the elicitation item that belongs to it. */
  async function callAndWaitForItem(name: string, args: Record<string, unknown> = {}): Promise<{ callId: string; item: ElicitationItemView }> {
    const { callId } = await h.service.callTool({ serverId: 'everything', name, arguments: args });
    return { callId, item: await itemOf(callId) };
  }

  /** Waits for the elicitation item that awaits input for `callId`. */
  async function itemOf(callId: string): Promise<ElicitationItemView> {
    const mine = (e: ElicitationItemView) => e.status === 'awaiting_input' && e.association.calls.some((c) => c.callId === callId);
    const state = await h.waitFor((s) => (s.elicitations ?? []).some(mine), `the elicitation of call ${callId} in the queue`);
    return state.elicitations!.find(mine)!;
  }

  /** Waits for a call to end and returns its result text. */
  async function resultText(callId: string): Promise<{ text: string; status: string; error?: { message: string; code?: number } }> {
    const s = await h.waitFor((st) => st.calls.some((c) => c.id === callId && c.status !== 'running'), 'the tool call to finish');
    const call = s.calls.find((c) => c.id === callId)!;
    return { status: call.status, error: call.error, text: (call.result?.content ?? []).map((b) => String(b.text ?? '')).join('\n') };
  }

  describe('elicitation', () => {
    it('form accept: the server receives the validated content with defaults applied', async () => {
      const { callId, item } = await callAndWaitForItem('trigger-elicitation-request');
      expect(item.params.mode ?? 'form').toBe('form');
      expect(item).toMatchObject({ source: 'request', era: 'legacy', association: { exact: true } });
      expect(item.association.calls[0]?.name).toBe('trigger-elicitation-request');
      await h.service.respondElicitation({
        itemId: item.id, version: item.contentVersion!,
        action: 'accept',
        content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com', birthdate: '1815-12-10', integer: 7 },
      });
      const { text } = await resultText(callId);
      expect(text).toContain('User provided the requested information');
      expect(text).toContain('- Name: Ada Lovelace');
      expect(text).toContain('- Agreed to terms: true');
      expect(text).toContain('- Email: ada@example.com');
      expect(text).toContain('- Birthdate: 1815-12-10');
      expect(text).toContain('- Favorite Integer: 7');
      // A default the person did not touch was sent too.
      expect(text).toContain('- Favorite Number: 3.14');
      const state = await h.state();
      const done = state.elicitations!.find((e) => e.id === item.id)!;
      expect(done.status).toBe('accepted');
      expect(done.answer?.content?.firstLine).toBe('It was a dark and stormy night.');
    }, 30_000);

    it('form accept with invalid content is refused and nothing is sent; decline then reaches the server', async () => {
      const { callId, item } = await callAndWaitForItem('trigger-elicitation-request');
      await expect(h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept', content: { email: 'not-an-address' } })).rejects.toThrow(/name is required/);
      let state = await h.state();
      expect(state.elicitations!.find((e) => e.id === item.id)!.status).toBe('awaiting_input');
      expect(state.calls.find((c) => c.id === callId)!.status).toBe('running');
      await h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'decline' });
      const { text } = await resultText(callId);
      expect(text).toContain('User declined to provide the requested information');
      state = await h.state();
      expect(state.elicitations!.find((e) => e.id === item.id)!.status).toBe('declined');
    }, 30_000);

    it('form cancel reaches the server as cancel', async () => {
      const { callId, item } = await callAndWaitForItem('trigger-elicitation-request');
      await h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'cancel' });
      const { text } = await resultText(callId);
      expect(text).toContain('User cancelled the elicitation dialog');
      expect(text).toContain('"action": "cancel"');
    }, 30_000);

    it('URL mode (request path): the URL is shown as sent; accept means the person agreed to open it', async () => {
      const url = 'https://example.com/authorize?step=1';
      const { callId, item } = await callAndWaitForItem('trigger-url-elicitation', { url, elicitationId: `elic-${transport}` });
      expect(item.params).toMatchObject({ mode: 'url', url, elicitationId: `elic-${transport}`, message: 'Please open the link to complete this action.' });
      expect(item.secretWarning).toBe(false);
      await h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept' });
      const { text } = await resultText(callId);
      expect(text).toContain('User completed the URL elicitation flow');
      expect(text).toContain(`Elicitation ID: elic-${transport}`);
    }, 30_000);

    it('URL mode (request path): decline reaches the server', async () => {
      const { callId, item } = await callAndWaitForItem('trigger-url-elicitation', { url: 'https://example.com/no', elicitationId: 'elic-no' });
      await h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'decline' });
      expect((await resultText(callId)).text).toContain('User declined to open the URL (Elicitation ID: elic-no)');
    }, 30_000);

    it('URL mode (-32042 error path): a URL item nothing waits on; once opened, rerunCall calls the tool again with the same arguments', async () => {
      const args = { url: `https://example.com/pay-${transport}`, errorPath: true };
      const { callId } = await h.service.callTool({ serverId: 'everything', name: 'trigger-url-elicitation', arguments: args });
      const { status, error } = await resultText(callId);
      expect(status).toBe('failed');
      expect(error?.code).toBe(-32042);
      const fromError = (e: ElicitationItemView) => e.source === 'error' && e.status === 'awaiting_input' && e.association.calls.some((c) => c.callId === callId);
      const state = await h.waitFor((s) => (s.elicitations ?? []).some(fromError), 'the URL item from -32042');
      const item = state.elicitations!.find(fromError)!;
      expect(item.params.mode === 'url' && item.params.url).toBe('https://modelcontextprotocol.io');
      await h.service.respondElicitation({ itemId: item.id, version: item.contentVersion!, action: 'accept' });
      expect((await h.state()).elicitations!.find((e) => e.id === item.id)!.status).toBe('accepted');

      // server-everything recognises the retry of the same call (same arguments) and goes on by the
      // request path: the re-run asks for the original URL.
      const { callId: again } = await h.service.rerunCall({ callId });
      expect(again).not.toBe(callId);
      const rerun = (await h.state()).calls.find((c) => c.id === again)!;
      expect(rerun).toMatchObject({ serverId: 'everything', kind: 'tools/call', name: 'trigger-url-elicitation', arguments: args, rerunOf: callId });
      const next = await itemOf(again);
      expect(next).toMatchObject({ source: 'request', params: { mode: 'url', url: args.url } });
      await h.service.respondElicitation({ itemId: next.id, version: next.contentVersion!, action: 'accept' });
      const second = await resultText(again);
      expect(second.status).toBe('succeeded');
      expect(second.text).toContain('User completed the URL elicitation flow');
      expect(second.text).toContain(`URL: ${args.url}`);
      // The first call keeps its own outcome.
      expect((await h.state()).calls.find((c) => c.id === callId)).toMatchObject({ status: 'failed', error: { code: -32042 } });

      await h.service.dismissItem({ itemId: item.id });
      expect((await h.state()).elicitations!.some((e) => e.id === item.id)).toBe(false);
    }, 30_000);
  });

  describe('roots', () => {
    it('get-roots-list returns the folders set with setServerRoots; each change is announced with notifications/roots/list_changed', async () => {
      const a = mkdtempSync(join(tmpdir(), 'roots-a-'));
      const b = mkdtempSync(join(tmpdir(), 'roots-b-'));
      folders.push(a, b);
      const before = (await h.service.getServerLog({ serverId: 'everything', limit: 2000 })).totals.protocol;
      const { roots } = await h.service.setServerRoots({ serverId: 'everything', folders: [a, pathToFileURL(b).href] });
      expect(roots.map((r) => r.uri)).toEqual([pathToFileURL(a).href, pathToFileURL(b).href]);
      const state = await h.waitFor((s) => s.servers.find((x) => x.id === 'everything')?.roots?.length === 2, 'the roots in the server view');
      expect(state.servers.find((x) => x.id === 'everything')!.roots![0]!.name).toBe(basename(a));

      // The console announced the change and the server asked for the new list.
      const sinceChange = async () => (await h.service.getServerLog({ serverId: 'everything', limit: 2000 })).protocol.filter((e) => e.seq > before);
      await expect.poll(async () => (await sinceChange()).some((e) => e.direction === 'out' && e.kind === 'notification' && e.method === 'notifications/roots/list_changed')).toBe(true);
      await expect.poll(async () => (await sinceChange()).some((e) => e.direction === 'in' && e.kind === 'request' && e.method === 'roots/list')).toBe(true);

      const listed = async (): Promise<string> => {
        const { callId } = await h.service.callTool({ serverId: 'everything', name: 'get-roots-list', arguments: {} });
        return (await resultText(callId)).text;
      };
      let text = '';
      // The server re-reads roots on notifications/roots/list_changed; give it a moment.
      for (let i = 0; i < 40 && !text.includes('(2 total)'); i++) {
        text = await listed();
        if (!text.includes('(2 total)')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(text).toContain('Current MCP Roots (2 total)');
      expect(text).toContain(pathToFileURL(a).href);
      expect(text).toContain(pathToFileURL(b).href);

      await h.service.setServerRoots({ serverId: 'everything', folders: [pathToFileURL(b).href] });
      for (let i = 0; i < 40 && !text.includes('(1 total)'); i++) {
        text = await listed();
        if (!text.includes('(1 total)')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(text).toContain('Current MCP Roots (1 total)');
      expect(text).not.toContain(pathToFileURL(a).href);
      const log = await sinceChange();
      expect(log.filter((e) => e.direction === 'out' && e.method === 'notifications/roots/list_changed')).toHaveLength(2);
    }, 30_000);

    it('a relative path or a missing folder is refused with a readable message', async () => {
      await expect(h.service.setServerRoots({ serverId: 'everything', folders: ['relative/dir'] })).rejects.toThrow(/not an absolute folder path/);
      await expect(h.service.setServerRoots({ serverId: 'everything', folders: [join(tmpdir(), 'does-not-exist-roots-xyz')] })).rejects.toThrow(/not an existing folder/);
    });
  });
});
