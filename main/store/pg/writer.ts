/**
 * The PostgreSQL history's write queue: saves return at once and are sent behind the writes
 * before them, one transaction at a time per store; the saves made while a transaction is in
 * flight form the next one (group commit). Like SQLite's `saveSoon`, a state a person waits on is
 * sent once the calling code has run, a passing one within {@link SAVE_SOON_WINDOW_MS}, and the
 * same id saved again before then is sent once, in its latest state.
 *
 * Failures: entries the database refused (a statement error) are retried one by one so one bad
 * entry does not lose the others, and the error is kept for the next `durable()`. When the
 * database cannot be reached, the entries stay queued (the latest state of each id) and are sent
 * again once it is reachable; every `durable()` meanwhile rejects with the
 * {@link HistoryUnavailableError}. Nothing a caller was told is durable is ever dropped.
 */
import { OPEN_STATUSES, type HistoryEntry } from '../../../shared/contract/state.js';
import type { Logger } from '../../ports.js';
import { SAVE_SOON_WINDOW_MS } from '../history-api.js';
import { isConnectionError, type Connection } from './connection.js';
import type { PreparedEntry } from './write.js';

/** States sent at once by `saveSoon`: a person is looking at them. */
const WAITING_ON_PERSON = new Set<string>(OPEN_STATUSES.filter((status) => status !== 'generating'));

/** SQLSTATEs of a transaction PostgreSQL asks to run again (serialization failure, deadlock). */
const RETRY_CODES = new Set(['40001', '40P01']);

/** Attempts of one transaction that PostgreSQL asks to run again. */
const RETRIES = 3;

/** A queued write: the entry (or its rows, prepared when saved), and the generation of its last save. */
interface Queued {
  entry: HistoryEntry;
  prepared?: PreparedEntry;
  gen: number;
}

/** A caller waiting for every write up to `gen` to be attempted (`durable`: and to report failures). */
interface Waiter {
  gen: number;
  durable: boolean;
  resolve(): void;
  reject(err: unknown): void;
}

/** What the writer needs from the store. */
export interface WriterDeps {
  conn: Connection;
  /** An entry's rows. @throws TypeError when it cannot be encoded */
  prepare(entry: HistoryEntry): PreparedEntry;
  /** Writes a batch (distinct ids) in one transaction. @throws the server's error */
  commit(batch: readonly PreparedEntry[]): Promise<void>;
  logger?: Logger;
}

/** The write queue of one store. */
export class Writer {
  private readonly pending = new Map<string, Queued>();
  private readonly waiters: Waiter[] = [];
  /** Generation of the latest save; every save before it has a smaller one. */
  private gen = 0;
  /** Every generation up to this one has been attempted. */
  private done = 0;
  private running = false;
  private soon: ReturnType<typeof setTimeout> | undefined;
  private microtaskQueued = false;
  /** Why a write failed since the last `durable()` reported it. */
  private failure: unknown;

  constructor(private readonly deps: WriterDeps) {
    deps.conn.onAvailable(() => this.kick());
  }

  /** Queues `entry` (rows already prepared, or prepared when sent) and sends it at once. */
  save(entry: HistoryEntry, prepared?: PreparedEntry): void {
    this.queue(entry, prepared);
    this.sendAfterThisTick();
  }

  /** Queues entries to be sent together (one transaction while they are alone in the queue). */
  saveMany(entries: ReadonlyArray<{ entry: HistoryEntry; prepared: PreparedEntry }>): void {
    for (const e of entries) this.queue(e.entry, e.prepared);
    this.sendAfterThisTick();
  }

  /** Queues `entry` to be sent with the saves of the same moment (see the module comment). */
  saveSoon(entry: HistoryEntry): void {
    this.queue(entry);
    if (WAITING_ON_PERSON.has(entry.status)) this.sendAfterThisTick();
    else this.soon ??= setTimeout(() => ((this.soon = undefined), this.kick()), SAVE_SOON_WINDOW_MS);
  }

  /** Resolves once every write queued before the call was attempted; rejects with the first failure since the last call. */
  durable(): Promise<void> {
    return this.wait(true);
  }

  /** Resolves once every write queued before the call was attempted (committed, or failed); never rejects. */
  settled(): Promise<void> {
    return this.wait(false);
  }

