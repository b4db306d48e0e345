/**
 * A team's limits and budgets in its database (./../store/pg/migrations/0005_team_policy.sql): the
 * desktop's requests-per-minute buckets, requests waiting, tokens and spend per UTC day — per
 * server and console-wide — as counters every instance changes with one call to a database
 * function per decision (`team_limit_admit`), whose conditional UPDATEs take a request or hold an
 * estimate only while it fits. Two instances therefore never both take the last request of a rate
 * limit or the last of a budget; nothing is read here and written back.
 *
 * A settlement (`team_limit_settle`) removes the request's hold, so sending it twice counts once;
 * settlements the database could not take are kept and sent again once it is reachable. Survivors
 * give back the waiting slots and estimates of a gone instance (`team_limit_release`).
 *
 * The counters shown on the Rules screen are read from the rows each call returns; other
 * instances' changes arrive by a `limits` notification (each instance sends at most one a second
 * while it changes counters) or a resync.
 */
import { z } from 'zod';
import type { ServerCounters } from '../../shared/contract/rules.js';
import { limitHit, refusalOf, utcDayOf, type LimitRule, type Today } from '../policy/limits.js';
import type { SharedAdmission, SharedAdmitResult, SharedLimits } from '../policy/shared-limits.js';
import type { Logger } from '../logger.js';
import { isConnectionError, type Connection } from '../store/pg/connection.js';
import type { TeamDatabase } from './database.js';

/** Fewest ms between two `limits` notifications of one instance. */
export const LIMITS_NOTIFY_MS = 1_000;
/** Day rows older than this many days are removed when an instance starts (History keeps the usage). */
export const KEEP_DAYS = 90;
/** How long closing waits for the settlements still being sent, in ms. */
const CLOSE_WAIT_MS = 2_000;

const LIMIT_RULES = ['limit.rpm', 'limit.waiting', 'limit.tokens', 'limit.spend', 'limit.global.rpm', 'limit.global.waiting', 'limit.global.tokens', 'limit.global.spend'] as const satisfies readonly LimitRule[];

const LimitsSchema = z.object({ requestsPerMinute: z.number().optional(), maxWaiting: z.number().optional(), tokensPerDay: z.number().optional(), spendPerDayUsd: z.number().optional() });
const UsageSchema = z.object({ tokens: z.number(), costUsd: z.number() });
/** The numbers and limits a refusal was decided on (its message is worded from them). */
const FactsSchema = z.object({
  waiting: z.number().nullable(),
  globalWaiting: z.number().nullable(),
  usage: UsageSchema,
  all: UsageSchema,
  limits: LimitsSchema,
  global: LimitsSchema.extend({ requestsPerMinute: z.number(), maxWaiting: z.number() }),
});
type Facts = z.infer<typeof FactsSchema>;

/** One server's (or, for '', the console's) counters of a day with its requests waiting: `team_limit_view`. */
const ViewSchema = z.object({
  server_id: z.string(),
  day: z.string(),
  waiting: z.number(),
  used_tokens: z.number().default(0),
  used_usd: z.number().default(0),
  unpriced_tokens: z.number().default(0),
  pending_tokens: z.number().default(0),
  pending_usd: z.number().default(0),
  rate_limited: z.number().default(0),
  last_limited_at: z.number().nullable().default(null),
  last_limited_rule: z.enum(LIMIT_RULES).nullable().default(null),
  last_limited_facts: FactsSchema.nullable().default(null),
  auto_approved: z.number().default(0),
  auto_rejected: z.number().default(0),
  elicitation_declined: z.number().default(0),
});
type View = z.infer<typeof ViewSchema>;

const AdmitSchema = z.object({ refused: z.enum(LIMIT_RULES).nullable(), facts: FactsSchema.optional(), reserved: z.boolean(), server: ViewSchema, console: ViewSchema });
const SettleSchema = z.object({ counted: z.boolean(), server: ViewSchema.optional(), console: ViewSchema.optional() });

