/**
 * Decisions on a team: a person's decision about an item of the shared queue (queue.ts), taken on
 * any instance, becomes a row of `team_decisions` (schema: main/store/pg/migrations/0003_team_queue.sql)
 * that the instance holding the item applies through its own pipeline, then writes the result
 * back; the instance the person used answers their API call with it.
 *
 * - Once: a decision is unique per item and review phase (a new status or content version is a new
 *   phase: queue-mirror.ts). Two reviewers deciding the same review at once — on two instances, or
 *   two windows of one — insert one row; the other is told at once (ApiError `invalid_state`,
 *   `error.decidedElsewhere`). A refused decision (an invalid edit) may be taken again. Drafts
 *   and dismissals are rows too (many per item), applied in order with the decisions.
 * - Applied once: the holder takes pending rows with `FOR UPDATE SKIP LOCKED` while holding its own
 *   lease row `FOR SHARE`, applies them and writes their results in that transaction. A survivor
 *   declaring the holder gone (main/team/instances.ts) must update that lease row first, so it waits
 *   for the transaction, then refuses every row still pending (failover.ts): each row is applied
 *   or refused, never both. A holder that applied a row but could not commit its result (the
 *   database went away) remembers the result and writes it without applying again.
 * - Bounded: the API call resolves or rejects with the result once it is written (a notification
 *   says so; after a reconnect the rows are read again), or after {@link DECISION_WAIT_MS} the
 *   row is withdrawn (refused, `error.holderNoAnswer`) unless it was settled meanwhile; a holder
 *   that stopped gets its pending rows refused by a survivor within its lease.
 * - As the person: a row names who took it (`decider_subject`, `decider_name`: the signed-in person
 *   acting, main/team/access.ts), and the holder applies it as them (`actingAs`), so History's
 *   "decided by" and the audit trail name them wherever they clicked.
 * - Local decisions about items held here take the same road, so reviewers on two instances race
 *   fairly; what a person types on an item held here is applied directly (nothing to race).
 */
import { apiRequests, ApiError, type ApiErrorCode, type ApiParsedInput, type ConsoleService } from '../../shared/contract/api.js';
import { ui, type UiText, type UiTextCode } from '../../shared/contract/ui-text.js';
import { actingAs, personDeciding } from '../audit/actor.js';
import { keepDraftInHistory } from '../history/kept-drafts.js';
import type { Logger } from '../logger.js';
import type { HistoryStore } from '../store/history-api.js';
import { isConnectionError } from '../store/pg/connection.js';
import type { TeamDatabase } from './database.js';
import { TEAM_CHANNEL } from './notify.js';
import type { TeamQueue } from './queue.js';

/** The API methods that act on an item of the shared queue, routed through its holder. */
export const DECISION_METHODS = ['approveRequest', 'rejectRequest', 'cancelGeneration', 'regenerate', 'approveResponse', 'rejectResponse', 'respondElicitation', 'saveDraft', 'dismissItem'] as const;
/** See {@link DECISION_METHODS}. */
export type DecisionMethod = (typeof DECISION_METHODS)[number];

/** How long an API call waits for the holder's result before the decision is withdrawn, in ms. */
export const DECISION_WAIT_MS = 10_000;

/** Most pending rows applied in one transaction. */
const BATCH = 100;

/** The methods that happen once per review phase (the others — drafts, dismissals — many times). */
const ONCE = new Set<DecisionMethod>(['approveRequest', 'rejectRequest', 'cancelGeneration', 'regenerate', 'approveResponse', 'rejectResponse', 'respondElicitation']);

/** What each method is called in a refusal ("Cannot <action>: …"). */
const ACTION: Record<DecisionMethod, UiTextCode> = {
  approveRequest: 'action.approveRequest',
  rejectRequest: 'action.rejectRequest',
  cancelGeneration: 'action.cancelGeneration',
  regenerate: 'action.regenerate',
  approveResponse: 'action.approveResponse',
  rejectResponse: 'action.rejectResponse',
  respondElicitation: 'action.answerElicitation',
  saveDraft: 'action.saveDraft',
  dismissItem: 'action.dismissItem',
};

/** The refusal of `method` because of `why` (a message code, or one with its parameters), as an ApiError `code` (default `invalid_state`). */
export function refusal(method: string, why: UiTextCode | UiText, code: ApiErrorCode = 'invalid_state'): ApiError {
  const action = ACTION[method as DecisionMethod] ?? 'action.approveRequest';
  return new ApiError(code, ui('error.cannotAct', { action: ui(action), why: typeof why === 'string' ? ui(why) : why }));
}

