/**
 * What the policy shows the person: the `policy` state slice (rules in force, problems,
 * counters per server), and the explanation a queued sampling item carries — the notes of a
 * decision ("auto-approval paused", "auto-redacted 2 items", "limit nearly reached") and the
 * estimated cost. Notes are typed so the renderer words them in the person's language; history
 * gets the English line of {@link describeNote}.
 *
 * Pure types and one formatter.
 */
import type { RuleRef } from './primitives.js';
import type { RulesFile } from './rules-schema.js';
import { english, ui, type UiText } from './ui-text.js';

/** Counters of one server: refusals and auto decisions since the console started; tokens and spend for today (UTC). */
export interface ServerCounters {
  /** Requests answered "rate limited" (any limit). */
  rateLimited: number;
  /** The last one: when (epoch ms) and the message the server got. */
  lastLimited?: { at: number; message: string };
  autoApproved: number;
  autoRejected: number;
  /** Elicitations declined by the server's elicitation policy. */
  elicitationDeclined?: number;
  /** Admitted and not yet finished. */
  waiting: number;
  /** The UTC day the token and spend counters cover, e.g. "2026-11-22". */
  day?: string;
  /** Input + output tokens providers reported for requests received today (UTC), kept across restarts. */
  tokensToday: number;
  /** USD spent today (UTC): reported usage at the models' prices (models without a known price are counted in `unpricedTokensToday`). */
  spendTodayUsd: number | null;
  /** Tokens of today's usage whose model had no known price (not in `spendTodayUsd`). */
  unpricedTokensToday?: number;
  /** Estimated tokens / USD held by auto-approved requests still generating (counted against the day's limits). */
  pendingTokens?: number;
  pendingUsd?: number;
}

/** The `policy` state slice: the rules in force, where they come from, problems, counters. */
export interface PolicyView {
  /** The rules in force (the last good file). */
  rules: RulesFile;
  /** Where the rule book lives: the rules file's path, or the team database (host:port/name). */
  path: string;
  /** What `path` names: `rules.json` (the desktop), or a team's database shared by every console of the team. Absent: the file. */
  source?: 'file' | 'database';
  /** The rule book's revision: a save names the one its edit started from and is refused when the book changed since. */
  revision?: number;
  /** Problems with the file on disk ("rules.json line 4, column 3: …"); the previous rules stay in force. */
  problems: string[];
  /** Notes on a good file: fields the console does not know, kept in the file and ignored. */
  notes?: string[];
  /** Counters by server id. */
  counters: Record<string, ServerCounters>;
  /** Requests answered "rate limited" by the console-wide cap. */
  globalRateLimited: number;
  /** Whether the console knows model prices at all (cost conditions and spend limits need them). */
  pricesKnown: boolean;
}

/**
 * One note on a policy decision, shown on the review screen:
 * - `paused`: a rule would have auto-approved, but auto-approval is paused;
 * - `ask_rule`: a rule says "always ask";
 * - `redacted`: `count` sensitive items were replaced by placeholders before review (the review
 *   starts from the redacted request; the server's original is kept apart);
 * - `budget`: auto-approving would take the server (or, with `scope: 'console'`, all servers
 *   together) past today's token or spend limit (`used` + `estimate` > `max`, in tokens or USD),
 *   so a person decides;
 * - `no_price`: the server (or the console) has a spend limit (`max` USD) but the chosen model has
 *   no known price;
 * - `manual_model`: a rule would auto-approve, but the chosen model is written by hand.
 */
export type PolicyNote =
  | { kind: 'paused'; rule: RuleRef }
  | { kind: 'ask_rule'; rule: RuleRef }
  | { kind: 'redacted'; count: number; rule: RuleRef }
  | { kind: 'budget'; limit: 'tokens' | 'spend'; used: number; estimate: number; max: number; rule: RuleRef; scope?: 'console' }
  | { kind: 'no_price'; max: number; rule: RuleRef; scope?: 'console' }
  | { kind: 'manual_model'; rule: RuleRef };

/** The policy's explanation on a queued sampling item. */
export interface PolicyExplanation {
  notes: PolicyNote[];
  /** Estimated input + output tokens (input from the request's size, output = maxTokens). */
  estimatedTokens: number;
  /** Estimated USD at the chosen model's price; absent when the price is unknown. */
  estimatedCostUsd?: number;
  /** Approvals from different reviewers the deciding `ask` rule requires (team servers; absent: one). */
  approvalsNeeded?: number;
}

const ruleName = (r: RuleRef): UiText => ui('policy.rule', { name: r.name, version: r.version });

/** A note as a message code (history events): the renderer translates it; {@link describeNote} is its English. */
export function noteText(note: PolicyNote): UiText {
  const rule = ruleName(note.rule);
  switch (note.kind) {
    case 'paused':
      return ui('policy.paused', { rule });
    case 'ask_rule':
      return ui('policy.askRule', { rule });
    case 'redacted':
      return ui('policy.redacted', { rule, count: note.count });
    case 'budget': {
      const whose = note.scope === 'console' ? ui('policy.consoles') : ui('policy.servers', { server: note.rule.serverId });
      return note.limit === 'spend'
        ? ui('policy.budgetSpend', { used: note.used.toFixed(4), estimate: note.estimate.toFixed(4), whose, max: note.max, rule })
        : ui('policy.budgetTokens', { used: note.used, estimate: note.estimate, whose, max: note.max, rule });
    }
    case 'no_price': {
      const who = note.scope === 'console' ? ui('policy.theConsole') : ui('policy.server', { server: note.rule.serverId });
      return ui('policy.noPrice', { who, max: note.max, rule });
    }
    case 'manual_model':
      return ui('policy.manualModel', { rule });
  }
}

/** A note as one English line (history events, logs). */
export function describeNote(note: PolicyNote): string {
  return english(noteText(note));
}