/** What {@link openTeamLimits} needs: the team's database as one instance holds it. */
export interface TeamLimitsOptions {
  db: Pick<TeamDatabase, 'conn' | 'notifier' | 'lease'>;
  logger?: Logger;
  /** Clock, epoch ms (the day the counters shown cover). */
  now: () => number;
}

/** The team's limits, with what tests and the console's wiring reach beyond {@link SharedLimits}. */
export interface TeamLimits extends SharedLimits {
  /** Reads every server's counters of today again. */
  refresh(): Promise<void>;
  /** Resolves once the settlements sent so far were taken (or kept for later). */
  flushed(): Promise<void>;
}

/** A settlement as it is sent (and kept while the database cannot take it). */
interface Settlement {
  itemId: string;
  receivedDay: string;
  nowDay: string;
  tokens: number;
  usd: number | null;
  autoApproved: boolean;
}

/** What one instance's limits keep. */
interface LimitsState {
  readonly opts: TeamLimitsOptions;
  readonly conn: Connection;
  /** The last counters read, by server id ('' = the console). */
  readonly views: Map<string, View>;
  readonly listeners: Set<() => void>;
  /** Settlements being sent, and those kept until the database is reachable again. */
  readonly sending: Set<Promise<void>>;
  kept: Settlement[];
  notifyTimer: ReturnType<typeof setTimeout> | undefined;
  refreshing: Promise<void> | undefined;
  refreshAgain: boolean;
  closed: boolean;
}

const ADMIT_SQL = 'SELECT team_limit_admit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) AS r';
const SETTLE_SQL = 'SELECT team_limit_settle($1, $2, $3, $4, $5, $6) AS r';
const DECLINED_SQL =
  'INSERT INTO team_limit_days (server_id, day, elicitation_declined) VALUES ($1, $2, 1) ON CONFLICT (server_id, day) DO UPDATE SET elicitation_declined = team_limit_days.elicitation_declined + 1 RETURNING team_limit_view($1, $2) AS r';
const REFRESH_SQL = 'SELECT team_limit_view(server_id, $1) AS r FROM team_limit_rates';
const RELEASE_SQL = 'SELECT team_limit_release($1) AS n';
const PRUNE_DAYS_SQL = 'DELETE FROM team_limit_days WHERE day < $1';
const PRUNE_HOLDS_SQL = "DELETE FROM team_limit_holds WHERE released_at < now() - interval '2 days'";
/** PostgreSQL's "deadlock detected": the statement is rolled back and may be sent again. */
const DEADLOCK = '40P01';

/**
 * Opens one instance's view of the team's limits: reads today's counters, removes old day rows,
 * releases what gone instances held (as their survivor) and listens for other instances' changes.
 */
export function openTeamLimits(opts: TeamLimitsOptions): TeamLimits {
  const { db } = opts;
  const st: LimitsState = { opts, conn: db.conn, views: new Map(), listeners: new Set(), sending: new Set(), kept: [], notifyTimer: undefined, refreshing: undefined, refreshAgain: false, closed: false };
  const offNotify = db.notifier.subscribe('limits', (e) => e.from !== db.notifier.instanceId() && void refresh(st));
  const offResync = db.notifier.onResync(() => void refresh(st).then(() => resend(st)));
  db.conn.onAvailable(() => resend(st));
  db.lease.onPeerGone(async (gone) => {
    const [row] = await db.conn.query<{ n: number }>(RELEASE_SQL, [gone]);
    if (row && row.n > 0) opts.logger?.info('team limits: released the requests a gone instance held', { instance: gone, requests: row.n });
    changed(st);
  });
  void start(st);
  return {
    admit: (a) => admit(st, a),
    settled: (_serverId, usage, autoApproved, now) => send(st, { itemId: usage.id, receivedDay: utcDayOf(usage.receivedAt ?? now), nowDay: utcDayOf(now), tokens: usage.tokens, usd: usage.costUsd, autoApproved }),
    countDeclined: (serverId, now) => void track(st, countDeclined(st, serverId, now)),
    counters: () => countersOf(st),
    globalRateLimited: () => (st.views.get('')?.day === utcDayOf(opts.now()) ? st.views.get('')!.rate_limited : 0),
    onChange(listener) {
      st.listeners.add(listener);
      return () => void st.listeners.delete(listener);
    },
    refresh: () => refresh(st),
    flushed: () => Promise.all([...st.sending]).then(() => undefined),
    async close() {
      offNotify();
      offResync();
      await Promise.race([Promise.all([...st.sending]), new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref?.())]);
      st.closed = true;
      clearTimeout(st.notifyTimer);
      await st.conn.query(RELEASE_SQL, [db.lease.id()]).catch((err: unknown) => opts.logger?.warn('team limits: could not give back the requests this instance held', { error: String(err) }));
    },
  };
}

