/**
 * The pure rule engine: the facts of a request, which conditions of a rule hold, the
 * first-match-wins evaluation of a server's rules with its default action, and the elicitation
 * policy ("always ask" / "always decline" only). The schemas live in ./rules.ts.
 *
 * Pure: imports only types from the shared contract (plus the sampling block reader).
 */
import { contentBlocks, type CreateMessageParams } from '../contract/sampling.js';
import type { ModelRef, RuleRef } from '../contract/primitives.js';
import type { Conditions, RuleAction, ServerPolicy, TextCondition } from '../contract/rules-schema.js';
import { globMatches as globMatchesText, userPatternFound } from './user-pattern.js';

/** What the engine knows about a request. */
export interface RuleFacts {
  /** Tool names of the client requests it may belong to (several when the association is not exact). */
  callNames: string[];
  maxTokens: number;
  model: ModelRef;
  /** Content kinds present in the messages ("text", "image", "audio", "tool_use", "tool_result"). */
  kinds: string[];
  /** Names of the tools offered in the request; empty when none. */
  toolNames: string[];
  systemPrompt: string;
  /** All text of all messages (including text inside tool results), joined by newlines. */
  messageText: string;
  /** Estimated cost in USD; undefined when the model's price is unknown. */
  estimatedCostUsd?: number;
  /** Local time of day: weekday 0 = Sunday, minutes since midnight. */
  local: { weekday: number; minutes: number };
  /** How many sensitive-data findings the request holds. */
  sensitiveCount: number;
}

/**
 * The facts of a request that depend only on it (no clock, prices or detectors):
 * call names, maxTokens, model, content kinds, tools, texts. The caller adds the rest.
 */
export function requestFacts(params: CreateMessageParams, callNames: string[], model: ModelRef): Omit<RuleFacts, 'local' | 'sensitiveCount' | 'estimatedCostUsd'> {
  const kinds = new Set<string>();
  const texts: string[] = [];
  for (const m of params.messages) {
    for (const b of contentBlocks(m.content)) {
      kinds.add(b.type);
      if (b.type === 'text') texts.push(b.text);
      if (b.type === 'tool_result') for (const inner of b.content) if (inner.type === 'text' && typeof inner.text === 'string') texts.push(inner.text);
    }
  }
  return {
    callNames,
    maxTokens: params.maxTokens,
    model: { providerId: model.providerId, modelId: model.modelId },
    kinds: [...kinds].sort(),
    toolNames: (params.tools ?? []).map((t) => t.name),
    systemPrompt: params.systemPrompt ?? '',
    messageText: texts.join('\n'),
  };
}

/** Anchored glob: `*` matches any run of characters, everything else literally (linear time, re2js). */
export function globMatches(pattern: string, name: string): boolean {
  return globMatchesText(pattern, name, { anchored: true });
}

const minutesOf = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

function textHolds(cond: TextCondition, text: string): boolean {
  const found = userPatternFound(cond.pattern, text, { ignoreCase: true }); // re2js: linear time
  return cond.negate ? !found : found;
}

/**
 * Which conditions of `when` do not hold for `facts`, as readable lines; empty when the rule matches.
 */
