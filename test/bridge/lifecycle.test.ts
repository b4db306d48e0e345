/**
 * The bridge when the console is not there: it tries to start it headless, and when that fails
 * answers sampling with a clear JSON-RPC error while everything else keeps working; a console
 * that stops while a request is under review ends it with a clear error, and a console started
 * again is found for the next request.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HEADLESS_LOG_FILE } from '../../main/bridge/launch.js';
import { serverEverythingEntry } from '../../main/config.js';
import { startHarness, type Harness } from '../support/console-harness.js';
import { connectHost, newItem, tempUserData, textOf, type FakeHost } from './support.js';

const everything = ['--', process.execPath, serverEverythingEntry(), 'stdio'];

describe('bridge without a console', () => {
  let host: FakeHost | undefined;
  let h: Harness | undefined;
  afterEach(async () => {
    await host?.close();
    await h?.dispose();
    host = undefined;
    h = undefined;
  });

  it('cannot start it: sampling is answered "MCP Approval Console is not running: …", tools/list still works', async () => {
    const dir = tempUserData();
    // A renderer elsewhere (MCP_CONSOLE_STATIC_DIR) is never built: missing, the headless web host cannot start — a real failed start.
    host = await connectHost({ dir, bridgeArgs: everything, env: { MCP_CONSOLE_BRIDGE_NO_LAUNCH: '', MCP_CONSOLE_STATIC_DIR: `${dir}/no-renderer` } });
    const tools = await host.client.listTools();
    expect(tools.tools.some((t) => t.name === 'trigger-sampling-request')).toBe(true);
    const result = await host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'anyone?', maxTokens: 8 } });
    expect(textOf(result)).toMatch(/MCP Approval Console is not running: .*renderer is not built/);
    expect(textOf(await host.client.callTool({ name: 'echo', arguments: { message: 'still proxying' } }))).toContain('still proxying');
  }, 90_000);

  it('a console restart while a request is under review ends it with a clear error; the restarted console gets the next one', async () => {
    const dir = tempUserData();
    h = await startHarness({ dir });
    host = await connectHost({ dir, bridgeArgs: ['--name', 'everything', ...everything] });
    const call = host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'under review', maxTokens: 8 } });
    await newItem(h, 'everything');
    await h.dispose();
    h = undefined;
    expect(textOf(await call)).toMatch(/shutting down|stopped/i);
    h = await startHarness({ dir });
    const again = host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'after restart', maxTokens: 8 } });
    const item = await newItem(h, 'everything');
    await h.service.rejectRequest({ itemId: item.id, version: item.contentVersion! });
    await again;
  }, 90_000);
});

describe('bridge starts the console headless', () => {
  it('when none runs: the web host is started and answers the channel; sampling waits in its queue', async () => {
    const dir = tempUserData({});
    const staticDir = path.join(dir, 'renderer');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>test</title>');
    const host = await connectHost({ dir, bridgeArgs: everything, env: { MCP_CONSOLE_BRIDGE_NO_LAUNCH: '', MCP_CONSOLE_STATIC_DIR: staticDir } });
    let pid: number | undefined;
    try {
      await expect.poll(() => /"pid":(\d+)/.exec(host.stderr())?.[1], { timeout: 60_000, interval: 200 }).toBeDefined();
      pid = Number(/"pid":(\d+)/.exec(host.stderr())![1]);
      await expect.poll(() => readFileSync(path.join(dir, HEADLESS_LOG_FILE), 'utf8'), { timeout: 20_000 }).toContain('MCP Approval Console is running at');
      let settled = false;
      const call = host.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'queued headless', maxTokens: 8 } }).finally(() => (settled = true));
      await new Promise((r) => setTimeout(r, 1500));
      expect(settled).toBe(false); // waiting on a person in the headless console
      process.kill(pid, 'SIGTERM'); // the console stops: the request ends with a clear error
      pid = undefined;
      expect(textOf(await call)).toMatch(/shutting down|stopped/i);
    } finally {
      if (pid) process.kill(pid, 'SIGTERM');
      await host.close();
    }
  }, 120_000);
});
