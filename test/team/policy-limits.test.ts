/**
 * A team's limits and budgets in PostgreSQL (main/team/policy-limits.ts over the functions of
 * migration 0005), on a real database with several instances — each its own pool, as separate
 * consoles would be:
 *
 * - races: instances hammering one counter at its edge — requests per minute (a server's and the
 *   console-wide bucket), requests waiting, and a token budget's estimates — let exactly the cap
 *   through, never one more;
 * - the desktop's limiter (main/policy/limits.ts) and the team's give the same answers to the same
 *   script (refusals, their rule and wording, refills, settlements, a new UTC day);
 * - estimate then settle: a settlement gives back the estimate and counts the actual usage, once
 *   even if sent twice; a gone instance's requests are given back by a survivor and still count if
 *   they settle; settlements the database could not take are sent when it is back;
 * - counters changed on one instance reach the others.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RulesFileSchema, type RulesFile } from '../../shared/contract/rules.js';
import { createLimiter, limitsFor } from '../../main/policy/limits.js';
import type { SharedAdmitResult } from '../../main/policy/shared-limits.js';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { openTeamLimits, type TeamLimits } from '../../main/team/policy-limits.js';
import { adminQuery, startPostgres, testDatabase, type PostgresCluster } from '../support/postgres.js';

const FAST = { heartbeatMs: 100, leaseMs: 600, sweepMs: 100 };
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const file = (servers: Record<string, unknown> = {}, global: Record<string, unknown> = {}): RulesFile => RulesFileSchema.parse({ version: 1, servers, global });

let ids = 0;
/** An admission of a request from `serverId` under `f`'s limits. */
const admission = (serverId: string, f: RulesFile, now = T0, reserve?: { tokens: number; costUsd: number }) => ({ itemId: `item-${++ids}`, serverId, now, ...limitsFor(f, serverId), ...(reserve && { reserve }) });

