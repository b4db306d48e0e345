/**
 * The rule being edited on the Rules screen (UI state only: nothing is in force until the person
 * saves). The one-click prefill from a request lives in shared/domain/rule-prefill.ts.
 */
import { create } from 'zustand';
import type { RuleInput } from '../../../shared/contract/rules';

export { newRuleId, ruleFromRequest } from '../../../shared/domain/rule-prefill';

/** A rule open in the editor: for `serverId`, replacing the rule at `index` (absent = a new rule, added first). */
export interface RuleDraft {
  serverId: string;
  rule: RuleInput;
  index?: number;
  /** The request the draft was prefilled from (epoch ms it was received), for the editor's heading ("from the request received at 12:03"). */
  fromRequestAt?: number;
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
