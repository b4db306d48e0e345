/**
 * Right after `npm install` nothing is built: an agent host's bridge is the first thing to run,
 * and the console it starts headless must queue the server's first sampling request — not refuse
 * it for want of a built renderer. Run on a copy of the sources with no `out/` (the dependencies
 * linked), through the package's own `mcp-approval-console` script; then the command line finds
 * that console (`status`, `open --print`) and stops it (`stop`).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { serverEverythingEntry } from '../../main/config.js';
import { HOST_INFO, ROOT, tempUserData, textOf } from './support.js';

/** A copy of the installation's sources, without `out/`, its node_modules a link to this one's. */
function freshInstall(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-fresh-install-'));
  for (const part of ['app', 'main', 'shared', 'renderer', 'scripts']) cpSync(path.join(ROOT, part), path.join(root, part), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.node.json', 'tsconfig.renderer.json', 'tsconfig.shared.json']) cpSync(path.join(ROOT, file), path.join(root, file));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return root;
}

/** Runs the installation's `mcp-approval-console` with `args` on `dir`: exit code and output. */
function command(install: string, dir: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(install, 'scripts/mcp-approval-console.mjs'), ...args], { env: { ...process.env, MCP_CONSOLE_USER_DATA: dir }, timeout: 60_000 }, (err, out, errText) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out, err: errText }),
    );
  });
}

describe.runIf(process.platform !== 'win32')('the first run after npm install', () => {
  const install = freshInstall();
  afterAll(() => rmSync(install, { recursive: true, force: true }));

  it("queues the bridged server's first sampling request while the renderer is built; status, open and stop find that console", async () => {
    const dir = tempUserData({});
    expect(existsSync(path.join(install, 'out'))).toBe(false);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(install, 'scripts/mcp-approval-console.mjs'), 'bridge', '--', process.execPath, serverEverythingEntry(), 'stdio'],
      env: { ...(process.env as Record<string, string>), MCP_CONSOLE_USER_DATA: dir, MCP_CONSOLE_BRIDGE_NO_LAUNCH: '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
    const client = new Client(HOST_INFO, { capabilities: {} });
    await client.connect(transport);
    try {
      let settled = false;
      const call = client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'the very first', maxTokens: 8 } }, { timeout: 170_000 }).finally(() => (settled = true));

      // The console runs and holds the request; the page comes once the renderer is built.
      let status: { running: boolean; waiting: number; address?: string; servers: Array<{ id: string }> } | undefined;
      await expect
        .poll(
          async () => {
            const r = await command(install, dir, 'status', '--json');
            status = r.code === 0 ? JSON.parse(r.out) : undefined;
            return status?.waiting === 1 && status.address !== undefined;
          },
          { timeout: 150_000, interval: 1000 },
        )
        .toBe(true);
      expect(settled, `the request was answered instead of queued: ${stderr}`).toBe(false);
      expect(status!.servers.map((s) => s.id)).toContain('server-everything');
      expect(existsSync(path.join(install, 'out/renderer/index.html'))).toBe(true);
      const opened = await command(install, dir, 'open', '--print');
      expect(opened).toMatchObject({ code: 0, out: `${status!.address}\n` });
      expect((await fetch(status!.address!)).status).toBe(200);

      // `stop` ends it as SIGTERM would: the request under review is answered with a clear error.
      expect(await command(install, dir, 'stop')).toMatchObject({ code: 0, out: expect.stringMatching(/^Stopped MCP Approval Console \(pid \d+\)/) });
      expect(textOf(await call)).toMatch(/shutting down|stopped/i);
      expect(await command(install, dir, 'status')).toMatchObject({ code: 3, out: expect.stringContaining('is not running') });
    } finally {
      await command(install, dir, 'stop');
      await client.close();
    }
  }, 240_000);
});