describe('team limits on one database', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  const teams: TeamDatabase[] = [];
  const limits: TeamLimits[] = [];
  let clock = T0;
  /** An instance: its own pool, notifier, lease and limits. */
  const instance = async () => {
    const team = await openTeamDatabase({ url: db.url, timings: FAST });
    teams.push(team);
    const l = openTeamLimits({ db: team, now: () => clock });
    limits.push(l);
    await l.refresh();
    return { team, l };
  };
  beforeAll(async () => {
    db = await testDatabase();
  });
  afterEach(async () => {
    await Promise.all(limits.splice(0).map((l) => l.close()));
    await Promise.all(teams.splice(0).map((t) => t.close()));
    await adminQuery(db.url, 'TRUNCATE team_limit_rates, team_limit_days, team_limit_holds');
    clock = T0;
  });
  afterAll(async () => db?.drop());

  describe('races at the edge: exactly the cap passes', () => {
    it('requests per minute: four instances, 30 requests each at once, a bucket of 25 — 25 pass', async () => {
      const all = await Promise.all([instance(), instance(), instance(), instance()]);
      const f = file({ s: { limits: { requestsPerMinute: 25, maxWaiting: 1000 } } });
      const results = await Promise.all(all.flatMap(({ l }) => Array.from({ length: 30 }, () => l.admit(admission('s', f)))));
      expect(results.filter((r) => r.ok)).toHaveLength(25);
      const refused = results.filter((r): r is Extract<SharedAdmitResult, { ok: false }> => !r.ok);
      expect(new Set(refused.map((r) => r.refusal.rule))).toEqual(new Set(['limit.rpm']));
      await all[0]!.l.refresh();
      expect(all[0]!.l.counters().s).toMatchObject({ rateLimited: 95, waiting: 25 });
    });

    it('the console-wide bucket across servers and instances: 40 of 3 × 20 pass, every refusal names the console', async () => {
      const all = await Promise.all([instance(), instance(), instance()]);
      const f = file({ a: { limits: { requestsPerMinute: 100 } }, b: { limits: { requestsPerMinute: 100 } }, c: { limits: { requestsPerMinute: 100 } } }, { requestsPerMinute: 40, maxWaiting: 1000 });
      const results = await Promise.all(all.flatMap(({ l }, i) => Array.from({ length: 20 }, () => l.admit(admission('abc'[i]!, f)))));
      expect(results.filter((r) => r.ok)).toHaveLength(40);
      expect(new Set(results.flatMap((r) => (r.ok ? [] : [r.refusal.rule])))).toEqual(new Set(['limit.global.rpm']));
      // A refused console-wide request gives its server's request back: the servers' buckets lost only what passed.
      const [row] = (await adminQuery(db.url, "SELECT sum(100 - bucket_tokens) AS taken FROM team_limit_rates WHERE server_id <> ''")).rows as Array<{ taken: number }>;
      expect(Number(row!.taken)).toBeCloseTo(40, 6);
    });

    it('requests waiting: three instances, 12 at once each, 5 may wait — 5 are admitted; one settling frees one slot', async () => {
      const all = await Promise.all([instance(), instance(), instance()]);
      const f = file({ s: { limits: { maxWaiting: 5 } } });
      const asked = all.flatMap(() => Array.from({ length: 12 }, () => admission('s', f)));
      const results = await Promise.all(asked.map((a, i) => all[i % 3]!.l.admit(a)));
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      const first = asked.find((_, i) => results[i]!.ok)!;
      all[1]!.l.settled('s', { id: first.itemId, tokens: 0, costUsd: 0 }, false, T0);
      await all[1]!.l.flushed();
      const again = await Promise.all(all.map(({ l }) => l.admit(admission('s', f))));
      expect(again.filter((r) => r.ok)).toHaveLength(1);
    });

    it('a token budget: estimates of 100 against 1,000 a day from four instances — 10 are held; settled, their estimates are given back, their usage counts, and what is left is held once', async () => {
      const all = await Promise.all([instance(), instance(), instance(), instance()]);
      const f = file({ s: { limits: { tokensPerDay: 1000, maxWaiting: 1000 } } });
      const asked = Array.from({ length: 40 }, () => admission('s', f, T0, { tokens: 100, costUsd: 0 }));
      const results = await Promise.all(asked.map((a, i) => all[i % 4]!.l.admit(a)));
      const held = results.flatMap((r, i) => (r.ok && r.reserved ? [asked[i]!] : []));
      expect(results.every((r) => r.ok)).toBe(true); // admitted all the same: a person decides those not held
      expect(held).toHaveLength(10);
      const notHeld = results.find((r) => r.ok && !r.reserved) as Extract<SharedAdmitResult, { ok: true }>;
      expect(notHeld.today.pendingTokens + notHeld.today.tokens + 100).toBeGreaterThan(1000); // what the person is told
      // Each settles with its actual usage (95 tokens): the estimates are given back, the usage counts.
      held.forEach((a, i) => all[i % 4]!.l.settled('s', { id: a.itemId, tokens: 95, costUsd: 0 }, true, T0));
      await Promise.all(all.map(({ l }) => l.flushed()));
      const [day] = (await adminQuery(db.url, "SELECT used_tokens, pending_tokens, auto_approved FROM team_limit_days WHERE server_id = 's'")).rows;
      expect(day).toEqual({ used_tokens: 950, pending_tokens: 0, auto_approved: 10 });
      // 100 more would pass the cap; 50 fit once: of four at once, exactly one is held.
      const over = await Promise.all(all.map(({ l }) => l.admit(admission('s', f, T0, { tokens: 100, costUsd: 0 }))));
      expect(over.filter((r) => r.ok && r.reserved)).toHaveLength(0);
      const fits = await Promise.all(all.map(({ l }) => l.admit(admission('s', f, T0, { tokens: 50, costUsd: 0 }))));
      expect(fits.filter((r) => r.ok && r.reserved)).toHaveLength(1);
    });
  });

  it('answers as the desktop limiter does: refusals, their rule and wording, refills, usage, a new UTC day', async () => {
    const { l } = await instance();
    const desk = createLimiter();
    const f = file({ s: { limits: { requestsPerMinute: 3, maxWaiting: 4, tokensPerDay: 1000 } } });
    const both = async (now: number) => {
      const a = admission('s', f, now);
      const team = await l.admit(a);
      const mine = desk.admit('s', f, now);
      return { id: a.itemId, team: team.ok ? 'ok' : `${team.refusal.rule}: ${team.refusal.message}`, desk: mine.ok ? 'ok' : `${mine.rule}: ${mine.message}` };
    };
    const seen = [];
    for (const now of [T0, T0, T0, T0, T0 + 19_000, T0 + 20_000, T0 + 40_000]) seen.push(await both(now));
    const first = seen[0]!;
    l.settled('s', { id: first.id, tokens: 1000, costUsd: null }, false, T0 + 50_000);
    await l.flushed();
    desk.settled('s', { tokens: 1000, costUsd: null, id: first.id }, T0 + 50_000);
    seen.push(await both(T0 + 60_000), await both(Date.UTC(2026, 10, 23, 0, 0, 1)));
    expect(seen.map((x) => x.team)).toEqual(seen.map((x) => x.desk));
    expect(seen.map((x) => x.team.split(':')[0])).toEqual(['ok', 'ok', 'ok', 'limit.rpm', 'limit.rpm', 'ok', 'limit.waiting', 'limit.tokens', 'ok']);
    expect(seen[7]!.team).toMatch(/"s" used 1000 of 1000 tokens today \(UTC\)/);
  });

  it('a settlement sent twice counts once; the estimate is given back exactly', async () => {
    const { l } = await instance();
    const f = file({ s: { limits: { tokensPerDay: 10_000 } } });
    const a = admission('s', f, T0, { tokens: 300, costUsd: 0.5 });
    expect(await l.admit(a)).toMatchObject({ ok: true, reserved: true, today: { pendingTokens: 300, pendingUsd: 0.5 } });
    for (let i = 0; i < 2; i++) l.settled('s', { id: a.itemId, tokens: 120, costUsd: 0.25 }, true, T0 + 1000);
    await l.flushed();
    expect(l.counters().s).toMatchObject({ tokensToday: 120, spendTodayUsd: 0.25, waiting: 0, autoApproved: 1 });
    expect(l.counters().s).not.toHaveProperty('pendingTokens');
  });

  it("a gone instance's requests are given back by a survivor; one that settles later still counts its usage, once", async () => {
    const [a, b] = [await instance(), await instance()];
    const f = file({ s: { limits: { tokensPerDay: 10_000 } } });
    const held = [admission('s', f, T0, { tokens: 500, costUsd: 0 }), admission('s', f), admission('s', f)];
    for (const h of held) expect(await a.l.admit(h)).toMatchObject({ ok: true });
    await b.l.refresh();
    expect(b.l.counters().s).toMatchObject({ waiting: 3, pendingTokens: 500 });
    // a loses its connections without a word (as a SIGKILL leaves it): its lease runs out.
    await a.team.notifier.close();
    await a.team.conn.close();
    await until('b gave back what a held', async () => (await b.l.refresh(), b.l.counters().s?.waiting === 0));
    expect(b.l.counters().s).not.toHaveProperty('pendingTokens');
    // The request a held is answered after all (its settlement reaches the database another way).
    b.l.settled('s', { id: held[0]!.itemId, tokens: 450, costUsd: 0 }, false, T0 + 5000);
    b.l.settled('s', { id: held[0]!.itemId, tokens: 450, costUsd: 0 }, false, T0 + 5000);
    await b.l.flushed();
    expect(b.l.counters().s).toMatchObject({ waiting: 0, tokensToday: 450 });
  });

  it('counters changed on one instance reach the others', async () => {
    const [a, b] = [await instance(), await instance()];
    const f = file({ s: { limits: { requestsPerMinute: 1 } } });
    let told = 0;
    b.l.onChange(() => told++);
    await a.l.admit(admission('s', f));
    const refused = await a.l.admit(admission('s', f));
    expect(refused).toMatchObject({ ok: false, refusal: { rule: 'limit.rpm' } });
    await until('b shows the refusal', () => b.l.counters().s?.rateLimited === 1);
    expect(told).toBeGreaterThan(0);
    expect(b.l.counters().s).toMatchObject({ waiting: 1, lastLimited: { at: T0, message: (refused as { refusal: { message: string } }).refusal.message } });
  });
});

