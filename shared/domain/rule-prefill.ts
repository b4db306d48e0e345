/**
 * The one-click "Always allow requests like this from this server" prefill: a rule built from a
 * request's facts (shared so the renderer builds it and the tests check it against the engine).
 * Pure.
 */
import { detectInRequest } from './redaction.js';
import type { Conditions, RuleInput } from '../contract/rules.js';
import { contentBlocks } from '../contract/sampling.js';
import type { SamplingItemView } from '../contract/state.js';

/** A fresh rule id (letters, digits and dashes). */
export const newRuleId = (): string => `rule-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/**
 * A rule prefilled from a request's facts: the tool call it belongs to (when known), maxTokens ≤
 * the request's, the chosen model, the media kinds it holds, its tools (none / only these), and
 * "no sensitive data" (or, when the request holds some, the auto-redact action) — so it never sends
 * secrets unreviewed. The action auto-approves the request;
 * the person still reviews the response unless they choose otherwise before saving.
 */
export function ruleFromRequest(item: SamplingItemView): RuleInput {
  const params = item.original;
  const calls = item.association.calls;
  const kinds = new Set(params.messages.flatMap((m) => contentBlocks(m.content).map((b) => b.type)));
  const when: Conditions = {
    maxTokensAtMost: params.maxTokens,
    models: [{ providerId: item.model.providerId, modelId: item.model.modelId }],
    media: (['image', 'audio'] as const).filter((k) => kinds.has(k)),
    tools: params.tools?.length ? { kind: 'only', names: params.tools.map((t) => t.name) } : { kind: 'none' },
  };
  const call = calls.length === 1 || item.association.exact ? calls[0] : undefined;
  if (call) when.toolCall = call.name;
  // A request holding sensitive data makes a rule that redacts it before sending; otherwise the
  // rule only matches requests without any, so it never sends secrets unreviewed.
  const found = detectInRequest(params).length;
  if (!found) when.sensitive = 'absent';
  return {
    id: newRuleId(),
    name: call ? `Allow "${call.name}" like this` : `Allow requests like this from ${item.serverId}`,
    version: 1,
    enabled: true,
    when,
    action: found ? { kind: 'redact', then: 'approve_request' } : { kind: 'approve_request' },
  };
}
