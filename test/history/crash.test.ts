/**
 * Crash test: a real console core in a child process receives a sampling request from
 * server-everything, the person approves it, the loopback LLM generates a response, and the
 * process is SIGKILLed while the response awaits review (after "generated", before "delivered").
 * A console started again on the same folder must show that request as `interrupted`, with what
 * was asked, sent and generated intact, nothing delivered, and a database that passes SQLite's
 * integrity and foreign-key checks.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { afterEach, expect, it } from 'vitest';
import { createConsole, HISTORY_FILE } from '../../main/console.js';
import { INTERRUPTED_DETAIL } from '../../main/store/history-store.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the child until it reports the generated response, then SIGKILLs it. Resolves with the item id. */
function runUntilGeneratedThenKill(userDataDir: string): Promise<{ itemId: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(here, 'fixtures', 'crash-child.ts'), userDataDir], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let itemId = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line && !itemId) {
        itemId = (JSON.parse(line) as { itemId: string }).itemId;
        proc.kill('SIGKILL');
      }
    });
    proc.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => (itemId ? resolve({ itemId, signal }) : reject(new Error(`child exited (${code ?? signal}) before the response was generated:\n${err}`))));
  });
}

it('a request killed between "generated" and "delivered" is shown as interrupted after restart, its record consistent', async () => {
  dir = mkdtempSync(join(tmpdir(), 'history-crash-'));
  const { itemId, signal } = await runUntilGeneratedThenKill(dir);
  expect(signal).toBe('SIGKILL');

  // Restart on the same folder (no servers this time: only history matters).
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
  const before = Date.now();
  const restarted = await createConsole({ host: 'test', userDataDir: dir, env: {} });
  try {
    const entry = await restarted.service.getHistoryEntry({ id: itemId });
    expect(entry).not.toBeNull();
    expect(entry!.status).toBe('interrupted');
    expect(entry!.endedAt).toBeGreaterThanOrEqual(before);
    expect(entry!.events.at(-1)).toMatchObject({ kind: 'interrupted', detail: INTERRUPTED_DETAIL });
    expect(JSON.stringify(entry!.original)).toContain('Tell me about quokkas');
    expect(entry!.sent).toBeDefined();
    expect(entry!.generated?.content).toMatchObject({ type: 'text', text: 'Quokkas are small marsupials from Rottnest Island.' });
    expect(entry!.delivered).toBeUndefined();
    const page = await restarted.service.listHistory({ status: ['interrupted'], limit: 10, offset: 0 });
    expect(page.entries.map((e) => e.id)).toEqual([itemId]);
    expect((await restarted.service.listHistory({ query: 'Rottnest', limit: 10, offset: 0 })).total).toBe(1);
  } finally {
    await restarted.dispose();
  }

  const db = new Database(join(dir, HISTORY_FILE));
  try {
    expect(db.prepare('PRAGMA integrity_check').raw().get()).toEqual(['ok']);
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    expect(db.prepare(`SELECT count(*) FROM history WHERE status NOT IN ('delivered', 'rejected', 'failed', 'cancelled', 'timed_out', 'interrupted')`).raw().get()).toEqual([0]);
  } finally {
    db.close();
  }
}, 90_000);
