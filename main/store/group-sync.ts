/**
 * Group commit for the history store: makes SQLite's write-ahead log durable with one fsync on
 * libuv's thread pool for every commit made meanwhile, instead of one fsync per commit on the
 * event loop (`synchronous = FULL`).
 *
 * The store runs with `synchronous = NORMAL` (WAL mode): a commit is in the WAL file — the OS has
 * it, so it survives a crash of the process — and this module fsyncs that file after commits. An
 * fsync flushes the file's inode whichever descriptor asks, so our own descriptor of `<db>-wal`
 * syncs what SQLite wrote. It is opened at the first round and kept: SQLite deletes the WAL only
 * when the last connection closes (ours is open until `closed()`), and truncating keeps the file.
 * (Opening and closing it per round through fs/promises cost ~0.7 ms of event loop per round.)
 * The folder is synced once, on the first round, as SQLite does when it creates a WAL (so the
 * file's name survives a power cut too).
 */
import { close, closeSync, fdatasync, open } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const openAsync = promisify(open);
const fdatasyncAsync = promisify(fdatasync);
const closeAsync = promisify(close);

/**
 * How long a commit may stay unsynced when nobody waits for it, in ms. A round starts at once
 * only for a waiter: starting one on every commit made a delivered answer wait for the fsync of
 * an earlier commit *and* then its own (two fsyncs in series: +2–3 ms per sequential request).
 */
export const BACKGROUND_SYNC_MS = 100;

/** The group-commit state of one database. */
export interface GroupSync {
  /** Call after every commit: counts it; a background round syncs it within {@link BACKGROUND_SYNC_MS}. */
  committed(): void;
  /**
   * Resolves once every commit counted before the call is synced (at once when none is pending or
   * after {@link GroupSync.closed}). @throws (rejects) the sync's error; the next round retries.
   */
  durable(): Promise<void>;
  /** The database was closed (which checkpoints and syncs it): resolve every waiter, sync no more. */
  closed(): void;
  /** Resolves once no sync round runs (at once when none does). */
  idle(): Promise<void>;
}

/** Options of {@link createGroupSync}; tests replace the fsync. */
export interface GroupSyncOptions {
  /** Flushes `file` to stable storage; default: `fdatasync` on a descriptor kept open (ENOENT: nothing to do yet). */
  sync?: (file: string) => Promise<void>;
  /** Also sync the database's folder on the first round (default: not on Windows, which cannot). */
  syncFolder?: boolean;
}

/** Opens `file`, flushes it (`fdatasync`, F_FULLFSYNC on macOS via libuv) and closes it; a missing file is fine. */
async function syncOnce(file: string, flags: 'r' | 'r+'): Promise<void> {
  let fd: number;
  try {
    fd = await openAsync(file, flags);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    await fdatasyncAsync(fd);
  } finally {
    await closeAsync(fd);
  }
}

/** A syncer of one file that keeps its descriptor open between calls; `release` closes it. */
interface KeptOpen {
  sync(file: string): Promise<void>;
  release(): void;
}

/** A {@link KeptOpen} syncer, no descriptor open yet. */
function keptOpen(): KeptOpen {
  let fd: number | undefined;
  return {
    async sync(file) {
      if (fd === undefined) {
        try {
          fd = await openAsync(file, 'r+');
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // nothing committed yet
          throw err;
        }
      }
      await fdatasyncAsync(fd);
    },
    release() {
      if (fd === undefined) return;
      try {
        closeSync(fd);
      } catch {
        // already gone
      }
      fd = undefined;
    },
  };
}

