/**
 * Claims on a team server's waiting items, and who is online (tables of migration 0016).
 *
 * - A person opening a waiting item claims it (`claimItem`); their page calls it again as a
 *   heartbeat while it is open on the item and connected, so the claim lasts as long as the page
 *   does — typing has nothing to do with it. It is released when they leave the item
 *   (`releaseClaim`), when their connection closes, or when no heartbeat came for
 *   {@link CLAIM_TIMEOUT_MS} (any instance sweeps). Someone else asking for a held item gets the
 *   holder back and watches.
 * - Only the holder decides: a decision checks, in the transaction that records it, that its
 *   person holds the claim (a free item is claimed by the decision itself), so a take-over either
 *   comes before the decision (which is refused) or after it.
 * - An admin may take a claim over; the former holder can no longer decide; their draft is kept.
 * - Every instance shows the claims, the approvals two-person rules counted (approvals.ts) and the
 *   people online in the state's `team` slice, read again on each `claim` notification.
 *
 * Audit records: `claim.taken`, `claim.released` (details: `why`: left, disconnected, timeout,
 * decided), `claim.taken_over` (details: the former holder).
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/contract/api.js';
import type { AuditActor } from '../../shared/contract/audit.js';
import { isTerminalStatus, waitsOnPerson } from '../../shared/contract/status.js';
import type { ApprovalsView, ClaimResult, ClaimView, TeamPersonRef, TeamView } from '../../shared/contract/team-view.js';
import { CLAIM_HEARTBEAT_MS } from '../../shared/contract/team-view.js';
import { ui, type UiTextCode } from '../../shared/contract/ui-text.js';
import type { AuditRecorder } from '../audit/trail.js';
import type { Logger } from '../logger.js';
import type { StateHub } from '../state-hub.js';
import type { Params } from '../store/pg/connection.js';
import { isConnectionError } from '../store/pg/connection.js';
import type { TeamDatabase } from './database.js';
import { refusal } from './decisions.js';
import { notifySql } from './notify.js';
import type { UiConnection } from './connection.js';

/** A claim with no heartbeat for this long is free, in ms: three heartbeats missed. */
export const CLAIM_TIMEOUT_MS = 3 * CLAIM_HEARTBEAT_MS;
/** The environment variable that sets {@link CLAIM_TIMEOUT_MS} on a team server (ms). */
export const CLAIM_TIMEOUT_ENV = 'MCP_CONSOLE_CLAIM_TIMEOUT_MS';

/** A query inside a transaction. */
export type Query = <R>(text: string, params?: Params) => Promise<R[]>;

/** Who claims: the person and the UI connection they use. */
export interface Claimant {
  subject: string;
  name: string;
  /** The UI connection (released with it); absent for a decision made without one (tests, tools). */
  connectionId?: string;
}

/** What {@link createTeamClaims} needs. */
export interface ClaimsDeps {
  team: Pick<TeamDatabase, 'conn' | 'notifier' | 'lease'>;
  /** The console's hub: the items (a claim is on a waiting one) and the `team` slice. */
  hub: Pick<StateHub, 'getItem' | 'items' | 'set'>;
  audit: AuditRecorder;
  logger: Logger;
  /** The approvals to show, for the items now in the hub (approvals.ts). */
  approvals(query: Query): Promise<Record<string, ApprovalsView>>;
  timings?: { timeoutMs?: number; sweepMs?: number };
}

