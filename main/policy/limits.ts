/**
 * Rate limits and budgets (the MCP sampling spec, "Security considerations" 4: clients SHOULD
 * rate-limit sampling). Checked at intake, before a request is queued, identically for both
 * protocol eras (they share the pipeline):
 *
 * - per server and console-wide: requests per minute (a token bucket holding `requestsPerMinute`
 *   requests, refilled evenly over 60 s) and requests waiting (admitted, not finished);
 * - per server and console-wide (when set): tokens per day (input + output reported by providers)
 *   and spend per day (USD of that usage at the models' prices), for the requests received on the
 *   current UTC day. The day's
 *   totals survive a restart: the policy seeds them from history ({@link Limiter.seed}).
 *
 * Auto-approved requests still generating hold their estimate ({@link Limiter.reserve}) until they
 * settle, so a flood of auto-approvals cannot spend past a budget between two settlements.
 *
 * A refused request is answered with {@link RATE_LIMITED_CODE} and a message that says which limit.
 * Pure bookkeeping: the clock comes in as an argument.
 */
import { DEFAULT_GLOBAL_LIMITS, DEFAULT_SERVER_LIMITS, RATE_LIMITED_CODE, type Limits, type RulesFile, type ServerCounters } from '../../shared/contract/rules.js';

/** A refusal: the JSON-RPC error and the limit's id (recorded in history as the rule). */
export interface LimitRefusal {
  ok: false;
  code: number;
  message: string;
  /** "limit.rpm", "limit.waiting", "limit.tokens", "limit.spend", "limit.global.rpm", "limit.global.waiting", "limit.global.tokens", "limit.global.spend". */
  rule: string;
}

/** Usage of one server on one day: tokens, USD of the priced part, tokens whose model had no price. */
export interface DayUsage {
  tokens: number;
  costUsd: number;
  unpricedTokens: number;
}

/** What a settled request used. `costUsd` null = its model has no known price. */
export interface SettledUsage {
  tokens: number;
  costUsd: number | null;
  /** When the request was received (epoch ms): its tokens count for that UTC day. Default: `now`. */
  receivedAt?: number;
  /** The id a reservation was made under, released now. */
  id?: string;
}

/** A server's totals for today (UTC) with the estimates auto-approved requests still hold. */
export interface Today extends DayUsage {
  pendingTokens: number;
  pendingUsd: number;
}

/** The limiter's operations. `now` is epoch ms. */
export interface Limiter {
  /** Checks a request against its server's and the console's limits: a refusal names the first limit reached; admitted = one request taken from both buckets and one waiting slot held until {@link Limiter.settled}. */
  admit(serverId: string, file: RulesFile, now: number): { ok: true } | LimitRefusal;
  /** A request ended: frees its waiting slot and its reservation, adds its usage to the day it was received (if that is today). */
  settled(serverId: string, usage: SettledUsage, now: number): void;
  /** Holds the estimate of an auto-approved request (tokens, USD) until it settles. */
  reserve(serverId: string, id: string, estimate: { tokens: number; costUsd: number }, now: number): void;
  /** A server's totals for the UTC day of `now`. */
  today(serverId: string, now: number): Today;
  /** All servers' totals for the UTC day of `now` (the console-wide daily limits). */
  todayAll(now: number): Today;
  /** Starts the totals of `day` (UTC, "2026-11-22") from what history recorded before this start. */
  seed(day: string, usage: Record<string, DayUsage>): void;
  /** Each server's counters with the usage of their UTC day and the estimates still held. */
  counters(): Record<string, ServerCounters>;
  /** Requests refused by a console-wide limit. */
  globalRateLimited(): number;
  /** Counts an auto decision for the counters. */
  countAuto(serverId: string, kind: 'approved' | 'rejected' | 'elicitation_declined', now: number): void;
}

/** Sums of many small costs drift in floating point; a spend within this (USD) of its limit has reached it. */
const USD_EPSILON = 1e-9;

