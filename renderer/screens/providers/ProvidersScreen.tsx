/**
 * The Providers screen (issue 4): the configured providers on the left (with whether a key is
 * stored and how many models), "Add provider" with ready presets (Anthropic, OpenAI, Gemini,
 * Ollama, LM Studio, a custom OpenAI-compatible URL), the editor of the selected one, and the
 * model-selection settings. Where keys are stored (and any weakness of that storage) is shown too.
 */
import { useState } from 'react';
import { Banner, Empty, Pill } from '../../components/common';
import { useConsole, useProviders, useServers } from '../../store';
import { ModelSettingsPanel } from './ModelSettingsPanel';
import { ProviderEditor } from './ProviderEditor';
import { draftFromPreset, draftFromView, PRESETS } from './provider-draft';
import './providers.css';

type Selection = { kind: 'provider'; id: string } | { kind: 'new'; preset: string } | { kind: 'settings' };

/** The screen. */
export function ProvidersScreen() {
  const providers = useProviders();
  const servers = useServers();
  const settings = useConsole((s) => s.mirror?.modelSettings);
  const secretStore = useConsole((s) => s.mirror?.settings.secretStore);
  const editable = providers.filter((p) => p.kind !== 'manual');
  const [selection, setSelection] = useState<Selection>(() => (editable[0] ? { kind: 'provider', id: editable[0].id } : { kind: 'new', preset: 'ollama' }));
  const [nonce, setNonce] = useState(0);
  const taken = providers.map((p) => p.id);
  const selected = selection.kind === 'provider' ? providers.find((p) => p.id === selection.id) : undefined;
  const preset = selection.kind === 'new' ? PRESETS.find((p) => p.id === selection.preset) : undefined;

  let detail;
  if (selection.kind === 'settings') {
    detail = settings ? <ModelSettingsPanel key={nonce} settings={settings} providers={providers} serverIds={servers.map((s) => s.id)} /> : <Empty>Loading…</Empty>;
  } else if (selected) {
    detail = (
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
    detail = (
      <ProviderEditor
        key={`new:${preset.id}:${nonce}`}
        initial={draftFromPreset(preset, taken)}
        takenIds={taken}
        families={settings?.families}
        onSaved={(id) => {
          setSelection({ kind: 'provider', id });
          setNonce((n) => n + 1);
        }}
        onRemoved={() => setSelection({ kind: 'settings' })}
      />
    );
  } else detail = <Empty>Select a provider.</Empty>;

  return (
    <div className="split" data-testid="providers-screen">
      <div className="split-list narrow">
        <div className="pane-title">
          <h2>Providers</h2>
          <span className="muted small">{editable.length}</span>
        </div>
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
                  {p.kind !== 'openai-compatible' || p.hasApiKey ? <Pill tone={p.hasApiKey ? 'ok' : 'warn'}>{p.hasApiKey ? 'key stored' : 'no key'}</Pill> : null}
                </span>
                <span className="muted small">
                  {p.kind} · {p.models.length} model{p.models.length === 1 ? '' : 's'}
                  {p.source === 'env' ? ' · from environment' : ''}
                </span>
              </button>
            </li>
          ))}
          <li>
            <button type="button" className={`provider-row${selection.kind === 'settings' ? ' is-selected' : ''}`} data-testid="model-settings-item" onClick={() => setSelection({ kind: 'settings' })}>
              <span className="strong">Model selection</span>
              <span className="muted small">default model, family table, per-server models</span>
            </button>
          </li>
        </ul>
        <div className="provider-list-actions">
          <label className="small muted" htmlFor="provider-preset">
            Add a provider
          </label>
          <select
            id="provider-preset"
            data-testid="provider-preset"
            value={selection.kind === 'new' ? selection.preset : ''}
            onChange={(e) => {
              if (!e.target.value) return;
              setSelection({ kind: 'new', preset: e.target.value });
              setNonce((n) => n + 1);
            }}
          >
            <option value="">Choose…</option>
            {PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
                {p.baseURL && p.kind === 'openai-compatible' ? ` (${p.baseURL})` : ''}
              </option>
            ))}
          </select>
          <p className="small muted">
            &ldquo;Write the response myself&rdquo; is always available; it needs no provider.
          </p>
          {secretStore && (
            <p className="small muted" data-testid="secret-store">
              API keys: {secretStore.backend}
            </p>
          )}
        </div>
      </div>
      <div className="split-detail">
        {secretStore?.warning && (
          <Banner tone="warn" title="API key storage is weak" testId="secret-store-warning">
            {secretStore.warning}
          </Banner>
        )}
        {detail}
      </div>
    </div>
  );
}
