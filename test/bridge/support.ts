/**
 * Helpers for the bridge tests: a fake agent host (an SDK v2 Client over stdio that spawns the
 * bridge CLI from sources), an in-process console in a temp user-data folder for it to reach, and
 * waits on the console's queue.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ElicitationItemView, SamplingItemView } from '../../shared/contract/state.js';
import type { Harness, WholeState } from '../support/console-harness.js';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The bridge CLI from sources. */
export const BRIDGE_CLI = path.join(ROOT, 'app/bridge/cli.ts');
/** The fake host's clientInfo. */
export const HOST_INFO = { name: 'fake-host', version: '9.9.9' };

/** A temp user-data folder with `servers` as its mcp-servers.json (when given). */
export function tempUserData(servers?: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-bridge-test-'));
  if (servers) writeFileSync(path.join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: servers }));
  return dir;
}

/** A fake host connected to the bridge, and the bridge's stderr so far. */
export interface FakeHost {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  close(): Promise<void>;
}

/**
 * Starts the bridge with `bridgeArgs` (after `bridge`) on `dir` and connects a host Client that
 * declares `capabilities`; `setup` registers the host's handlers before connecting.
 */
export async function connectHost(opts: {
  dir: string;
  bridgeArgs: string[];
  capabilities?: Record<string, unknown>;
  env?: Record<string, string>;
  clientOptions?: Record<string, unknown>;
  setup?(client: Client): void;
}): Promise<FakeHost> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', BRIDGE_CLI, 'bridge', ...opts.bridgeArgs],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), MCP_CONSOLE_USER_DATA: opts.dir, MCP_CONSOLE_BRIDGE_NO_LAUNCH: '1', ...opts.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  const client = new Client(HOST_INFO, { capabilities: opts.capabilities ?? {}, ...opts.clientOptions });
  opts.setup?.(client);
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`the host could not connect through the bridge: ${String(err)}\nbridge stderr:\n${stderr}`, { cause: err });
  }
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

/** Waits for a queue item of `serverId` that was not in `seen`. */
export async function newItem(h: Harness, serverId: string, seen: Set<string> = new Set(), timeoutMs?: number): Promise<SamplingItemView> {
  const pick = (s: WholeState) => s.items.find((i) => i.serverId === serverId && !seen.has(i.id));
  return pick(await h.waitFor((s) => !!pick(s), `a sampling request of ${serverId} in the queue`, timeoutMs))!;
}

/** Waits for an elicitation of `serverId` awaiting input. */
export async function newElicitation(h: Harness, serverId: string, timeoutMs?: number): Promise<ElicitationItemView> {
  const pick = (s: WholeState) => s.elicitations.find((i) => i.serverId === serverId && i.status === 'awaiting_input');
  return pick(await h.waitFor((s) => !!pick(s), `an elicitation of ${serverId} in the queue`, timeoutMs))!;
}

/** The text of a tools/call result's content blocks, joined. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((b) => b.text ?? '').join('\n');
}
