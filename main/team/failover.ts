/**
 * What the team does when an instance is gone (killed, crashed, cut off from the database past its
 * lease: main/team/instances.ts): the one survivor that found it gone ends what it held —
 *
 * - its items in the shared queue end "the instance holding the caller stopped"
 *   (`outcome.instanceStopped`, `outcome.stopped` `instance_stopped`) and stay on every instance's
 *   queue, ended, held by nobody, until dismissed or {@link ORPHANS_KEPT_MS} later (a person in
 *   the middle of a review sees why it ended: docs/team-queue.md);
 * - the decisions still waiting for it are refused (`error.holderStopped`), so the instances that
 *   took them answer their callers;
 * - its unfinished History entries (those it wrote last) are marked interrupted with that cause.
 *
 * Every instance also sweeps every {@link ORPHAN_SWEEP_MS} for stopped instances that still hold
 * something (a survivor that died mid-way, an instance that stopped while the database was
 * unreachable) and ends the same way, and removes ended items past their time and settled
 * decisions. An instance that was declared gone while cut off runs its `leaseLost` handler
 * (ending what it held itself, decisions.ts and queue-mirror.ts never acting on the old id again).
 */
import { TERMINAL_STATUSES } from '../../shared/contract/state.js';
import { ui } from '../../shared/contract/ui-text.js';
import type { Logger } from '../logger.js';
import type { HistoryStore } from '../store/history-api.js';
import { isConnectionError } from '../store/pg/connection.js';
import type { TeamDatabase } from './database.js';
import { errorJson, refusal } from './decisions.js';
import { TEAM_CHANNEL } from './notify.js';
import { endedRow, NOTIFY_ITEMS_SQL, type ItemRow } from './queue-rows.js';

/** How often every instance looks for stopped instances that still hold something, in ms. */
export const ORPHAN_SWEEP_MS = 5_000;
/** How long an item ended by a survivor stays in the queues, in ms. */
export const ORPHANS_KEPT_MS = 10 * 60_000;
/** How long a settled decision row is kept, in ms. */
const DECISIONS_KEPT_MS = 10 * 60_000;

const HELD_SQL = 'SELECT id, kind, status, detail, summary FROM team_items WHERE holder = ANY($1::text[]) FOR UPDATE SKIP LOCKED';
const END_ITEMS_SQL =
  'UPDATE team_items AS t SET holder = NULL, status = e.status, content_version = NULL, detail = e.detail, summary = e.summary, rev = t.rev + 1, updated_at = now() ' +
  'FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS e(id, status, detail, summary) WHERE t.id = e.id';
const WAITING_SQL = "SELECT id, method FROM team_decisions WHERE holder = ANY($1::text[]) AND state = 'pending' FOR UPDATE";
const REFUSE_SQL =
  "WITH u AS (UPDATE team_decisions AS d SET state = 'refused', error = r.error, settled_at = now() FROM unnest($1::bigint[], $2::text[]) AS r(id, error) WHERE d.id = r.id RETURNING d.id) " +
  "SELECT pg_notify($3, json_build_object('topic', 'decision', 'id', 'done:' || u.id, 'from', $4::text)::text) FROM u";
const TERMINAL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ');
/** Stopped instances that still hold items, pending decisions or unfinished History entries. */
const LEFTOVERS_SQL =
  'SELECT i.id FROM team_instances i WHERE i.stopped_at IS NOT NULL AND (' +
  'EXISTS (SELECT 1 FROM team_items t WHERE t.holder = i.id) OR ' +
  "EXISTS (SELECT 1 FROM team_decisions d WHERE d.holder = i.id AND d.state = 'pending') OR " +
  `EXISTS (SELECT 1 FROM history h WHERE h.instance_id = i.id AND h.status NOT IN (${TERMINAL})))`;
const FORGET_ORPHANS_SQL =
  "WITH d AS (DELETE FROM team_items WHERE holder IS NULL AND updated_at < now() - $1::float8 * interval '1 millisecond' RETURNING id) " +
  "SELECT pg_notify($2, json_build_object('topic', 'item', 'id', d.id, 'from', $3::text)::text) FROM d";
