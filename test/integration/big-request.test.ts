/**
 * A 24 MB sampling request (near the 25 MB cap, S-SIZE-1) is parsed, scanned and written to
 * history on the offload worker: while it is processed, another server's request is queued,
 * reviewed and answered. The worker here holds the big request's scan until the test releases it,
 * so "while" is a fact, not a race.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsole, type ConsoleHandle } from '../../main/console.js';
import { queueServerConfig } from '../../bench/fixtures/queue-server.js';
import { wholeState } from '../support/console-harness.js';

const MB = 1 << 20;
let dir: string;
let held: string;
let h: ConsoleHandle;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'big-request-'));
  held = path.join(dir, 'held');
  writeFileSync(path.join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { big: queueServerConfig(), small: queueServerConfig() } }));
  process.env.HELD_OFFLOAD_DIR = held;
  const { mkdirSync } = await import('node:fs');
  mkdirSync(held);
  h = await createConsole({
    host: 'test',
    userDataDir: dir,
    nodeRuntime: { command: process.execPath },
    env: {},
    offloadWorker: { url: new URL('../fixtures/held-offload-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'] },
  });
  await h.ready;
}, 60_000);

afterAll(async () => {
  writeFileSync(path.join(held, 'release'), '');
  await h?.dispose();
  delete process.env.HELD_OFFLOAD_DIR;
  rmSync(dir, { recursive: true, force: true });
});

describe('a 24 MB request does not hold up other servers', () => {
  it("another server's request is reviewed and answered while the big one is processed; then the big one is reviewed, its text kept whole", async () => {
    const bigCall = await h.service.callTool({ serverId: 'big', name: 'big', arguments: { textBytes: 24 * MB, imageBytes: 50_000 } });
    // The big request arrived and was parsed (off the event loop); its scan is held on the worker.
    await waitFor('the big request at the scan', () => existsSync(path.join(held, 'started')));

    const smallCall = await h.service.callTool({ serverId: 'small', name: 'flood', arguments: { count: 1 } });
    const small = await waitFor('the small request in the queue', async () => (await wholeState(h)).items.find((i) => i.serverId === 'small' && i.status === 'awaiting_request_review'));
    expect((await wholeState(h)).items.some((i) => i.serverId === 'big')).toBe(false);
    await h.service.rejectRequest({ itemId: small.id, version: small.contentVersion! });
    const smallDone = await waitFor('the small server to get its answer', async () => (await wholeState(h)).calls.find((c) => c.id === smallCall.callId && c.status !== 'running'));
    expect(JSON.stringify(smallDone.result)).toContain('\\"-1\\":1'); // "User rejected sampling request"
    expect((await wholeState(h)).items.some((i) => i.serverId === 'big')).toBe(false); // still being processed

    writeFileSync(path.join(held, 'release'), '');
    // In the queue, and its version computed (a request this big is hashed in slices after it is queued).
    const big = await waitFor('the big request in the queue', async () => (await wholeState(h)).items.find((i) => i.serverId === 'big' && i.status === 'awaiting_request_review' && i.contentVersion !== undefined));
    const text = (big.original.messages[0]!.content as Array<{ type: string; text?: string }>)[0]!.text!;
    expect(text.length).toBe(24 * MB);
    await h.service.rejectRequest({ itemId: big.id, version: big.contentVersion! });
    await waitFor('the big call to end', async () => (await wholeState(h)).calls.find((c) => c.id === bigCall.callId && c.status !== 'running'));

    // History keeps the whole text, written once to a file beside the database, not into the row.
    const page = await h.service.listHistory({ limit: 10, offset: 0, serverId: 'big' });
    expect(page.entries[0]!.status).toBe('rejected');
    const entry = (await h.service.getHistoryEntry({ id: page.entries[0]!.id }))!;
    const kept = (entry.original as { messages: Array<{ content: Array<{ text?: string }> }> }).messages[0]!.content[0]!.text!;
    expect(kept.length).toBe(24 * MB);
    expect(kept === text).toBe(true);
    expect(readdirSync(path.join(dir, 'history-texts')).filter((f) => f.endsWith('.txt'))).toHaveLength(1);
  }, 120_000);
});