/** The UTC calendar day of an epoch ms, e.g. "2026-11-22". */
export const utcDayOf = (now: number): string => new Date(now).toISOString().slice(0, 10);
/** Epoch ms of 00:00 UTC of the day of `now`. */
export const utcDayStart = (now: number): number => Math.floor(now / 86_400_000) * 86_400_000;

interface Bucket {
  tokens: number;
  at: number;
}

/** Takes one request from a bucket of `perMinute` if there is one; refills first. */
function take(bucket: Bucket, perMinute: number, now: number, commit: boolean): boolean {
  const refilled = Math.min(perMinute, bucket.tokens + ((now - bucket.at) * perMinute) / 60_000);
  if (refilled < 1) {
    if (commit) Object.assign(bucket, { tokens: refilled, at: now });
    return false;
  }
  if (commit) Object.assign(bucket, { tokens: refilled - 1, at: now });
  return true;
}

type Counters = Omit<ServerCounters, 'tokensToday' | 'spendTodayUsd'> & { day: string; usage: DayUsage };

/** The console-wide limits in force: the file's `global` over {@link DEFAULT_GLOBAL_LIMITS}. */
export type GlobalLimits = Limits & { requestsPerMinute: number; maxWaiting: number };

/** The estimate an auto-approved request holds until it settles: tokens and USD, on the UTC day it was reserved. */
interface Reservation {
  serverId: string;
  day: string;
  tokens: number;
  costUsd: number;
}

/** Everything one limiter keeps: per-server buckets and counters, reservations by request id, the seeded day, console-wide counts. */
interface LimiterState {
  buckets: Map<string, Bucket>;
  /** Holds `Infinity` tokens until the first admission fills it to the console-wide rate. */
  globalBucket: Bucket;
  counters: Map<string, Counters>;
  reserved: Map<string, Reservation>;
  seeded: { day: string; usage: Record<string, DayUsage> } | undefined;
  globalWaiting: number;
  globalLimited: number;
}

/** A limit a request ran into: its rule id, why (the middle of the refusal's message), whether it is console-wide. */
export interface LimitHit {
  rule: LimitRule;
  why: string;
  global?: boolean;
}

/** A server's usage at the start of `day`: what history seeded for that day, else zero. A copy. */
function startOf(st: LimiterState, serverId: string, day: string): DayUsage {
  const s = st.seeded?.day === day ? st.seeded.usage[serverId] : undefined;
  return s ? { ...s } : { tokens: 0, costUsd: 0, unpricedTokens: 0 };
}

/** Zero counters of a server for `day`, its usage starting from {@link startOf}. */
function freshCounters(st: LimiterState, serverId: string, day: string): Counters {
  return { rateLimited: 0, autoApproved: 0, autoRejected: 0, elicitationDeclined: 0, waiting: 0, day, usage: startOf(st, serverId, day) };
}

/** A server's counters, created on first use; their usage restarts when the UTC day of `now` is a new one. */
function countersOf(st: LimiterState, serverId: string, now: number): Counters {
  const day = utcDayOf(now);
  let c = st.counters.get(serverId);
  if (!c) {
    c = freshCounters(st, serverId, day);
    st.counters.set(serverId, c);
  }
  if (c.day !== day) Object.assign(c, { day, usage: startOf(st, serverId, day) });
  return c;
}

/** A server's bucket, created full (`perMinute` requests) on first use. */
function bucketOf(st: LimiterState, serverId: string, perMinute: number): Bucket {
  let b = st.buckets.get(serverId);
  if (!b) {
    b = { tokens: perMinute, at: 0 };
    st.buckets.set(serverId, b);
  }
  return b;
}

/** The estimates (tokens, USD) a server's auto-approved requests still hold on `day`. */
function pendingOf(st: LimiterState, serverId: string, day: string): { pendingTokens: number; pendingUsd: number } {
  let tokens = 0;
  let usd = 0;
  for (const r of st.reserved.values()) {
    if (r.serverId !== serverId || r.day !== day) continue;
    tokens += r.tokens;
    usd += r.costUsd;
  }
  return { pendingTokens: tokens, pendingUsd: usd };
}

