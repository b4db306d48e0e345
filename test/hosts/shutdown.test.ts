/**
 * SIGTERM and SIGINT to the web host: every request a server is waiting on gets an answer (a
 * clear error) before its connection closes, every server is ended — one that ignores its stdin
 * closing too — and the console exits at once (well before its 2 s forced exit); also when
 * whoever read its output is gone.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ConsoleApi } from '../../shared/contract/api.js';
import { createWsClient } from '../../renderer/api/ws-client.js';
import { alive, waitFor } from '../support/processes.js';
import { makeStaticDir } from './helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/** A web host console on a fresh data folder with one stdio server, the stubborn fixture (its pid in PID_FILE), running. */
async function startConsoleWithStubbornServer(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
  const { staticDir, cleanup } = makeStaticDir();
  const pidFile = join(dir, 'server.pid');
  const server = { command: process.execPath, args: [join(ROOT, 'test/fixtures/stubborn-server.mjs')], env: { PID_FILE: pidFile, ...env }, protocol: 'legacy' };
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { stubborn: server } }));
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'app/web/cli.ts'), '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, MCP_CONSOLE_USER_DATA: dir, MCP_CONSOLE_STATIC_DIR: staticDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const output = { text: '' };
  child.stdout.on('data', (d: Buffer) => (output.text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output.text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await waitFor('the console running', () => output.text.includes('is running at'));
  await waitFor('the server started', () => existsSync(pidFile) && existsSync(join(dir, 'server-processes.json')));
  const serverPid = Number(readFileSync(pidFile, 'utf8'));
  const close = () => {
    child.kill('SIGKILL');
    cleanup();
  };
  return { dir, child, output, exited, serverPid, close };
}

describe.each(['SIGTERM', 'SIGINT'] as const)('%s to the console', (signal) => {
  it('answers the pending request, ends every server and exits promptly', async () => {
    const replyFile = join(mkdtempSync(join(tmpdir(), 'shutdown-reply-')), 'reply.json');
    const { child: consoleProcess, output, exited, serverPid, close } = await startConsoleWithStubbornServer({ REPLY_FILE: replyFile });
    try {
      const page = new URL(/is running at (\S+)/.exec(output.text)![1]!);
      const client = createWsClient({
        url: `ws://${page.host}/api?token=${encodeURIComponent(page.searchParams.get('token') ?? '')}`,
        createSocket: (u) => new WebSocket(u, { origin: page.origin }) as never,
      });
      const api: ConsoleApi = client.api;
      for (let i = 0; ; i++) {
        const s = await api.getState({});
        if (s.servers[0]?.status === 'ready') break;
        if (i > 200) throw new Error('the server never got ready');
        await new Promise((r) => setTimeout(r, 50));
      }
      await api.callTool({ serverId: 'stubborn', name: 'ask', arguments: {} });
      for (let i = 0; (await api.getState({})).items.length === 0; i++) {
        if (i > 200) throw new Error('the question never reached the queue');
        await new Promise((r) => setTimeout(r, 50));
      }
      client.close();
      expect(existsSync(replyFile), 'no answer before the shutdown').toBe(false);
      const sent = Date.now();
      consoleProcess.kill(signal);
      const code = await exited;
      const took = Date.now() - sent;
      expect(code, output.text).toBe(0);
      expect(took, 'exited before its forced exit').toBeLessThan(2000);
      const reply = JSON.parse(readFileSync(replyFile, 'utf8')) as { error?: { message: string } };
      expect(reply.error?.message).toMatch(/shutting down/);
      await waitFor('the server ended', () => !alive(serverPid), 3000);
    } finally {
      close();
    }
  }, 60_000);
});

describe('SIGTERM to a console whose output pipes are closed', () => {
  it('still shuts down: the folder lock and the process list are cleared and the server is ended', async () => {
    const { dir, child: consoleProcess, exited, serverPid, close } = await startConsoleWithStubbornServer();
    try {
      // The host that read the console's output is gone: both pipes' read ends close.
      consoleProcess.stdout.destroy();
      consoleProcess.stderr.destroy();
      await new Promise((r) => setTimeout(r, 100));
      consoleProcess.kill('SIGTERM');
      expect(await exited, 'exit code after SIGTERM').toBe(0);
      expect(existsSync(join(dir, 'console.lock')), 'console.lock removed').toBe(false);
      const listed = existsSync(join(dir, 'server-processes.json')) ? readFileSync(join(dir, 'server-processes.json'), 'utf8') : '';
      expect(listed, 'the server no longer listed as left running').not.toContain(String(serverPid));
      await waitFor('the server ended', () => !alive(serverPid), 3000);
    } finally {
      close();
    }
  }, 60_000);
});
