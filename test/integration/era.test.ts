/**
 * Protocol era per server: `protocol: "auto"` (the default) probes once and remembers the verdict,
 * so the next start skips the probe (and does not spawn a legacy stdio server twice).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConsole } from '../../main/console.js';
import { ERA_TTL_MS, openEraCache } from '../../main/mcp/era-cache.js';

describe('era cache', () => {
  it('returns a verdict only for the same target and while fresh', () => {
    const dir = mkdtempSync(join(tmpdir(), 'era-'));
    const cache = openEraCache(dir);
    cache.set('s', { era: 'legacy', target: 'node a.js', at: 1_000 });
    expect(openEraCache(dir).get('s', 'node a.js', 2_000)).toMatchObject({ era: 'legacy' });
    expect(openEraCache(dir).get('s', 'node b.js', 2_000)).toBeUndefined();
    expect(openEraCache(dir).get('s', 'node a.js', 1_000 + ERA_TTL_MS + 1)).toBeUndefined();
    cache.forget('s');
    expect(openEraCache(dir).get('s', 'node a.js', 2_000)).toBeUndefined();
  });

  it('the default server negotiates its era (legacy for server-everything), remembers it, and reconnects with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'era-console-'));
    for (let start = 0; start < 2; start++) {
      const h = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: {} });
      await h.ready;
      const state = await h.service.getState({});
      expect(state.servers[0]).toMatchObject({ id: 'everything', status: 'ready', era: 'legacy', protocolVersion: '2025-11-25' });
      await h.dispose();
    }
    const remembered = JSON.parse(readFileSync(join(dir, 'server-eras.json'), 'utf8')) as Record<string, { era: string }>;
    expect(remembered.everything?.era).toBe('legacy');
  });
});
