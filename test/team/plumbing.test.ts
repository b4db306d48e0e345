/**
 * The team database's plumbing on a real PostgreSQL: notifications reach every instance (and only
 * after the transaction that sent them commits), the listener comes back after the server
 * restarts and asks for a resync, and instance leases: a killed instance is found gone by exactly
 * one survivor, a stopped one is not swept, and one cut off past its lease registers again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTeamDatabase, type TeamDatabase } from '../../main/team/database.js';
import { notifySql, type TeamEvent } from '../../main/team/notify.js';
import { adminQuery, startPostgres, testDatabase, type PostgresCluster } from '../support/postgres.js';

const FAST = { heartbeatMs: 100, leaseMs: 600, sweepMs: 100 };
const waitUntil = async (what: string, ok: () => boolean | Promise<boolean>, ms = 15_000) => {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('team notifications and leases', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  const open: TeamDatabase[] = [];
  const instance = async () => {
    const t = await openTeamDatabase({ url: db.url, timings: FAST });
    open.push(t);
    return t;
  };
  beforeAll(async () => {
    db = await testDatabase();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  });
  afterAll(async () => db?.drop());

  it('a notification reaches every instance, the sender too, with who sent it', async () => {
    const [a, b] = [await instance(), await instance()];
    const seen: Array<[string, TeamEvent]> = [];
    a.notifier.subscribe('item', (e) => seen.push(['a', e]));
    b.notifier.subscribe('item', (e) => seen.push(['b', e]));
    await a.notifier.publish({ topic: 'item', id: 'x1' });
    await waitUntil('both heard it', () => seen.length === 2);
    expect(seen.map(([who]) => who).sort()).toEqual(['a', 'b']);
    expect(seen[0]![1]).toEqual({ topic: 'item', id: 'x1', from: a.lease.id() });
  });

  it('a notification sent inside a transaction arrives only if it commits', async () => {
    const [a, b] = [await instance(), await instance()];
    const heard: string[] = [];
    b.notifier.subscribe('decision', (e) => heard.push(e.id!));
    await expect(
      a.conn.transaction(async (q) => {
        const n = notifySql({ topic: 'decision', id: 'rolled-back', from: a.lease.id() });
        await q(n.text, n.params);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await a.conn.transaction(async (q) => {
      const n = notifySql({ topic: 'decision', id: 'committed', from: a.lease.id() });
      await q(n.text, n.params);
    });
    await waitUntil('the committed one', () => heard.includes('committed'));
    expect(heard).toEqual(['committed']);
  });

  it('a killed instance is found gone by exactly one survivor; one that stopped itself is not swept', async () => {
    const [a, b, c] = [await instance(), await instance(), await instance()];
    const takenBy: string[] = [];
    for (const [name, t] of [['a', a], ['b', b]] as const) t.lease.onPeerGone(async (gone) => void takenBy.push(`${name}:${gone}`));
    const cId = c.lease.id();
    // c loses its connections without saying so (as a SIGKILL would leave it): its heartbeats fail from now on.
    await c.notifier.close();
    await c.conn.close();
    await waitUntil('c found gone', () => takenBy.length > 0);
    await new Promise((r) => setTimeout(r, 400)); // several more sweeps by both
    expect(takenBy).toHaveLength(1);
    expect(takenBy[0]).toMatch(new RegExp(`:${cId}$`));
    expect(await a.lease.live()).not.toContain(cId);
    await b.close();
    await new Promise((r) => setTimeout(r, 900)); // past b's lease
    expect(takenBy).toHaveLength(1); // b stopped itself: nobody sweeps it
  });

  it('an instance its survivors declared gone registers again under a new id and says what it lost', async () => {
    const [a, b] = [await instance(), await instance()];
    const lost: string[] = [];
    b.lease.onLeaseLost(async (old) => void lost.push(old));
    const old = b.lease.id();
    await adminQuery(db.url, "UPDATE team_instances SET stopped_at = now(), stopped_by = $2 WHERE id = $1", [old, a.lease.id()]);
    await waitUntil('b registered again', () => b.lease.id() !== old);
    expect(lost).toEqual([old]);
    expect(await a.lease.live()).toContain(b.lease.id());
  });
});

describe('the listener across a PostgreSQL restart', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => cluster?.destroy());

  it('listens again after the restart and asks for a resync; notifications flow again', async () => {
    const t = await openTeamDatabase({ url: cluster.url(), timings: FAST });
    try {
      let resyncs = 0;
      const heard: string[] = [];
      t.notifier.onResync(() => resyncs++);
      t.notifier.subscribe('rules', (e) => heard.push(e.id ?? ''));
      await cluster.restart();
      await waitUntil('a resync', () => resyncs > 0, 20_000);
      expect(t.notifier.listening()).toBe(true);
      await waitUntil('publishing works again', async () => {
        try {
          await t.notifier.publish({ topic: 'rules', id: 'after' });
          return true;
        } catch {
          return false;
        }
      }, 20_000);
      await waitUntil('heard after the restart', () => heard.includes('after'));
    } finally {
      await t.close();
    }
  }, 60_000);
});
