/**
 * The history store's PostgreSQL connections: a `pg` pool, and what happens when the server goes
 * away (restarted, crashed, the network cut).
 *
 * The first error that says the server cannot be reached (refused, reset, timed out, the server
 * shutting down: {@link isConnectionError}) marks the database unavailable. From then on every
 * call fails at once with {@link HistoryUnavailableError} — callers answer their own caller with a
 * clear error instead of waiting — while one probe (`SELECT 1`) tries to reconnect in the
 * background with exponential backoff and jitter ({@link RECONNECT_MIN_MS} doubling up to
 * {@link RECONNECT_MAX_MS}). When it succeeds the database is available again and `onAvailable`
 * runs (the writer sends what it kept). Connecting and each query are bounded in time, so a server
 * that stops answering without closing the connection also ends in that error rather than a hang.
 */
import pg from 'pg';
import type { Logger } from '../../logger.js';
import { HistoryUnavailableError } from '../history-api.js';

/** First wait before a reconnect probe, in ms. */
export const RECONNECT_MIN_MS = 100;
/** Longest wait between two reconnect probes, in ms. */
export const RECONNECT_MAX_MS = 2_000;

/** Options of {@link createConnection}. */
export interface ConnectionOptions {
  /** A `postgres://` URL, or `pg` pool settings. */
  connection: string | pg.PoolConfig;
  /** Most connections this store opens (default 10). */
  maxConnections?: number;
  /** How long opening a connection may take, in ms (default 5,000). */
  connectTimeoutMs?: number;
  /** How long one query may take before it fails, in ms (default 30,000). */
  queryTimeoutMs?: number;
  logger?: Logger;
}

/** A query's parameters (pg serialises them: strings, numbers, booleans, Buffers, arrays, null). */
export type Params = readonly unknown[];

/** The store's pool, with the reachability state described above. */
export interface Connection {
  /** Rows of one statement. @throws (rejects) HistoryUnavailableError while the database cannot be reached; the server's error otherwise */
  query<R>(text: string, params?: Params): Promise<R[]>;
  /** Runs `fn` inside one transaction on one connection (BEGIN … COMMIT, ROLLBACK when it throws). @throws as {@link Connection.query} */
  transaction<T>(fn: (query: <R>(text: string, params?: Params) => Promise<R[]>) => Promise<T>): Promise<T>;
  /** False from a connection error until the reconnect probe succeeds. */
  available(): boolean;
  /** Runs `fn` whenever the database becomes available again after being unavailable. */
  onAvailable(fn: () => void): void;
  /** The error calls get now (null while available). */
  unavailableError(): HistoryUnavailableError | null;
  /** Closes every connection and stops probing. Idempotent. */
  close(): Promise<void>;
}

/** `pg` parses int8 (bigint: `seq`, counts) as strings; every one of ours fits a JS number. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Node's and PostgreSQL's codes that mean "the server cannot be reached" (SQLSTATE class 08, 57P01–03, 53300). */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', '57P01', '57P02', '57P03', '53300']);

/** Whether `err` says the database cannot be reached now (as opposed to a statement it refused). */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof HistoryUnavailableError) return true;
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  const message = (err as { message?: unknown }).message;
  return typeof message === 'string' && /connection terminated|timeout exceeded when trying to connect|query read timeout|connection error|not queryable/i.test(message);
}

/** Where the pool connects, without a password, for messages. */
export function describeTarget(connection: string | pg.PoolConfig): string {
  if (typeof connection !== 'string') return `${connection.host ?? 'localhost'}:${connection.port ?? 5432}/${connection.database ?? ''}`;
  try {
    const url = new URL(connection);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'the configured PostgreSQL database';
  }
}

/**
 * One connection outside the pool, without the pool's time limit on queries (a migration may run
 * long), for the caller to `end()`.
 * @throws HistoryUnavailableError when the database cannot be reached
 */
export async function connectOnce(opts: ConnectionOptions): Promise<pg.Client> {
  const base = typeof opts.connection === 'string' ? { connectionString: opts.connection } : opts.connection;
  const client = new pg.Client({ ...base, connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000, application_name: 'mcp-approval-console', types });
  client.on('error', () => undefined); // a connection lost mid-migration fails the migration's query
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => undefined);
    throw isConnectionError(err) ? new HistoryUnavailableError(`The history database (${describeTarget(opts.connection)}) cannot be reached: ${(err as Error).message}`, { cause: err }) : err;
  }
}

/** Creates the pool (no connection is opened until the first query). */
export function createConnection(opts: ConnectionOptions): Connection {
  const base = typeof opts.connection === 'string' ? { connectionString: opts.connection } : opts.connection;
  const pool = new pg.Pool({
    ...base,
    max: opts.maxConnections ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    query_timeout: opts.queryTimeoutMs ?? 30_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'mcp-approval-console',
    types,
  });
  const target = describeTarget(opts.connection);
  const listeners: Array<() => void> = [];
  let down: HistoryUnavailableError | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const probe = (delay: number) => {
    timer = setTimeout(() => {
      timer = undefined;
      if (closed) return;
      pool.query('SELECT 1').then(
        () => {
          if (closed) return;
          opts.logger?.info('history database reachable again', { database: target });
          down = null;
          for (const fn of listeners) fn();
        },
        () => probe(Math.min(delay * 2, RECONNECT_MAX_MS)),
      );
    }, delay * (0.75 + Math.random() * 0.5));
    timer.unref?.();
  };
  /** Notes a failed call: a connection error marks the database unavailable (and starts the probe). */
  const failed = (err: unknown): unknown => {
    if (!isConnectionError(err) || closed) return err;
    if (down === null) {
      down = new HistoryUnavailableError(`The history database (${target}) cannot be reached: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      opts.logger?.error('history database unreachable; reconnecting', { database: target, error: down.message });
      probe(RECONNECT_MIN_MS);
    }
    return down;
  };
  // An idle connection the server ended (restart, crash): the pool drops it and tells us here.
  pool.on('error', (err) => void failed(err));
  // A connection in use between two queries (a transaction, the migration) reports it on itself:
  // unheard, that would be an uncaught exception.
  pool.on('connect', (client) => client.on('error', (err) => void failed(err)));

  const guard = () => {
    if (closed) throw new Error('history store is closed');
    if (down) throw down;
  };
  const query = async <R>(text: string, params?: Params): Promise<R[]> => {
    guard();
    try {
      return (await pool.query(text, params as unknown[])).rows as R[];
    } catch (err) {
      throw failed(err);
    }
  };
  const client = async (): Promise<pg.PoolClient> => {
    guard();
    try {
      return await pool.connect();
    } catch (err) {
      throw failed(err);
    }
  };
  return {
    query,
    async transaction(fn) {
      const c = await client();
      let broken: unknown;
      try {
        await c.query('BEGIN');
        const result = await fn(async (text, params) => (await c.query(text, params as unknown[])).rows);
        await c.query('COMMIT');
        return result;
      } catch (err) {
        broken = err;
        await c.query('ROLLBACK').catch(() => undefined);
        throw failed(err);
      } finally {
        c.release(broken !== undefined && isConnectionError(broken) ? (broken as Error) : undefined); // a broken connection is not reused
      }
    },
    available: () => down === null && !closed,
    onAvailable: (fn) => void listeners.push(fn),
    unavailableError: () => down,
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      await pool.end();
    },
  };
}
