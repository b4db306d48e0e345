/**
 * `npm run start:web`, stopped the way a process manager stops it — SIGTERM to `npm` — takes the
 * wrapper, the console and every server with it (npm exits without passing the signal on; the
 * wrapper sees its parent gone and stops the console, which answers and ends its servers).
 * Slow the first time on a fresh clone: the wrapper builds the renderer and the web host bundle.
 * The bundle's entry turns on Node's compile cache in the user-data folder (main/compile-cache.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) [ZX] /.test(stat);
  } catch {
    return false;
  }
};
const portOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });

it.runIf(process.platform === 'linux')('SIGTERM to npm ends the wrapper, the console and its servers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'start-wrapper-'));
  const pidFile = join(dir, 'server.pid');
  const server = { command: process.execPath, args: [join(ROOT, 'test/fixtures/stubborn-server.mjs')], env: { PID_FILE: pidFile }, protocol: 'legacy' };
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { stubborn: server } }));
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'run', 'start:web', '--', '--port', '0']] : ['npm', ['run', 'start:web', '--', '--port', '0']];
  const child = spawn(command, args as string[], { cwd: ROOT, env: { ...process.env, MCP_CONSOLE_USER_DATA: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  try {
    const until = Date.now() + 170_000;
    while (!/is running at http:\/\/127\.0\.0\.1:(\d+)/.test(out) || !existsSync(pidFile)) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`npm start:web did not come up:\n${out}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const port = Number(/is running at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]);
    const serverPid = Number(readFileSync(pidFile, 'utf8'));
    expect(await portOpen(port)).toBe(true);
    // The bundled host compiles with the cache on: Node keeps a folder per Node version in it, owner-only.
    const cache = join(dir, 'compile-cache');
    expect(readdirSync(cache)).toEqual([expect.stringMatching(/^v\d+\./)]);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    child.kill('SIGTERM');
    const gone = Date.now() + 8000;
    while ((alive(serverPid) || (await portOpen(port))) && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    expect(await portOpen(port), 'the console still listens').toBe(false);
    expect(alive(serverPid), 'its server still runs').toBe(false);
  } finally {
    child.kill('SIGKILL');
  }
}, 200_000);
