/**
 * The rule being edited on the Rules screen (UI state only: nothing is in force until the person
 * saves), and the one-click "Always allow requests like this from this server" prefill built from a
 * request's facts.
 */
import { create } from 'zustand';
import { detectInRequest } from '../../../shared/redaction';
import type { Conditions, RuleInput } from '../../../shared/rules';
import { contentBlocks } from '../../../shared/sampling';
import type { SamplingItemView } from '../../../shared/state';

/** A rule open in the editor: for `serverId`, replacing the rule at `index` (absent = a new rule, added first). */
export interface RuleDraft {
  serverId: string;
  rule: RuleInput;
  index?: number;
  /** Where the draft came from, for the editor's heading ("from the request at 12:03"). */
  origin?: string;
}

interface RuleDraftStore {
  draft: RuleDraft | null;
  selectedServer: string | null;
  open(draft: RuleDraft): void;
  close(): void;
  selectServer(id: string | null): void;
}

/** The Rules screen's UI store. */
export const useRuleDraft = create<RuleDraftStore>()((set) => ({
  draft: null,
  selectedServer: null,
  open: (draft) => set({ draft, selectedServer: draft.serverId }),
  close: () => set({ draft: null }),
  selectServer: (selectedServer) => set({ selectedServer, draft: null }),
}));

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