/** Claims and presence on one instance. */
export interface TeamClaims {
  /**
   * Claims item `itemId` for `who`, or renews their claim. @throws ApiError `not_found` for an item
   * the queue does not have, `invalid_state` for one no person waits on; (rejects) ApiError
   * `internal` (`error.teamUnavailable`) while the database cannot be reached
   */
  claim(itemId: string, who: Claimant): Promise<ClaimResult>;
  /** Releases `who`'s claim on `itemId` (none: nothing happens). */
  release(itemId: string, who: Claimant, why?: 'left' | 'decided'): Promise<void>;
  /** An admin takes the claim over. @throws ApiError `invalid_state` (`error.notClaimed`) when nobody holds it */
  takeOver(itemId: string, admin: Claimant): Promise<void>;
  /**
   * Inside a decision's transaction: `who` holds the claim (a free one, or one past its timeout,
   * is taken now). @throws ApiError `forbidden` ("Cannot <method's action>: `error.claimedBy`") when someone else holds it
   */
  holdOrRefuse(query: Query, itemId: string, who: Claimant, method: string): Promise<void>;
  /**
   * Inside a draft's transaction: nobody else holds the claim (a draft does not take one: it may
   * be the last words of a page leaving the item). @throws ApiError `forbidden` (`error.claimedBy`)
   */
  notOthers(query: Query, itemId: string, who: Claimant, method: string): Promise<void>;
  /** A UI connection opened: its person is online. */
  connected(connection: UiConnection): Promise<void>;
  /** A UI connection closed: its claims are released, its person offline (unless connected elsewhere). */
  disconnected(connectionId: string): Promise<void>;
  /** Reads claims, approvals and presence again into the `team` slice. */
  refresh(): Promise<void>;
  /** Stops sweeping and following notifications. */
  close(): void;
}

const CLAIM_COLUMNS = 'holder, holder_name, (extract(epoch FROM taken_at) * 1000)::double precision AS since';
/** Inserts a claim ($1 item, $2 holder, $3 name, $4 instance, $5 connection) unless one exists. */
const TAKE_SQL = `INSERT INTO team_claims (item_id, holder, holder_name, instance_id, connection_id) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (item_id) DO NOTHING RETURNING ${CLAIM_COLUMNS}`;
/** The claim on $1, locked, and whether its heartbeat is older than $2 ms. */
const LOCK_SQL = `SELECT ${CLAIM_COLUMNS}, heartbeat_at < now() - make_interval(secs => $2 / 1000.0) AS expired FROM team_claims WHERE item_id = $1 FOR UPDATE`;
/** Gives the claim on $1 to $2 ($3 name, $4 instance, $5 connection); $6: a new holder (taken now). */
const GIVE_SQL =
  'UPDATE team_claims SET holder = $2, holder_name = $3, instance_id = $4, connection_id = COALESCE($5, connection_id), heartbeat_at = now(), taken_at = CASE WHEN $6 THEN now() ELSE taken_at END ' +
  `WHERE item_id = $1 RETURNING ${CLAIM_COLUMNS}`;
const ALL_CLAIMS_SQL = `SELECT item_id, ${CLAIM_COLUMNS} FROM team_claims`;
/** Claims whose heartbeat is older than $1 ms, or whose instance stopped: removed. */
const SWEEP_SQL =
  'DELETE FROM team_claims c WHERE c.heartbeat_at < now() - make_interval(secs => $1 / 1000.0) ' +
  'OR NOT EXISTS (SELECT 1 FROM team_instances i WHERE i.id = c.instance_id AND i.stopped_at IS NULL) RETURNING item_id, holder, holder_name';
/** People online: connections of instances still running. */
const ONLINE_SQL =
  'SELECT DISTINCT ON (o.subject) o.subject, o.name FROM team_online o JOIN team_instances i ON i.id = o.instance_id AND i.stopped_at IS NULL ORDER BY o.subject, o.opened_at';
const STALE_ONLINE_SQL = 'DELETE FROM team_online o WHERE NOT EXISTS (SELECT 1 FROM team_instances i WHERE i.id = o.instance_id AND i.stopped_at IS NULL) RETURNING connection_id';

interface ClaimRow {
  holder: string;
  holder_name: string;
  since: number;
}

const viewOf = (r: ClaimRow): ClaimView => ({ subject: r.holder, name: r.holder_name, since: r.since });
const person = (who: Pick<Claimant, 'subject' | 'name'>): AuditActor => ({ kind: 'person', id: who.subject, name: who.name });
const refuse = (code: 'forbidden' | 'invalid_state' | 'not_found', why: UiTextCode, params?: Record<string, string>) => new ApiError(code, ui(why, params));

