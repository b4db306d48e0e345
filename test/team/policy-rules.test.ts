/**
 * A team's rule book in PostgreSQL (main/team/policy-rules.ts): the shared rule-book tests, with two
 * instances on one real database standing for two consoles; then what only the database does —
 * every revision kept with how it was made, a revision this console cannot read reported while the
 * previous book stays in force, and a change missed while an instance's listener was cut off read
 * after it reconnects.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { openTeamRuleBook } from '../../main/team/policy-rules.js';
import type { RuleBookStore } from '../../main/policy/rule-book.js';
import { adminQuery, testDatabase } from '../support/postgres.js';
import { ruleBookContract } from '../policy/rule-book-contract.js';

const FAST = { heartbeatMs: 100, leaseMs: 600, sweepMs: 100 };
const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A fresh database with instances opened on it, each with its rule book. */
async function backing() {
  const db = await testDatabase();
  const teams: TeamDatabase[] = [];
  const books: RuleBookStore[] = [];
  const open = async () => {
    const team = await openTeamDatabase({ url: db.url, timings: FAST });
    teams.push(team);
    const store = openTeamRuleBook({ db: team });
    books.push(store);
    await store.ready;
    return store;
  };
  /** Stores a revision directly, and notifies as a console would. */
  const writeRaw = async (body: Record<string, unknown>) => {
    const [row] = (await adminQuery(db.url, 'SELECT coalesce(max(revision), 0) + 1 AS n FROM team_rule_book')).rows as Array<{ n: string }>;
    await adminQuery(db.url, "INSERT INTO team_rule_book (revision, body, how) VALUES ($1, $2::jsonb, 'save')", [Number(row!.n), JSON.stringify(body)]);
    await adminQuery(db.url, "SELECT pg_notify('mcp_console_team', $1)", [JSON.stringify({ topic: 'rules', id: String(row!.n), from: 'by-hand' })]);
  };
  const readRaw = async () => ((await adminQuery(db.url, 'SELECT body FROM team_rule_book ORDER BY revision DESC LIMIT 1')).rows[0] as { body: unknown } | undefined)?.body;
  const close = async () => {
    for (const b of books) b.close();
    await Promise.all(teams.map((t) => t.close()));
    await db.drop();
  };
  return { db, open, writeRaw, readRaw, close };
}

describe('rule book in the team database', () => {
  ruleBookContract(backing);
});

describe('the team rule book in PostgreSQL', () => {
  let b: Awaited<ReturnType<typeof backing>>;
  beforeEach(async () => {
    b = await backing();
  });
  afterEach(async () => b.close());

  it('keeps every revision with how it was made and on which instance; the newest is in force', async () => {
    const a = await b.open();
    await a.save({ version: 1, servers: { s: { rules: [{ id: 'r1', name: 'One', action: { kind: 'ask' } }] } } }, { baseRevision: 0 });
    await a.save({ version: 1, servers: {} }, { how: 'import' });
    await a.setPaused(true);
    await a.setPaused(false);
    const rows = (await adminQuery(b.db.url, 'SELECT revision, how, instance_id IS NOT NULL AS named, body->\'paused\' AS paused FROM team_rule_book ORDER BY revision')).rows;
    expect(rows.map((r) => [Number(r.revision), r.how, r.named, r.paused])).toEqual([
      [1, 'save', true, false],
      [2, 'import', true, false],
      [3, 'pause', true, true],
      [4, 'resume', true, false],
    ]);
    expect(a.revision()).toBe(4);
  });

  it('a revision this console cannot read is reported; the previous book stays in force; a save stores a newer one over it', async () => {
    const a = await b.open();
    await a.save({ version: 1, servers: { s: { rules: [{ id: 'r1', name: 'Good', action: { kind: 'approve_all' } }] } } });
    await b.writeRaw({ version: 1, servers: { s: { rules: [{ id: 'r1', name: 'Bad', action: { kind: 'approve_everything' } }] } } });
    await until('the problem is reported', () => a.problems().length > 0);
    expect(a.problems()[0]).toMatch(/^rule book revision 2 line \d+, column \d+: servers\.s\.rules\.0\.action/);
    expect(a.current().servers.s!.rules[0]!.name).toBe('Good');
    expect(a.revision()).toBe(2);
    await a.save({ version: 1, servers: { s: { rules: [{ id: 'r1', name: 'Fixed', action: { kind: 'ask' } }] } } }, { baseRevision: 2 });
    expect(a.problems()).toEqual([]);
    expect(a.current().servers.s!.rules[0]).toMatchObject({ name: 'Fixed', version: 2 }); // counted from the last good book
  });

  it('a change made while an instance was not listening is read when its listener is back', async () => {
    const [a, c] = [await b.open(), await b.open()];
    // Cut every listener off: notifications sent now are lost.
    await adminQuery(b.db.url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'mcp-approval-console listener'");
    await a.save({ version: 1, servers: { s: { rules: [{ id: 'r1', name: 'Missed', action: { kind: 'ask' } }] } } });
    await until('the other instance reads it after its resync', () => c.current().servers.s?.rules[0]?.name === 'Missed');
    expect(c.revision()).toBe(a.revision());
  });
});