const FORGET_DECISIONS_SQL = "DELETE FROM team_decisions WHERE state <> 'pending' AND settled_at < now() - $1::float8 * interval '1 millisecond'";

/** What {@link startFailover} needs. */
export interface FailoverDeps {
  team: Pick<TeamDatabase, 'conn' | 'lease'>;
  history: Pick<HistoryStore, 'interruptInstances'>;
  logger: Logger;
  now: () => number;
  /** Runs when this instance was declared gone while cut off (its lease's old id). */
  leaseLost(oldId: string): Promise<void>;
  /** Overrides of {@link ORPHAN_SWEEP_MS} and {@link ORPHANS_KEPT_MS} (tests). */
  timings?: { sweepMs?: number; keptMs?: number };
}

/** The survivor's part of one instance. */
export interface Failover {
  /** Ends what the instances `gone` held (see the module comment). @throws (rejects) the database's error */
  endHeldBy(gone: readonly string[]): Promise<void>;
  /** One sweep for stopped instances' leftovers and old rows. @throws (rejects) the database's error */
  sweep(): Promise<void>;
  close(): void;
}

/** Registers the survivor's handlers on the lease and starts sweeping. */
export function startFailover(deps: FailoverDeps): Failover {
  const { team, logger } = deps;
  const sweepMs = deps.timings?.sweepMs ?? ORPHAN_SWEEP_MS;
  const keptMs = deps.timings?.keptMs ?? ORPHANS_KEPT_MS;
  let closed = false;

  const endHeldBy = async (gone: readonly string[]) => {
    if (gone.length === 0) return;
    const now = deps.now();
    const why = ui('outcome.instanceStopped');
    const me = team.lease.id();
    const ended = await team.conn.transaction(async (query) => {
      const rows = await query<Pick<ItemRow, 'id' | 'kind' | 'status' | 'detail' | 'summary'>>(HELD_SQL, [gone]);
      const out = rows.map((r) => ({ id: r.id, ...endedRow(r, now, why, 'instance_stopped') }));
      if (out.length > 0) {
        await query(END_ITEMS_SQL, [out.map((r) => r.id), out.map((r) => r.status), out.map((r) => r.detail), out.map((r) => r.summary)]);
        await query(NOTIFY_ITEMS_SQL, [TEAM_CHANNEL, out.map((r) => r.id), me]);
      }
      const waiting = await query<{ id: number; method: string }>(WAITING_SQL, [gone]);
      if (waiting.length > 0) await query(REFUSE_SQL, [waiting.map((d) => d.id), waiting.map((d) => errorJson(refusal(d.method, 'error.holderStopped'))), TEAM_CHANNEL, me]);
      return out.length;
    });
    const interrupted = (await deps.history.interruptInstances?.({ instances: gone }, now, { cause: 'instance_stopped', detail: ui('event.instanceStopped') })) ?? 0;
    if (ended > 0 || interrupted > 0) logger.info('team: ended what a stopped instance held', { instances: gone, items: ended, history: interrupted });
  };
  const sweep = async () => {
    const leftovers = (await team.conn.query<{ id: string }>(LEFTOVERS_SQL)).map((r) => r.id);
    await endHeldBy(leftovers);
    await team.conn.query(FORGET_ORPHANS_SQL, [keptMs, TEAM_CHANNEL, team.lease.id()]);
    await team.conn.query(FORGET_DECISIONS_SQL, [DECISIONS_KEPT_MS]);
  };

  team.lease.onPeerGone((gone) => endHeldBy([gone]));
  team.lease.onLeaseLost((oldId) => deps.leaseLost(oldId));
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping || closed || !team.conn.available()) return;
    sweeping = true;
    sweep()
      .catch((err: unknown) => {
        if (!isConnectionError(err)) logger.warn('team: sweep for stopped instances failed', { error: String(err) });
      })
      .finally(() => (sweeping = false));
  }, sweepMs);
  timer.unref?.();

  return {
    endHeldBy,
    sweep,
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
