/**
 * The model picker of the request review ("the review screen shows the choice with the
 * reason and a picker of the ranked candidates"): {@link ModelPicker} is the select of the ranked
 * candidates (best first; ones that cannot take the request marked) and the reason for the
 * choice; {@link ModelPickerDetails} the whole ranking with every candidate's score (labelled as
 * one: a bare number beside a model's name reads as a price or a count) and reason, and the
 * capability banner for the picked model. Without a ranking (an item from before ranking
 * existed) the select lists every configured model.
 */
import { useTranslation } from 'react-i18next';
import { useSay } from '../../i18n/say';
import type { TFunction } from 'i18next';
import type { CreateMessageParams } from '../../../shared/contract/sampling';
import type { ModelCandidate, ModelChoice, ModelRef, ProviderView } from '../../../shared/contract/state';
import { useConsole } from '../../store';
import { modelValue, parseModelValue } from '../queue/drafts';
import { CapabilityBanner } from './CapabilityBanner';
import './providers.css';

const same = (a: ModelRef | null | undefined, b: ModelRef): boolean => !!a && a.providerId === b.providerId && a.modelId === b.modelId;

function optionLabel(t: TFunction<'providers'>, providers: ProviderView[], ref: ModelRef): string {
  const p = providers.find((x) => x.id === ref.providerId);
  if (p?.kind === 'manual') return t('manualLabel');
  return `${p?.label ?? ref.providerId} — ${ref.modelId}`;
}

/** The ranking, best first, each with its score and reason; the current pick in bold. */
function Ranking({ candidates, providers, picked }: { candidates: ModelCandidate[]; providers: ProviderView[]; picked: ModelRef | null }) {
  const { t } = useTranslation('providers');
  const say = useSay();
  return (
    <details className="small" data-testid="model-candidates">
      <summary>{t('picker.ranking', { count: candidates.length })}</summary>
      <ol className="candidate-list">
        {candidates.map((c) => (
          <li key={`${c.providerId}/${c.modelId}`} className={same(picked, c) ? 'is-chosen' : undefined} data-testid="model-candidate">
            <span className="strong">{optionLabel(t, providers, c)}</span> <span className="score">{t('picker.score', { score: c.score })}</span>
            {c.issues && <span className="badge tone-warn">{t('picker.cannotTakeIt')}</span>}
            <span className="muted"> — {say(c.reasonUi, c.reason)}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/**
 * What goes under the parameters, full width: the whole ranking (each candidate's score and
 * reason) and the capability banner for the picked model.
 */
export function ModelPickerDetails({
  providers,
  candidates,
  value,
  onChange,
  params,
  serverId,
}: {
  providers: ProviderView[];
  candidates?: ModelCandidate[];
  value: string;
  onChange: (value: string) => void;
  params: CreateMessageParams;
  serverId: string;
}) {
  const settings = useConsole((s) => s.mirror?.modelSettings);
  const picked = parseModelValue(value);
  return (
    <div className="model-picker-details">
      <CapabilityBanner params={params} picked={picked} providers={providers} settings={settings} serverId={serverId} onPick={(ref) => onChange(modelValue(ref))} />
      {candidates && candidates.length > 0 && <Ranking candidates={candidates} providers={providers} picked={picked} />}
    </div>
  );
}

/** The select's options: the suggested model if it is not configured, then the ranked candidates, else every configured model by provider. */
function ModelOptions({ providers, choice, ranked }: { providers: ProviderView[]; choice: ModelChoice; ranked: ModelCandidate[] | undefined }) {
  const { t } = useTranslation('providers');
  const known = providers.some((p) => p.id === choice.providerId && p.models.includes(choice.modelId));
  return (
    <>
      {!known && (
        <option value={modelValue(choice)}>
          {t('picker.notConfigured', { provider: choice.providerId, model: choice.modelId })}
        </option>
      )}
      {ranked ? (
        <optgroup label={t('picker.ranked')}>
          {ranked.map((c) => (
            <option key={modelValue(c)} value={modelValue(c)}>
              {c.issues ? t('picker.rankedOptionCannot', { label: optionLabel(t, providers, c) }) : optionLabel(t, providers, c)}
            </option>
          ))}
        </optgroup>
      ) : (
        providers.map((p) => (
          <optgroup key={p.id} label={p.label}>
            {p.models.length === 0 && (
              <option disabled value="">
                {t('picker.noModels', { provider: p.label })}
              </option>
            )}
            {p.models.map((m) => (
              <option key={m} value={modelValue({ providerId: p.id, modelId: m })}>
                {p.kind === 'manual' && p.models.length === 1 ? t('manualLabel') : `${p.label} — ${m}`}
              </option>
            ))}
          </optgroup>
        ))
      )}
    </>
  );
}

/** Why the console chose its model; once the person picked another, that it was their choice, with both reasons. */
function ChoiceReason({ choice, changed, pickedCandidate }: { choice: ModelChoice; changed: boolean; pickedCandidate: ModelCandidate | undefined }) {
  const { t } = useTranslation('providers');
  const say = useSay();
  return (
    <p className="small" data-testid="model-reason">
      {changed ? (
        <>
          <strong>{t('picker.chosenByYou')}</strong>{' '}
          <span className="muted">
            {pickedCandidate
              ? t('picker.suggestedAndPick', { model: choice.modelId, reason: say(choice.reasonUi, choice.reason), pick: say(pickedCandidate.reasonUi, pickedCandidate.reason) })
              : t('picker.suggested', { model: choice.modelId, reason: say(choice.reasonUi, choice.reason) })}
          </span>
        </>
      ) : (
        <>
          <span className="muted">{t('picker.why')} </span>
          {say(choice.reasonUi, choice.reason)}
        </>
      )}
    </p>
  );
}

/** The model <select> (ranked candidates first, best first) and the reason for the choice. */
export function ModelPicker({
  providers,
  choice,
  candidates,
  value,
  onChange,
}: {
  providers: ProviderView[];
  choice: ModelChoice;
  /** The console's ranking for this request (item.candidates); absent for older items. */
  candidates?: ModelCandidate[];
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation('providers');
  const picked = parseModelValue(value);
  const pickedProvider = providers.find((p) => p.id === picked?.providerId);
  const ranked = candidates && candidates.length > 0 ? candidates : undefined;
  return (
    <div className="model-picker">
      <label htmlFor="model-select">{t('picker.model')}</label>
      <select id="model-select" data-testid="model-select" value={value} onChange={(e) => onChange(e.target.value)}>
        <ModelOptions providers={providers} choice={choice} ranked={ranked} />
      </select>
      <ChoiceReason choice={choice} changed={value !== modelValue(choice)} pickedCandidate={ranked?.find((c) => same(picked, c))} />
      {pickedProvider?.kind === 'manual' && <p className="small muted">{t('picker.manualNote')}</p>}
      {pickedProvider && pickedProvider.kind !== 'manual' && !pickedProvider.hasApiKey && pickedProvider.kind !== 'openai-compatible' && (
        <p className="small warn-text">{t('picker.noKey')}</p>
      )}
    </div>
  );
}
