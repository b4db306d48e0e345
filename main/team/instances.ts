/**
 * Instance leases on a team's database: each console (instance) registers a row in
 * `team_instances` and renews its heartbeat every {@link HEARTBEAT_MS}; an instance whose
 * heartbeat is older than {@link LEASE_MS} is gone (killed, crashed, cut off from the database).
 * Every live instance sweeps every {@link SWEEP_MS}: one conditional UPDATE marks each gone
 * instance stopped, so exactly one survivor takes each of them and runs the `peerGone` handlers
 * (ending the items the gone instance held, and recording them). An instance that finds its own
 * row marked stopped by a survivor (it was cut off longer than its lease) has lost what it held:
 * it runs its `leaseLost` handlers and registers again under a new id.
 *
 * An instance sweeps only after its own heartbeats have succeeded for a whole lease: after the
 * database was unreachable (restarted, cut off), every live instance has had time to renew its
 * lease before any of them judges the others, so a restart longer than the lease ends nobody.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from '../logger.js';
import type { Params } from '../store/pg/connection.js';
import type { TeamNotifier } from './notify.js';

/** How often an instance renews its lease, in ms. */
export const HEARTBEAT_MS = 1_000;
/** How long after its last heartbeat an instance counts as gone, in ms. */
export const LEASE_MS = 5_000;
/** How often an instance looks for gone ones, in ms. */
export const SWEEP_MS = 1_000;

/** The database calls the leases need. */
export interface LeaseDb {
  query<R>(text: string, params?: Params): Promise<R[]>;
}

/** This instance's lease, and the team's other instances as it sees them. */
export interface InstanceLease {
  /** This instance's id now (a new one after a lost lease). */
  id(): string;
  /** Runs `handler(goneId)` for each instance this one found gone (exactly one survivor runs it per gone instance). */
  onPeerGone(handler: (goneId: string) => Promise<void>): void;
  /** Runs `handler(oldId)` when a survivor declared this instance gone (it had lost the database longer than its lease). */
  onLeaseLost(handler: (oldId: string) => Promise<void>): void;
  /** The ids of the instances alive now (heartbeat within the lease), this one included. */
  live(): Promise<string[]>;
  /** Marks this instance stopped (a graceful stop: it ends its own items) and stops renewing. Idempotent. */
  stop(): Promise<void>;
}

/** What {@link startInstanceLease} needs. */
export interface LeaseOptions {
  db: LeaseDb;
  notifier?: Pick<TeamNotifier, 'publish'>;
  /** Where this instance's web UI listens, shown to people (optional). */
  address?: string;
  /** Overrides of the timings, in ms (tests). */
  timings?: { heartbeatMs?: number; leaseMs?: number; sweepMs?: number };
  logger?: Logger;
  /** The id to register under (default: a random one). */
  id?: string;
}

const REGISTER_SQL = 'INSERT INTO team_instances (id, host, pid, address) VALUES ($1, $2, $3, $4)';
const HEARTBEAT_SQL = 'UPDATE team_instances SET heartbeat_at = now() WHERE id = $1 AND stopped_at IS NULL RETURNING id';
const SWEEP_SQL =
  "UPDATE team_instances SET stopped_at = now(), stopped_by = $1 WHERE stopped_at IS NULL AND heartbeat_at < now() - $2::float8 * interval '1 millisecond' AND id <> $1 RETURNING id";
const STOP_SQL = "UPDATE team_instances SET stopped_at = now(), stopped_by = id WHERE id = $1 AND stopped_at IS NULL";
const LIVE_SQL = "SELECT id FROM team_instances WHERE stopped_at IS NULL AND heartbeat_at >= now() - $1::float8 * interval '1 millisecond' ORDER BY started_at";

/**
 * Registers this instance and starts renewing its lease and sweeping for gone ones.
 * @throws (rejects) the database's error when the first registration fails
 */
export async function startInstanceLease(opts: LeaseOptions): Promise<InstanceLease> {
  const heartbeatMs = opts.timings?.heartbeatMs ?? HEARTBEAT_MS;
  const leaseMs = opts.timings?.leaseMs ?? LEASE_MS;
  const sweepMs = opts.timings?.sweepMs ?? SWEEP_MS;
  const peerGone: Array<(id: string) => Promise<void>> = [];
  const leaseLost: Array<(id: string) => Promise<void>> = [];
  let id = opts.id ?? randomUUID();
  let stopped = false;
  /** Since when (ms, monotonic) every heartbeat has succeeded; undefined after one failed. */
  let liveSince: number | undefined = performance.now();
  const register = (as: string) => opts.db.query(REGISTER_SQL, [as, os.hostname(), process.pid, opts.address ?? null]);
  await register(id);

  const run = async (what: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      // The database is unreachable or refused: the next tick tries again (the lease may run out meanwhile).
      opts.logger?.warn(`team lease: ${what} failed`, { instance: id, error: String(err) });
    }
  };
  const heartbeat = async () => {
    const renewed = await opts.db.query(HEARTBEAT_SQL, [id]).catch((err: unknown) => {
      liveSince = undefined;
      throw err;
    });
    liveSince ??= performance.now();
    if (renewed.length > 0 || stopped) return;
    // A survivor declared this instance gone: what it held was ended there. Start over under a new id.
    const old = id;
    id = randomUUID();
    await register(id);
    opts.logger?.warn('team lease: this instance was declared gone while cut off; registered again', { old, now: id });
    for (const h of leaseLost) await h(old);
  };
  const sweep = async () => {
    if (liveSince === undefined || performance.now() - liveSince < leaseMs) return;
    const gone = await opts.db.query<{ id: string }>(SWEEP_SQL, [id, leaseMs]);
    for (const row of gone) {
      for (const h of peerGone) await h(row.id);
      await opts.notifier?.publish({ topic: 'instance', id: row.id });
    }
  };
  let beating = false;
  let sweeping = false;
  const beat = setInterval(() => {
    if (beating || stopped) return;
    beating = true;
    void run('heartbeat', heartbeat).finally(() => (beating = false));
  }, heartbeatMs);
  const look = setInterval(() => {
    if (sweeping || stopped) return;
    sweeping = true;
    void run('sweep', sweep).finally(() => (sweeping = false));
  }, sweepMs);
  beat.unref?.();
  look.unref?.();

  return {
    id: () => id,
    onPeerGone: (h) => void peerGone.push(h),
    onLeaseLost: (h) => void leaseLost.push(h),
    live: async () => (await opts.db.query<{ id: string }>(LIVE_SQL, [leaseMs])).map((r) => r.id),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(beat);
      clearInterval(look);
      await opts.db.query(STOP_SQL, [id]).catch((err: unknown) => opts.logger?.warn('team lease: could not mark this instance stopped', { instance: id, error: String(err) }));
      await opts.notifier?.publish({ topic: 'instance', id }).catch(() => undefined);
    },
  };
}
