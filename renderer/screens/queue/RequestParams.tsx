/**
 * The editable parameters of a request under review: system prompt, max tokens, temperature and
 * the model (with the console's reason and the server's read-only model preferences), plus the
 * parameters that are passed on unchanged. An embeddings call has only its model.
 */
import { useTranslation } from 'react-i18next';
import type { CreateMessageParams, ModelPreferences } from '../../../shared/contract/sampling';
import type { ModelCandidate, ModelChoice, ProviderView } from '../../../shared/contract/state';
import { compactJson } from '../../format';
import { i18n } from '../../i18n';
import type { RequestDraft } from '../../store';
import { ModelPicker, ModelPickerDetails } from '../providers/ModelPicker';

/** One of the server's priorities (0–1) as a meter and its value, or '—' when not given. */
function Priority({ label, value }: { label: string; value: number | undefined }) {
  const { t } = useTranslation('queue');
  return (
    <div className="priority">
      <span className="priority-label">{label}</span>
      {value === undefined ? (
        <span className="muted">—</span>
      ) : (
        <>
          <meter min={0} max={1} value={value} aria-label={t('params.priority', { label })} />
          <span className="mono">{value.toFixed(2)}</span>
        </>
      )}
    </div>
  );
}

/** The server's model preferences, read-only (`providerCall`: a provider call's, from the model it asked for). */
export function ModelPreferencesView({ prefs, providerCall }: { prefs: ModelPreferences | undefined; providerCall?: boolean }) {
  const { t } = useTranslation('queue');
  if (!prefs) return <p className="muted small">{providerCall ? t('params.noPrefsProviderCall') : t('params.noPrefs')}</p>;
  const hints = (prefs.hints ?? []).map((h) => h.name).filter((n): n is string => !!n);
  return (
    <div className="model-prefs" data-testid="model-preferences">
      <div>
        <span className="muted">{t('params.hints')} </span>
        {hints.length ? hints.map((h, i) => <code key={i} className="hint">{h}</code>) : <span className="muted">{t('params.none')}</span>}
      </div>
      <Priority label={t('params.cost')} value={prefs.costPriority} />
      <Priority label={t('params.speed')} value={prefs.speedPriority} />
      <Priority label={t('params.intelligence')} value={prefs.intelligencePriority} />
    </div>
  );
}

/**
 * What the console does with `includeContext` (S-CAP-3): it declares no `sampling.context`, so
 * nothing beyond the request's own messages is ever added, whatever the server asked for.
 */
export function includeContextNote(value: string): string {
  return value === 'none'
    ? i18n.t('queue:params.includeNone')
    : i18n.t('queue:params.includeOther', { value });
}

/** Parameters passed on as the server sent them (shown so nothing is hidden from the person). Tools: see ToolsOffered. */
function PassedOn({ params }: { params: CreateMessageParams }) {
  const { t } = useTranslation('queue');
  // [test id (the English name, stable), label, value]
  const rows: Array<[string, string, string]> = [];
  if (params.stopSequences) rows.push(['Stop sequences', t('params.stopSequences'), compactJson(params.stopSequences)]);
  if (params.includeContext) rows.push(['includeContext', 'includeContext', includeContextNote(params.includeContext)]);
  if (params.metadata) rows.push(['Metadata', t('params.metadata'), compactJson(params.metadata)]);
  if (rows.length === 0) return null;
  return (
    <dl className="facts passed-on" data-testid="passed-on">
      {rows.map(([k, label, v]) => (
        <div key={k} className="fact" data-testid={`passed-on-${k}`}>
          <dt>{label}</dt>
          {k === 'includeContext' ? <dd>{v}</dd> : <dd className="mono" translate="no">{v}</dd>}
        </div>
      ))}
    </dl>
  );
}

/** The system prompt's editor, marked when edited, or saying the server (or caller) sent none. */
function SystemPromptField({ params, draft, onChange, providerCall }: { params: CreateMessageParams; draft: RequestDraft; onChange: (patch: Partial<RequestDraft>) => void; providerCall: boolean }) {
  const { t } = useTranslation('queue');
  const systemEdited = draft.systemPrompt !== (params.systemPrompt ?? '');
  return (
    <div className="field">
      <label htmlFor="system-prompt">
        {t('params.systemPrompt')} {systemEdited && <span className="badge tone-warn">{t('params.edited')}</span>}
        {params.systemPrompt === undefined && <span className="muted small">{providerCall ? t('params.callerSentNone') : t('params.serverSentNone')}</span>}
      </label>
      <textarea
        id="system-prompt"
        className="editor"
        data-testid="system-prompt"
        rows={3}
        value={draft.systemPrompt}
        placeholder={t('params.noSystemPrompt')}
        onChange={(e) => onChange({ systemPrompt: e.target.value })}
      />
    </div>
  );
}

/** Max tokens and temperature, as typed. */
function LimitsFields({ draft, onChange }: { draft: RequestDraft; onChange: (patch: Partial<RequestDraft>) => void }) {
  const { t } = useTranslation('queue');
  return (
    <div className="params-limits">
      <div className="field">
        <label htmlFor="max-tokens">{t('params.maxTokens')}</label>
        <input
          id="max-tokens"
          data-testid="max-tokens"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={draft.maxTokens}
          onChange={(e) => onChange({ maxTokens: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="temperature">{t('params.temperature')}</label>
        <input
          id="temperature"
          data-testid="temperature"
          type="number"
          step={0.1}
          min={0}
          placeholder={t('params.default')}
          value={draft.temperature}
          onChange={(e) => onChange({ temperature: e.target.value })}
        />
      </div>
    </div>
  );
}

/** System prompt, limits and model of the request draft (`embeddings`: the model alone, nothing else applies). */
export function RequestParams({
  params,
  draft,
  choice,
  providers,
  onChange,
  candidates,
  serverId,
  providerCall = false,
  embeddings = false,
}: {
  params: CreateMessageParams;
  draft: RequestDraft;
  choice: ModelChoice;
  providers: ProviderView[];
  onChange: (patch: Partial<RequestDraft>) => void;
  /** The console's ranking (item.candidates), for the model picker. */
  candidates?: ModelCandidate[];
  /** The requesting server (its allowed models bound the alternatives the capability banner offers). */
  serverId?: string;
  /** A provider call through the gateway: its caller, not a server, sent the request. */
  providerCall?: boolean;
  /** An embeddings call: no system prompt, token limit or temperature means anything for it. */
  embeddings?: boolean;
}) {
  const { t } = useTranslation('queue');
  return (
    <div className="request-params">
      {!embeddings && <SystemPromptField params={params} draft={draft} onChange={onChange} providerCall={providerCall} />}
      <div className={embeddings ? 'params-grid params-grid-model' : 'params-grid'}>
        {!embeddings && <LimitsFields draft={draft} onChange={onChange} />}
        <ModelPicker
          providers={providers}
          choice={choice}
          candidates={candidates}
          value={draft.model}
          onChange={(model) => onChange({ model })}
        />
        <div className="field">
          <span className="field-label" data-testid="model-preferences-label">
            {providerCall ? t('params.modelAskedFor') : t('params.serverPrefs')}
          </span>
          <ModelPreferencesView prefs={params.modelPreferences} providerCall={providerCall} />
        </div>
      </div>
      <ModelPickerDetails providers={providers} candidates={candidates} params={params} serverId={serverId ?? ''} value={draft.model} onChange={(model) => onChange({ model })} />
      <PassedOn params={params} />
    </div>
  );
}
