/**
 * Retention: removes whole sessions the settings no longer keep (older than N days, beyond the
 * newest N sessions), at start, every hour and after the settings change. Work is split into small
 * transactions with a yield to the event loop between them, so a large prune never stalls the
 * console (requests, streaming) for more than one batch. Sessions with an unfinished request are
 * never pruned.
 */
import type { HistorySettings } from '../../shared/contract/history.js';
import type { Logger } from '../ports.js';
import type { HistoryStore } from '../store/history-store.js';

/** One day in ms. */
export const DAY_MS = 86_400_000;
/** Default time between two background prunes, in ms. */
export const PRUNE_INTERVAL_MS = 3_600_000;
/** Sessions deleted per transaction. */
const BATCH = 200;

/** The pruner. */
export interface Retention {
  /**
   * Prunes now; resolves with the number of entries deleted. A call while a prune runs waits for
   * it and then prunes again (so new settings always take effect). Never rejects: failures (e.g.
   * the store closed at shutdown) are logged and count as 0.
   */
  run(): Promise<number>;
  /** Starts the hourly timer (unref'd: it never keeps the process alive). Idempotent. */
  start(): void;
  /** Stops the timer and makes any running prune stop after its current batch. */
  stop(): void;
}

/** What the pruner needs. */
export interface RetentionDeps {
  store: HistoryStore;
  settings(): HistorySettings;
  /** Clock in epoch ms. */
  now(): number;
  logger: Logger;
  /** Called after a prune that deleted something, with the number of entries and the sessions (conversation ids) removed. */
  onPruned?(entries: number, sessions: readonly string[]): void;
  intervalMs?: number;
}

/** Creates the pruner (not started). */
export function createRetention(deps: RetentionDeps): Retention {
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let running: Promise<number> | undefined;

  const pruneOnce = async (): Promise<{ deleted: number; sessions: string[] }> => {
    const { retentionDays, retentionSessions } = deps.settings();
    if (retentionDays === null && retentionSessions === null) return { deleted: 0, sessions: [] };
    const candidates = await deps.store.pruneCandidates({
      olderThan: retentionDays === null ? undefined : deps.now() - retentionDays * DAY_MS,
      keepSessions: retentionSessions ?? undefined,
    });
    let deleted = 0;
    const sessions: string[] = [];
    for (let i = 0; i < candidates.length && !stopped; i += BATCH) {
      const batch = candidates.slice(i, i + BATCH);
      deleted += await deps.store.deleteSessions(batch);
      sessions.push(...batch);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { deleted, sessions };
  };

  const guarded = async (): Promise<number> => {
    try {
      const { deleted, sessions } = await pruneOnce();
      if (deleted > 0) {
        deps.logger.info('history retention pruned entries', { deleted });
        deps.onPruned?.(deleted, sessions);
      }
      return deleted;
    } catch (err) {
      if (!stopped) deps.logger.error('history retention failed', { error: err instanceof Error ? err.message : String(err) });
      return 0;
    }
  };

  const run = (): Promise<number> => {
    const next = (running ?? Promise.resolve(0)).then(() => (stopped ? 0 : guarded()));
    running = next;
    void next.then(() => {
      if (running === next) running = undefined;
    });
    return next;
  };

  return {
    run,
    start() {
      if (timer || stopped) return;
      timer = setInterval(() => void run(), deps.intervalMs ?? PRUNE_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
