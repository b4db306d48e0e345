/**
 * Start and footprint (issue 8, scenario 4): each figure comes from a fresh child process
 * (bench/footprint-probe.ts, run with `node --expose-gc --import tsx` like `npm run start:web`):
 * cold start of the headless console until the default server (server-everything) is ready, and
 * main-process RSS idle with that one server and with 10 servers connected. Floor: a bare SDK
 * client connecting to server-everything in the same kind of process. Goals: ≤ 1.5 s; ≤ 200 MB.
 * Sanity: the probe throws unless every server reached `ready`.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Figure, Scenario } from '../figures.js';
import { loadNote } from '../sampling-rig.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

interface Probe {
  readyMs: number;
  rssReadyMB: number;
  rssIdleMB: number;
  servers: number;
}

/** Runs the probe in a new process and parses its line. @throws Error when it fails */
async function probe(...args: string[]): Promise<Probe> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(ROOT, 'bench/footprint-probe.ts'), ...args], { cwd: ROOT, timeout: 120_000 });
  const line = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as Probe;
}

const scenario: Scenario = {
  name: 'footprint',
  description: 'cold start until the default server is ready; main-process RSS with 1 and 10 servers; vs a bare SDK client',
  async run() {
    const floor = await probe('floor');
    const one = await probe('console', '0');
    const ten = await probe('console', '10');
    if (ten.servers !== 10) throw new Error(`the 10-server probe connected ${ten.servers}`);
    const figures: Figure[] = [
      { name: 'floor cold start', value: floor.readyMs, unit: 'ms', note: 'bare SDK client + server-everything, tsx loader' },
      { name: 'console cold start', value: one.readyMs, unit: 'ms', target: { op: '<=', value: 1_500 }, note: `${(one.readyMs - floor.readyMs).toFixed(0)} ms over the floor, ${loadNote()}` },
      { name: 'floor RSS idle', value: floor.rssIdleMB, unit: 'MB' },
      { name: 'console RSS idle, 1 server', value: one.rssIdleMB, unit: 'MB', target: { op: '<=', value: 200 }, note: `${(one.rssIdleMB - floor.rssIdleMB).toFixed(0)} MB vs the floor` },
      { name: 'console RSS idle, 10 servers', value: ten.rssIdleMB, unit: 'MB', target: { op: '<=', value: 200 }, note: `ready in ${ten.readyMs.toFixed(0)} ms` },
    ];
    return figures;
  },
};

export default scenario;
