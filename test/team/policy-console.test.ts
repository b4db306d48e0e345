/**
 * Two consoles of one team (createConsole with `ConsolePorts.team` and the history on the same
 * PostgreSQL), each with a real MCP server that floods sampling requests:
 *
 * - the Rules screen's slice names the team database as where the rule book lives;
 * - a rule book saved on one console is in force on the other at once; a save there from the book
 *   it had before is refused (`error.rulesChanged`) and the slice shows the newer book; the pause
 *   switch and an import made on one reach the other;
 * - a limit holds across both: floods on both consoles at once leave exactly the team's cap of
 *   requests waiting, the rest answered -32051 and recorded.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITED_CODE, type RulesFile } from '../../shared/contract/rules.js';
import { createConsole } from '../../main/console.js';
import { postgresHistory } from '../../main/store/pg/store.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { floodServerConfig } from '../policy/flood-server.js';
import { wholeState, type WholeState } from '../support/console-harness.js';
import { testDatabase } from '../support/postgres.js';

const rules = (servers: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ version: 1, servers, ...extra }) as unknown as RulesFile;

/**
 * One console of the team: its own data folder, the team database (the usual lease: a busy machine
 * must not get a live console declared gone, which gives back what it held), the history in PostgreSQL.
 */
async function instance(url: string) {
  const dir = mkdtempSync(join(tmpdir(), 'team-console-'));
  writeFileSync(join(dir, 'mcp-servers.json'), JSON.stringify({ mcpServers: { flood: floodServerConfig() } }));
  const team = await openTeamDatabase({ url });
  const handle = await createConsole({ host: 'test', userDataDir: dir, nodeRuntime: { command: process.execPath }, env: { MCP_CONSOLE_GATEWAY_PORT: '0' }, openHistory: postgresHistory(url), team });
  await handle.ready;
  const waitFor = async (pred: (s: WholeState) => boolean, what: string, ms = 20_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const s = await wholeState(handle);
      if (pred(s)) return s;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { ...handle, team, waitFor };
}
type Instance = Awaited<ReturnType<typeof instance>>;

describe('a team of two consoles on one database', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let a: Instance;
  let b: Instance;
  const teams: TeamDatabase[] = [];
  beforeAll(async () => {
    db = await testDatabase();
    a = await instance(db.url);
    b = await instance(db.url);
    teams.push(a.team, b.team);
  }, 60_000);
  afterAll(async () => {
    for (const c of [a, b]) await c?.dispose();
    await Promise.all(teams.map((t) => t.close()));
    await db?.drop();
  });

  it('the rule book lives in the team database: saved on one console, in force on the other; a save from an older book is refused', async () => {
    const first = (await a.service.getState({})).policy!;
    expect(first).toMatchObject({ source: 'database', path: a.team.target, revision: 0 });
    const staleOnB = (await b.service.getState({})).policy!.revision;
    await a.service.saveRules({ rules: rules({ flood: { rules: [{ id: 'r1', name: 'From A', action: { kind: 'ask' } }] } }), baseRevision: first.revision });
    const seen = await b.waitFor((s) => s.policy?.rules.servers.flood?.rules[0]?.name === 'From A', 'B to have the book');
    expect(seen.policy!.revision).toBe(1);
    const refused = await b.service.saveRules({ rules: rules({ flood: { rules: [{ id: 'r1', name: 'From B', action: { kind: 'ask' } }] } }), baseRevision: staleOnB }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'invalid_state', ui: { code: 'error.rulesChanged', params: { revision: 1 } } });
    expect((await b.service.getState({})).policy!.rules.servers.flood!.rules[0]!.name).toBe('From A');

    await b.service.setAutoApprovalPaused({ paused: true });
    await a.waitFor((s) => s.policy?.rules.paused === true, 'A to be paused');
    const { text } = await a.service.exportRules({});
    await b.service.importRules({ text: text.replace('From A', 'Imported on B').replace('"paused": true', '"paused": false') });
    const after = await a.waitFor((s) => s.policy?.rules.servers.flood?.rules[0]?.name === 'Imported on B', 'A to have the import');
    expect(after.policy!.rules).toMatchObject({ paused: false, servers: { flood: { rules: [{ version: 2 }] } } });
  }, 60_000);

  it('a limit holds across both: floods on both consoles at once leave exactly the cap waiting; the rest are refused -32051 and recorded', async () => {
    const cap = 6;
    await a.service.saveRules({ rules: rules({ flood: { limits: { maxWaiting: cap, requestsPerMinute: 10_000 } } }) });
    await b.waitFor((s) => s.policy?.rules.servers.flood?.limits?.maxWaiting === cap, 'B to have the limit');
    const calls = await Promise.all([a, b].map((c) => c.service.callTool({ serverId: 'flood', name: 'flood', arguments: { count: 20 } })));
    const waitingOn = (s: WholeState) => s.items.filter((i) => i.status === 'awaiting_request_review');
    // Both consoles show the one shared queue: what waits is counted once.
    const waitingIn = (states: WholeState[]) => new Map(states.flatMap((s) => waitingOn(s).map((i) => [i.id, i] as const)));
    const refusedIn = async (c: Instance) => (await c.service.listHistory({ limit: 100, offset: 0 })).entries.filter((e) => e.status === 'failed').length; // one History for both
    const until = Date.now() + 30_000;
    let states: WholeState[];
    for (;;) {
      states = await Promise.all([wholeState(a), wholeState(b)]);
      const waiting = waitingIn(states).size;
      if (waiting === cap && (await refusedIn(a)) >= 40 - cap) break;
      if (Date.now() > until) throw new Error(`timed out: ${waiting} waiting, ${await refusedIn(a)} refused`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300)); // nothing more gets in
    states = await Promise.all([wholeState(a), wholeState(b)]);
    expect(waitingIn(states).size).toBe(cap);
    const failed = (await a.service.listHistory({ limit: 100, offset: 0 })).entries.filter((e) => e.status === 'failed');
    expect(failed).toHaveLength(40 - cap);
    expect(await a.service.getHistoryEntry({ id: failed[0]!.id })).toMatchObject({ decidedBy: 'console', errorDetail: { code: RATE_LIMITED_CODE, rule: 'limit.waiting' } });
    // The people answer what waits; both tools report one outcome per request.
    for (const item of waitingIn(states).values()) await a.service.rejectRequest({ itemId: item.id, version: item.contentVersion! });
    for (const [i, c] of [a, b].entries()) await c.waitFor((s) => s.calls.some((k) => k.id === calls[i]!.callId && k.status !== 'running'), 'the flood to end');
    await a.waitFor((s) => s.policy?.counters.flood?.waiting === 0 && s.policy.counters.flood.rateLimited === 40 - cap, 'the counters of both consoles', 10_000);
  }, 90_000);
});