  /** Sends what is queued and waits for it; a failure is logged (nobody is left to tell). */
  async close(): Promise<void> {
    clearTimeout(this.soon);
    await this.durable().catch((err: unknown) => this.deps.logger?.error('history writes lost at close', { error: String(err) }));
  }

  private queue(entry: HistoryEntry, prepared?: PreparedEntry): void {
    // A pending id keeps its place in the queue (its first save's), with the latest state.
    const gen = ++this.gen;
    const queued = this.pending.get(entry.id);
    if (queued) Object.assign(queued, { entry, prepared, gen });
    else this.pending.set(entry.id, { entry, prepared, gen });
  }

  private sendAfterThisTick(): void {
    if (this.microtaskQueued) return;
    this.microtaskQueued = true;
    queueMicrotask(() => {
      this.microtaskQueued = false;
      this.kick();
    });
  }

  private wait(durable: boolean): Promise<void> {
    const gen = this.gen;
    if (gen <= this.done && !this.running) {
      if (!durable || this.failure === undefined) return Promise.resolve();
      const failure = this.failure;
      this.failure = undefined;
      return Promise.reject(failure);
    }
    const promise = new Promise<void>((resolve, reject) => this.waiters.push({ gen, durable, resolve, reject }));
    this.kick();
    return promise;
  }

  /** Starts sending unless a transaction is in flight (its end sends the rest). */
  private kick(): void {
    if (this.running) return;
    clearTimeout(this.soon);
    this.soon = undefined;
    this.running = true;
    void this.drain()
      .catch((err: unknown) => void (this.failure ??= err)) // not expected: every step catches its own
      .finally(() => {
        this.running = false;
        this.settle();
        if (this.pending.size > 0 && this.deps.conn.available()) this.kick(); // queued during the last settle
      });
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0) {
      const upTo = this.gen;
      const batch = [...this.pending.values()];
      this.pending.clear();
      if (!this.deps.conn.available()) {
        this.requeue(batch, this.deps.conn.unavailableError());
        this.done = upTo;
        return;
      }
      await this.write(batch);
      this.done = upTo;
      this.settle();
    }
  }

  /** Writes a batch; on a statement error, each entry alone; on a connection error, keeps them queued. */
  private async write(batch: Queued[]): Promise<void> {
    const prepared: Array<{ q: Queued; p: PreparedEntry }> = [];
    for (const q of batch) {
      try {
        prepared.push({ q, p: q.prepared ?? this.deps.prepare(q.entry) });
      } catch (err) {
        this.failure ??= err; // cannot be encoded: never will be
      }
    }
    if (prepared.length === 0) return;
    const failed = await this.attempt(prepared.map((x) => x.p));
    if (failed === undefined) return;
    if (isConnectionError(failed)) return this.requeue(prepared.map((x) => x.q), failed);
    if (prepared.length === 1) {
      this.failure ??= failed;
      return;
    }
    for (const one of prepared) {
      const err = await this.attempt([one.p]);
      if (err === undefined) continue;
      if (isConnectionError(err)) this.requeue([one.q], err);
      else this.failure ??= err;
    }
  }

  /** Commits, running it again when PostgreSQL asks to; the error, or undefined when committed. */
  private async attempt(batch: readonly PreparedEntry[]): Promise<unknown> {
    for (let i = 1; ; i++) {
      try {
        await this.deps.commit(batch);
        return undefined;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (i < RETRIES && typeof code === 'string' && RETRY_CODES.has(code)) continue;
        return err;
      }
    }
  }

  /** Puts entries back (unless saved again meanwhile) under a new generation, and keeps the error. */
  private requeue(batch: Queued[], err: unknown): void {
    for (const q of batch) {
      if (this.pending.has(q.entry.id)) continue; // a later state supersedes it
      this.pending.set(q.entry.id, { ...q, gen: ++this.gen });
    }
    this.failure ??= err;
  }

  /** Settles the waiters whose writes were all attempted; durable ones get the failure, if any. */
  private settle(): void {
    const due = this.waiters.filter((w) => w.gen <= this.done);
    if (due.length === 0) return;
    this.waiters.splice(0, this.waiters.length, ...this.waiters.filter((w) => w.gen > this.done));
    const failure = this.failure;
    if (due.some((w) => w.durable)) this.failure = undefined;
    for (const w of due) {
      if (w.durable && failure !== undefined) w.reject(failure);
      else w.resolve();
    }
  }
}