/** Every server's usage and reservations for the UTC day of `now`. */
function totalOf(st: LimiterState, now: number): Today {
  const day = utcDayOf(now);
  const out: Today = { tokens: 0, costUsd: 0, unpricedTokens: 0, pendingTokens: 0, pendingUsd: 0 };
  const seen = new Set<string>();
  for (const [serverId, c] of st.counters) {
    seen.add(serverId);
    const u = c.day === day ? c.usage : startOf(st, serverId, day);
    out.tokens += u.tokens;
    out.costUsd += u.costUsd;
    out.unpricedTokens += u.unpricedTokens;
  }
  if (st.seeded?.day === day) {
    for (const [serverId, u] of Object.entries(st.seeded.usage)) {
      if (seen.has(serverId)) continue;
      out.tokens += u.tokens;
      out.costUsd += u.costUsd;
      out.unpricedTokens += u.unpricedTokens;
    }
  }
  for (const r of st.reserved.values()) {
    if (r.day !== day) continue;
    out.pendingTokens += r.tokens;
    out.pendingUsd += r.costUsd;
  }
  return out;
}

/** The id of a limit a request can run into (recorded in history as the rule). */
export type LimitRule = 'limit.rpm' | 'limit.waiting' | 'limit.tokens' | 'limit.spend' | 'limit.global.rpm' | 'limit.global.waiting' | 'limit.global.tokens' | 'limit.global.spend';

/** What a refusal's message says: the server, the limits in force and the numbers that reached them. */
export interface LimitFacts {
  serverId: string;
  limits: Limits;
  global: GlobalLimits;
  /** Requests waiting from the server, and on the console as a whole. */
  waiting: number;
  globalWaiting: number;
  /** Today's (UTC) usage: the server's, and every server's (console-wide). */
  usage: Pick<DayUsage, 'tokens' | 'costUsd'>;
  all: Pick<DayUsage, 'tokens' | 'costUsd'>;
}

/** The limit `rule` as a hit: its id, why (the middle of the refusal's message) and whether it is console-wide. Shared by the in-memory and the team's limits. */
export function limitHit(rule: LimitRule, f: LimitFacts): LimitHit {
  const { serverId, limits, global } = f;
  switch (rule) {
    case 'limit.global.waiting':
      return { rule, why: `the console already has ${f.globalWaiting} requests waiting (cap ${global.maxWaiting})`, global: true };
    case 'limit.waiting':
      return { rule, why: `${f.waiting} requests from "${serverId}" are already waiting (limit ${limits.maxWaiting})` };
    case 'limit.tokens':
      return { rule, why: `"${serverId}" used ${f.usage.tokens} of ${limits.tokensPerDay} tokens today (UTC)` };
    case 'limit.spend':
      return { rule, why: `"${serverId}" spent $${f.usage.costUsd.toFixed(2)} of $${limits.spendPerDayUsd} today (UTC)` };
    case 'limit.global.tokens':
      return { rule, why: `the console used ${f.all.tokens} of ${global.tokensPerDay} tokens today (UTC)`, global: true };
    case 'limit.global.spend':
      return { rule, why: `the console spent $${f.all.costUsd.toFixed(2)} of $${global.spendPerDayUsd} today (UTC)`, global: true };
    case 'limit.rpm':
      return { rule, why: `more than ${limits.requestsPerMinute} requests per minute from "${serverId}"` };
    case 'limit.global.rpm':
      return { rule, why: `more than ${global.requestsPerMinute} requests per minute to the console`, global: true };
  }
}

/** The refusal's answer for a hit: the JSON-RPC error a server gets ("Rate limited: …. Try again later."). */
export function refusalOf(hit: LimitHit): LimitRefusal {
  return { ok: false, code: RATE_LIMITED_CODE, message: `Rate limited: ${hit.why}. Try again later.`, rule: hit.rule };
}

