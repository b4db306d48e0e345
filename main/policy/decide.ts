/**
 * How an engine decision (shared/domain/rules-engine.ts) becomes what the sampling pipeline does with a
 * queued request, with the notes the person sees on the review screen:
 *
 * - `reject` rules always apply (also while auto-approval is paused);
 * - an approving rule (`approve_request`, `approve_all`, `redact`) asks instead when auto-approval
 *   is paused (note `paused`; a `redact` rule still redacts first, so the person reviews the
 *   redacted request, note `redacted`), when auto-approving could take the server past today's
 *   token or spend limit (note `budget`), or when the server has a spend limit and the model has no
 *   known price (note `no_price`: the console could not hold the limit);
 * - an `ask` rule asks, naming itself (note `ask_rule`); the default ask carries no note.
 *
 * Every action carries the estimate (input tokens from the request's size + maxTokens, and USD
 * at the model's price when known), shown where the decision is explained.
 */
import { redactRequest, type PlacedFinding } from '../../shared/domain/redaction.js';
import { estimateInputTokens, type ModelPrice } from '../../shared/domain/model-prices.js';
import { evaluateRules, requestFacts, serverPolicyOf, type PolicyNote, type RulesFile } from '../../shared/contract/rules.js';
import type { PolicyAction, PolicyFacts } from '../sampling/types.js';
import type { Today } from './limits.js';

/** What a decision needs besides the request. */
export interface DecideContext {
  file: RulesFile;
  /** Sensitive data in the request (system prompt, message text, tool-result text). */
  findings(params: PolicyFacts['params']): PlacedFinding[];
  price: ModelPrice | undefined;
  /** The server's totals for today, with what auto-approved requests still hold. */
  today: Today;
  /** All servers' totals for today (asked only when the file sets console-wide daily limits). */
  todayAll(): Today;
}

/** The estimate of a request: input tokens from its size plus maxTokens; USD when the price is known. */
export function estimateOf(facts: PolicyFacts, price: ModelPrice | undefined): { tokens: number; costUsd?: number } {
  const input = estimateInputTokens(facts.params);
  const tokens = input + facts.params.maxTokens;
  if (!price) return { tokens };
  return { tokens, costUsd: (input * price.inputPerMTok + facts.params.maxTokens * price.outputPerMTok) / 1_000_000 };
}

/**
 * Decides one request. Pure apart from the detectors' cost; the caller counts and reserves.
 * @returns the pipeline action with its notes and estimate
 */
export function decideSampling(facts: PolicyFacts, ctx: DecideContext): PolicyAction {
  const { serverId, params, model, now } = facts;
  const findings = ctx.findings(params);
  const estimate = estimateOf(facts, ctx.price);
  const local = new Date(now);
  const decision = evaluateRules(serverId, serverPolicyOf(ctx.file, serverId), {
    ...requestFacts(params, facts.item.association.calls.map((c) => c.name), model),
    estimatedCostUsd: estimate.costUsd,
    local: { weekday: local.getDay(), minutes: local.getHours() * 60 + local.getMinutes() },
    sensitiveCount: findings.length,
  });
  const { action, rule } = decision;
  if (action.kind === 'reject') return { kind: 'reject', rule, reason: action.reason, estimate };
  if (action.kind === 'ask') return decision.isDefault ? { kind: 'ask', estimate } : { kind: 'ask', rule, notes: [{ kind: 'ask_rule', rule }], estimate, ...(action.approvals && { approvals: action.approvals }) };

  const redacted = action.kind === 'redact' && findings.length > 0 ? redactRequest(params, findings) : undefined;
  const redactNote: PolicyNote[] = redacted ? [{ kind: 'redacted', count: findings.length, rule }] : [];
  const ask = (note: PolicyNote): PolicyAction => ({ kind: 'ask', rule, notes: [note, ...redactNote], estimate, ...(redacted ? { params: redacted } : {}) });
  if (ctx.file.paused) return ask({ kind: 'paused', rule });

  const server = ctx.file.servers[serverId]?.limits;
  const global = ctx.file.global;
  const scopes = [
    { limits: server, today: () => ctx.today, scope: {} },
    { limits: global, today: ctx.todayAll, scope: { scope: 'console' as const } },
  ];
  for (const { limits, today, scope } of scopes) {
    if (limits?.tokensPerDay !== undefined) {
      const t = today();
      const used = t.tokens + t.pendingTokens;
      if (used + estimate.tokens > limits.tokensPerDay) return ask({ kind: 'budget', limit: 'tokens', used, estimate: estimate.tokens, max: limits.tokensPerDay, rule, ...scope });
    }
    if (limits?.spendPerDayUsd !== undefined) {
      const t = today();
      const used = t.costUsd + t.pendingUsd;
      if (estimate.costUsd === undefined) return ask({ kind: 'no_price', max: limits.spendPerDayUsd, rule, ...scope });
      if (used + estimate.costUsd > limits.spendPerDayUsd) return ask({ kind: 'budget', limit: 'spend', used, estimate: estimate.costUsd, max: limits.spendPerDayUsd, rule, ...scope });
    }
  }
  const kind = action.kind === 'redact' ? action.then : action.kind;
  return { kind, rule, estimate, ...(redacted ? { params: redacted, notes: redactNote } : {}) };
}
