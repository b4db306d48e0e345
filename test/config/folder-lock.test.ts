/**
 * One console per data folder: a folder another running process holds is refused with a clear
 * message; a lock whose process is gone is taken over; a console removes its lock when it stops.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConsole } from '../../main/console.js';
import { FOLDER_LOCK_FILE, lockDataFolder } from '../../main/console/folder-lock.js';
import { systemProcessProbe } from '../../main/servers/leftover-processes.js';

describe('data folder lock', () => {
  it('refuses a folder a running process holds; takes over once it is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folder-lock-'));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    await new Promise((resolve) => other.once('spawn', resolve));
    const probe = systemProcessProbe();
    const startTime = probe?.facts(other.pid!)?.startTime;
    writeFileSync(join(dir, FOLDER_LOCK_FILE), JSON.stringify({ pid: other.pid, ...(startTime && { startTime }) }));
    expect(() => lockDataFolder(dir, probe)).toThrow(/already running on .* \(process \d+\)/);
    other.kill();
    await new Promise((resolve) => other.once('exit', resolve));
    const lock = lockDataFolder(dir, probe);
    expect(JSON.parse(readFileSync(join(dir, FOLDER_LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(join(dir, FOLDER_LOCK_FILE))).toBe(false);
  });

  it('a console holds its folder while it runs and lets go when it stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folder-lock-console-'));
    writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: {} }));
    const handle = await createConsole({ userDataDir: dir, host: 'test', offloadWorker: null });
    expect(JSON.parse(readFileSync(join(dir, FOLDER_LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await handle.dispose();
    expect(existsSync(join(dir, FOLDER_LOCK_FILE))).toBe(false);
  });
});
