/**
 * Child process for the footprint scenario; prints ONE JSON line and exits.
 *
 * `node [--import tsx] bench/footprint-probe.ts console N [DIR]` (or its bundle, bench/bundle.ts):
 * createConsole in DIR (kept, so a second start finds what the first remembered: the servers'
 * eras) or else in a fresh temp folder (removed after), N = 0: no mcp-servers.json, so the
 * embedded default, server-everything; N > 0: N copies of server-everything. Waits until every
 * server is `ready`, then reports `readyMs` (since this process started), `rssReadyMB`, and
 * `rssIdleMB` after 3 s idle and a GC when exposed. The floor is bench/footprint-floor.ts.
 * Like the hosts' entries (app/web/entry.ts), it turns on the compile cache in the data folder
 * before it loads the console, so a second start in DIR finds the first's compiled code.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { enableCompileCacheIn } from '../main/compile-cache.js';

const MB = 2 ** 20;
const settle = async (): Promise<number> => {
  await new Promise((r) => setTimeout(r, 3_000));
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / MB;
};

async function probeConsole(servers: number, keptDir: string | undefined): Promise<Record<string, number>> {
  const dir = keptDir ?? mkdtempSync(path.join(os.tmpdir(), 'mcp-console-footprint-'));
  enableCompileCacheIn(dir);
  const [{ createConsole }, { serverEverythingEntry }] = await Promise.all([import('../main/console.js'), import('../main/config.js')]);
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
    if (!keptDir) rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, n, dir] = process.argv.slice(2);
if (mode !== 'console') throw new Error(`usage: footprint-probe console N [DIR]; got ${mode}`);
const out = await probeConsole(Number(n ?? 0), dir);
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
