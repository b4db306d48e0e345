/**
 * The model picker of the request review (issue 4: "the review screen shows the choice with the
 * reason and a picker of the ranked candidates"): {@link ModelPicker} is the select of the ranked
 * candidates (best first, with score; ones that cannot take the request marked) and the reason
 * for the choice; {@link ModelPickerDetails} the whole ranking with every candidate's reason and
 * the capability banner for the picked model. Without a ranking (an item from before ranking
 * existed) the select lists every configured model.
 */
import type { CreateMessageParams } from '../../../shared/sampling';
import type { ModelCandidate, ModelChoice, ModelRef, ProviderView } from '../../../shared/state';
import { useConsole } from '../../store';
import { modelValue, parseModelValue } from '../queue/drafts';
import { CapabilityBanner } from './CapabilityBanner';
import './providers.css';

const same = (a: ModelRef | null | undefined, b: ModelRef): boolean => !!a && a.providerId === b.providerId && a.modelId === b.modelId;

function optionLabel(providers: ProviderView[], ref: ModelRef): string {
  const p = providers.find((x) => x.id === ref.providerId);
  if (p?.kind === 'manual') return p.label;
  return `${p?.label ?? ref.providerId} — ${ref.modelId}`;
}

/** The ranking, best first, each with its score and reason; the current pick in bold. */
function Ranking({ candidates, providers, picked }: { candidates: ModelCandidate[]; providers: ProviderView[]; picked: ModelRef | null }) {
  return (
    <details className="small" data-testid="model-candidates">
      <summary>
        Ranking ({candidates.length} model{candidates.length === 1 ? '' : 's'})
      </summary>
      <ol className="candidate-list">
        {candidates.map((c) => (
          <li key={`${c.providerId}/${c.modelId}`} className={same(picked, c) ? 'is-chosen' : undefined} data-testid="model-candidate">
            <span className="score">{c.score}</span> <span className="strong">{optionLabel(providers, c)}</span>
            {c.issues && <span className="badge tone-warn">cannot take it</span>}
            <span className="muted"> — {c.reason}</span>
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

/** The model <select> (ranked candidates first, with score) and the reason for the choice. */
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
  const known = providers.some((p) => p.id === choice.providerId && p.models.includes(choice.modelId));
  const picked = parseModelValue(value);
  const changed = value !== modelValue(choice);
  const pickedProvider = providers.find((p) => p.id === picked?.providerId);
  const ranked = candidates && candidates.length > 0 ? candidates : undefined;
  const pickedCandidate = ranked?.find((c) => same(picked, c));
  return (
    <div className="model-picker">
      <label htmlFor="model-select">Model</label>
      <select id="model-select" data-testid="model-select" value={value} onChange={(e) => onChange(e.target.value)}>
        {!known && (
          <option value={modelValue(choice)}>
            {choice.providerId} — {choice.modelId} (not configured)
          </option>
        )}
        {ranked ? (
          <optgroup label="Ranked for this request (score)">
            {ranked.map((c) => (
              <option key={modelValue(c)} value={modelValue(c)}>
                {optionLabel(providers, c)} · {c.score}
                {c.issues ? ' — cannot take this request' : ''}
              </option>
            ))}
          </optgroup>
        ) : (
          providers.map((p) => (
            <optgroup key={p.id} label={p.label}>
              {p.models.length === 0 && (
                <option disabled value="">
                  {p.label} — no models configured
                </option>
              )}
              {p.models.map((m) => (
                <option key={m} value={modelValue({ providerId: p.id, modelId: m })}>
                  {p.kind === 'manual' && p.models.length === 1 ? p.label : `${p.label} — ${m}`}
                </option>
              ))}
            </optgroup>
          ))
        )}
      </select>
      <p className="small" data-testid="model-reason">
        {changed ? (
          <>
            <strong>Chosen by you.</strong>{' '}
            <span className="muted">
              The console suggested {choice.modelId}: {choice.reason}
              {pickedCandidate ? `. Your pick ranked: ${pickedCandidate.reason}` : ''}
            </span>
          </>
        ) : (
          <>
            <span className="muted">Why: </span>
            {choice.reason}
          </>
        )}
      </p>
      {pickedProvider?.kind === 'manual' && <p className="small muted">No model is called: you write the response yourself.</p>}
      {pickedProvider && pickedProvider.kind !== 'manual' && !pickedProvider.hasApiKey && pickedProvider.kind !== 'openai-compatible' && (
        <p className="small warn-text">This provider has no API key: add one on the Providers screen.</p>
      )}
    </div>
  );
}
