/**
 * The Providers screen: the configured providers on the left (with whether a key is
 * stored and how many models), "Add a provider", the editor of the selected one, and the
 * model-selection settings. It opens on the first provider; with none yet, on an invitation to add
 * one from the ready presets (Anthropic, OpenAI, Gemini, Ollama, LM Studio, a custom
 * OpenAI-compatible URL), which "Add a provider" shows too. Where keys are stored (and any weakness
 * of that storage) is shown too.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProviderPreset } from '../../../shared/contract/providers';
import type { ProviderView } from '../../../shared/contract/state';
import { Banner, Empty, Pill } from '../../components/common';
import { useConsole, useProviders, useServers } from '../../store';
import { ModelSettingsPanel } from './ModelSettingsPanel';
import { ProviderEditor } from './ProviderEditor';
import { draftFromPreset, draftFromView, PRESETS } from './provider-draft';
import './providers.css';
import { useSay } from '../../i18n/say';

/** A preset's name as shown: the custom one is worded, product names stay as they are. */
export function usePresetLabel(): (preset: ProviderPreset) => string {
  const { t } = useTranslation('providers');
  return (preset) => (preset.id === 'custom' ? t('presets.custom') : preset.label);
}

/** What the detail pane shows: a configured provider, the presets to add one from, a new one from a preset, or the model-selection settings. */
type Selection = { kind: 'provider'; id: string } | { kind: 'add' } | { kind: 'new'; preset: string } | { kind: 'settings' };

/**
 * The selection (first the first editable provider, else the presets to add one from) and a nonce
 * that, bumped, starts the shown editor afresh.
 */
function useSelection(editable: ProviderView[]) {
  const [selection, setSelection] = useState<Selection>(() => (editable[0] ? { kind: 'provider', id: editable[0].id } : { kind: 'add' }));
  const [nonce, setNonce] = useState(0);
  return { selection, setSelection, nonce, renew: () => setNonce((n) => n + 1) };
}

/** The selection, as {@link useSelection} returns it. */
type SelectionState = ReturnType<typeof useSelection>;

/**
 * The presets to start a new provider from, one button each with what it is (and the address of a
 * local one). With no provider yet (`first`), it says what the console does without one.
 */