/** A caller of {@link GroupSync.durable} waiting for the commits up to its count to be synced. */
interface Waiter {
  upTo: number;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * What one database's group commit keeps: commits counted and how many of them are known synced,
 * whether a round is running, the callers waiting, and the background round's timer.
 */
interface SyncState {
  /** Null: in-memory, nothing to sync. */
  readonly dbPath: string | null;
  /** The default syncer, when `options.sync` is not given. */
  readonly kept: KeptOpen | undefined;
  readonly sync: (file: string) => Promise<void>;
  /** The folder is still to be synced (on the first round). */
  folderPending: boolean;
  committedCount: number;
  syncedCount: number;
  running: boolean;
  isClosed: boolean;
  readonly waiters: Waiter[];
  background: ReturnType<typeof setTimeout> | undefined;
  /** {@link backgroundDue} of this state, made once: what the background timer runs. */
  readonly onBackground: () => void;
  /** Callers of {@link GroupSync.idle} waiting for the running round to end. */
  readonly idleWaiters: Array<() => void>;
}

/**
 * Creates the group-commit state for the database at `dbPath` (null: in-memory, nothing to sync).
 */
export function createGroupSync(dbPath: string | null, options: GroupSyncOptions = {}): GroupSync {
  const kept = options.sync ? undefined : keptOpen();
  const st: SyncState = {
    dbPath,
    kept,
    sync: options.sync ?? kept!.sync,
    folderPending: options.syncFolder ?? process.platform !== 'win32',
    committedCount: 0,
    syncedCount: 0,
    running: false,
    isClosed: dbPath === null,
    waiters: [],
    background: undefined,
    onBackground: () => backgroundDue(st),
    idleWaiters: [],
  };
  return {
    committed: () => committed(st),
    durable: () => durable(st),
    closed: () => closed(st),
    idle: () => (st.running ? new Promise<void>((resolve) => st.idleWaiters.push(resolve)) : Promise.resolve()),
  };
}

/** Resolves (or, with `err`, rejects) every waiter whose commits are all among the first `upTo`. */
function settle(st: SyncState, upTo: number, err?: unknown): void {
  const { waiters } = st;
  for (let i = waiters.length - 1; i >= 0; i--) {
    const w = waiters[i]!;
    if (w.upTo > upTo) continue;
    waiters.splice(i, 1);
    if (err === undefined) w.resolve();
    else w.reject(err);
  }
}

/**
 * Syncs the WAL (and, the first time, the folder) until every commit counted is synced, settling
 * the waiters after each sync. A failed sync rejects every waiter and ends the round; the next
 * commit or `durable()` tries again.
 */
async function round(st: SyncState): Promise<void> {
  st.running = true;
  try {
    while (!st.isClosed && st.syncedCount < st.committedCount) {
      const upTo = st.committedCount;
      try {
        await st.sync(`${st.dbPath}-wal`);
        if (st.folderPending) {
          await syncOnce(dirname(st.dbPath!), 'r');
          st.folderPending = false;
        }
        st.syncedCount = Math.max(st.syncedCount, upTo);
        settle(st, upTo);
      } catch (err) {
        settle(st, Number.POSITIVE_INFINITY, err); // everyone waiting fails; the next commit or durable() tries again
        return;
      }
    }
  } finally {
    st.running = false;
    for (const resolve of st.idleWaiters.splice(0)) resolve();
  }
}

/** Starts a round unless one is running, the database is closed, or nothing is unsynced. */
function start(st: SyncState): void {
  if (!st.running && !st.isClosed && st.syncedCount < st.committedCount) void round(st);
}

/** The background timer fired: forgets it and starts a round. */
function backgroundDue(st: SyncState): void {
  st.background = undefined;
  start(st);
}

/** {@link GroupSync.committed}: counts the commit and arms the background timer unless it is armed or the database closed. */
function committed(st: SyncState): void {
  st.committedCount++;
  if (st.background !== undefined || st.isClosed) return;
  st.background = setTimeout(st.onBackground, BACKGROUND_SYNC_MS);
  st.background.unref?.();
}

/** {@link GroupSync.durable}: resolved at once when nothing is unsynced; else waits for the commits counted so far and starts a round. */
function durable(st: SyncState): Promise<void> {
  if (st.isClosed || st.syncedCount >= st.committedCount) return Promise.resolve();
  const done = new Promise<void>((resolve, reject) => st.waiters.push({ upTo: st.committedCount, resolve, reject }));
  start(st);
  return done;
}

/** {@link GroupSync.closed}: no more syncs; the kept descriptor is closed and every waiter resolved. */
function closed(st: SyncState): void {
  st.isClosed = true;
  clearTimeout(st.background);
  st.kept?.release(); // an fsync still running on it fails harmlessly (EBADF): the database is closed and synced
  st.syncedCount = st.committedCount;
  settle(st, Number.POSITIVE_INFINITY);
}
