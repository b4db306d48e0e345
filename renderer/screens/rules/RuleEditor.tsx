/**
 * The editor of one rule: name, conditions (each optional, all must hold) and the action. The form
 * keeps raw strings; {@link toRule} turns them into a rule the shared zod schema checks before the
 * person can save, so a mistake is shown next to Save instead of reaching main.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RuleSchema, type Conditions, type RuleAction, type RuleInput } from '../../../shared/contract/rules';
import type { ProviderView } from '../../../shared/contract/state';
import { PatternProblem, usePatternProblem } from './PatternProblem';
import { i18n } from '../../i18n';
import { sayEnglish } from '../../i18n/say';

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

/** Builds the rule from the form; zod says what is wrong (`path`: where in the rule, empty for the rule itself). */
function toRule(base: RuleInput, f: Form, providers: ProviderView[]): { ok: true; rule: RuleInput } | { ok: false; path: string; message: string } {
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
    return { ok: false, path: issue.path.join('.'), message: sayEnglish(i18n, issue.message) };
  }
  return { ok: true, rule };
}

const ACTIONS = [
  ['approve_request', 'editor.actionApproveRequest'],
  ['approve_all', 'editor.actionApproveAll'],
  ['redact_request', 'editor.actionRedactRequest'],
  ['redact_all', 'editor.actionRedactAll'],
  ['ask', 'editor.actionAsk'],
  ['reject', 'editor.actionReject'],
] as const satisfies ReadonlyArray<readonly [Form['action'], string]>;

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
  const { t } = useTranslation('rules');
  const [f, setF] = useState<Form>(() => toForm(initial));
  const set = (patch: Partial<Form>) => setF((prev) => ({ ...prev, ...patch }));
  const built = toRule(initial, f, providers);
  const systemProblem = usePatternProblem(f.systemPattern);
  const messageProblem = usePatternProblem(f.messagePattern);
  // A pattern the linear-time engine refuses is worded in the person's language, not zod's English.
  const builtProblem = built.ok ? undefined : built.path.endsWith('systemPrompt.pattern') ? systemProblem : built.path.endsWith('messageText.pattern') ? messageProblem : undefined;
  const allModels = providers.flatMap((p) => p.models.map((m) => ({ key: `${p.id}/${m}`, label: `${p.label} — ${m}` })));
  for (const m of initial.when?.models ?? []) if (!allModels.some((x) => x.key === modelKey(m))) allModels.push({ key: modelKey(m), label: t('editor.modelNotConfigured', { model: modelKey(m) }) });

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
        <label htmlFor="rule-name">{t('editor.name')}</label>
        <input id="rule-name" data-testid="rule-name" value={f.name} onChange={(e) => set({ name: e.target.value })} />
      </div>
      <fieldset className="rule-conditions">
        <legend>{t('editor.conditions')}</legend>
        <label>
          <span>
            {t('editor.toolCall')} <span className="muted small">{t('editor.anything')}</span>
          </span>
          <input data-testid="rule-tool-call" value={f.toolCall} placeholder={t('editor.any')} onChange={(e) => set({ toolCall: e.target.value })} />
        </label>
        <label>
          {t('editor.maxTokens')}
          <input data-testid="rule-max-tokens" type="number" min={1} value={f.maxTokens} placeholder={t('editor.any')} onChange={(e) => set({ maxTokens: e.target.value })} />
        </label>
        <label>
          {t('editor.models')}
          <select multiple data-testid="rule-models" value={f.models} onChange={(e) => set({ models: [...e.target.selectedOptions].map((o) => o.value) })}>
            {allModels.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('editor.providers')}
          <select multiple data-testid="rule-providers" value={f.providers} onChange={(e) => set({ providers: [...e.target.selectedOptions].map((o) => o.value) })}>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('editor.content')}
          <select data-testid="rule-media" value={f.media} onChange={(e) => set({ media: e.target.value as Form['media'] })}>
            <option value="any">{t('editor.any')}</option>
            <option value="text">{t('editor.mediaText')}</option>
            <option value="image">{t('editor.mediaImage')}</option>
            <option value="audio">{t('editor.mediaAudio')}</option>
            <option value="both">{t('editor.mediaBoth')}</option>
          </select>
        </label>
        <label>
          {t('editor.tools')}
          <select data-testid="rule-tools" value={f.tools} onChange={(e) => set({ tools: e.target.value as Form['tools'] })}>
            <option value="any">{t('editor.any')}</option>
            <option value="none">{t('editor.toolsNone')}</option>
            <option value="only">{t('editor.toolsOnly')}</option>
          </select>
          {f.tools === 'only' && <input aria-label={t('editor.toolNamesAria')} value={f.toolNames} onChange={(e) => set({ toolNames: e.target.value })} />}
        </label>
        <label>
          {t('editor.systemPrompt')}{' '}
          <select aria-label={t('editor.systemMatchAria')} value={f.systemNegate ? 'not' : 'match'} onChange={(e) => set({ systemNegate: e.target.value === 'not' })}>
            <option value="match">{t('editor.matches')}</option>
            <option value="not">{t('editor.notMatches')}</option>
          </select>
          <input aria-label={t('editor.systemPatternAria')} aria-invalid={!!systemProblem} placeholder={t('editor.regex')} value={f.systemPattern} onChange={(e) => set({ systemPattern: e.target.value })} />
          <PatternProblem message={systemProblem} testId="rule-system-pattern-error" />
        </label>
        <label>
          {t('editor.messageText')}{' '}
          <select aria-label={t('editor.messageMatchAria')} value={f.messageNegate ? 'not' : 'match'} onChange={(e) => set({ messageNegate: e.target.value === 'not' })}>
            <option value="match">{t('editor.matches')}</option>
            <option value="not">{t('editor.notMatches')}</option>
          </select>
          <input aria-label={t('editor.messagePatternAria')} aria-invalid={!!messageProblem} data-testid="rule-message-pattern" placeholder={t('editor.regex')} value={f.messagePattern} onChange={(e) => set({ messagePattern: e.target.value })} />
          <PatternProblem message={messageProblem} testId="rule-message-pattern-error" />
        </label>
        <label>
          {t('editor.maxCost')}
          <input type="number" min={0} step="0.001" value={f.maxCost} placeholder={t('editor.any')} onChange={(e) => set({ maxCost: e.target.value })} />
        </label>
        <label>
          {t('editor.window')}
          <span className="inline-fields">
            <input type="time" aria-label={t('editor.from')} value={f.windowFrom} onChange={(e) => set({ windowFrom: e.target.value })} />
            <input type="time" aria-label={t('editor.to')} value={f.windowTo} onChange={(e) => set({ windowTo: e.target.value })} />
          </span>
        </label>
        <label>
          {t('editor.sensitive')}
          <select data-testid="rule-sensitive" value={f.sensitive} onChange={(e) => set({ sensitive: e.target.value as Form['sensitive'] })}>
            <option value="any">{t('editor.any')}</option>
            <option value="absent">{t('editor.sensitiveAbsent')}</option>
            <option value="present">{t('editor.sensitivePresent')}</option>
          </select>
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor="rule-action">{t('editor.then')}</label>
        <select id="rule-action" data-testid="rule-action" value={f.action} onChange={(e) => set({ action: e.target.value as Form['action'] })}>
          {ACTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </select>
        {f.action === 'reject' && <input aria-label={t('editor.reasonAria')} data-testid="rule-reason" placeholder={t('editor.reason')} value={f.reason} onChange={(e) => set({ reason: e.target.value })} />}
      </div>
      <label className="toggle">
        <input type="checkbox" checked={f.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> {t('editor.enabled')}
      </label>
      {!built.ok && (
        <p className="action-error" role="alert" data-testid="rule-invalid">
          {t('editor.invalid', { path: built.path || t('editor.rulePath'), message: builtProblem ?? built.message })}
        </p>
      )}
      <footer className="action-bar">
        <button type="button" onClick={onCancel}>
          {t('editor.cancel')}
        </button>
        <button type="submit" className="btn-primary" data-testid="rule-save" disabled={!built.ok || saving}>
          {t('editor.save')}
        </button>
      </footer>
    </form>
  );
}