function PresetChooser({ first, onPick }: { first: boolean; onPick(preset: string): void }) {
  const { t } = useTranslation('providers');
  const presetLabel = usePresetLabel();
  return (
    <section className="provider-presets" data-testid="provider-presets">
      <h2>{first ? t('screen.emptyTitle') : t('screen.addProvider')}</h2>
      <p className="muted">{first ? t('screen.emptyBody') : t('screen.presetsBody')}</p>
      <ul className="preset-grid">
        {PRESETS.map((p) => (
          <li key={p.id}>
            <button type="button" className="preset-card" data-testid={`provider-preset-${p.id}`} onClick={() => onPick(p.id)}>
              {/* A product's name stays as it is in every language; the custom preset's is worded. */}
              <span className="strong" translate={p.id === 'custom' ? undefined : 'no'}>
                {presetLabel(p)}
              </span>
              <span className="muted small">{t(`presets.hint.${p.id}` as 'presets.hint.custom')}</span>
              {p.kind === 'openai-compatible' && p.baseURL && (
                <span className="mono small" translate="no">
                  {p.baseURL}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {first && <p className="small muted">{t('screen.emptyLater')}</p>}
    </section>
  );
}

/** The detail pane's content: the model-selection settings, the selected provider's editor, a new provider's, or the presets. */
function ProviderDetail({ sel, providers }: { sel: SelectionState; providers: ProviderView[] }) {
  const { t } = useTranslation('providers');
  const presetLabel = usePresetLabel();
  const servers = useServers();
  const settings = useConsole((s) => s.mirror?.modelSettings);
  const { selection, setSelection, nonce } = sel;
  const taken = providers.map((p) => p.id);
  const selected = selection.kind === 'provider' ? providers.find((p) => p.id === selection.id) : undefined;
  const preset = selection.kind === 'new' ? PRESETS.find((p) => p.id === selection.preset) : undefined;

  if (selection.kind === 'add') {
    const pick = (id: string) => {
      setSelection({ kind: 'new', preset: id });
      sel.renew();
    };
    return <PresetChooser first={!providers.some((p) => p.kind !== 'manual')} onPick={pick} />;
  } else if (selection.kind === 'settings') {
    return settings ? <ModelSettingsPanel key={nonce} settings={settings} providers={providers} serverIds={servers.map((s) => s.id)} /> : <Empty>{t('screen.loading')}</Empty>;
  } else if (selected) {
    return (
      <ProviderEditor
        key={`${selected.id}:${nonce}`}
        view={selected}
        initial={draftFromView(selected)}
        takenIds={taken}
        families={settings?.families}
        onSaved={(id) => setSelection({ kind: 'provider', id })}
        onRemoved={() => setSelection({ kind: 'settings' })}
      />
    );
  } else if (preset) {
    return (
      <ProviderEditor
        key={`new:${preset.id}:${nonce}`}
        initial={draftFromPreset({ ...preset, label: presetLabel(preset) }, taken)}
        takenIds={taken}
        families={settings?.families}
        onSaved={(id) => {
          setSelection({ kind: 'provider', id });
          sel.renew();
        }}
        onRemoved={() => setSelection({ kind: 'settings' })}
      />
    );
  } else return <Empty>{t('screen.selectProvider')}</Empty>;
}

/** The list: each editable provider (key stored or not, kind and model count, from the environment), then "Model selection". */
function ProviderList({ editable, sel }: { editable: ProviderView[]; sel: SelectionState }) {
  const { t } = useTranslation('providers');
  const { selection, setSelection } = sel;
  return (
    <ul className="provider-list">
      {editable.map((p) => (
        <li key={p.id}>
          <button
            type="button"
            className={`provider-row${selection.kind === 'provider' && selection.id === p.id ? ' is-selected' : ''}`}
            data-testid="provider-item"
            data-provider-id={p.id}
            onClick={() => setSelection({ kind: 'provider', id: p.id })}
          >
            <span className="provider-row-top">
              <span className="strong">{p.label}</span>
              {p.kind !== 'openai-compatible' || p.hasApiKey ? <Pill tone={p.hasApiKey ? 'ok' : 'warn'}>{p.hasApiKey ? t('screen.keyStored') : t('screen.noKey')}</Pill> : null}
            </span>
            <span className="muted small">
              {t('screen.rowSummary', { kind: p.kind, count: p.models.length })}
              {p.source === 'env' ? ` · ${t('screen.fromEnvironment')}` : ''}
            </span>
          </button>
        </li>
      ))}
      <li>
        <button type="button" className={`provider-row${selection.kind === 'settings' ? ' is-selected' : ''}`} data-testid="model-settings-item" onClick={() => setSelection({ kind: 'settings' })}>
          <span className="strong">{t('screen.modelSelection')}</span>
          <span className="muted small">{t('screen.modelSelectionHint')}</span>
        </button>
      </li>
    </ul>
  );
}

/** Under the list: "Add a provider", that Manual is always there, and where keys are stored. */
function ProviderListActions({ sel }: { sel: SelectionState }) {
  const { t } = useTranslation('providers');
  const say = useSay();
  const secretStore = useConsole((s) => s.mirror?.settings.secretStore);
  const { selection, setSelection } = sel;
  const adding = selection.kind === 'add' || selection.kind === 'new';
  return (
    <div className="provider-list-actions">
      <button type="button" className="btn-primary btn-small" aria-pressed={adding} onClick={() => setSelection({ kind: 'add' })} data-testid="add-provider">
        {t('screen.addProvider')}
      </button>
      <p className="small muted">
        {t('screen.manualAlways')}
      </p>
      {secretStore && (
        <p className="small muted" data-testid="secret-store">
          {t('screen.secretStore', { backend: say(secretStore.backendUi, secretStore.backend) })}
        </p>
      )}
    </div>
  );
}

/** The screen. */
export function ProvidersScreen() {
  const { t } = useTranslation('providers');
  const say = useSay();
  const providers = useProviders();
  const secretStore = useConsole((s) => s.mirror?.settings.secretStore);
  const editable = providers.filter((p) => p.kind !== 'manual');
  const sel = useSelection(editable);

  return (
    <div className="split" data-testid="providers-screen">
      <div className="split-list narrow">
        <div className="pane-title">
          <h2>{t('screen.title')}</h2>
          <span className="muted small">{editable.length}</span>
        </div>
        <ProviderList editable={editable} sel={sel} />
        <ProviderListActions sel={sel} />
      </div>
      <div className="split-detail">
        {secretStore?.warning && (
          <Banner tone="warn" title={t('screen.weakStorage')} testId="secret-store-warning">
            {say(secretStore.warningUi, secretStore.warning)}
          </Banner>
        )}
        <ProviderDetail sel={sel} providers={providers} />
      </div>
    </div>
  );
}
