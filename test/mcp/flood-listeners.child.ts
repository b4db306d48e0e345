/**
 * Child process of flood-listeners.test.ts: a console with the flood fixture; prints one JSON line
 * `{recorded, warnings}` (requests recorded in history, process warnings seen) and exits.
 * Usage: `node --import tsx test/mcp/flood-listeners.child.ts`
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConsole } from '../../main/console.js';

const warnings: string[] = [];
process.on('warning', (w) => warnings.push(`${w.name}: ${w.message.slice(0, 200)}`));
const dir = mkdtempSync(join(tmpdir(), 'flood-'));
const script = new URL('../fixtures/flood-server.mjs', import.meta.url).pathname;
writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { flood: { command: process.execPath, args: [script], protocol: 'legacy' } } }));
const h = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: {} });
await h.ready;
let recorded = 0;
for (let i = 0; i < 300 && recorded < 3000; i++) {
  await new Promise((r) => setTimeout(r, 100));
  recorded = (await h.service.listHistory({ limit: 1, offset: 0 })).total;
}
await new Promise((r) => setTimeout(r, 300));
await h.dispose();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ recorded, warnings })}\n`);
process.exit(0);
