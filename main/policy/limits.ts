/**
 * Rate limits and budgets (SPEC-SAMPLING.md "Security considerations" 4: clients SHOULD
 * rate-limit sampling). Checked at intake, before a request is queued, identically for both
 * protocol eras (they share the pipeline):
 *
 * - per server and console-wide: requests per minute (a token bucket holding `requestsPerMinute`
 *   requests, refilled evenly over 60 s) and requests waiting (admitted, not finished);
 * - per server: tokens per day (input + output reported by providers since local midnight) and
 *   spend per day (estimated USD since local midnight, where model prices are known).
 *
 * A refused request is answered with {@link RATE_LIMITED_CODE} and a message that says which limit.
 * Pure bookkeeping: the clock comes in as an argument.
 */
import { DEFAULT_GLOBAL_LIMITS, DEFAULT_SERVER_LIMITS, RATE_LIMITED_CODE, type Limits, type RulesFile, type ServerCounters } from '../../shared/rules.js';

/** A refusal: the JSON-RPC error and the limit's id (recorded in history as the rule). */
export interface LimitRefusal {
  ok: false;
  code: number;
  message: string;
  /** "limit.rpm", "limit.waiting", "limit.tokens", "limit.spend", "limit.global.rpm", "limit.global.waiting". */
  rule: string;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The limiter's operations. `now` is epoch ms. */
export interface Limiter {
  admit(serverId: string, file: RulesFile, now: number): { ok: true } | LimitRefusal;
  /** A request ended: frees its waiting slot, adds its tokens and cost to today's totals. */
  settled(serverId: string, usage: { tokens: number; costUsd: number | null }, now: number): void;
  counters(): Record<string, ServerCounters>;
  globalRateLimited(): number;
  /** Counts an auto decision for the counters. */
  countAuto(serverId: string, kind: 'approved' | 'rejected', now: number): void;
}

/** The local calendar day of an epoch ms, e.g. "2026-11-22". */
const dayOf = (now: number): string => {
  const d = new Date(now);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
};

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

/** Creates a limiter with empty buckets (full) and zero counters. */
export function createLimiter(): Limiter {
  const buckets = new Map<string, Bucket>();
  const globalBucket: Bucket = { tokens: Number.POSITIVE_INFINITY, at: 0 };
  const counters = new Map<string, ServerCounters & { day: string }>();
  let globalWaiting = 0;
  let globalLimited = 0;

  const countersOf = (serverId: string, now: number) => {
    let c = counters.get(serverId);
    if (!c) {
      c = { rateLimited: 0, autoApproved: 0, autoRejected: 0, waiting: 0, tokensToday: 0, spendTodayUsd: 0, day: dayOf(now) };
      counters.set(serverId, c);
    }
    if (c.day !== dayOf(now)) Object.assign(c, { day: dayOf(now), tokensToday: 0, spendTodayUsd: 0 });
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
      if (limits.tokensPerDay !== undefined && c.tokensToday >= limits.tokensPerDay) {
        return refuse('limit.tokens', `"${serverId}" used ${c.tokensToday} of ${limits.tokensPerDay} tokens today`);
      }
      if (limits.spendPerDayUsd !== undefined && c.spendTodayUsd !== null && c.spendTodayUsd >= limits.spendPerDayUsd) {
        return refuse('limit.spend', `"${serverId}" spent an estimated $${c.spendTodayUsd.toFixed(2)} of $${limits.spendPerDayUsd} today`);
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
      c.tokensToday += usage.tokens;
      if (usage.tokens > 0) c.spendTodayUsd = c.spendTodayUsd === null || usage.costUsd === null ? null : c.spendTodayUsd + usage.costUsd;
    },
    counters() {
      const out: Record<string, ServerCounters> = {};
      for (const [id, { day: _day, ...c }] of counters) out[id] = { ...c };
      return out;
    },
    globalRateLimited: () => globalLimited,
    countAuto(serverId, kind, now) {
      const c = countersOf(serverId, now);
      if (kind === 'approved') c.autoApproved++;
      else c.autoRejected++;
    },
  };
}
