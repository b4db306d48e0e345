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
function keptOpen(): { sync(file: string): Promise<void>; release(): void } {
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

/**
 * Creates the group-commit state for the database at `dbPath` (null: in-memory, nothing to sync).
 */
export function createGroupSync(dbPath: string | null, options: GroupSyncOptions = {}): GroupSync {
  const kept = options.sync ? undefined : keptOpen();
  const sync = options.sync ?? kept!.sync;
  let folderPending = options.syncFolder ?? process.platform !== 'win32';
  /** Commits counted, and how many of them are known synced. */
  let committedCount = 0;
  let syncedCount = 0;
  let running = false;
  let isClosed = dbPath === null;
  const waiters: Array<{ upTo: number; resolve(): void; reject(err: unknown): void }> = [];

  const settle = (upTo: number, err?: unknown) => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i]!;
      if (w.upTo > upTo) continue;
      waiters.splice(i, 1);
      if (err === undefined) w.resolve();
      else w.reject(err);
    }
  };

  async function round(): Promise<void> {
    running = true;
    try {
      while (!isClosed && syncedCount < committedCount) {
        const upTo = committedCount;
        try {
          await sync(`${dbPath}-wal`);
          if (folderPending) {
            await syncOnce(dirname(dbPath!), 'r');
            folderPending = false;
          }
          syncedCount = Math.max(syncedCount, upTo);
          settle(upTo);
        } catch (err) {
          settle(Number.POSITIVE_INFINITY, err); // everyone waiting fails; the next commit or durable() tries again
          return;
        }
      }
    } finally {
      running = false;
    }
  }

  const start = () => {
    if (!running && !isClosed && syncedCount < committedCount) void round();
  };
  let background: ReturnType<typeof setTimeout> | undefined;

  return {
    committed() {
      committedCount++;
      if (background !== undefined || isClosed) return;
      background = setTimeout(() => {
        background = undefined;
        start();
      }, BACKGROUND_SYNC_MS);
      background.unref?.();
    },
    durable() {
      if (isClosed || syncedCount >= committedCount) return Promise.resolve();
      const done = new Promise<void>((resolve, reject) => waiters.push({ upTo: committedCount, resolve, reject }));
      start();
      return done;
    },
    closed() {
      isClosed = true;
      clearTimeout(background);
      kept?.release(); // an fsync still running on it fails harmlessly (EBADF): the database is closed and synced
      syncedCount = committedCount;
      settle(Number.POSITIVE_INFINITY);
    },
  };
}
