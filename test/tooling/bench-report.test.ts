/**
 * The performance page is rendered from a bench run (`npm run bench -- --report FILE`, or
 * `--from-json FILE --report FILE` for a saved run): one table of figures with goal, verdict and
 * the floor or peer of the same run, and the run's machine, load and date.
 */
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../bench/args.js';
import type { BenchRun } from '../../bench/figures.js';
import { renderReport } from '../../bench/report.js';

const run: BenchRun = {
  machine: { node: 'v22.23.3', platform: 'linux 6.1 x64', cpu: 'AMD EPYC', cores: 2, memoryGB: 24 },
  at: '2026-11-27T16:40:12.345Z',
  results: [
    {
      scenario: 'latency',
      description: 'added latency per request',
      durationMs: 61_000,
      load: [1.24, 3.5],
      figures: [
        { id: 'p1.floor_p50_ms', name: 'floor p50', value: 1.774, unit: 'ms', note: 'n=1000' },
        { id: 'p1.added_p50_ms', name: 'added p50', value: 1.71, unit: 'ms', target: { op: '<=', value: 1 }, peer: 'p1.floor_p50_ms' },
        { id: 'p1.window_bytes_per_request', name: 'state | events', value: 2600, unit: 'B' },
        { id: 'p1.cpu_ms_per_request', name: 'console CPU', value: 0.5, unit: 'ms', target: { op: '<=', value: 1 }, peer: 'p1.floor_cpu_ms_per_request' },
      ],
    },
    { scenario: 'history', description: 'search', durationMs: 5_000, figures: [], error: 'history holds 3 entries', load: [2, 2.2] },
  ],
};

const rowOf = (page: string, id: string) => page.split('\n').find((l) => l.startsWith(`| \`${id}\``));

describe('the performance page', () => {
  const page = renderReport(run);

  it('names the machine, the load range over the run and the date, and how to regenerate it', () => {
    expect(page).toContain('- Date: 2026-11-27 16:40 UTC');
    expect(page).toContain('- Machine: AMD EPYC, 2 cores, 24 GB; linux 6.1 x64; Node v22.23.3');
    expect(page).toContain('- Load average (1 minute) during the run: 1.2–3.5');
    expect(page).toContain('npm run bench -- --report docs/performance.md');
    expect(page).toContain('--from-json run.json --report docs/performance.md');
  });

  it('gives each figure its goal, its verdict and the value of its floor from the same run', () => {
    expect(rowOf(page, 'p1.added_p50_ms')).toBe('| `p1.added_p50_ms` | added p50 | 1.71 ms | ≤ 1 ms | 1.77 ms (`p1.floor_p50_ms`) | MISSED |');
    expect(rowOf(page, 'p1.floor_p50_ms')).toBe('| `p1.floor_p50_ms` | floor p50 (n=1000) | 1.77 ms | | | |');
    expect(rowOf(page, 'p1.cpu_ms_per_request')).toContain('| ≤ 1 ms | — (`p1.floor_cpu_ms_per_request` not in the run) | ok |');
  });

  it('keeps the table whole: pipes in a name are escaped, a failed scenario is a row', () => {
    expect(rowOf(page, 'p1.window_bytes_per_request')).toBe('| `p1.window_bytes_per_request` | state \\| events | 2,600 B | | | |');
    expect(page).toContain('| history | FAILED: history holds 3 entries | | | | ✗ |');
  });

  it('says so when a run recorded no load', () => {
    const old = renderReport({ ...run, results: run.results.map(({ load: _load, ...r }) => r) });
    expect(old).toContain('during the run: not recorded');
  });
});

describe('the bench command line', () => {
  it('takes --only, --json and --report, and --from-json with --report', () => {
    expect(parseBenchArgs(['--only', 'latency,renderer', '--json', 'a.json', '--report', 'p.md'])).toEqual({ only: ['latency', 'renderer'], json: 'a.json', report: 'p.md', help: false });
    expect(parseBenchArgs(['--from-json', 'a.json', '--report', 'p.md'])).toEqual({ fromJson: 'a.json', report: 'p.md', help: false });
    expect(parseBenchArgs(['-h']).help).toBe(true);
  });

  it('refuses an unknown option, a missing value, a positional, and --from-json with a run option', () => {
    expect(() => parseBenchArgs(['--bogus'])).toThrow(/Unknown option '--bogus'/);
    expect(() => parseBenchArgs(['--json'])).toThrow(/argument missing/);
    expect(() => parseBenchArgs(['latency'])).toThrow(/positional/);
    expect(() => parseBenchArgs(['--from-json', 'a.json', '--only', 'latency'])).toThrow(/takes only --report/);
  });
});
