import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { duplicateIds, formatTable, type ScenarioResult } from '../../bench/figures.js';

const dir = new URL('../../bench/scenarios/', import.meta.url);
/** Every literal figure id in the scenario sources (template ids contribute their fixed prefix). */
function declaredIds(): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(new URL(f, dir), 'utf8').matchAll(/\bid: ['`]([\w.${}]+)['`]/g)].map((m) => m[1]!));
}

describe('bench figure ids', () => {
  it('name the figures runs are compared by, each once', () => {
    const ids = declaredIds();
    for (const id of ['p1.cpu_ms_per_request', 'p1.added_p50_ms', 'p1.added_p99_ms', 'p2.requests_per_s', 'p3.queue_interactive_ms_1001', 'p3.state_bytes_1001', 'p3.big_review_open_ms', 'p3.keystroke_p50_ms', 'p4.search_p95_ms_100k', 'team.search_p95_ms_1m', 'p5.start_overhead_ms', 'p5.rss_mb_10_servers', 'redaction.scan_ms_1mb', 'redaction.scan_ms_25mb', 'loop.max_block_ms_25mb'])
      expect(ids).toContain(id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('a figure read against a floor or peer names a figure the scenarios declare', () => {
    const ids = declaredIds();
    const peers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(new URL(f, dir), 'utf8').matchAll(/\bpeer: '([\w.]+)'/g)].map((m) => m[1]!));
    expect(peers.length).toBeGreaterThan(10);
    expect(peers.filter((p) => !ids.includes(p))).toEqual([]);
  });

  it('a run with an id used twice is caught, and the table leads with the ids', () => {
    const fig = (id: string) => ({ id, name: id, value: 1, unit: 'ms' });
    const results: ScenarioResult[] = [
      { scenario: 'a', description: '', durationMs: 1, figures: [fig('x.one_ms'), fig('x.two_ms')] },
      { scenario: 'b', description: '', durationMs: 1, figures: [fig('x.two_ms')] },
    ];
    expect(duplicateIds(results)).toEqual(['x.two_ms']);
    expect(duplicateIds(results.slice(0, 1))).toEqual([]);
    expect(formatTable(results).split('\n')[2]).toMatch(/^x\.one_ms\s/);
  });
});
