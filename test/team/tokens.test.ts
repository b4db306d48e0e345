/**
 * The provider gateway's tokens behind one interface: the desktop's gateway.json + secret store and
 * a team server's database pass the same suite; the team's keep hashes only, show a token once,
 * and a token made or revoked on one instance counts on every instance at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openGatewayTokens, sha256, type GatewayTokens } from '../../main/gateway/tokens.js';
import { createMemorySecretStore } from '../../main/secrets/secret-store.js';
import { HistoryUnavailableError } from '../../main/store/history-api.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { openTeamGatewayTokens } from '../../main/team/tokens.js';
import { adminQuery, startPostgres, testDatabase } from '../support/postgres.js';

const FAST = { heartbeatMs: 100, leaseMs: 600, sweepMs: 100 };
const tempDir = () => mkdtempSync(join(tmpdir(), 'mcp-tokens-'));
const waitUntil = async (what: string, ok: () => boolean | Promise<boolean>, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

let db: Awaited<ReturnType<typeof testDatabase>>;
const teams: TeamDatabase[] = [];
const stores: GatewayTokens[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterEach(async () => {
  for (const s of stores.splice(0)) s.close?.();
  await Promise.all(teams.splice(0).map((t) => t.close()));
  await adminQuery(db.url, 'DELETE FROM team_gateway_tokens').catch(() => undefined);
});
afterAll(async () => db?.drop());

/** One team instance's tokens on the test database. */
async function teamTokens(url = db.url): Promise<GatewayTokens> {
  const team = await openTeamDatabase({ url, timings: FAST });
  teams.push(team);
  const tokens = await openTeamGatewayTokens({ conn: team.conn, notifier: team.notifier, dir: tempDir() });
  stores.push(tokens);
  return tokens;
}

const implementations: Array<[string, () => Promise<GatewayTokens>]> = [
  ['the desktop (gateway.json and the secret store)', async () => openGatewayTokens(tempDir(), createMemorySecretStore())],
  ["a team server (the team's database)", () => teamTokens()],
];

describe.each(implementations)('gateway tokens: %s', (_name, open) => {
  it('a named token made is held by its name, its calls queued under gateway:<name> and counted', async () => {
    const tokens = await open();
    const token = await tokens.create('nightly', 1_000);
    expect(token).toMatch(/^mcpgw_[\w-]{43}$/);
    expect(await tokens.holder(token, 2_000)).toEqual({ serverId: 'gateway:nightly', caller: { kind: 'token', name: 'nightly' } });
    await tokens.holder(token, 3_000);
    await waitUntil('the use counted', () => tokens.views()[0]?.calls === 2);
    expect(tokens.views()).toEqual([{ name: 'nightly', createdAt: 1_000, calls: 2, lastUsedAt: 3_000 }]);
  });

  it('an unknown token holds nothing; a revoked one holds nothing from then on', async () => {
    const tokens = await open();
    expect(await tokens.holder('mcpgw_unknown', 1)).toBeUndefined();
    const token = await tokens.create('ci', 1);
    await tokens.revoke('ci');
    expect(await tokens.holder(token, 2)).toBeUndefined();
    expect(tokens.views()).toEqual([]);
    await expect(tokens.revoke('ci')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a bad name and a taken name are refused; of two made at once under one name, one is made', async () => {
    const tokens = await open();
    await expect(tokens.create('has space', 1)).rejects.toMatchObject({ code: 'invalid_input' });
    const results = await Promise.allSettled([tokens.create('dup', 1), tokens.create('dup', 2)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'invalid_input' } });
    expect(tokens.views().map((v) => v.name)).toEqual(['dup']);
  });

  it("a server's per-run token names the server", async () => {
    const tokens = await open();
    const token = tokens.forServer('weather');
    expect(tokens.forServer('weather')).toBe(token);
    expect(await tokens.holder(token, 1)).toEqual({ serverId: 'weather', caller: { kind: 'server' } });
  });
});

describe('gateway tokens on a team server', () => {
  it('keeps only the hash; the token is shown once and never revealed again', async () => {
    const tokens = await teamTokens();
    expect(tokens.shownOnce).toBe(true);
    const token = await tokens.create('alice-laptop', 1);
    const { rows } = await adminQuery(db.url, 'SELECT * FROM team_gateway_tokens');
    expect(rows).toHaveLength(1);
    expect(rows[0].sha256).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token.slice('mcpgw_'.length));
    await expect(tokens.reveal('alice-laptop')).rejects.toMatchObject({ code: 'invalid_state', ui: { code: 'error.gatewayTokenShownOnce' } });
    await expect(tokens.reveal('nobody')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('made on one instance, it works on another at once; revoked there, it is refused here at once', async () => {
    const [a, b] = [await teamTokens(), await teamTokens()];
    const token = await a.create('shared', 5);
    expect(await b.holder(token, 6)).toMatchObject({ serverId: 'gateway:shared' });
    await b.revoke('shared');
    expect(await a.holder(token, 7)).toBeUndefined();
  });

  it("another instance's list follows: made, used and revoked elsewhere, with a change told", async () => {
    const [a, b] = [await teamTokens(), await teamTokens()];
    let told = 0;
    b.onChange?.(() => told++);
    const token = await a.create('ops', 10);
    await waitUntil('b lists it', () => b.views().some((v) => v.name === 'ops'));
    expect(told).toBeGreaterThan(0);
    await a.holder(token, 20);
    await a.holder(token, 30);
    // Counted in the database by every instance: the next read anywhere has both calls.
    await waitUntil('a shows both calls', () => a.views()[0]?.calls === 2);
    await a.revoke('ops');
    await waitUntil('b no longer lists it', () => b.views().length === 0);
  });

  it('a lookup while the database cannot be reached fails at once with HistoryUnavailableError (the gateway answers 503)', async () => {
    const cluster = await startPostgres();
    try {
      const tokens = await teamTokens(cluster.url());
      const token = await tokens.create('x', 1);
      await cluster.stop();
      await expect(tokens.holder(token, 2)).rejects.toBeInstanceOf(HistoryUnavailableError);
    } finally {
      for (const s of stores.splice(0)) s.close?.();
      await Promise.all(teams.splice(0).map((t) => t.close().catch(() => undefined)));
      await cluster.destroy();
    }
  });
});