describe('team limits while PostgreSQL is away', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => cluster?.destroy());

  it('an admission fails at once with the database unreachable; a settlement is kept and counted once it is back', async () => {
    const team = await openTeamDatabase({ url: cluster.url(), timings: FAST });
    const l = openTeamLimits({ db: team, now: () => T0 });
    try {
      const f = file();
      const a = admission('s', f);
      expect(await l.admit(a)).toMatchObject({ ok: true });
      await cluster.stop();
      await expect(l.admit(admission('s', f))).rejects.toThrow(/cannot be reached/);
      l.settled('s', { id: a.itemId, tokens: 77, costUsd: null }, false, T0);
      await l.flushed();
      await cluster.start();
      await until('the kept settlement is counted', async () => {
        const rows = (await adminQuery(cluster.url(), "SELECT used_tokens, unpriced_tokens FROM team_limit_days WHERE server_id = 's'").catch(() => ({ rows: [] }))).rows;
        return rows[0]?.used_tokens === 77;
      }, 20_000);
      const [row] = (await adminQuery(cluster.url(), "SELECT waiting FROM team_limit_rates WHERE server_id = 's'")).rows;
      expect(row).toEqual({ waiting: 0 });
    } finally {
      await l.close();
      await team.close();
    }
  }, 60_000);
});
