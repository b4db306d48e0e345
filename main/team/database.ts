/**
 * A team's database as one instance holds it: the pooled connection (with its reachability state:
 * main/store/pg/connection.ts), the schema brought up to date (one folder of migrations for the
 * whole team database: main/store/pg/migrations), the notifications (notify.ts) and this
 * instance's lease (instances.ts). The team's features — the shared queue, the rule book, limits,
 * tokens — are built on it; the History store opens its own pool on the same database.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import { connectOnce, createConnection, describeTarget, type Connection } from '../store/pg/connection.js';
import { migrate } from '../store/pg/migrate.js';
import { startInstanceLease, type InstanceLease, type LeaseOptions } from './instances.js';
import { startTeamNotifier, type TeamNotifier } from './notify.js';

/** One instance's hold on the team database. */
export interface TeamDatabase {
  /** Where it is, without a password (for messages). */
  target: string;
  conn: Connection;
  notifier: TeamNotifier;
  lease: InstanceLease;
  /** Stops the lease (marking this instance stopped), the listener and the pool. Idempotent. */
  close(): Promise<void>;
}

/** What {@link openTeamDatabase} needs. */
export interface TeamDatabaseOptions {
  /** A `postgres://` URL. */
  url: string;
  logger?: Logger;
  /** Where this instance's web UI listens (shown to people). */
  address?: string;
  /** Lease timings (tests). */
  timings?: LeaseOptions['timings'];
}

/**
 * Connects, migrates (instances starting together take turns), starts listening and registers
 * this instance.
 * @throws HistoryUnavailableError when the database cannot be reached; HistorySchemaTooNewError
 *   when a newer console migrated it; the server's error when a migration fails
 */
export async function openTeamDatabase(opts: TeamDatabaseOptions): Promise<TeamDatabase> {
  const target = describeTarget(opts.url);
  const client = await connectOnce({ connection: opts.url });
  try {
    await migrate(client, target);
  } finally {
    await client.end();
  }
  const conn = createConnection({ connection: opts.url, ...(opts.logger && { logger: opts.logger }) });
  const first = randomUUID();
  const current: { lease?: InstanceLease } = {}; // the notifier names the lease's id now (it changes after a lost lease)
  const notifier = await startTeamNotifier({ connection: opts.url, instanceId: () => current.lease?.id() ?? first, query: (text, params) => conn.query(text, params), ...(opts.logger && { logger: opts.logger }) }).catch(async (err: unknown) => {
    await conn.close();
    throw err;
  });
  const lease = await startInstanceLease({ db: conn, id: first, notifier, ...(opts.address && { address: opts.address }), ...(opts.timings && { timings: opts.timings }), ...(opts.logger && { logger: opts.logger }) }).catch(async (err: unknown) => {
    await notifier.close();
    await conn.close();
    throw err;
  });
  current.lease = lease;
  let closing: Promise<void> | undefined;
  return {
    target,
    conn,
    notifier,
    lease,
    close: () =>
      (closing ??= (async () => {
        await lease.stop();
        await notifier.close();
        await conn.close();
      })()),
  };
}
