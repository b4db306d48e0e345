/**
 * The editor of one rule: name, conditions (each optional, all must hold) and the action. The form
 * keeps raw strings; {@link toRule} turns them into a rule the shared zod schema checks before the
 * person can save, so a mistake is shown next to Save instead of reaching main.
 */
import { useState } from 'react';
import { RuleSchema, type Conditions, type RuleAction, type RuleInput } from '../../../shared/rules';
import type { ProviderView } from '../../../shared/state';

/** The form's raw values. Empty strings mean "no such condition". */
interface Form {
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

const modelKey = (m: { providerId: string; modelId: string }) => `${m.providerId}/${m.modelId}`;

function toForm(rule: RuleInput): Form {
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

/** Builds the rule from the form; zod says what is wrong. */
function toRule(base: RuleInput, f: Form, providers: ProviderView[]): { ok: true; rule: RuleInput } | { ok: false; error: string } {
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
  const action: RuleAction =
    f.action === 'reject'
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
    return { ok: false, error: `${issue.path.join('.') || 'rule'}: ${issue.message}` };
  }
  return { ok: true, rule };
}

const ACTIONS: Array<[Form['action'], string]> = [
  ['approve_request', 'Auto-approve the request (I review the response)'],
  ['approve_all', 'Auto-approve request and response (fully unattended)'],
  ['redact_request', 'Auto-redact sensitive data, then approve the request'],
  ['redact_all', 'Auto-redact, then approve request and response'],
  ['ask', 'Always ask me'],
  ['reject', 'Always reject (the server gets -1)'],
];

/** The rule form. `onSave` gets a rule the schema accepts. */
export function RuleEditor({
  initial,
  providers,
  title,
  onSave,
  onCancel,
  saving,
}: {
  initial: RuleInput;
  providers: ProviderView[];
  title: string;
  onSave: (rule: RuleInput) => void;
  onCancel: () => void;
  saving: boolean;
}) {
  const [f, setF] = useState<Form>(() => toForm(initial));
  const set = (patch: Partial<Form>) => setF((prev) => ({ ...prev, ...patch }));
  const built = toRule(initial, f, providers);
  const allModels = providers.flatMap((p) => p.models.map((m) => ({ key: `${p.id}/${m}`, label: `${p.label} — ${m}` })));
  for (const m of initial.when?.models ?? []) if (!allModels.some((x) => x.key === modelKey(m))) allModels.push({ key: modelKey(m), label: `${modelKey(m)} (not configured)` });

  return (
    <form
      className="rule-editor"
      data-testid="rule-editor"
      onSubmit={(e) => {
        e.preventDefault();
        if (built.ok) onSave(built.rule);
      }}
    >
      <h3>{title}</h3>
      <div className="field">
        <label htmlFor="rule-name">Name</label>
        <input id="rule-name" data-testid="rule-name" value={f.name} onChange={(e) => set({ name: e.target.value })} />
      </div>
      <fieldset className="rule-conditions">
        <legend>When all of these hold (leave empty to skip)</legend>
        <label>
          <span>
            Tool call name <span className="muted small">(* = anything)</span>
          </span>
          <input data-testid="rule-tool-call" value={f.toolCall} placeholder="any" onChange={(e) => set({ toolCall: e.target.value })} />
        </label>
        <label>
          maxTokens at most
          <input data-testid="rule-max-tokens" type="number" min={1} value={f.maxTokens} placeholder="any" onChange={(e) => set({ maxTokens: e.target.value })} />
        </label>
        <label>
          Model is one of
          <select multiple data-testid="rule-models" value={f.models} onChange={(e) => set({ models: [...e.target.selectedOptions].map((o) => o.value) })}>
            {allModels.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Provider is one of
          <select multiple data-testid="rule-providers" value={f.providers} onChange={(e) => set({ providers: [...e.target.selectedOptions].map((o) => o.value) })}>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Content
          <select data-testid="rule-media" value={f.media} onChange={(e) => set({ media: e.target.value as Form['media'] })}>
            <option value="any">any</option>
            <option value="text">text only</option>
            <option value="image">text and images</option>
            <option value="audio">text and audio</option>
            <option value="both">text, images and audio</option>
          </select>
        </label>
        <label>
          Tools offered
          <select data-testid="rule-tools" value={f.tools} onChange={(e) => set({ tools: e.target.value as Form['tools'] })}>
            <option value="any">any</option>
            <option value="none">none</option>
            <option value="only">only these names</option>
          </select>
          {f.tools === 'only' && <input aria-label="Tool names, comma-separated" value={f.toolNames} onChange={(e) => set({ toolNames: e.target.value })} />}
        </label>
        <label>
          System prompt <select aria-label="System prompt must match or not" value={f.systemNegate ? 'not' : 'match'} onChange={(e) => set({ systemNegate: e.target.value === 'not' })}>
            <option value="match">matches</option>
            <option value="not">does not match</option>
          </select>
          <input aria-label="System prompt pattern (regular expression)" placeholder="regular expression" value={f.systemPattern} onChange={(e) => set({ systemPattern: e.target.value })} />
        </label>
        <label>
          Message text <select aria-label="Message text must match or not" value={f.messageNegate ? 'not' : 'match'} onChange={(e) => set({ messageNegate: e.target.value === 'not' })}>
            <option value="match">matches</option>
            <option value="not">does not match</option>
          </select>
          <input aria-label="Message text pattern (regular expression)" data-testid="rule-message-pattern" placeholder="regular expression" value={f.messagePattern} onChange={(e) => set({ messagePattern: e.target.value })} />
        </label>
        <label>
          Estimated cost at most ($)
          <input type="number" min={0} step="0.001" value={f.maxCost} placeholder="any" onChange={(e) => set({ maxCost: e.target.value })} />
        </label>
        <label>
          Between (local time)
          <span className="inline-fields">
            <input type="time" aria-label="From" value={f.windowFrom} onChange={(e) => set({ windowFrom: e.target.value })} />
            <input type="time" aria-label="To" value={f.windowTo} onChange={(e) => set({ windowTo: e.target.value })} />
          </span>
        </label>
        <label>
          Sensitive data
          <select data-testid="rule-sensitive" value={f.sensitive} onChange={(e) => set({ sensitive: e.target.value as Form['sensitive'] })}>
            <option value="any">any</option>
            <option value="absent">none found</option>
            <option value="present">some found</option>
          </select>
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor="rule-action">Then</label>
        <select id="rule-action" data-testid="rule-action" value={f.action} onChange={(e) => set({ action: e.target.value as Form['action'] })}>
          {ACTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {f.action === 'reject' && <input aria-label="Reason sent to history" data-testid="rule-reason" placeholder="Reason" value={f.reason} onChange={(e) => set({ reason: e.target.value })} />}
      </div>
      <label className="toggle">
        <input type="checkbox" checked={f.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
      </label>
      {!built.ok && (
        <p className="action-error" role="alert" data-testid="rule-invalid">
          {built.error}
        </p>
      )}
      <footer className="action-bar">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" data-testid="rule-save" disabled={!built.ok || saving}>
          Save rule
        </button>
      </footer>
    </form>
  );
}
