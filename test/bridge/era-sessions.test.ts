/**
 * The bridge's second sessions (main/bridge/era-sessions.ts), in process: a host Client on
 * 2025-11-25 over an in-memory pair, the proxy, a `fastmcp` server over stdio, and a console link
 * that answers every sampling request at once. A guard-style tool refused on 2025-11-25 runs on a
 * 2026-07-28 session — a second server process — which closes after its idle time and is opened
 * again for the next call; when the host goes, every server process the bridge started ends.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleLink } from '../../main/bridge/console-link.js';
import { startBridgeProxy, type BridgeProxy } from '../../main/bridge/proxy.js';
import { silentLogger } from '../../main/ports.js';
import { peerCommand } from '../fixtures/peer-servers.js';
import { ROOT, textOf } from './support.js';
import { alive } from '../support/processes.js';

/** A console that answers every sampling request with `text` and records what it was asked. */
function answeringLink(text: string): ConsoleLink & { asked: Array<{ kind: string; era: string; calls: unknown }> } {
  const asked: Array<{ kind: string; era: string; calls: unknown }> = [];
  return {
    asked,
    async request(kind, _params, opts) {
      asked.push({ kind, era: opts.era, calls: opts.calls });
      return { role: 'assistant', content: { type: 'text', text }, model: 'console' };
    },
    warmUp: async () => undefined,
    elicitationComplete: () => undefined,
    report: () => undefined,
    auth: async () => undefined,
    close: () => undefined,
  };
}

describe('second sessions of the bridge', () => {
  let proxy: BridgeProxy | undefined;
  let host: Client | undefined;
  afterEach(async () => {
    await host?.close();
    await proxy?.close();
  });

  it('a guard-style tool runs on a 2026-07-28 session that closes when idle, opens again, and ends with the bridge', async () => {
    const { command, args } = peerCommand('fastmcp', 'stdio');
    const spawned: StdioClientTransport[] = [];
    const transport = () => {
      const t = new StdioClientTransport({ command, args, cwd: ROOT, stderr: 'ignore' });
      spawned.push(t);
      return t;
    };
    const [toBridge, toHost] = InMemoryTransport.createLinkedPair();
    const link = answeringLink('from the console');
    proxy = await startBridgeProxy({ host: toBridge, server: transport(), link, logger: silentLogger, newServerTransport: transport, eraSessionIdleMs: 300 });
    host = new Client({ name: 'host', version: '1' }, { capabilities: {} });
    await host.connect(toHost);

    expect(textOf(await host.callTool({ name: 'guard_sample_text', arguments: {} }))).toBe('model said: from the console | protocol 2026-07-28');
    expect(link.asked).toEqual([{ kind: 'sampling', era: 'modern', calls: [expect.objectContaining({ name: 'guard_sample_text', kind: 'tools/call' })] }]);
    expect(spawned).toHaveLength(2);
    const second = spawned[1]!.pid!;
    expect(alive(second)).toBe(true);

    await expect.poll(() => alive(second), { timeout: 10_000 }).toBe(false);
    expect(textOf(await host.callTool({ name: 'guard_sample_text', arguments: {} }))).toBe('model said: from the console | protocol 2026-07-28');
    expect(spawned).toHaveLength(3);
    const third = spawned[2]!.pid!;
    const first = spawned[0]!.pid!;
    expect(alive(third)).toBe(true);

    await host.close();
    host = undefined;
    await proxy.closed;
    await expect.poll(() => [alive(first), alive(third)], { timeout: 10_000 }).toEqual([false, false]);
  }, 60_000);

  it("a host's cancel of a call on the second session aborts its request at the console", async () => {
    const { command, args } = peerCommand('fastmcp', 'stdio');
    const transport = () => new StdioClientTransport({ command, args, cwd: ROOT, stderr: 'ignore' });
    const [toBridge, toHost] = InMemoryTransport.createLinkedPair();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let aborted: unknown;
    let asked = false;
    const link: ConsoleLink = {
      ...answeringLink('late'),
      async request(_kind, _params, opts) {
        asked = true;
        opts.signal?.addEventListener('abort', () => (aborted = opts.signal?.reason));
        await held;
        return { role: 'assistant', content: { type: 'text', text: 'late' }, model: 'console' };
      },
    };
    proxy = await startBridgeProxy({ host: toBridge, server: transport(), link, logger: silentLogger, newServerTransport: transport });
    host = new Client({ name: 'host', version: '1' }, { capabilities: {} });
    await host.connect(toHost);
    const abort = new AbortController();
    const call = host.callTool({ name: 'guard_sample_text', arguments: {} }, { signal: abort.signal });
    // Refused on 2025-11-25, called again on 2026-07-28: its round's sampling request is with the console.
    await expect.poll(() => asked, { timeout: 30_000 }).toBe(true);
    abort.abort(new Error('the host gave up'));
    await expect(call).rejects.toThrow(/gave up/);
    await expect.poll(() => aborted !== undefined, { timeout: 10_000 }).toBe(true);
    release();
  }, 60_000);
});