/** First read of the counters, and the removal of day rows and released holds past keeping. */
async function start(st: LimitsState): Promise<void> {
  const cutoff = utcDayOf(st.opts.now() - KEEP_DAYS * 86_400_000);
  try {
    await st.conn.query(PRUNE_DAYS_SQL, [cutoff]);
    await st.conn.query(PRUNE_HOLDS_SQL);
  } catch (err) {
    st.opts.logger?.warn('team limits: could not remove old counters', { error: String(err) });
  }
  await refresh(st);
}

/** Sends a call again when PostgreSQL rolled it back for a deadlock (another call holding rows it needs). */
async function retried<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= attempts || (err as { code?: unknown }).code !== DEADLOCK) throw err;
    }
  }
}

/** {@link SharedLimits.admit}: one call to `team_limit_admit`. */
async function admit(st: LimitsState, a: SharedAdmission): Promise<SharedAdmitResult> {
  const day = utcDayOf(a.now);
  const { limits, global } = a;
  const params = [
    a.itemId,
    st.opts.db.lease.id(),
    a.serverId,
    Math.round(a.now),
    day,
    limits.requestsPerMinute,
    limits.maxWaiting,
    limits.tokensPerDay ?? null,
    limits.spendPerDayUsd ?? null,
    global.requestsPerMinute,
    global.maxWaiting,
    global.tokensPerDay ?? null,
    global.spendPerDayUsd ?? null,
    a.reserve !== undefined,
    a.reserve?.tokens ?? 0,
    a.reserve?.costUsd ?? 0,
    a.countRejected === true,
  ];
  const [row] = await retried(() => st.conn.query<{ r: unknown }>(ADMIT_SQL, params));
  const r = AdmitSchema.parse(row?.r);
  keep(st, r.server, r.console);
  if (r.refused) return { ok: false, refusal: refusalOf(limitHit(r.refused, factsFor(a.serverId, r.facts!))) };
  return { ok: true, reserved: r.reserved, today: todayOf(r.server), todayAll: todayOf(r.console) };
}

/** A refusal's stored facts as the wording of limits.ts takes them. */
function factsFor(serverId: string, f: Facts) {
  return { serverId, limits: f.limits, global: f.global, waiting: f.waiting ?? 0, globalWaiting: f.globalWaiting ?? 0, usage: f.usage, all: f.all };
}

/** A day's counters as the decision weighs them. */
function todayOf(v: View): Today {
  return { tokens: v.used_tokens, costUsd: v.used_usd, unpricedTokens: v.unpriced_tokens, pendingTokens: v.pending_tokens, pendingUsd: v.pending_usd };
}

/** Sends a settlement; one the database cannot take now is kept for {@link resend}. */
function send(st: LimitsState, s: Settlement): void {
  const p = retried(() => st.conn.query<{ r: unknown }>(SETTLE_SQL, [s.itemId, s.receivedDay, s.nowDay, s.tokens, s.usd, s.autoApproved])).then(
    ([row]) => {
      const r = SettleSchema.parse(row?.r);
      if (r.server && r.console) keep(st, r.server, r.console);
    },
    (err: unknown) => {
      if (isConnectionError(err) && !st.closed) st.kept.push(s);
      else st.opts.logger?.warn('team limits: a settlement was refused', { item: s.itemId, error: String(err) });
    },
  );
  void track(st, p);
}