/** An ApiError as a row's `error` (JSON). */
export function errorJson(err: ApiError): string {
  return JSON.stringify({ code: err.code, message: err.message, ...(err.ui && { ui: err.ui }) });
}

/** A row's `error` back as an ApiError. */
function errorOf(json: string | null): ApiError {
  try {
    const e = JSON.parse(json ?? '') as { code?: ApiErrorCode; message?: string; ui?: UiText };
    return new ApiError(e.code ?? 'internal', e.ui ?? e.message ?? 'refused');
  } catch {
    return new ApiError('internal', 'refused');
  }
}

/** Removes the refused decision of item $1 and phase $2, so another may be taken (before {@link INSERT_SQL}, in its transaction). */
const RETRY_SQL = "DELETE FROM team_decisions WHERE item_id = $1 AND phase = $2 AND state = 'refused'";

/**
 * Inserts a decision ($1 item, $2 holder, $3 phase or null, $4 method, $5 input, $6 decided on,
 * $8 and $9 the deciding person's subject and name or null) and notifies the holder ($7 channel);
 * returns its id, none when another of the phase is pending or applied.
 */
const INSERT_SQL =
  'WITH d AS (INSERT INTO team_decisions (item_id, holder, phase, method, input, decided_on, decider_subject, decider_name) VALUES ($1, $2, $3, $4, $5, $6, $8, $9) ' +
  'ON CONFLICT (item_id, phase) WHERE phase IS NOT NULL DO NOTHING RETURNING id) ' +
  "SELECT d.id, pg_notify($7, json_build_object('topic', 'decision', 'id', 'pending:' || $2::text, 'from', $6::text)::text) FROM d";

/** Whether instance $1 still holds its lease; locks its row against a survivor until the transaction ends. */
const HOLDING_SQL = 'SELECT 1 FROM team_instances WHERE id = $1 AND stopped_at IS NULL FOR SHARE';

