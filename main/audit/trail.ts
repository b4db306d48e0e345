/**
 * The audit trail as the console's parts use it: `record` what happened, in call order; the
 * records of one turn of the event loop are appended together (one transaction), and `durable()` is the barrier
 * that resolves once everything recorded before it is committed (as History's `durable()`: it
 * survives the process being killed) — the console awaits it,
 * with History's, before it answers a caller, so a decision's record exists before its effect.
 *
 * A record may wait on something (the digest of a big payload, computed in slices): `record`
 * takes a promise of the input, and the records after it wait their turn, so the chain's order is
 * always the order of the calls. An append that fails (the team database unreachable) keeps its
 * records and is tried again (every {@link RETRY_MS}, and at the next `record` or `durable`); the
 * failure is reported by the next `durable()`. Nothing recorded is dropped while the console runs.
 */
import { AuditInputSchema, MAX_AUDIT_DETAILS_CHARS, type AuditActor, type AuditHead, type AuditInput, type AuditRecordView } from '../../shared/contract/audit.js';
import type { Logger } from '../logger.js';
import type { SealInput, StoredAuditRecord } from './chain.js';
import type { AuditListOptions, AuditStore } from './store.js';

/** How long a failed append waits before it is tried again, in ms. */
export const RETRY_MS = 1_000;

/** What a part of the console records with (the recording API; see docs/audit.md for the kinds). */
export interface AuditRecorder {
  /**
   * Records `input` (shared/contract/audit.ts {@link AuditInputSchema}), after everything recorded
   * before it; a promise is awaited in its turn (one that rejects or resolves `undefined` records
   * nothing, and is logged). Returns at once.
   * @throws TypeError when `input` breaks the schema (an unknown kind, a subject too long, details
   *   that are not JSON or longer than {@link MAX_AUDIT_DETAILS_CHARS}) — a defect of the caller
   */
  record(input: AuditInput | Promise<AuditInput | undefined>): void;
}

/** The trail: recording, the durability barrier, and reads for the audit view and verification. */
export interface AuditTrail extends AuditRecorder {
  readonly store: AuditStore;
  /**
   * Resolves once every record made before the call is appended and committed.
   * @throws (rejects) the error of an append that failed since the last call (its records are
   *   kept and tried again), or of the sync
   */
  durable(): Promise<void>;
  /** The chain's head as the store has it. */
  head(): Promise<AuditHead>;
  /** A page of records for people, newest first. */
  list(opts: AuditListOptions): Promise<AuditRecordView[]>;
  /** Appends what is pending (failures logged) and closes the store. Idempotent. */
  close(): Promise<void>;
}

/**
 * Checks an input and makes it ready to seal (details as JSON text, `at` filled in).
 * @throws TypeError when it breaks the schema or its details are too long
 */
export function sealInputOf(input: AuditInput, now: () => number): SealInput {
  const parsed = AuditInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(`not an audit record: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  const details = JSON.stringify(parsed.data.details);
  if (details.length > MAX_AUDIT_DETAILS_CHARS) throw new TypeError(`audit details too long (${details.length} characters; at most ${MAX_AUDIT_DETAILS_CHARS})`);
  return { at: parsed.data.at ?? now(), actor: parsed.data.actor, kind: parsed.data.kind, subject: parsed.data.subject, details };
}

/** A stored record for people: details parsed (a record whose details are not JSON shows them as `{ text }`). */
export function viewOf(r: StoredAuditRecord): AuditRecordView {
  let details: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(r.details);
    details = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    details = { text: r.details };
  }
  const actor: AuditActor = { kind: r.actorKind as AuditActor['kind'], ...(r.actorId !== null && { id: r.actorId }), ...(r.actorName !== null && { name: r.actorName }) };
  return { seq: r.seq, at: r.at, actor, kind: r.kind, subject: r.subject, details, hash: r.hash };
}

/** Options of {@link createAuditTrail}. */
export interface AuditTrailOptions {
  logger: Logger;
  /** Clock in epoch ms (a record's `at` when the input has none). */
  now: () => number;
}

/** The trail over `store`. */
export function createAuditTrail(store: AuditStore, opts: AuditTrailOptions): AuditTrail {
  /** Inputs not yet appended, in call order (a promise until it settles). */
  const queue: Array<SealInput | Promise<SealInput | undefined>> = [];
  let flushing: Promise<void> | undefined;
  let scheduled = false;
  let failure: unknown;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  /** Appends the queue's settled front, in order, until it is empty or an append fails. */
  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch: SealInput[] = [];
      let taken = 0;
      for (const item of queue) {
        if (item instanceof Promise) {
          if (batch.length > 0) break; // append what is ready first; the promise is awaited next
          const input = await item;
          taken += 1;
          if (input) batch.push(input);
          break;
        }
        batch.push(item);
        taken += 1;
      }
      try {
        await store.append(batch);
      } catch (err) {
        failure ??= err;
        queue.splice(0, taken, ...batch); // kept, settled, in order
        opts.logger.error('could not append to the audit trail; trying again', { where: store.where, error: err instanceof Error ? err.message : String(err) });
        if (!closed) {
          clearTimeout(retry);
          retry = setTimeout(() => void flush(), RETRY_MS);
          retry.unref?.();
        }
        return;
      }
      queue.splice(0, taken);
    }
  };

  /** Runs {@link drain} unless one runs; resolves when the queue is empty or an append failed. */
  const flush = (): Promise<void> => {
    if (flushing) return flushing.then(() => (queue.length > 0 && failure === undefined ? flush() : undefined));
    flushing = drain().finally(() => (flushing = undefined));
    return flushing;
  };

  const settled = (input: Promise<AuditInput | undefined>): Promise<SealInput | undefined> =>
    input
      .then((value) => (value === undefined ? undefined : sealInputOf(value, opts.now)))
      .catch((err: unknown) => {
        opts.logger.error('an audit record could not be made', { error: err instanceof Error ? err.message : String(err) });
        return undefined;
      });

  return {
    store,
    record(input) {
      if (closed) {
        // Something finished after shutdown began (a late digest): nowhere to append it now.
        opts.logger.error('an audit record came after the trail closed', { kind: input instanceof Promise ? 'pending' : input.kind });
        return;
      }
      queue.push(input instanceof Promise ? settled(input) : sealInputOf(input, opts.now));
      if (scheduled) return;
      scheduled = true;
      // At the end of this turn of the event loop: the records of every request handled in it
      // share one transaction (one per request was a large part of an auto-approved call's cost).
      setImmediate(() => {
        scheduled = false;
        void flush();
      });
    },
    async durable() {
      await flush();
      if (queue.length > 0 && failure === undefined) await flush();
      const failed = failure;
      failure = undefined;
      if (failed !== undefined) throw failed;
      await store.durable();
    },
    head: () => store.head(),
    list: async (o) => (await store.list(o)).map(viewOf),
    async close() {
      if (closed) return;
      await flush().catch(() => undefined);
      closed = true;
      clearTimeout(retry);
      if (queue.length > 0) opts.logger.error('audit records could not be appended before closing', { where: store.where, records: queue.length });
      await store.close();
    },
  };
}
