/**
 * Child process for the footprint scenario; prints ONE JSON line and exits.
 *
 * `node [--import tsx] bench/footprint-probe.ts console N` (or its bundle, bench/bundle.ts):
 * createConsole in a fresh temp folder (N = 0: no mcp-servers.json, so the embedded default,
 * server-everything; N > 0: N copies of server-everything), waits until every server is `ready`, then reports `readyMs` (since this
 * process started), `rssReadyMB`, and `rssIdleMB` after 3 s idle and a GC when exposed.
 * `… floor`: a bare SDK client connecting to server-everything; same figures.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createConsole } from '../main/console.js';
import { serverEverythingEntry } from '../main/config.js';

const MB = 2 ** 20;
const settle = async (): Promise<number> => {
  await new Promise((r) => setTimeout(r, 3_000));
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / MB;
};

async function probeConsole(servers: number): Promise<Record<string, number>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-console-footprint-'));
  const everything = { command: 'node', args: [serverEverythingEntry(), 'stdio'] };
  if (servers > 0) writeFileSync(path.join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: Object.fromEntries(Array.from({ length: servers }, (_, i) => [`everything-${i}`, everything])) }));
  const c = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: {} });
  try {
    await c.ready;
    const state = await c.service.getState({});
    const notConnected = state.servers.filter((s) => s.status !== 'ready');
    if (state.servers.length !== Math.max(servers, 1) || notConnected.length > 0) {
      throw new Error(`expected ${Math.max(servers, 1)} connected servers; got ${JSON.stringify(state.servers.map((s) => [s.id, s.status]))}`);
    }
    const readyMs = performance.now();
    const rssReadyMB = process.memoryUsage().rss / MB;
    return { readyMs, rssReadyMB, rssIdleMB: await settle(), servers: state.servers.length };
  } finally {
    await c.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function probeFloor(): Promise<Record<string, number>> {
  const client = new Client({ name: 'bench-floor', version: '1.0.0' }, { capabilities: { sampling: {} } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverEverythingEntry(), 'stdio'], stderr: 'ignore' }));
  try {
    const readyMs = performance.now();
    const rssReadyMB = process.memoryUsage().rss / MB;
    return { readyMs, rssReadyMB, rssIdleMB: await settle(), servers: 1 };
  } finally {
    await client.close();
  }
}

const [mode, n] = process.argv.slice(2);
const out = mode === 'floor' ? await probeFloor() : await probeConsole(Number(n ?? 0));
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
