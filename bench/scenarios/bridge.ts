/**
 * Latency the bridge adds to what it only passes through: N sequential `tools/call echo` to
 * server-everything over stdio from an SDK client, directly and through
 * `mcp-approval-console bridge -- …` (from sources; the built bundle runs the same code), each
 * timed at the client. Goal: ≤ +1 ms p50.
 * Sanity: every call answered with its own text.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serverEverythingEntry } from '../../main/config.js';
import { percentile, type Figure, type Scenario } from '../figures.js';
import { loadNote } from '../sampling-rig.js';

const N = Number(process.env.BENCH_BRIDGE_N ?? 500);
const WARMUP = 50;
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Connects a client to `command args`, times N echo calls after a warm-up, and closes. */
async function timeEchoes(command: string, args: string[], env?: Record<string, string>): Promise<number[]> {
  const transport = new StdioClientTransport({ command, args, cwd: ROOT, stderr: 'ignore', ...(env && { env: { ...(process.env as Record<string, string>), ...env } }) });
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await client.connect(transport);
  try {
    const echo = async (i: number) => {
      const t0 = performance.now();
      const r = await client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
      const ms = performance.now() - t0;
      const text = (r.content as Array<{ text?: string }>)[0]?.text ?? '';
      if (!text.includes(`m${i}`)) throw new Error(`echo ${i} answered ${JSON.stringify(text).slice(0, 200)}`);
      return ms;
    };
    for (let i = 0; i < WARMUP; i++) await echo(i);
    const samples: number[] = [];
    for (let i = 0; i < N; i++) samples.push(await echo(i));
    return samples;
  } finally {
    await client.close();
  }
}

const scenario: Scenario = {
  name: 'bridge',
  description: `latency the bridge adds to a passed-through tools/call, ${N} sequential echo calls to server-everything over stdio, direct vs bridged`,
  async run() {
    const server = [serverEverythingEntry(), 'stdio'];
    const direct = await timeEchoes(process.execPath, server);
    const dir = mkdtempSync(path.join(tmpdir(), 'mcp-bench-bridge-'));
    const bridged = await timeEchoes(process.execPath, ['--import', 'tsx', path.join(ROOT, 'app/bridge/cli.ts'), 'bridge', '--', process.execPath, ...server], {
      MCP_CONSOLE_USER_DATA: dir,
      MCP_CONSOLE_BRIDGE_NO_LAUNCH: '1',
    });
    const d50 = percentile(direct, 50);
    const b50 = percentile(bridged, 50);
    const d99 = percentile(direct, 99);
    const b99 = percentile(bridged, 99);
    const figures: Figure[] = [
      { id: 'bridge.direct_p50_ms', name: 'direct tools/call p50', value: d50, unit: 'ms', note: `SDK client → server-everything, n=${N}` },
      { id: 'bridge.bridged_p50_ms', name: 'bridged tools/call p50', value: b50, unit: 'ms', peer: 'bridge.direct_p50_ms', note: 'SDK client → bridge → server-everything' },
      { id: 'bridge.added_p50_ms', name: 'bridge added p50', value: b50 - d50, unit: 'ms', peer: 'bridge.direct_p50_ms', target: { op: '<=', value: 1 } },
      { id: 'bridge.added_p99_ms', name: 'bridge added p99', value: b99 - d99, unit: 'ms', note: loadNote() },
    ];
    return figures;
  },
};

export default scenario;
