/**
 * Group commit for the history store: makes SQLite's write-ahead log durable with one fsync on
 * libuv's thread pool for every commit made meanwhile, instead of one fsync per commit on the
 * event loop (`synchronous = FULL`).
 *
 * The store runs with `synchronous = NORMAL` (WAL mode): a commit is in the WAL file — the OS has
 * it, so it survives a crash of the process — and this module fsyncs that file after commits. An
 * fsync flushes the file's inode whichever descriptor asks, so opening `<db>-wal` ourselves syncs
 * what SQLite wrote; opening it for each round (instead of keeping a descriptor) follows SQLite if
 * it ever deletes and recreates the file. The folder is synced once, on the first round, as SQLite
 * does when it creates a WAL (so the file's name survives a power cut too).
 */
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The group-commit state of one database. */
export interface GroupSync {
  /** Call after every commit: counts it and starts a background sync round if none is running. */
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
  /** Flushes `file` to stable storage; default: open it, `fdatasync`, close (ENOENT: nothing to do). */
  sync?: (file: string) => Promise<void>;
  /** Also sync the database's folder on the first round (default: not on Windows, which cannot). */
  syncFolder?: boolean;
}

/** Opens `file`, flushes it (`fdatasync`, F_FULLFSYNC on macOS via libuv) and closes it; a missing file is fine. */
async function syncFile(file: string, flags: 'r' | 'r+'): Promise<void> {
  let handle;
  try {
    handle = await open(file, flags);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates the group-commit state for the database at `dbPath` (null: in-memory, nothing to sync).
 */
export function createGroupSync(dbPath: string | null, options: GroupSyncOptions = {}): GroupSync {
  const sync = options.sync ?? ((file: string) => syncFile(file, 'r+'));
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
            await syncFile(dirname(dbPath!), 'r');
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

  return {
    committed() {
      committedCount++;
      start();
    },
    durable() {
      if (isClosed || syncedCount >= committedCount) return Promise.resolve();
      const done = new Promise<void>((resolve, reject) => waiters.push({ upTo: committedCount, resolve, reject }));
      start();
      return done;
    },
    closed() {
      isClosed = true;
      syncedCount = committedCount;
      settle(Number.POSITIVE_INFINITY);
    },
  };
}
