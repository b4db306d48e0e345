/**
 * Per-model facts the person can edit ("context window, relative cost, speed and
 * capability tiers", plus tool calling — native, prompt-based or none — image/audio input and the
 * largest image). Model selection ranks with these; the capability banner checks them. A row the
 * person changed is kept as theirs ("custom"); Reset returns it to the defaults.
 */
import { useTranslation } from 'react-i18next';
import { priceWithOrigin, type ModelPrice } from '../../../shared/domain/model-prices';
import { TOOL_SUPPORT, type FamilyRule, type ModelFacts } from '../../../shared/contract/providers';
import type { ProviderView } from '../../../shared/contract/state';
import { shownFacts, type ProviderDraft } from './provider-draft';

const TIERS = [1, 2, 3, 4, 5];
const MB = 1024 * 1024;

/** A 1–5 tier select (cost, speed or capability). */
function Tier({ label, value, onChange, testId }: { label: string; value: number; onChange: (v: number) => void; testId: string }) {
  return (
    <select aria-label={label} value={value} data-testid={testId} onChange={(e) => onChange(Number(e.target.value))}>
      {TIERS.map((t) => (
        <option key={t} value={t}>
          {t}
        </option>
      ))}
    </select>
  );
}

/**
 * A model's price: two numbers (USD per million input / output tokens) showing the price in force,
 * and where it comes from — yours, the built-in list price (its page and date on hover), free for a
 * local endpoint, or unknown. Typing sets yours; emptying both returns to the built-in one.
 */
function PriceCell({ draft, model, facts, onChange }: { draft: ProviderDraft; model: string; facts: ModelFacts; onChange: (facts: ModelFacts) => void }) {
  const { t } = useTranslation('providers');
  const { price, origin } = priceWithOrigin(draft.kind, model, draft.baseURL || undefined, facts.price);
  const setPart = (part: 'inputPerMTok' | 'outputPerMTok', text: string) => {
    const { price: _drop, ...rest } = facts;
    if (text === '') return onChange(rest); // empty: the built-in price again
    const n = Number(text);
    if (!(n >= 0)) return;
    const base: ModelPrice = price ?? { inputPerMTok: 0, outputPerMTok: 0 };
    onChange({ ...rest, price: { ...base, [part]: n } });
  };
  const note =
    origin.kind === 'custom'
      ? t('facts.priceCustom')
      : origin.kind === 'list'
        ? t('facts.priceList', { asOf: origin.asOf })
        : origin.kind === 'local'
          ? t('facts.priceLocal')
          : t('facts.priceUnknown');
  return (
    <span className="price-cell" data-testid="fact-price">
      <input type="number" min={0} step={0.01} aria-label={t('facts.priceInOf', { model })} placeholder={t('facts.priceIn')} value={price?.inputPerMTok ?? ''} data-testid="fact-price-in" onChange={(e) => setPart('inputPerMTok', e.target.value)} />
      <input type="number" min={0} step={0.01} aria-label={t('facts.priceOutOf', { model })} placeholder={t('facts.priceOut')} value={price?.outputPerMTok ?? ''} data-testid="fact-price-out" onChange={(e) => setPart('outputPerMTok', e.target.value)} />
      <span className="small muted" data-testid="fact-price-origin" title={origin.kind === 'list' ? t('facts.priceListTitle', { page: origin.page, asOf: origin.asOf }) : undefined}>
        {note}
      </span>
    </span>
  );
}

/** The header row: one column per fact, with hints on hover. */
function FactsHead() {
  const { t } = useTranslation('providers');
  return (
    <thead>
      <tr>
        <th>{t('facts.model')}</th>
        <th title={t('facts.contextWindowHint')}>{t('facts.contextWindow')}</th>
        <th title={t('facts.costHint')}>{t('facts.cost')}</th>
        <th title={t('facts.speedHint')}>{t('facts.speed')}</th>
        <th title={t('facts.capabilityHint')}>{t('facts.capability')}</th>
        <th>{t('facts.tools')}</th>
        <th>{t('facts.images')}</th>
        <th>{t('facts.audio')}</th>
        <th title={t('facts.maxImageHint')}>{t('facts.maxImage')}</th>
        <th title={t('facts.priceHint')}>{t('facts.price')}</th>
      </tr>
    </thead>
  );
}

/** The model's cell: its id, and "yours" with Reset when the person changed its facts. */
function ModelCell({ model, custom, onReset }: { model: string; custom: boolean; onReset: () => void }) {
  const { t } = useTranslation('providers');
  return (
    <td className="mono">
      {model} {custom && <span className="badge tone-info">{t('facts.yours')}</span>}
      {custom && (
        <button type="button" className="btn-small facts-reset" onClick={onReset}>
          {t('facts.reset')}
        </button>
      )}
    </td>
  );
}

