/**
 * The editor of one rule: name, conditions (each optional, all must hold) and the action. The form
 * keeps raw strings; {@link toRule} turns them into a rule the shared zod schema checks before the
 * person can save, so a mistake is shown next to Save instead of reaching main.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RuleInput } from '../../../shared/contract/rules';
import type { ModelRef, ProviderView } from '../../../shared/contract/state';
import { ActionBar } from '../../components/common';
import { PatternProblem, usePatternProblem } from './PatternProblem';
import { ACTIONS, modelKey, toForm, toRule, type RuleForm } from './rule-form';

/** What a part of the form needs: the values and a setter taking the changed ones. */
interface FormProps {
  f: RuleForm;
  set: (patch: Partial<RuleForm>) => void;
}

/** The form's state, the rule it makes, and the pattern problems in the person's language. */
function useRuleForm(initial: RuleInput, providers: ProviderView[]) {
  const [f, setF] = useState<RuleForm>(() => toForm(initial));
  const set = (patch: Partial<RuleForm>) => setF((prev) => ({ ...prev, ...patch }));
  const built = toRule(initial, f, providers);
  const systemProblem = usePatternProblem(f.systemPattern);
  const messageProblem = usePatternProblem(f.messagePattern);
  // A pattern the linear-time engine refuses is worded in the person's language, not zod's English.
  const builtProblem = built.ok ? undefined : built.path.endsWith('systemPrompt.pattern') ? systemProblem : built.path.endsWith('messageText.pattern') ? messageProblem : undefined;
  return { f, set, built, systemProblem, messageProblem, builtProblem };
}

/** The models to choose from: every configured provider's, then those of the rule no provider offers now. */
function useModelChoices(providers: ProviderView[], ruleModels: ModelRef[]): Array<{ key: string; label: string }> {
  const { t } = useTranslation('rules');
  const allModels = providers.flatMap((p) => p.models.map((m) => ({ key: `${p.id}/${m}`, label: `${p.label} — ${m}` })));
  for (const m of ruleModels) if (!allModels.some((x) => x.key === modelKey(m))) allModels.push({ key: modelKey(m), label: t('editor.modelNotConfigured', { model: modelKey(m) }) });
  return allModels;
}

/** The conditions on the call: tool call name, maxTokens, model, provider. */
function CallConditions({ f, set, providers, ruleModels }: FormProps & { providers: ProviderView[]; ruleModels: ModelRef[] }) {
  const { t } = useTranslation('rules');
  const allModels = useModelChoices(providers, ruleModels);
  return (
    <>
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
    </>
  );
}

/** The conditions on what the request carries: content kinds and tools offered. */
function ContentConditions({ f, set }: FormProps) {
  const { t } = useTranslation('rules');
  return (
    <>
      <label>
        {t('editor.content')}
        <select data-testid="rule-media" value={f.media} onChange={(e) => set({ media: e.target.value as RuleForm['media'] })}>
          <option value="any">{t('editor.any')}</option>
          <option value="text">{t('editor.mediaText')}</option>
          <option value="image">{t('editor.mediaImage')}</option>
          <option value="audio">{t('editor.mediaAudio')}</option>
          <option value="both">{t('editor.mediaBoth')}</option>
        </select>
      </label>
      <label>
        {t('editor.tools')}
        <select data-testid="rule-tools" value={f.tools} onChange={(e) => set({ tools: e.target.value as RuleForm['tools'] })}>
          <option value="any">{t('editor.any')}</option>
          <option value="none">{t('editor.toolsNone')}</option>
          <option value="only">{t('editor.toolsOnly')}</option>
        </select>
        {f.tools === 'only' && <input aria-label={t('editor.toolNamesAria')} value={f.toolNames} onChange={(e) => set({ toolNames: e.target.value })} />}
      </label>
    </>
  );
}

/** A condition that a text matches (or does not match) a regular expression, with the pattern's problem. */
function PatternCondition({
  label,
  matchAria,
  patternAria,
  negate,
  pattern,
  problem,
  testId,
  problemTestId,
  onNegate,
  onPattern,
}: {
  label: string;
  matchAria: string;
  patternAria: string;
  negate: boolean;
  pattern: string;
  problem: string | undefined;
  testId?: string;
  problemTestId: string;
  onNegate(negate: boolean): void;
  onPattern(pattern: string): void;
}) {
  const { t } = useTranslation('rules');
  return (
    <label>
      {label}{' '}
      <select aria-label={matchAria} value={negate ? 'not' : 'match'} onChange={(e) => onNegate(e.target.value === 'not')}>
        <option value="match">{t('editor.matches')}</option>
        <option value="not">{t('editor.notMatches')}</option>
      </select>
      <input aria-label={patternAria} aria-invalid={!!problem} data-testid={testId} placeholder={t('editor.regex')} value={pattern} onChange={(e) => onPattern(e.target.value)} />
      <PatternProblem message={problem} testId={problemTestId} />
    </label>
  );
}