/** The server's and console's limits in force for `serverId`: the file's over the defaults. */
export function limitsFor(file: RulesFile, serverId: string): { limits: Limits; global: GlobalLimits } {
  return { limits: { ...DEFAULT_SERVER_LIMITS, ...file.servers[serverId]?.limits }, global: { ...DEFAULT_GLOBAL_LIMITS, ...file.global } };
}

/**
 * The first waiting or daily limit a request from `serverId` runs into, in this order: console
 * waiting, server waiting, server tokens, server spend, console tokens, console spend (the console's
 * daily totals are summed only when it sets a daily limit). Undefined = none. Changes nothing.
 */
function waitingOrDailyHit(st: LimiterState, serverId: string, c: Counters, limits: Limits, global: GlobalLimits, now: number): LimitHit | undefined {
  const all = global.tokensPerDay !== undefined || global.spendPerDayUsd !== undefined ? totalOf(st, now) : undefined;
  const facts: LimitFacts = { serverId, limits, global, waiting: c.waiting, globalWaiting: st.globalWaiting, usage: c.usage, all: all ?? { tokens: 0, costUsd: 0 } };
  if (st.globalWaiting >= global.maxWaiting) return limitHit('limit.global.waiting', facts);
  if (c.waiting >= limits.maxWaiting!) return limitHit('limit.waiting', facts);
  if (limits.tokensPerDay !== undefined && c.usage.tokens >= limits.tokensPerDay) return limitHit('limit.tokens', facts);
  if (limits.spendPerDayUsd !== undefined && c.usage.costUsd >= limits.spendPerDayUsd - USD_EPSILON) return limitHit('limit.spend', facts);
  if (all && global.tokensPerDay !== undefined && all.tokens >= global.tokensPerDay) return limitHit('limit.global.tokens', facts);
  if (all && global.spendPerDayUsd !== undefined && all.costUsd >= global.spendPerDayUsd - USD_EPSILON) return limitHit('limit.global.spend', facts);
  return undefined;
}

/**
 * The first requests-per-minute limit with no request left: the server's bucket, then the
 * console's. The bucket that refuses is refilled (its refill recorded, nothing taken); undefined =
 * both have a request, and neither is touched.
 */
function rateHit(st: LimiterState, serverId: string, bucket: Bucket, limits: Limits, global: GlobalLimits, now: number): LimitHit | undefined {
  const none = { tokens: 0, costUsd: 0 };
  const facts: LimitFacts = { serverId, limits, global, waiting: 0, globalWaiting: 0, usage: none, all: none }; // the rate messages name only the limits
  if (!take(bucket, limits.requestsPerMinute!, now, false)) {
    take(bucket, limits.requestsPerMinute!, now, true);
    return limitHit('limit.rpm', facts);
  }
  if (!take(st.globalBucket, global.requestsPerMinute, now, false)) {
    take(st.globalBucket, global.requestsPerMinute, now, true);
    return limitHit('limit.global.rpm', facts);
  }
  return undefined;
}

/** Counts a refusal (the server's count and last message; the console-wide count when the limit is global) and builds its answer. */
function refuse(st: LimiterState, c: Counters, hit: LimitHit, now: number): LimitRefusal {
  const refusal = refusalOf(hit);
  c.rateLimited++;
  c.lastLimited = { at: now, message: refusal.message };
  if (hit.global) st.globalLimited++;
  return refusal;
}

/** {@link Limiter.admit}: refuses at the first limit reached; else takes a request from both buckets and a waiting slot. */
function admit(st: LimiterState, serverId: string, file: RulesFile, now: number): { ok: true } | LimitRefusal {
  const { limits, global } = limitsFor(file, serverId);
  const c = countersOf(st, serverId, now);
  const bucket = bucketOf(st, serverId, limits.requestsPerMinute!);
  if (st.globalBucket.tokens === Number.POSITIVE_INFINITY) Object.assign(st.globalBucket, { tokens: global.requestsPerMinute, at: now });

  const hit = waitingOrDailyHit(st, serverId, c, limits, global, now) ?? rateHit(st, serverId, bucket, limits, global, now);
  if (hit) return refuse(st, c, hit, now);
  take(bucket, limits.requestsPerMinute!, now, true);
  take(st.globalBucket, global.requestsPerMinute, now, true);
  c.waiting++;
  st.globalWaiting++;
  return { ok: true };
}

