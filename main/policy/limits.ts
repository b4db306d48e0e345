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
  counters(): Record<string, ServerCounters>;
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

/** Creates a limiter with full buckets and zero counters. */
export function createLimiter(): Limiter {
  const buckets = new Map<string, Bucket>();
  const globalBucket: Bucket = { tokens: Number.POSITIVE_INFINITY, at: 0 };
  const counters = new Map<string, Counters>();
  const reserved = new Map<string, { serverId: string; day: string; tokens: number; costUsd: number }>();
  let seeded: { day: string; usage: Record<string, DayUsage> } | undefined;
  let globalWaiting = 0;
  let globalLimited = 0;

  const startOf = (serverId: string, day: string): DayUsage => {
    const s = seeded?.day === day ? seeded.usage[serverId] : undefined;
    return s ? { ...s } : { tokens: 0, costUsd: 0, unpricedTokens: 0 };
  };
  const countersOf = (serverId: string, now: number): Counters => {
    const day = utcDayOf(now);
    let c = counters.get(serverId);
    if (!c) {
      c = { rateLimited: 0, autoApproved: 0, autoRejected: 0, elicitationDeclined: 0, waiting: 0, day, usage: startOf(serverId, day) };
      counters.set(serverId, c);
    }
    if (c.day !== day) Object.assign(c, { day, usage: startOf(serverId, day) });
    return c;
  };
  const bucketOf = (serverId: string, perMinute: number): Bucket => {
    let b = buckets.get(serverId);
    if (!b) {
      b = { tokens: perMinute, at: 0 };
      buckets.set(serverId, b);
    }
    return b;
  };
  const pendingOf = (serverId: string, day: string) => {
    let tokens = 0;
    let usd = 0;
    for (const r of reserved.values()) {
      if (r.serverId !== serverId || r.day !== day) continue;
      tokens += r.tokens;
      usd += r.costUsd;
    }
    return { pendingTokens: tokens, pendingUsd: usd };
  };

  /** Every server's usage and reservations for the UTC day of `now`. */
  const totalOf = (now: number): Today => {
    const day = utcDayOf(now);
    const out: Today = { tokens: 0, costUsd: 0, unpricedTokens: 0, pendingTokens: 0, pendingUsd: 0 };
    const seen = new Set<string>();
    for (const [serverId, c] of counters) {
      seen.add(serverId);
      const u = c.day === day ? c.usage : startOf(serverId, day);
      out.tokens += u.tokens;
      out.costUsd += u.costUsd;
      out.unpricedTokens += u.unpricedTokens;
    }
    if (seeded?.day === day) {
      for (const [serverId, u] of Object.entries(seeded.usage)) {
        if (seen.has(serverId)) continue;
        out.tokens += u.tokens;
        out.costUsd += u.costUsd;
        out.unpricedTokens += u.unpricedTokens;
      }
    }
    for (const r of reserved.values()) {
      if (r.day !== day) continue;
      out.pendingTokens += r.tokens;
      out.pendingUsd += r.costUsd;
    }
    return out;
  };

  return {
    admit(serverId, file, now) {
      const limits: Limits = { ...DEFAULT_SERVER_LIMITS, ...file.servers[serverId]?.limits };
      const global = { ...DEFAULT_GLOBAL_LIMITS, ...file.global };
      const c = countersOf(serverId, now);
      const bucket = bucketOf(serverId, limits.requestsPerMinute!);
      if (globalBucket.tokens === Number.POSITIVE_INFINITY) Object.assign(globalBucket, { tokens: global.requestsPerMinute, at: now });

      const refuse = (rule: string, why: string, isGlobal = false): LimitRefusal => {
        const message = `Rate limited: ${why}. Try again later.`;
        c.rateLimited++;
        c.lastLimited = { at: now, message };
        if (isGlobal) globalLimited++;
        return { ok: false, code: RATE_LIMITED_CODE, message, rule };
      };

      if (globalWaiting >= global.maxWaiting) return refuse('limit.global.waiting', `the console already has ${globalWaiting} requests waiting (cap ${global.maxWaiting})`, true);
      if (c.waiting >= limits.maxWaiting!) return refuse('limit.waiting', `${c.waiting} requests from "${serverId}" are already waiting (limit ${limits.maxWaiting})`);
      if (limits.tokensPerDay !== undefined && c.usage.tokens >= limits.tokensPerDay) {
        return refuse('limit.tokens', `"${serverId}" used ${c.usage.tokens} of ${limits.tokensPerDay} tokens today (UTC)`);
      }
      if (limits.spendPerDayUsd !== undefined && c.usage.costUsd >= limits.spendPerDayUsd - USD_EPSILON) {
        return refuse('limit.spend', `"${serverId}" spent $${c.usage.costUsd.toFixed(2)} of $${limits.spendPerDayUsd} today (UTC)`);
      }
      const all = global.tokensPerDay !== undefined || global.spendPerDayUsd !== undefined ? totalOf(now) : undefined;
      if (all && global.tokensPerDay !== undefined && all.tokens >= global.tokensPerDay) {
        return refuse('limit.global.tokens', `the console used ${all.tokens} of ${global.tokensPerDay} tokens today (UTC)`, true);
      }
      if (all && global.spendPerDayUsd !== undefined && all.costUsd >= global.spendPerDayUsd - USD_EPSILON) {
        return refuse('limit.global.spend', `the console spent $${all.costUsd.toFixed(2)} of $${global.spendPerDayUsd} today (UTC)`, true);
      }
      if (!take(bucket, limits.requestsPerMinute!, now, false)) {
        take(bucket, limits.requestsPerMinute!, now, true);
        return refuse('limit.rpm', `more than ${limits.requestsPerMinute} requests per minute from "${serverId}"`);
      }
      if (!take(globalBucket, global.requestsPerMinute, now, false)) {
        take(globalBucket, global.requestsPerMinute, now, true);
        return refuse('limit.global.rpm', `more than ${global.requestsPerMinute} requests per minute to the console`, true);
      }
      take(bucket, limits.requestsPerMinute!, now, true);
      take(globalBucket, global.requestsPerMinute, now, true);
      c.waiting++;
      globalWaiting++;
      return { ok: true };
    },
    settled(serverId, usage, now) {
      const c = countersOf(serverId, now);
      c.waiting = Math.max(0, c.waiting - 1);
      globalWaiting = Math.max(0, globalWaiting - 1);
      if (usage.id !== undefined) reserved.delete(usage.id);
      if (usage.tokens <= 0 || utcDayOf(usage.receivedAt ?? now) !== c.day) return;
      c.usage.tokens += usage.tokens;
      if (usage.costUsd === null) c.usage.unpricedTokens += usage.tokens;
      else c.usage.costUsd += usage.costUsd;
    },
    reserve(serverId, id, estimate, now) {
      reserved.set(id, { serverId, day: utcDayOf(now), tokens: estimate.tokens, costUsd: estimate.costUsd });
    },
    today(serverId, now) {
      const c = countersOf(serverId, now);
      return { ...c.usage, ...pendingOf(serverId, c.day) };
    },
    todayAll: totalOf,
    seed(day, usage) {
      seeded = { day, usage };
      for (const [serverId, c] of counters) if (c.day === day) c.usage = startOf(serverId, day);
      for (const serverId of Object.keys(usage)) {
        if (!counters.has(serverId)) counters.set(serverId, { rateLimited: 0, autoApproved: 0, autoRejected: 0, elicitationDeclined: 0, waiting: 0, day, usage: startOf(serverId, day) });
      }
    },
    counters() {
      const out: Record<string, ServerCounters> = {};
      for (const [id, { usage, ...c }] of counters) {
        const pending = pendingOf(id, c.day);
        out[id] = {
          ...c,
          tokensToday: usage.tokens,
          spendTodayUsd: usage.costUsd,
          ...(usage.unpricedTokens ? { unpricedTokensToday: usage.unpricedTokens } : {}),
          ...(pending.pendingTokens ? pending : {}),
        };
      }
      return out;
    },
    globalRateLimited: () => globalLimited,
    countAuto(serverId, kind, now) {
      const c = countersOf(serverId, now);
      if (kind === 'approved') c.autoApproved++;
      else if (kind === 'rejected') c.autoRejected++;
      else c.elicitationDeclined = (c.elicitationDeclined ?? 0) + 1;
    },
  };
}