/** Creates the claims of one instance: sweeps expired claims and follows `claim` notifications. */
export function createTeamClaims(deps: ClaimsDeps): TeamClaims {
  const { team, hub } = deps;
  const timeoutMs = deps.timings?.timeoutMs ?? CLAIM_TIMEOUT_MS;
  const unavailable = (err: unknown): unknown => (isConnectionError(err) ? new ApiError('internal', ui('error.teamUnavailable')) : err);
  const changed = () => notifySql({ topic: 'claim', from: team.lease.id() });
  const audit = (actor: AuditActor, kind: 'claim.taken' | 'claim.released' | 'claim.taken_over', itemId: string, details: Record<string, string> = {}) =>
    deps.audit.record({ actor, kind, subject: `item:${itemId}`, details });

  /** The claim on `itemId` for `who` in a transaction: taken, renewed, or someone else's. */
  const take = async (query: Query, itemId: string, who: Claimant): Promise<ClaimResult> => {
    const conn = who.connectionId ?? `decision:${randomUUID()}`;
    const instance = team.lease.id();
    const fresh = await query<ClaimRow>(TAKE_SQL, [itemId, who.subject, who.name, instance, conn]);
    const n = changed();
    if (fresh[0]) {
      await query(n.text, n.params);
      audit(person(who), 'claim.taken', itemId);
      return { holder: viewOf(fresh[0]), mine: true };
    }
    const [held] = await query<ClaimRow & { expired: boolean }>(LOCK_SQL, [itemId, timeoutMs]);
    if (!held) return take(query, itemId, who); // released meanwhile
    const mine = held.holder === who.subject;
    if (!mine && !held.expired) return { holder: viewOf(held), mine: false };
    // Renewed by its holder (keeping the newest connection), or taken from one whose page went quiet.
    const [row] = await query<ClaimRow>(GIVE_SQL, [itemId, who.subject, who.name, instance, mine && !who.connectionId ? null : conn, !mine]);
    if (!mine) {
      await query(n.text, n.params);
      audit(person({ subject: held.holder, name: held.holder_name }), 'claim.released', itemId, { why: 'timeout' });
      audit(person(who), 'claim.taken', itemId);
    }
    return { holder: viewOf(row!), mine: true };
  };

  const waiting = (itemId: string) => {
    const item = hub.getItem(itemId);
    if (!item) throw refuse('not_found', 'error.notClaimed');
    if (!waitsOnPerson(item.status)) throw refuse('invalid_state', 'error.notClaimed');
  };

  /** Claims are shown on items that have not ended (a page may stay on an ended one, its claim running out). */
  const open = (itemId: string) => {
    const item = hub.getItem(itemId);
    return item !== undefined && !isTerminalStatus(item.status);
  };
  let refreshing: Promise<void> | undefined;
  let again = false;
  const read = async () => {
    const [claims, online, approvals] = await Promise.all([
      team.conn.query<ClaimRow & { item_id: string }>(ALL_CLAIMS_SQL),
      team.conn.query<TeamPersonRef>(ONLINE_SQL),
      deps.approvals((text, params) => team.conn.query(text, params)),
    ]);
    const view: TeamView = {
      claims: Object.fromEntries(claims.filter((c) => open(c.item_id)).map((c) => [c.item_id, viewOf(c)])),
      approvals,
      online: online.sort((a, b) => a.name.localeCompare(b.name)),
    };
    hub.set('team', view);
  };
  const refresh = (): Promise<void> => {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          await read();
        } catch (err) {
          if (!isConnectionError(err)) deps.logger.warn('team claims: could not read claims', { error: String(err) });
          return;
        }
      } while (again);
    })().finally(() => (refreshing = undefined));
    return refreshing;
  };

  const sweep = async () => {
    try {
      const gone = await team.conn.query<{ item_id: string; holder: string; holder_name: string }>(SWEEP_SQL, [timeoutMs]);
      const stale = await team.conn.query<{ connection_id: string }>(STALE_ONLINE_SQL);
      for (const g of gone) audit(person({ subject: g.holder, name: g.holder_name }), 'claim.released', g.item_id, { why: 'timeout' });
      if (gone.length > 0 || stale.length > 0) await team.notifier.publish({ topic: 'claim' });
    } catch (err) {
      if (!isConnectionError(err)) deps.logger.warn('team claims: could not sweep claims', { error: String(err) });
    }
  };
  const sweeper = setInterval(() => void sweep(), deps.timings?.sweepMs ?? Math.max(250, Math.floor(timeoutMs / 3)));
  sweeper.unref?.();
  const unsubscribe = team.notifier.subscribe('claim', () => void refresh());
  const unresync = team.notifier.onResync(() => void refresh());
  // Items come and go: claims of items no longer in the queue are not shown.
  const unitems = team.notifier.subscribe('item', () => void refresh());

  return {
    async claim(itemId, who) {
      waiting(itemId);
      try {
        return await team.conn.transaction((query) => take(query, itemId, who));
      } catch (err) {
        throw unavailable(err);
      }
    },
    async release(itemId, who, why = 'left') {
      try {
        const rows = await team.conn.transaction(async (query) => {
          const gone = await query<{ item_id: string }>('DELETE FROM team_claims WHERE item_id = $1 AND holder = $2 RETURNING item_id', [itemId, who.subject]);
          if (gone.length > 0) {
            const n = changed();
            await query(n.text, n.params);
          }
          return gone;
        });
        if (rows.length > 0) audit(person(who), 'claim.released', itemId, { why });
      } catch (err) {
        throw unavailable(err);
      }
    },
    async takeOver(itemId, admin) {
      waiting(itemId);
      try {
        const former = await team.conn.transaction(async (query) => {
          const [held] = await query<ClaimRow & { expired: boolean }>(LOCK_SQL, [itemId, timeoutMs]);
          if (!held) throw refuse('invalid_state', 'error.notClaimed');
          if (held.holder === admin.subject) return undefined;
          await query(GIVE_SQL, [itemId, admin.subject, admin.name, team.lease.id(), admin.connectionId ?? `decision:${randomUUID()}`, true]);
          const n = changed();
          await query(n.text, n.params);
          return held;
        });
        if (former) audit(person(admin), 'claim.taken_over', itemId, { from: former.holder, fromName: former.holder_name });
      } catch (err) {
        throw unavailable(err);
      }
    },
    async holdOrRefuse(query, itemId, who, method) {
      const got = await take(query, itemId, who);
      if (!got.mine) throw refusal(method, ui('error.claimedBy', { name: got.holder.name }), 'forbidden');
    },
    async notOthers(query, itemId, who, method) {
      if (!open(itemId)) return; // an ended item keeps what anyone typed (main keeps it apart: drafts)
      const [held] = await query<ClaimRow & { expired: boolean }>(LOCK_SQL, [itemId, timeoutMs]);
      if (held && held.holder !== who.subject && !held.expired) throw refusal(method, ui('error.claimedBy', { name: held.holder_name }), 'forbidden');
    },
    async connected(connection) {
      const { principal } = connection;
      await team.conn.query('INSERT INTO team_online (connection_id, instance_id, subject, name) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [connection.id, team.lease.id(), principal.subject, principal.name]);
      await team.notifier.publish({ topic: 'claim' });
    },
    async disconnected(connectionId) {
      const gone = await team.conn.transaction(async (query) => {
        await query('DELETE FROM team_online WHERE connection_id = $1', [connectionId]);
        const claims = await query<{ item_id: string; holder: string; holder_name: string }>('DELETE FROM team_claims WHERE connection_id = $1 RETURNING item_id, holder, holder_name', [connectionId]);
        const n = changed();
        await query(n.text, n.params);
        return claims;
      });
      for (const g of gone) audit(person({ subject: g.holder, name: g.holder_name }), 'claim.released', g.item_id, { why: 'disconnected' });
    },
    refresh,
    close() {
      clearInterval(sweeper);
      unsubscribe();
      unresync();
      unitems();
    },
  };
}