/** Sends again the settlements kept while the database could not be reached. */
function resend(st: LimitsState): void {
  const kept = st.kept;
  st.kept = [];
  for (const s of kept) send(st, s);
}

/** Keeps `p` among the calls closing waits for. */
function track(st: LimitsState, p: Promise<void>): Promise<void> {
  st.sending.add(p);
  return p.finally(() => st.sending.delete(p));
}

/** {@link SharedLimits.countDeclined}: one upsert of the server's day row. */
async function countDeclined(st: LimitsState, serverId: string, now: number): Promise<void> {
  try {
    const [row] = await st.conn.query<{ r: unknown }>(DECLINED_SQL, [serverId, utcDayOf(now)]);
    const v = ViewSchema.parse(row?.r);
    st.views.set(v.server_id, v);
    changed(st);
  } catch (err) {
    st.opts.logger?.warn('team limits: a declined elicitation was not counted', { error: String(err) });
  }
}

/** Keeps counters a call returned, tells the listeners and (at most once a second) the other instances. */
function keep(st: LimitsState, ...views: View[]): void {
  for (const v of views) {
    const had = st.views.get(v.server_id);
    if (!had || had.day <= v.day) st.views.set(v.server_id, v);
  }
  changed(st);
}

/** Tells this instance's listeners now, and the other instances within {@link LIMITS_NOTIFY_MS}. */
function changed(st: LimitsState): void {
  for (const l of st.listeners) l();
  if (st.notifyTimer !== undefined || st.closed) return;
  st.notifyTimer = setTimeout(() => {
    st.notifyTimer = undefined;
    st.opts.db.notifier.publish({ topic: 'limits' }).catch(() => undefined); // unreachable: they resync when it is back
  }, LIMITS_NOTIFY_MS);
  st.notifyTimer.unref?.();
}

/** Reads every server's counters of today; one read at a time (a read asked meanwhile runs once after it). */
function refresh(st: LimitsState): Promise<void> {
  if (st.refreshing) {
    st.refreshAgain = true;
    return st.refreshing;
  }
  st.refreshing = (async () => {
    try {
      const rows = await st.conn.query<{ r: unknown }>(REFRESH_SQL, [utcDayOf(st.opts.now())]);
      st.views.clear();
      for (const row of rows) {
        const v = ViewSchema.parse(row.r);
        st.views.set(v.server_id, v);
      }
      for (const l of st.listeners) l();
    } catch (err) {
      st.opts.logger?.warn('team limits: could not read the counters', { error: String(err) });
    } finally {
      st.refreshing = undefined;
      if (st.refreshAgain) {
        st.refreshAgain = false;
        void refresh(st);
      }
    }
  })();
  return st.refreshing;
}

/** Each server's counters for today (UTC) as last read; a server last counted on an earlier day shows its waiting requests only. */
function countersOf(st: LimitsState): Record<string, ServerCounters> {
  const today = utcDayOf(st.opts.now());
  const out: Record<string, ServerCounters> = {};
  for (const [id, v] of st.views) {
    if (id === '') continue;
    const d = v.day === today ? v : undefined;
    const last = d?.last_limited_at != null && d.last_limited_rule && d.last_limited_facts ? { at: d.last_limited_at, message: refusalOf(limitHit(d.last_limited_rule, factsFor(id, d.last_limited_facts))).message } : undefined;
    out[id] = {
      rateLimited: d?.rate_limited ?? 0,
      ...(last && { lastLimited: last }),
      autoApproved: d?.auto_approved ?? 0,
      autoRejected: d?.auto_rejected ?? 0,
      elicitationDeclined: d?.elicitation_declined ?? 0,
      waiting: v.waiting,
      day: today,
      tokensToday: d?.used_tokens ?? 0,
      spendTodayUsd: d?.used_usd ?? 0,
      ...(d?.unpriced_tokens ? { unpricedTokensToday: d.unpriced_tokens } : {}),
      ...(d?.pending_tokens ? { pendingTokens: d.pending_tokens, pendingUsd: d.pending_usd } : {}),
    };
  }
  return out;
}
