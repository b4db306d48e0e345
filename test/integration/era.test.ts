/**
 * Protocol era per server. `protocol: "auto"` (the default) prefers 2025-11-25: a server that also
 * speaks 2026-07-28 is connected on 2025-11-25 (where push-style tools can ask), a server that
 * refuses 2025-11-25 on 2026-07-28. The verdict is remembered (`server-eras.json`) so the next start
 * goes straight to the server's era; verdicts made under the first `auto` (which took 2026-07-28
 * whenever a server offered it) are cleared.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsole } from '../../main/console.js';
import { createServerConnection, type ServerConnection } from '../../main/mcp/connection.js';
import { ERA_CACHE_FILE, ERA_RULE, ERA_TTL_MS, openEraCache, type EraCache } from '../../main/mcp/era-cache.js';
import { silentLogger } from '../../main/ports.js';
import { createServerRequestRouter } from '../../main/requests/router.js';
import { startSamplingServer, type StartedFixture } from '../fixtures/sampling-server.js';

describe('era cache', () => {
  it('returns a verdict only for the same target and while fresh', () => {
    const dir = mkdtempSync(join(tmpdir(), 'era-'));
    const cache = openEraCache(dir);
    cache.set('s', { era: 'legacy', target: 'node a.js', at: 1_000 });
    expect(openEraCache(dir).get('s', 'node a.js', 2_000)).toMatchObject({ era: 'legacy', rule: ERA_RULE });
    expect(openEraCache(dir).get('s', 'node b.js', 2_000)).toBeUndefined();
    expect(openEraCache(dir).get('s', 'node a.js', 1_000 + ERA_TTL_MS + 1)).toBeUndefined();
    cache.forget('s');
    expect(openEraCache(dir).get('s', 'node a.js', 2_000)).toBeUndefined();
  });

  it('clears the verdicts of the first `auto` (no rule: 2026-07-28 whenever offered) when it is opened', () => {
    const dir = mkdtempSync(join(tmpdir(), 'era-old-'));
    const discover = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
    const old = { py: { era: 'modern', protocolVersion: '2026-07-28', target: 'python server.py', at: Date.now(), discover } };
    writeFileSync(join(dir, ERA_CACHE_FILE), JSON.stringify(old));
    expect(openEraCache(dir).get('py', 'python server.py', Date.now())).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, ERA_CACHE_FILE), 'utf8'))).toEqual({});
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

describe.each(['stdio', 'http'] as const)('`auto` over %s', (transport) => {
  const fixtures: StartedFixture[] = [];
  const open: ServerConnection[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await Promise.all(fixtures.map((f) => f.close()));
  });

  /** A connection on default settings (no `protocol`) to a sampling fixture serving `era`, remembering verdicts in `eras`. */
  async function connect(era: 'both' | 'modern', eras: EraCache, fixture?: StartedFixture): Promise<{ conn: ServerConnection; fixture: StartedFixture }> {
    const f = fixture ?? (await startSamplingServer({ transport, era }));
    if (!fixture) fixtures.push(f);
    const { protocol: _none, ...config } = f.config;
    const conn = createServerConnection('fx', config, { logger: silentLogger, onChange() {}, eras, requests: createServerRequestRouter({ sampling: () => Promise.reject(new Error('none')), roots: () => [] }) });
    open.push(conn);
    await conn.connect();
    return { conn, fixture: f };
  }

  it('connects a server that also speaks 2026-07-28 on 2025-11-25', async () => {
    const eras = openEraCache(mkdtempSync(join(tmpdir(), 'era-both-')));
    const { conn } = await connect('both', eras);
    expect(conn.view()).toMatchObject({ status: 'ready', era: 'legacy', protocolVersion: '2025-11-25' });
    expect(conn.view().tools.map((t) => t.name)).toContain('ask-text');
  }, 60_000);

  it('connects a server that refuses 2025-11-25 on 2026-07-28, and next time straight on it', async () => {
    const eras = openEraCache(mkdtempSync(join(tmpdir(), 'era-modern-')));
    const { conn, fixture } = await connect('modern', eras);
    expect(conn.view()).toMatchObject({ status: 'ready', era: 'modern', protocolVersion: '2026-07-28' });
    // 2025-11-25 was asked first (over stdio the refusal is a JSON-RPC error; over HTTP an HTTP 400 holding it).
    const tried = conn.log.page('initialize').protocol;
    expect(tried.filter((e) => e.direction === 'out' && e.kind === 'request')).toHaveLength(1);
    if (transport === 'stdio') expect(tried.find((e) => e.kind === 'error')?.error?.code).toBe(-32022);
    expect(eras.get('fx', conn.view().target, Date.now())).toMatchObject({ era: 'modern', rule: ERA_RULE });
    const again = await connect('modern', eras, fixture);
    expect(again.conn.view()).toMatchObject({ status: 'ready', era: 'modern' });
    expect(again.conn.log.page('initialize').protocol).toEqual([]);
  }, 60_000);
});
