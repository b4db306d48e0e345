/**
 * Floor child process for the footprint scenario; prints ONE JSON line and exits.
 *
 * `node bench/footprint-floor.ts` (or its bundle, bench/bundle.ts): a bare SDK client — the MCP
 * client package and nothing of the console — connecting to server-everything over stdio with the
 * plain `initialize` handshake; reports `readyMs` (since this process started), `rssReadyMB`, and
 * `rssIdleMB` after 3 s idle and a GC when exposed. Kept apart from bench/footprint-probe.ts so
 * the floor does not load the console's modules.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const MB = 2 ** 20;
const require = createRequire(import.meta.url);
const entry = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

const client = new Client({ name: 'bench-floor', version: '1.0.0' }, { capabilities: { sampling: {} } });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, 'stdio'], stderr: 'ignore' }));
const readyMs = performance.now();
const rssReadyMB = process.memoryUsage().rss / MB;
await new Promise((r) => setTimeout(r, 3_000));
(globalThis as { gc?: () => void }).gc?.();
const rssIdleMB = process.memoryUsage().rss / MB;
await client.close();
process.stdout.write(`${JSON.stringify({ readyMs, rssReadyMB, rssIdleMB, servers: 1 })}\n`);
process.exit(0);