/** Pending decisions held by $1, oldest first, locked. */
const PENDING_SQL = `SELECT id, item_id, method, input, decider_subject, decider_name FROM team_decisions WHERE holder = $1 AND state = 'pending' ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;

/** Writes results: $1 ids, $2 states, $3 errors; notifies each (`done:<id>`, from $5) on channel $4. */
const SETTLE_SQL =
  "WITH u AS (UPDATE team_decisions AS d SET state = r.state, error = r.error, settled_at = now() FROM unnest($1::bigint[], $2::text[], $3::text[]) AS r(id, state, error) WHERE d.id = r.id RETURNING d.id) " +
  "SELECT pg_notify($4, json_build_object('topic', 'decision', 'id', 'done:' || u.id, 'from', $5::text)::text) FROM u";

/** Withdraws decision $1 if still pending (error $2); notifies on $3 from $4. */
const WITHDRAW_SQL =
  "WITH u AS (UPDATE team_decisions SET state = 'refused', error = $2, settled_at = now() WHERE id = $1 AND state = 'pending' RETURNING id) " +
  "SELECT u.id, pg_notify($3, json_build_object('topic', 'decision', 'id', 'done:' || u.id, 'from', $4::text)::text) FROM u";

/** The state of decisions $1. */
const STATES_SQL = 'SELECT id, state, error FROM team_decisions WHERE id = ANY($1::bigint[])';

/** A pending decision as the holder reads it. */
interface PendingRow {
  id: number;
  item_id: string;
  method: string;
  input: string;
  decider_subject: string | null;
  decider_name: string | null;
}

/** What a decision's application came to. */
type Result = { state: 'applied'; error: null } | { state: 'refused'; error: string };

/** A caller waiting for a decision's result. */
interface Waiter {
  method: string;
  resolve(): void;
  reject(err: unknown): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Runs in the transaction that records a decision about a shared item, before the row is inserted
 * (claims.ts: only the claim's holder decides); what it throws refuses the decision.
 */
export type DecisionGuard = (query: <R>(text: string, params?: readonly unknown[]) => Promise<R[]>) => Promise<void>;

/** The methods the holder applies a decision with: the console's own. */
export type LocalMethods = Pick<ConsoleService, DecisionMethod>;

/** What {@link createTeamDecisions} needs. */
export interface DecisionsDeps {
  team: Pick<TeamDatabase, 'conn' | 'notifier' | 'lease'>;
  queue: Pick<TeamQueue, 'placeOf' | 'forgetOrphan'>;
  /** The console's methods, acting on this instance's pipeline. */
  local: LocalMethods;
  history: Pick<HistoryStore, 'get' | 'save' | 'durable'>;
  logger: Logger;
  now: () => number;
  /** See {@link DECISION_WAIT_MS} (tests). */
  waitMs?: number;
}

/** Decisions about the shared queue's items, on one instance. */
export interface TeamDecisions {
  /**
   * Takes a decision about an item of the shared queue, wherever it is held, and resolves once its
   * holder applied it. An item the shared queue does not have goes to the console's own method.
   * @throws (rejects) what the holder's pipeline threw (ApiError), ApiError `invalid_state`
   *   (`error.decidedElsewhere`: another decision of the same review was taken first;
   *   `error.holderStopped`; `error.holderNoAnswer`), ApiError `internal` (`error.teamUnavailable`)
   *   while the database cannot be reached; what `guard` threw
   */
  decide<M extends DecisionMethod>(method: M, input: ApiParsedInput<M>, guard?: DecisionGuard): Promise<void>;
  /** Applies the pending decisions about items held here (told by a notification; also after a reconnect). */
  applyPending(): Promise<void>;
  /** Forgets results kept for rows of a lost lease (a survivor refused them). */
  leaseLost(): void;
  close(): void;
}

/** Creates the decisions of one instance and starts applying those held here. */
export function createTeamDecisions(deps: DecisionsDeps): TeamDecisions {
  const { team, queue, logger } = deps;
  const waitMs = deps.waitMs ?? DECISION_WAIT_MS;
  const waiters = new Map<number, Waiter>();
  /** Results applied but not yet written (a failed commit): written again without applying again. */
  const applied = new Map<number, Result>();
  /** The latest insert of each item's rows under way. */
  const inserting = new Map<string, Promise<unknown>>();
  let applying: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const unavailable = (err: unknown): unknown => (isConnectionError(err) ? new ApiError('internal', ui('error.teamUnavailable')) : err);

  const settle = (id: number, result: { state: string; error: string | null }) => {
    const w = waiters.get(id);
    if (!w || result.state === 'pending') return;
    waiters.delete(id);
    clearTimeout(w.timer);
    if (result.state === 'applied') w.resolve();
    else w.reject(errorOf(result.error));
  };
  const check = async (ids: number[]) => {
    if (ids.length === 0) return;
    const rows = await team.conn.query<{ id: number; state: string; error: string | null }>(STATES_SQL, [ids]);
    for (const r of rows) settle(r.id, r);
  };
  const withdraw = async (id: number, method: string) => {
    const why = errorJson(refusal(method, 'error.holderNoAnswer'));
    try {
      const rows = await team.conn.query<{ id: number }>(WITHDRAW_SQL, [id, why, TEAM_CHANNEL, team.lease.id()]);
      if (rows.length > 0) settle(id, { state: 'refused', error: why });
      else await check([id]);
    } catch (err) {
      // The database is gone too: the person is told; the holder may still apply it once it is back.
      const w = waiters.get(id);
      waiters.delete(id);
      w?.reject(unavailable(err));
    }
  };
  const wait = (id: number, method: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => void withdraw(id, method), waitMs);
      timer.unref?.();
      waiters.set(id, { method, resolve, reject, timer });
    });

  /** Applies one row through the console's own method, as the person who took it (History's "decided by", the audit trail). */
  const applyOne = async (row: PendingRow): Promise<Result> => {
    const by = row.decider_subject;
    return by === null ? applyAs(row) : actingAs({ kind: 'person', id: by, name: row.decider_name ?? by }, () => applyAs(row));
  };
  const applyAs = async (row: PendingRow): Promise<Result> => {
    const method = row.method as DecisionMethod;
    const schema = (DECISION_METHODS as readonly string[]).includes(method) ? apiRequests[method].input : undefined;
    const parsed = schema?.safeParse(JSON.parse(row.input));
    if (!parsed?.success) return { state: 'refused', error: errorJson(new ApiError('invalid_input', `${row.method}: the decision could not be read`)) };
    try {
      await (deps.local[method] as (input: unknown) => Promise<unknown>)(parsed.data);
      return { state: 'applied', error: null };
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError('internal', err instanceof Error ? err.message : String(err));
      return { state: 'refused', error: errorJson(e) };
    }
  };
  /** One transaction: the pending rows held here applied and their results written; how many there were. */
  const applyBatch = async (): Promise<number> => {
    const me = team.lease.id();
    const done = await team.conn.transaction(async (query) => {
      if ((await query(HOLDING_SQL, [me])).length === 0) return [];
      const rows = await query<PendingRow>(PENDING_SQL, [me]);
      const results: Array<{ id: number } & Result> = [];
      for (const row of rows) {
        const result = applied.get(row.id) ?? (await applyOne(row));
        applied.set(row.id, result);
        results.push({ id: row.id, ...result });
      }
      if (rows.some((r) => r.method === 'saveDraft')) await deps.history.durable().catch((err: unknown) => logger.warn('team decisions: a draft is not durable yet', { error: String(err) }));
      if (results.length > 0) await query(SETTLE_SQL, [results.map((r) => r.id), results.map((r) => r.state), results.map((r) => r.error), TEAM_CHANNEL, me]);
      return results;
    });
    for (const r of done) {
      applied.delete(r.id);
      settle(r.id, r);
    }
    return done.length;
  };
  const applyPending = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (applying) {
      again = true;
      return applying;
    }
    applying = (async () => {
      do {
        again = false;
        try {
          while ((await applyBatch()) === BATCH);
        } catch (err) {
          if (!isConnectionError(err)) logger.error('team decisions: could not apply decisions', { error: String(err) });
          return; // tried again on the next notification, or after a reconnect
        }
      } while (again && !closed);
    })().finally(() => (applying = undefined));
    return applying;
  };

  const unsubscribe = team.notifier.subscribe('decision', (e) => {
    if (e.id?.startsWith('pending:')) {
      if (e.id.slice('pending:'.length) === team.lease.id()) void applyPending();
    } else if (e.id?.startsWith('done:')) {
      const id = Number(e.id.slice('done:'.length));
      if (waiters.has(id)) void check([id]).catch(() => undefined);
    }
  });
  const resync = () => {
    void applyPending();
    void check([...waiters.keys()]).catch(() => undefined);
  };
  const unresync = team.notifier.onResync(resync);
  team.conn.onAvailable(resync);

  return {
    async decide(method, input, guard) {
      const itemId = (input as { itemId: string }).itemId;
      const place = queue.placeOf(itemId);
      const local = deps.local[method] as (input: unknown) => Promise<void>;
      if (!place) return local(input);
      if (place.local && (method === 'saveDraft' || method === 'dismissItem')) {
        if (guard) await team.conn.transaction(guard).catch((err: unknown) => Promise.reject(unavailable(err)));
        return local(input);
      }
      if (!place.local && place.holder === null) return orphan(method, input);
      const holder = place.local ? team.lease.id() : place.holder!;
      const phase = ONCE.has(method) ? place.phase : null;
      const by = personDeciding();
      const params = [itemId, holder, phase, method, JSON.stringify(input), team.lease.id(), TEAM_CHANNEL, by?.subject ?? null, by?.name ?? null];
      const insert = () =>
        phase === null && !guard
          ? team.conn.query<{ id: number }>(INSERT_SQL, params)
          : team.conn.transaction(async (query) => {
              await guard?.(query);
              if (phase !== null) await query(RETRY_SQL, [itemId, phase]);
              return query<{ id: number }>(INSERT_SQL, params);
            });
      // One item's rows are inserted in the order the calls were made (a draft saved, then the approval), so its holder applies them in that order.
      const mine = (inserting.get(itemId) ?? Promise.resolve()).catch(() => undefined).then(insert);
      inserting.set(itemId, mine);
      let rows: Array<{ id: number }>;
      try {
        rows = await mine;
      } catch (err) {
        throw unavailable(err);
      } finally {
        if (inserting.get(itemId) === mine) inserting.delete(itemId);
      }
      if (rows.length === 0) throw refusal(method, 'error.decidedElsewhere');
      const result = wait(rows[0]!.id, method);
      if (place.local) void applyPending();
      return result;
    },
    applyPending,
    leaseLost: () => applied.clear(),
    close() {
      closed = true;
      unsubscribe();
      unresync();
      for (const [id, w] of waiters) {
        clearTimeout(w.timer);
        w.reject(refusal(w.method, 'error.holderNoAnswer'));
        waiters.delete(id);
      }
    },
  };

  /** A decision about an item nobody holds any more (its holder stopped): only what keeps or removes it. */
  async function orphan(method: DecisionMethod, input: unknown): Promise<void> {
    const { itemId } = input as { itemId: string };
    try {
      if (method === 'saveDraft') return await keepDraftInHistory(deps.history, itemId, (input as ApiParsedInput<'saveDraft'>).draft, deps.now());
      if (method === 'dismissItem') return await queue.forgetOrphan(itemId);
    } catch (err) {
      throw unavailable(err);
    }
    throw refusal(method, 'error.holderStopped');
  }
}
