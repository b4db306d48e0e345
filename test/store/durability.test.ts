import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openHistoryStore } from '../../main/store/history-store.js';
import type { HistoryEntry } from '../../shared/contract/state.js';
import { fullEntry, minimalEntry, tempDir } from './fixtures/entries.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const child = join(here, 'fixtures', 'save-and-hang.ts');

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

/**
 * Runs the child: it saves `entries` and prints "saved"; the moment that line arrives (i.e. right
 * after the last `save` returned) the child is killed with SIGKILL, so no close, no checkpoint and
 * no exit handler runs. Resolves with the signal the child died of.
 */
function saveThenKill(dbPath: string, entries: HistoryEntry[]): Promise<NodeJS.Signals | null> {
  const entriesPath = join(tmp.dir, 'entries.json');
  writeFileSync(entriesPath, JSON.stringify(entries));
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, dbPath, entriesPath], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('saved\n')) proc.kill('SIGKILL');
    });
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      if (!stdout.includes('saved\n')) reject(new Error(`child exited (${code ?? signal}) before saving:\n${stderr}`));
      else resolve(signal);
    });
  });
}

it('an entry is on disk once save returns, even if the process is SIGKILLed at once', async () => {
  const dbPath = join(tmp.dir, 'history.db');
  const first = minimalEntry('req-1', 1000, 'awaiting review');
  const delivered = fullEntry('req-1', 1000);
  const other = minimalEntry('req-2', 2000);

  const signal = await saveThenKill(dbPath, [first, other, delivered]);
  expect(signal).toBe('SIGKILL');
  // The commits live in the WAL, not yet checkpointed into the main file: re-opening must recover them.
  expect(existsSync(`${dbPath}-wal`)).toBe(true);
  expect(statSync(`${dbPath}-wal`).size).toBeGreaterThan(0);

  const store = openHistoryStore(dbPath);
  try {
    expect(await store.get('req-1')).toStrictEqual(delivered);
    expect(await store.get('req-2')).toStrictEqual(other);
    expect((await store.list({ query: 'marzipan', limit: 10, offset: 0 })).entries.map((e) => e.id)).toEqual(['req-1']);
  } finally {
    await store.close();
  }
}, 60_000);
