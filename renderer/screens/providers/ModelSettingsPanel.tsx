/**
 * Model-selection settings (issue 4): the default model, the family table that maps a hint of one
 * provider's naming to a comparable model of another (editable rows "pattern → family"; the first
 * row a name contains decides), and per server the allowed models (the console never chooses
 * others; none ticked = all) and the server's default model.
 */
import { useState } from 'react';
import { DEFAULT_FAMILY_RULES, type FamilyRule, type ModelSettings, type ServerModelSettings } from '../../../shared/providers';
import type { ModelRef, ProviderView } from '../../../shared/state';
import { getApi } from '../../api';
import { ActionError, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { modelValue, parseModelValue } from '../queue/drafts';
import './providers.css';

const same = (a: ModelRef | undefined, b: ModelRef): boolean => !!a && a.providerId === b.providerId && a.modelId === b.modelId;

function ModelSelect({ providers, value, onChange, label, testId, allowNone }: { providers: ProviderView[]; value: ModelRef | undefined; onChange: (m: ModelRef | undefined) => void; label: string; testId: string; allowNone?: boolean }) {
  return (
    <select aria-label={label} data-testid={testId} value={value ? modelValue(value) : ''} onChange={(e) => onChange(parseModelValue(e.target.value) ?? undefined)}>
      {allowNone && <option value="">(the console&apos;s default)</option>}
      {providers.map((p) => (
        <optgroup key={p.id} label={p.label}>
          {p.models.map((m) => (
            <option key={m} value={modelValue({ providerId: p.id, modelId: m })}>
              {p.kind === 'manual' ? p.label : `${p.label} — ${m}`}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

/** The panel; starts from the mirrored settings and saves all three parts at once. */
export function ModelSettingsPanel({ settings, providers, serverIds }: { settings: ModelSettings; providers: ProviderView[]; serverIds: string[] }) {
  const [families, setFamilies] = useState<FamilyRule[]>(settings.families);
  const [servers, setServers] = useState<Record<string, ServerModelSettings>>(settings.servers);
  const [defaultModel, setDefaultModel] = useState<ModelRef>(settings.defaultModel);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    const cleanFamilies = families.filter((f) => f.pattern.trim() && f.family.trim());
    await getApi().saveModelSettings({ families: cleanFamilies, servers, defaultModel });
    setSaved(true);
  });
  const touch = () => setSaved(false);
  const models = providers.filter((p) => p.kind !== 'manual').flatMap((p) => p.models.map((modelId) => ({ providerId: p.id, modelId, label: `${p.label} — ${modelId}` })));
  const allServers = [...new Set([...serverIds, ...Object.keys(servers)])];
  const setServer = (id: string, next: ServerModelSettings) => {
    setServers((s) => ({ ...s, [id]: next }));
    touch();
  };
  const setRow = (i: number, patch: Partial<FamilyRule>) => {
    setFamilies((f) => f.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    touch();
  };

  return (
    <div className="review" data-testid="model-settings">
      <header className="item-header">
        <div className="item-header-top">
          <h2>Model selection</h2>
        </div>
        <p className="small muted">
          A request&apos;s hints are matched against model names in order; a hint that matches no configured model is mapped through the family table to a
          comparable model of another provider; with no match, the request&apos;s priorities pick by the models&apos; facts, else the default.
        </p>
      </header>
      <Section title="Default model">
        <ModelSelect providers={providers} value={defaultModel} label="Default model" testId="default-model" onChange={(m) => m && (setDefaultModel(m), touch())} />
      </Section>
      <Section
        title="Family table"
        actions={
          <>
            <button type="button" className="btn-small" onClick={() => (setFamilies([...families, { pattern: '', family: '' }]), touch())}>
              Add row
            </button>
            <button type="button" className="btn-small" onClick={() => (setFamilies([...DEFAULT_FAMILY_RULES]), touch())}>
              Restore defaults
            </button>
          </>
        }
      >
        <table className="facts-table family-table" data-testid="family-table">
          <thead>
            <tr>
              <th>A name containing (* = anything)</th>
              <th>is in family</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {families.map((r, i) => (
              <tr key={i} data-testid="family-row">
                <td>
                  <input aria-label={`Row ${i + 1} pattern`} className="mono" value={r.pattern} onChange={(e) => setRow(i, { pattern: e.target.value })} />
                </td>
                <td>
                  <input aria-label={`Row ${i + 1} family`} value={r.family} onChange={(e) => setRow(i, { family: e.target.value })} />
                </td>
                <td>
                  <button type="button" className="btn-small" aria-label={`Move row ${i + 1} up`} disabled={i === 0} onClick={() => (setFamilies((f) => [...f.slice(0, i - 1), f[i]!, f[i - 1]!, ...f.slice(i + 1)]), touch())}>
                    ↑
                  </button>{' '}
                  <button type="button" className="btn-small" aria-label={`Remove row ${i + 1}`} onClick={() => (setFamilies((f) => f.filter((_, j) => j !== i)), touch())}>
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title="Per server">
        {allServers.length === 0 && <p className="muted small">No servers configured.</p>}
        {allServers.map((id) => {
          const s = servers[id] ?? {};
          const allowed = s.allowedModels ?? [];
          return (
            <div key={id} className="field" data-testid="server-model-settings" data-server-id={id}>
              <span className="field-label mono strong">{id}</span>
              <span className="small muted">Allowed models ({allowed.length ? `${allowed.length} ticked: only these are ever chosen` : 'none ticked: all are allowed'})</span>
              <div className="server-models">
                {models.map((m) => (
                  <label key={`${m.providerId}/${m.modelId}`}>
                    <input
                      type="checkbox"
                      checked={allowed.some((a) => same(a, m))}
                      onChange={(e) => {
                        const ref = { providerId: m.providerId, modelId: m.modelId };
                        const next = e.target.checked ? [...allowed, ref] : allowed.filter((a) => !same(a, ref));
                        setServer(id, { ...s, allowedModels: next });
                      }}
                    />
                    {m.label}
                  </label>
                ))}
              </div>
              <label className="small">
                Server default{' '}
                <ModelSelect
                  providers={providers}
                  value={s.defaultModel}
                  label={`${id} default model`}
                  testId="server-default-model"
                  allowNone
                  onChange={(m) => {
                    const { defaultModel: _drop, ...rest } = s;
                    setServer(id, m ? { ...rest, defaultModel: m } : rest);
                  }}
                />
              </label>
            </div>
          );
        })}
      </Section>
      <footer className="action-bar">
        <ActionError error={save.error} />
        {saved && <span className="small">Saved.</span>}
        <button type="button" className="btn-primary" data-testid="model-settings-save" disabled={save.pending} onClick={() => void save.run()}>
          Save model selection
        </button>
      </footer>
    </div>
  );
}
