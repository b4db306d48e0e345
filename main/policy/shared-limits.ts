/**
 * Limits and budgets kept where several consoles share them (a team's database:
 * main/team/policy-limits.ts), and the decision built on them. The desktop keeps its limits in
 * memory (./limits.ts) and decides without waiting; with shared limits one call per decision does
 * the admission and the budget's hold together, atomically where they are kept, so two consoles
 * never both take the last request of a rate limit or the last of a budget.
 *
 * The decision's shape stays the desktop's: limits refuse first; the rules decide; an auto approval
 * holds its estimate until the request settles (then the actual usage counts), and one whose
 * estimate does not fit today's budgets is asked of a person with the `budget` note.
 */
import type { ServerCounters } from '../../shared/contract/rules.js';
import type { PolicyAction, PolicyFacts } from '../sampling/types.js';
import type { DecideContext } from './decide.js';
import { decideSampling } from './decide.js';
import type { GlobalLimits, LimitRefusal, SettledUsage, Today } from './limits.js';
import type { Limits } from '../../shared/contract/rules.js';

/** One request's admission. Times are epoch ms. */
export interface SharedAdmission {
  /** The queue item's id: its waiting slot and held estimate are released by its settlement. */
  itemId: string;
  serverId: string;
  now: number;
  /** The server's limits and the console-wide ones in force (defaults filled in). */
  limits: Limits;
  global: GlobalLimits;
  /** The estimate an auto approval holds against today's token and spend budgets (USD 0 when unpriced); absent: nothing held. */
  reserve?: { tokens: number; costUsd: number };
  /** A reject rule decided: counted as an auto rejection. */
  countRejected?: boolean;
}

/**
 * An admission's outcome: refused by a limit, or admitted — with whether the estimate is held
 * (false when it did not fit a budget, or none was asked) and today's (UTC) totals of the server
 * and of the console as a whole as they were then, estimates held included.
 */
export type SharedAdmitResult = { ok: false; refusal: LimitRefusal } | { ok: true; reserved: boolean; today: Today; todayAll: Today };

/** Limits and budgets several consoles share. */
export interface SharedLimits {
  /** Admits a request or refuses it (see {@link SharedAdmission}). @throws (rejects) HistoryUnavailableError when they cannot be reached */
  admit(admission: SharedAdmission): Promise<SharedAdmitResult>;
  /**
   * A request ended: its waiting slot and held estimate are released, its usage counts for the UTC
   * day it was received, an auto approval is counted. Returns at once; kept and sent again until the
   * shared counters take it.
   */
  settled(serverId: string, usage: SettledUsage & { id: string }, autoApproved: boolean, now: number): void;
  /** Counts an elicitation declined by the server's policy. Returns at once. */
  countDeclined(serverId: string, now: number): void;
  /** Each server's counters for today (UTC), as last read. */
  counters(): Record<string, ServerCounters>;
  /** Today's requests refused by a console-wide limit. */
  globalRateLimited(): number;
  /** Calls `listener` when the counters shown changed. */
  onChange(listener: () => void): () => void;
  /** Sends what is kept (bounded in time) and releases this console's holds. */
  close(): Promise<void>;
}

const NO_USAGE: Today = { tokens: 0, costUsd: 0, unpricedTokens: 0, pendingTokens: 0, pendingUsd: 0 };

/** The decision context for given totals of today. */
export type ContextFor = (today: Today, todayAll: Today) => DecideContext;

/**
 * Decides a server's request with shared limits, in one call to them: the rules decide first
 * (budgets weighed against the estimate alone), then the admission takes the request (or refuses
 * it: the refusal wins, as on the desktop) and holds an auto approval's estimate if it fits. An
 * auto approval whose estimate did not fit — or a decision that already asked because of a
 * budget — is decided again against the totals the admission saw, so its note names them.
 * @throws (rejects) as {@link SharedLimits.admit}
 */
export async function decideShared(facts: PolicyFacts, contextFor: ContextFor, shared: SharedLimits, limits: { limits: Limits; global: GlobalLimits }): Promise<PolicyAction> {
  const first = decideSampling(facts, contextFor(NO_USAGE, NO_USAGE));
  const approves = first.kind === 'approve_request' || first.kind === 'approve_all';
  const admitted = await shared.admit({
    itemId: facts.item.id,
    serverId: facts.serverId,
    now: facts.now,
    ...limits,
    ...(approves && { reserve: { tokens: first.estimate?.tokens ?? 0, costUsd: first.estimate?.costUsd ?? 0 } }),
    ...(first.kind === 'reject' && { countRejected: true }),
  });
  if (!admitted.ok) return { kind: 'refuse', code: admitted.refusal.code, message: admitted.refusal.message, rule: admitted.refusal.rule };
  const askedForBudget = first.notes?.some((n) => n.kind === 'budget') ?? false;
  if (!(approves && !admitted.reserved) && !askedForBudget) return first;
  const again = decideSampling(facts, contextFor(admitted.today, admitted.todayAll));
  // Nothing is held for it: it must not run unattended, even if the totals read differently now.
  if (again.kind === 'approve_request' || again.kind === 'approve_all') return { kind: 'ask', rule: again.rule, ...(again.params && { params: again.params }), ...(again.estimate && { estimate: again.estimate }) };
  return again;
}