/** {@link Limiter.settled}: frees a waiting slot (server and console) and the reservation, then adds non-zero usage received on the UTC day of `now`. */
function settle(st: LimiterState, serverId: string, usage: SettledUsage, now: number): void {
  const c = countersOf(st, serverId, now);
  c.waiting = Math.max(0, c.waiting - 1);
  st.globalWaiting = Math.max(0, st.globalWaiting - 1);
  if (usage.id !== undefined) st.reserved.delete(usage.id);
  if (usage.tokens <= 0 || utcDayOf(usage.receivedAt ?? now) !== c.day) return;
  c.usage.tokens += usage.tokens;
  if (usage.costUsd === null) c.usage.unpricedTokens += usage.tokens;
  else c.usage.costUsd += usage.costUsd;
}

/** {@link Limiter.seed}: restarts the usage of counters already on `day` from it, and creates counters for seeded servers not seen yet. */
function seedDay(st: LimiterState, day: string, usage: Record<string, DayUsage>): void {
  st.seeded = { day, usage };
  for (const [serverId, c] of st.counters) if (c.day === day) c.usage = startOf(st, serverId, day);
  for (const serverId of Object.keys(usage)) {
    if (!st.counters.has(serverId)) st.counters.set(serverId, freshCounters(st, serverId, day));
  }
}

/** {@link Limiter.counters}: each server's counters with its day's usage, unpriced tokens and pending estimates when not zero. */
function countersView(st: LimiterState): Record<string, ServerCounters> {
  const out: Record<string, ServerCounters> = {};
  for (const [id, { usage, ...c }] of st.counters) {
    const pending = pendingOf(st, id, c.day);
    out[id] = {
      ...c,
      tokensToday: usage.tokens,
      spendTodayUsd: usage.costUsd,
      ...(usage.unpricedTokens ? { unpricedTokensToday: usage.unpricedTokens } : {}),
      ...(pending.pendingTokens ? pending : {}),
    };
  }
  return out;
}

/** {@link Limiter.countAuto}: adds one to the server's count of that kind of auto decision. */
function countAuto(st: LimiterState, serverId: string, kind: 'approved' | 'rejected' | 'elicitation_declined', now: number): void {
  const c = countersOf(st, serverId, now);
  if (kind === 'approved') c.autoApproved++;
  else if (kind === 'rejected') c.autoRejected++;
  else c.elicitationDeclined = (c.elicitationDeclined ?? 0) + 1;
}

/** Creates a limiter with full buckets and zero counters. */
export function createLimiter(): Limiter {
  const st: LimiterState = {
    buckets: new Map(),
    globalBucket: { tokens: Number.POSITIVE_INFINITY, at: 0 },
    counters: new Map(),
    reserved: new Map(),
    seeded: undefined,
    globalWaiting: 0,
    globalLimited: 0,
  };
  return {
    admit: (serverId, file, now) => admit(st, serverId, file, now),
    settled: (serverId, usage, now) => settle(st, serverId, usage, now),
    reserve(serverId, id, estimate, now) {
      st.reserved.set(id, { serverId, day: utcDayOf(now), tokens: estimate.tokens, costUsd: estimate.costUsd });
    },
    today(serverId, now) {
      const c = countersOf(st, serverId, now);
      return { ...c.usage, ...pendingOf(st, serverId, c.day) };
    },
    todayAll: (now) => totalOf(st, now),
    seed: (day, usage) => seedDay(st, day, usage),
    counters: () => countersView(st),
    globalRateLimited: () => st.globalLimited,
    countAuto: (serverId, kind, now) => countAuto(st, serverId, kind, now),
  };
}