/** The context window in tokens: empty or not a whole number ≥ 1 leaves it unknown. */
function ContextWindowCell({ model, facts, onChange }: { model: string; facts: ModelFacts; onChange: (facts: ModelFacts) => void }) {
  const { t } = useTranslation('providers');
  return (
    <td>
      <input
        type="number"
        min={1}
        className="facts-context"
        aria-label={t('facts.contextWindowOf', { model })}
        placeholder={t('facts.unknown')}
        value={facts.contextWindow ?? ''}
        onChange={(e) => {
          const n = Number(e.target.value);
          const { contextWindow: _drop, ...rest } = facts;
          onChange(e.target.value === '' || !Number.isInteger(n) || n < 1 ? rest : { ...rest, contextWindow: n });
        }}
      />
    </td>
  );
}

/** The largest image in MB (one decimal): empty or not above 0 means no limit. */
function MaxImageCell({ model, facts, onChange }: { model: string; facts: ModelFacts; onChange: (facts: ModelFacts) => void }) {
  const { t } = useTranslation('providers');
  return (
    <td>
      <input
        type="number"
        min={0.1}
        step={0.1}
        aria-label={t('facts.maxImageOf', { model })}
        placeholder={t('facts.noLimit')}
        value={facts.maxImageBytes !== undefined ? Math.round((facts.maxImageBytes / MB) * 10) / 10 : ''}
        onChange={(e) => {
          const n = Number(e.target.value);
          const { maxImageBytes: _drop, ...rest } = facts;
          onChange(e.target.value === '' || !(n > 0) ? rest : { ...rest, maxImageBytes: Math.round(n * MB) });
        }}
      />
    </td>
  );
}

/** One model's row. `onChange(facts | undefined)`: undefined resets the model to its defaults. */
function FactsRow({ draft, model: m, facts: f, onChange }: { draft: ProviderDraft; model: string; facts: ModelFacts; onChange: (facts: ModelFacts | undefined) => void }) {
  const { t } = useTranslation('providers');
  const custom = m in draft.facts;
  const set = (patch: Partial<ModelFacts>) => onChange({ ...f, ...patch });
  return (
    <tr className={custom ? 'is-custom' : undefined} data-testid="model-facts-row" data-model={m}>
      <ModelCell model={m} custom={custom} onReset={() => onChange(undefined)} />
      <ContextWindowCell model={m} facts={f} onChange={onChange} />
      <td>
        <Tier label={t('facts.costOf', { model: m })} testId="fact-cost" value={f.cost} onChange={(cost) => set({ cost })} />
      </td>
      <td>
        <Tier label={t('facts.speedOf', { model: m })} testId="fact-speed" value={f.speed} onChange={(speed) => set({ speed })} />
      </td>
      <td>
        <Tier label={t('facts.capabilityOf', { model: m })} testId="fact-intelligence" value={f.intelligence} onChange={(intelligence) => set({ intelligence })} />
      </td>
      <td>
        <select aria-label={t('facts.toolsOf', { model: m })} data-testid="fact-tools" value={f.tools} onChange={(e) => set({ tools: e.target.value as ModelFacts['tools'] })}>
          {TOOL_SUPPORT.map((s) => (
            <option key={s} value={s}>
              {t(`facts.toolSupport.${s}`)}
            </option>
          ))}
        </select>
      </td>
      <td>
        <input type="checkbox" aria-label={t('facts.imagesOf', { model: m })} checked={f.images} onChange={(e) => set({ images: e.target.checked })} />
      </td>
      <td>
        <input type="checkbox" aria-label={t('facts.audioOf', { model: m })} checked={f.audio} onChange={(e) => set({ audio: e.target.checked })} />
      </td>
      <MaxImageCell model={m} facts={f} onChange={onChange} />
      <td>
        <PriceCell draft={draft} model={m} facts={f} onChange={onChange} />
      </td>
    </tr>
  );
}

/** The table. `onChange(modelId, facts | undefined)`: undefined resets the model to its defaults. */
export function ModelFactsTable({
  draft,
  view,
  families,
  onChange,
}: {
  draft: ProviderDraft;
  view: ProviderView | undefined;
  families: readonly FamilyRule[] | undefined;
  onChange: (modelId: string, facts: ModelFacts | undefined) => void;
}) {
  const { t } = useTranslation('providers');
  if (draft.models.length === 0) return <p className="muted small">{t('facts.empty')}</p>;
  return (
    <div className="table-scroll">
      <table className="facts-table" data-testid="model-facts">
        <FactsHead />
        <tbody>
          {draft.models.map((m) => (
            <FactsRow key={m} draft={draft} model={m} facts={shownFacts(draft, view, m, families)} onChange={(facts) => onChange(m, facts)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
