/**
 * Background sync for the history store: flushes SQLite's write-ahead log to stable storage with
 * one fsync on libuv's thread pool for every commit made meanwhile, within {@link
 * BACKGROUND_SYNC_MS} of a commit, instead of one fsync per commit on the event loop
 * (`synchronous = FULL`).
 *
 * The store runs with `synchronous = NORMAL` (WAL mode): a commit is in the WAL file — the OS has
 * it, so it survives the process being killed at any moment — and nobody waits for the fsync: it
 * only shortens what a power cut or an OS crash could lose to the commits of the last {@link
 * BACKGROUND_SYNC_MS} (plus at most two fsyncs' time). An fsync flushes the file's inode whichever
 * descriptor asks, so our own descriptor of `<db>-wal` syncs what SQLite wrote. It is opened at the first round and kept: SQLite deletes the WAL only
 * when the last connection closes (ours is open until `closed()`), and truncating keeps the file.
 * (Opening and closing it per round through fs/promises cost ~0.7 ms of event loop per round.)
 * The folder is synced once, on the first round, as SQLite does when it creates a WAL (so the
 * file's name survives a power cut too).
 */
import { close, closeSync, existsSync, fdatasync, fdatasyncSync, open } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const openAsync = promisify(open);
const fdatasyncAsync = promisify(fdatasync);
const closeAsync = promisify(close);

/**
 * How long a commit stays unsynced at most before its background round starts, in ms: the window
 * a power cut or an OS crash (not a crash of the console: the OS has the commit) can lose. Under
 * steady load that is one fsync per window, whatever the rate of commits.
 */
export const BACKGROUND_SYNC_MS = 100;

/** The group-commit state of one database. */
export interface GroupSync {
  /** Call after every commit: counts it; a background round syncs it within {@link BACKGROUND_SYNC_MS}. */
  committed(): void;
  /**
   * Resolves once every commit counted before the call is synced, starting a round now if none
   * runs (at once when none is pending or after {@link GroupSync.closed}). Nothing in the answer
   * path waits for this. @throws (rejects) the sync's error; the next round retries.
   */
  synced(): Promise<void>;
  /**
   * The error of the last failed sync round nobody was waiting for, once (then undefined); the
   * store reports it through its next `durable()`. A failed round is retried within {@link BACKGROUND_SYNC_MS}.
   */
  takeFailure(): unknown;
  /**
   * The database was closed: syncs what is still unsynced, at once (a clean shutdown leaves
   * nothing for a power cut to take), resolves every waiter and syncs no more.
   */
  closed(): void;
}

/** Options of {@link createGroupSync}; tests replace the fsync. */
export interface GroupSyncOptions {
  /** Flushes `file` to stable storage; default: `fdatasync` on a descriptor kept open (ENOENT: nothing to do yet). */
  sync?: (file: string) => Promise<void>;
  /** The same, synchronously, at {@link GroupSync.closed} (default: `fdatasync` on the kept descriptor, when the file is still there). */
  syncAtClose?: (file: string) => void;
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
  /** Syncs on the kept descriptor, synchronously, if one is open and the file still exists (the last connection's close checkpoints and deletes it). */
  syncNow(file: string): void;
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
    syncNow(file) {
      if (fd !== undefined && existsSync(file)) fdatasyncSync(fd);
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

/** A caller of {@link GroupSync.synced} waiting for the commits up to its count to be synced. */
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
  readonly syncAtClose: ((file: string) => void) | undefined;
  /** The folder is still to be synced (on the first round). */
  folderPending: boolean;
  committedCount: number;
  syncedCount: number;
  running: boolean;
  isClosed: boolean;
  /** The error of a failed round nobody waited for, until {@link GroupSync.takeFailure}. */
  failure: unknown;
  readonly waiters: Waiter[];
  background: ReturnType<typeof setTimeout> | undefined;
  /** The background timer fired while a round ran: the next round starts as soon as it ends. */
  overdue: boolean;
  /** {@link backgroundDue} of this state, made once: what the background timer runs. */
  readonly onBackground: () => void;
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
    syncAtClose: options.syncAtClose ?? kept?.syncNow,
    folderPending: options.syncFolder ?? process.platform !== 'win32',
    committedCount: 0,
    syncedCount: 0,
    running: false,
    isClosed: dbPath === null,
    failure: undefined,
    waiters: [],
    background: undefined,
    overdue: false,
    onBackground: () => backgroundDue(st),
  };
  return {
    committed: () => committed(st),
    synced: () => synced(st),
    takeFailure: () => {
      const failure = st.failure;
      st.failure = undefined;
      return failure;
    },
    closed: () => closed(st),
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
 * Syncs the WAL (and, the first time, the folder) once, then again while a waiter needs a later
 * commit synced (a commit made meanwhile that nobody waits for is left to the next background
 * round: one fsync per {@link BACKGROUND_SYNC_MS} under steady load, not one after another).
 * A failed sync rejects every waiter (or, with none, is kept for {@link GroupSync.takeFailure})
 * and ends the round. A round that ends with commits unsynced arms the timer again, or starts the
 * next round at once when their timer already fired while it ran (a slow disk).
 */
async function round(st: SyncState): Promise<void> {
  st.running = true;
  try {
    do {
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
        if (st.waiters.length === 0) st.failure = err;
        settle(st, Number.POSITIVE_INFINITY, err); // everyone waiting fails; the commits are tried again
        return;
      }
    } while (!st.isClosed && st.waiters.length > 0 && st.syncedCount < st.committedCount);
  } finally {
    st.running = false;
    if (st.overdue) {
      st.overdue = false;
      start(st);
    } else if (st.syncedCount < st.committedCount) arm(st);
  }
}

/** Starts a round unless one is running, the database is closed, or nothing is unsynced. */
function start(st: SyncState): void {
  if (!st.running && !st.isClosed && st.syncedCount < st.committedCount) void round(st);
}

/** The background timer fired: forgets it and starts a round, or marks the running one's successor overdue. */
function backgroundDue(st: SyncState): void {
  st.background = undefined;
  if (st.running) st.overdue = true;
  else start(st);
}

/** {@link GroupSync.committed}: counts the commit and arms the background timer. */
function committed(st: SyncState): void {
  st.committedCount++;
  arm(st);
}

/** Arms the background timer unless it is armed or the database closed. */
function arm(st: SyncState): void {
  if (st.background !== undefined || st.isClosed) return;
  st.background = setTimeout(st.onBackground, BACKGROUND_SYNC_MS);
  st.background.unref?.();
}

/** {@link GroupSync.synced}: resolved at once when nothing is unsynced; else waits for the commits counted so far and starts a round. */
function synced(st: SyncState): Promise<void> {
  if (st.isClosed || st.syncedCount >= st.committedCount) return Promise.resolve();
  const done = new Promise<void>((resolve, reject) => st.waiters.push({ upTo: st.committedCount, resolve, reject }));
  start(st);
  return done;
}

/** {@link GroupSync.closed}: syncs what is unsynced now, then no more; the kept descriptor is closed and every waiter resolved. */
function closed(st: SyncState): void {
  if (st.isClosed) return;
  st.isClosed = true;
  clearTimeout(st.background);
  if (st.syncedCount < st.committedCount) {
    try {
      st.syncAtClose?.(`${st.dbPath}-wal`);
    } catch {
      // closing goes on: the OS still has every commit, only a power cut could take them
    }
  }
  st.kept?.release(); // an fsync still running on it fails harmlessly (EBADF): the database is closed and synced
  st.syncedCount = st.committedCount;
  settle(st, Number.POSITIVE_INFINITY);
}