/** The conditions on cost, time of day and sensitive data. */
function CostTimeDataConditions({ f, set }: FormProps) {
  const { t } = useTranslation('rules');
  return (
    <>
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
        <select data-testid="rule-sensitive" value={f.sensitive} onChange={(e) => set({ sensitive: e.target.value as RuleForm['sensitive'] })}>
          <option value="any">{t('editor.any')}</option>
          <option value="absent">{t('editor.sensitiveAbsent')}</option>
          <option value="present">{t('editor.sensitivePresent')}</option>
        </select>
      </label>
    </>
  );
}

/** The conditions fieldset (each optional, all must hold). */
function RuleConditions({
  f,
  set,
  providers,
  ruleModels,
  systemProblem,
  messageProblem,
}: FormProps & { providers: ProviderView[]; ruleModels: ModelRef[]; systemProblem: string | undefined; messageProblem: string | undefined }) {
  const { t } = useTranslation('rules');
  return (
    <fieldset className="rule-conditions">
      <legend>{t('editor.conditions')}</legend>
      <CallConditions f={f} set={set} providers={providers} ruleModels={ruleModels} />
      <ContentConditions f={f} set={set} />
      <PatternCondition
        label={t('editor.systemPrompt')}
        matchAria={t('editor.systemMatchAria')}
        patternAria={t('editor.systemPatternAria')}
        negate={f.systemNegate}
        pattern={f.systemPattern}
        problem={systemProblem}
        problemTestId="rule-system-pattern-error"
        onNegate={(systemNegate) => set({ systemNegate })}
        onPattern={(systemPattern) => set({ systemPattern })}
      />
      <PatternCondition
        label={t('editor.messageText')}
        matchAria={t('editor.messageMatchAria')}
        patternAria={t('editor.messagePatternAria')}
        negate={f.messageNegate}
        pattern={f.messagePattern}
        problem={messageProblem}
        testId="rule-message-pattern"
        problemTestId="rule-message-pattern-error"
        onNegate={(messageNegate) => set({ messageNegate })}
        onPattern={(messagePattern) => set({ messagePattern })}
      />
      <CostTimeDataConditions f={f} set={set} />
    </fieldset>
  );
}

/** "Then": the action, and the reason when it rejects. */
function ActionField({ f, set }: FormProps) {
  const { t } = useTranslation('rules');
  return (
    <div className="field">
      <label htmlFor="rule-action">{t('editor.then')}</label>
      <select id="rule-action" data-testid="rule-action" value={f.action} onChange={(e) => set({ action: e.target.value as RuleForm['action'] })}>
        {ACTIONS.map(([value, label]) => (
          <option key={value} value={value}>
            {t(label)}
          </option>
        ))}
      </select>
      {f.action === 'reject' && <input aria-label={t('editor.reasonAria')} data-testid="rule-reason" placeholder={t('editor.reason')} value={f.reason} onChange={(e) => set({ reason: e.target.value })} />}
    </div>
  );
}

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
  const { f, set, built, systemProblem, messageProblem, builtProblem } = useRuleForm(initial, providers);

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
      <RuleConditions f={f} set={set} providers={providers} ruleModels={initial.when?.models ?? []} systemProblem={systemProblem} messageProblem={messageProblem} />
      <ActionField f={f} set={set} />
      <label className="toggle">
        <input type="checkbox" checked={f.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> {t('editor.enabled')}
      </label>
      {!built.ok && (
        <p className="action-error" role="alert" data-testid="rule-invalid">
          {t('editor.invalid', { path: built.path || t('editor.rulePath'), message: builtProblem ?? built.message })}
        </p>
      )}
      <ActionBar>
        <button type="button" onClick={onCancel}>
          {t('editor.cancel')}
        </button>
        <button type="submit" className="btn-primary" data-testid="rule-save" disabled={!built.ok || saving}>
          {t('editor.save')}
        </button>
      </ActionBar>
    </form>
  );
}
