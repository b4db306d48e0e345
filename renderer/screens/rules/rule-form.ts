/**
 * The rule editor's form model: raw strings as the person types them ({@link toForm}), and the
 * rule they make ({@link toRule}), checked with the shared zod schema so a mistake is known before
 * the rule reaches main.
 */
import { RuleSchema, type Conditions, type RuleAction, type RuleInput } from '../../../shared/contract/rules';
import type { ProviderView } from '../../../shared/contract/state';
import { i18n } from '../../i18n';
import { sayEnglish } from '../../i18n/say';

/** The form's raw values. Empty strings mean "no such condition". */
export interface RuleForm {
  name: string;
  enabled: boolean;
  toolCall: string;
  maxTokens: string;
  models: string[];
  providers: string[];
  media: 'any' | 'text' | 'image' | 'audio' | 'both';
  tools: 'any' | 'none' | 'only';
  toolNames: string;
  systemPattern: string;
  systemNegate: boolean;
  messagePattern: string;
  messageNegate: boolean;
  maxCost: string;
  windowFrom: string;
  windowTo: string;
  sensitive: 'any' | 'absent' | 'present';
  action: RuleAction['kind'] | 'redact_request' | 'redact_all';
  reason: string;
}

/** A model's key in the form: `provider/model`. */
export const modelKey = (m: { providerId: string; modelId: string }) => `${m.providerId}/${m.modelId}`;

/** The form showing `rule`. */
export function toForm(rule: RuleInput): RuleForm {
  const w: Conditions = rule.when ?? {};
  const media = w.media === undefined ? 'any' : w.media.length === 0 ? 'text' : w.media.length === 2 ? 'both' : w.media[0]!;
  const a = rule.action;
  return {
    name: rule.name,
    enabled: rule.enabled ?? true,
    toolCall: w.toolCall ?? '',
    maxTokens: w.maxTokensAtMost === undefined ? '' : String(w.maxTokensAtMost),
    models: (w.models ?? []).map(modelKey),
    providers: w.providers ?? [],
    media,
    tools: w.tools?.kind ?? 'any',
    toolNames: w.tools?.kind === 'only' ? w.tools.names.join(', ') : '',
    systemPattern: w.systemPrompt?.pattern ?? '',
    systemNegate: w.systemPrompt?.negate ?? false,
    messagePattern: w.messageText?.pattern ?? '',
    messageNegate: w.messageText?.negate ?? false,
    maxCost: w.maxCostUsd === undefined ? '' : String(w.maxCostUsd),
    windowFrom: w.timeWindow?.from ?? '',
    windowTo: w.timeWindow?.to ?? '',
    sensitive: w.sensitive ?? 'any',
    action: a.kind === 'redact' ? (a.then === 'approve_all' ? 'redact_all' : 'redact_request') : a.kind,
    reason: a.kind === 'reject' ? a.reason : '',
  };
}

/** Builds the rule from the form; zod says what is wrong (`path`: where in the rule, empty for the rule itself). */
export function toRule(base: RuleInput, f: RuleForm, providers: ProviderView[]): { ok: true; rule: RuleInput } | { ok: false; path: string; message: string } {
  const when: Conditions = {};
  if (f.toolCall.trim()) when.toolCall = f.toolCall.trim();
  if (f.maxTokens.trim()) when.maxTokensAtMost = Number(f.maxTokens);
  if (f.models.length) {
    const all = providers.flatMap((p) => p.models.map((m) => ({ providerId: p.id, modelId: m })));
    const kept = (base.when?.models ?? []).filter((m) => f.models.includes(modelKey(m)));
    when.models = [...kept, ...all.filter((m) => f.models.includes(modelKey(m)) && !kept.some((k) => modelKey(k) === modelKey(m)))];
  }
  if (f.providers.length) when.providers = f.providers;
  if (f.media !== 'any') when.media = f.media === 'text' ? [] : f.media === 'both' ? ['image', 'audio'] : [f.media];
  if (f.tools === 'none') when.tools = { kind: 'none' };
  if (f.tools === 'only') when.tools = { kind: 'only', names: f.toolNames.split(',').map((s) => s.trim()).filter(Boolean) };
  if (f.systemPattern) when.systemPrompt = { pattern: f.systemPattern, ...(f.systemNegate && { negate: true }) };
  if (f.messagePattern) when.messageText = { pattern: f.messagePattern, ...(f.messageNegate && { negate: true }) };
  if (f.maxCost.trim()) when.maxCostUsd = Number(f.maxCost);
  if (f.windowFrom || f.windowTo) when.timeWindow = { from: f.windowFrom, to: f.windowTo };
  if (f.sensitive !== 'any') when.sensitive = f.sensitive;
  // Written in the rules file, not on the form (a team's two-person rules): kept as they are.
  if (base.when?.minCostUsd !== undefined) when.minCostUsd = base.when.minCostUsd;
  const approvals = base.action.kind === 'ask' ? base.action.approvals : undefined;
  const action: RuleAction =
    f.action === 'ask' && approvals
      ? { kind: 'ask', approvals }
      : f.action === 'reject'
        ? { kind: 'reject', reason: f.reason }
        : f.action === 'redact_request' || f.action === 'redact'
          ? { kind: 'redact', then: 'approve_request' }
          : f.action === 'redact_all'
            ? { kind: 'redact', then: 'approve_all' }
            : { kind: f.action };
  const rule = { ...base, name: f.name, enabled: f.enabled, when, action };
  const checked = RuleSchema.safeParse(rule);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return { ok: false, path: issue.path.join('.'), message: sayEnglish(i18n, issue.message) };
  }
  return { ok: true, rule };
}

/** The actions the form offers: the form's value and the label's i18n key (namespace `rules`). */
export const ACTIONS = [
  ['approve_request', 'editor.actionApproveRequest'],
  ['approve_all', 'editor.actionApproveAll'],
  ['redact_request', 'editor.actionRedactRequest'],
  ['redact_all', 'editor.actionRedactAll'],
  ['ask', 'editor.actionAsk'],
  ['reject', 'editor.actionReject'],
] as const satisfies ReadonlyArray<readonly [RuleForm['action'], string]>;