export function conditionFailures(when: Conditions, facts: RuleFacts): string[] {
  const out: string[] = [];
  if (when.toolCall !== undefined) {
    const ok = facts.callNames.length > 0 && facts.callNames.every((n) => globMatches(when.toolCall!, n));
    if (!ok) out.push(`tool call ${facts.callNames.length ? facts.callNames.join(', ') : '(none)'} is not "${when.toolCall}"`);
  }
  if (when.maxTokensAtMost !== undefined && facts.maxTokens > when.maxTokensAtMost) out.push(`maxTokens ${facts.maxTokens} > ${when.maxTokensAtMost}`);
  if (when.models && !when.models.some((m) => m.providerId === facts.model.providerId && m.modelId === facts.model.modelId)) {
    out.push(`model ${facts.model.providerId}/${facts.model.modelId} is not in the list`);
  }
  if (when.providers && !when.providers.includes(facts.model.providerId)) out.push(`provider ${facts.model.providerId} is not in the list`);
  if (when.media) {
    const extra = facts.kinds.filter((k) => (k === 'image' || k === 'audio') && !when.media!.includes(k));
    if (extra.length) out.push(`holds ${extra.join(' and ')}, which the rule does not allow`);
  }
  if (when.tools) {
    if (when.tools.kind === 'none' && facts.toolNames.length > 0) out.push(`offers tools (${facts.toolNames.join(', ')})`);
    if (when.tools.kind === 'only') {
      const allowed = when.tools.names;
      const other = facts.toolNames.filter((n) => !allowed.includes(n));
      if (other.length) out.push(`offers tools not in the list: ${other.join(', ')}`);
    }
  }
  if (when.systemPrompt && !textHolds(when.systemPrompt, facts.systemPrompt)) {
    out.push(`system prompt ${when.systemPrompt.negate ? 'matches' : 'does not match'} /${when.systemPrompt.pattern}/`);
  }
  if (when.messageText && !textHolds(when.messageText, facts.messageText)) {
    out.push(`message text ${when.messageText.negate ? 'matches' : 'does not match'} /${when.messageText.pattern}/`);
  }
  if (when.maxCostUsd !== undefined) {
    if (facts.estimatedCostUsd === undefined) out.push('estimated cost unknown (no price for this model)');
    else if (facts.estimatedCostUsd > when.maxCostUsd) out.push(`estimated cost $${facts.estimatedCostUsd.toFixed(4)} > $${when.maxCostUsd}`);
  }
  if (when.minCostUsd !== undefined && facts.estimatedCostUsd !== undefined && facts.estimatedCostUsd < when.minCostUsd) {
    out.push(`estimated cost $${facts.estimatedCostUsd.toFixed(4)} < $${when.minCostUsd}`);
  }
  if (when.timeWindow) {
    const { from, to, days } = when.timeWindow;
    const m = facts.local.minutes;
    const a = minutesOf(from);
    const b = minutesOf(to);
    const inTime = a === b ? true : a < b ? m >= a && m < b : m >= a || m < b;
    if (!inTime) out.push(`outside ${from}–${to}`);
    else if (days && !days.includes(facts.local.weekday)) out.push('not on an allowed day');
  }
  if (when.sensitive === 'absent' && facts.sensitiveCount > 0) out.push(`contains sensitive data (${facts.sensitiveCount})`);
  if (when.sensitive === 'present' && facts.sensitiveCount === 0) out.push('contains no sensitive data');
  return out;
}

/** The rule id history names when a server's default action decided. */
export const DEFAULT_RULE_ID = 'default';

/** What the engine decided, with the rule (or the default) and every rule it passed over. */
export interface RuleDecision {
  action: RuleAction;
  /** The rule that decided; `ruleId` {@link DEFAULT_RULE_ID} for the server's default action. */
  rule: RuleRef;
  /** True when no rule matched and the default action applies. */
  isDefault: boolean;
  /** Each enabled rule tried before the decision, with why it did not match. */
  skipped: Array<{ ruleId: string; why: string[] }>;
}

/**
 * The rule engine: first enabled matching rule wins; otherwise the server's default action.
 * Pure and total (never throws for a parsed policy).
 */
export function evaluateRules(serverId: string, policy: ServerPolicy, facts: RuleFacts): RuleDecision {
  const skipped: RuleDecision['skipped'] = [];
  for (const rule of policy.rules) {
    if (!rule.enabled) continue;
    const why = conditionFailures(rule.when, facts);
    if (why.length === 0) {
      return { action: rule.action, rule: { serverId, ruleId: rule.id, version: rule.version, name: rule.name }, isDefault: false, skipped };
    }
    skipped.push({ ruleId: rule.id, why });
  }
  return {
    action: policy.defaultAction,
    rule: { serverId, ruleId: DEFAULT_RULE_ID, version: policy.defaultVersion, name: `default for ${serverId}` },
    isDefault: true,
    skipped,
  };
}

/** The rule id history names when a server's elicitation policy decided. */
export const ELICITATION_RULE_ID = 'elicitation';

/**
 * The elicitation policy of a server (auto-rules cover elicitation only as "always ask"
 * or "always decline"; never accept). `ask` when the server sets none. `rule` names the policy and
 * its version, for history. Not affected by the pause switch (like reject rules, declining sends
 * nothing without the person).
 */
export function evaluateElicitation(serverId: string, policy: ServerPolicy): { action: 'ask' | 'decline'; rule: RuleRef } {
  const e = policy.elicitation ?? { action: 'ask' as const, version: 1 };
  return {
    action: e.action,
    rule: { serverId, ruleId: ELICITATION_RULE_ID, version: e.version, name: e.action === 'decline' ? `always decline elicitation from ${serverId}` : `always ask for elicitation from ${serverId}` },
  };
}
