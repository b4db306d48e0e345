/**
 * Model-selection settings: the default model, the family table that maps a hint of one
 * provider's naming to a comparable model of another (editable rows "pattern → family"; the first
 * row a name contains decides), and per server the allowed models (the console never chooses
 * others; none ticked = all) and the server's default model.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_FAMILY_RULES, type FamilyRule, type ModelSettings, type ServerModelSettings } from '../../../shared/contract/providers';
import type { ModelRef, ProviderView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { modelValue, parseModelValue } from '../queue/drafts';
import './providers.css';

const same = (a: ModelRef | undefined, b: ModelRef): boolean => !!a && a.providerId === b.providerId && a.modelId === b.modelId;

function ModelSelect({ providers, value, onChange, label, testId, allowNone }: { providers: ProviderView[]; value: ModelRef | undefined; onChange: (m: ModelRef | undefined) => void; label: string; testId: string; allowNone?: boolean }) {
  const { t } = useTranslation('providers');
  return (
    <select aria-label={label} data-testid={testId} value={value ? modelValue(value) : ''} onChange={(e) => onChange(parseModelValue(e.target.value) ?? undefined)}>
      {allowNone && <option value="">{t('settings.consoleDefault')}</option>}
      {providers.map((p) => (
        <optgroup key={p.id} label={p.label}>
          {p.models.map((m) => (
            <option key={m} value={modelValue({ providerId: p.id, modelId: m })}>
              {p.kind === 'manual' ? t('manualLabel') : `${p.label} — ${m}`}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}

/** The panel; starts from the mirrored settings and saves all three parts at once. */
export function ModelSettingsPanel({ settings, providers, serverIds }: { settings: ModelSettings; providers: ProviderView[]; serverIds: string[] }) {
  const { t } = useTranslation('providers');
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
          <h2>{t('settings.title')}</h2>
        </div>
        <p className="small muted">{t('settings.intro')}</p>
      </header>
      <Section title={t('settings.defaultModel')}>
        <ModelSelect providers={providers} value={defaultModel} label={t('settings.defaultModel')} testId="default-model" onChange={(m) => m && (setDefaultModel(m), touch())} />
      </Section>
      <Section
        title={t('settings.familyTable')}
        actions={
          <>
            <button type="button" className="btn-small" onClick={() => (setFamilies([...families, { pattern: '', family: '' }]), touch())}>
              {t('settings.addRow')}
            </button>
            <button type="button" className="btn-small" onClick={() => (setFamilies([...DEFAULT_FAMILY_RULES]), touch())}>
              {t('settings.restoreDefaults')}
            </button>
          </>
        }
      >
        <table className="facts-table family-table" data-testid="family-table">
          <thead>
            <tr>
              <th>{t('settings.pattern')}</th>
              <th>{t('settings.family')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {families.map((r, i) => (
              <tr key={i} data-testid="family-row">
                <td>
                  <input aria-label={t('settings.rowPattern', { n: i + 1 })} className="mono" value={r.pattern} onChange={(e) => setRow(i, { pattern: e.target.value })} />
                </td>
                <td>
                  <input aria-label={t('settings.rowFamily', { n: i + 1 })} value={r.family} onChange={(e) => setRow(i, { family: e.target.value })} />
                </td>
                <td>
                  <button type="button" className="btn-small" aria-label={t('settings.moveUp', { n: i + 1 })} disabled={i === 0} onClick={() => (setFamilies((f) => [...f.slice(0, i - 1), f[i]!, f[i - 1]!, ...f.slice(i + 1)]), touch())}>
                    ↑
                  </button>{' '}
                  <button type="button" className="btn-small" aria-label={t('settings.removeRow', { n: i + 1 })} onClick={() => (setFamilies((f) => f.filter((_, j) => j !== i)), touch())}>
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title={t('settings.perServer')}>
        {allServers.length === 0 && <p className="muted small">{t('settings.noServers')}</p>}
        {allServers.map((id) => {
          const s = servers[id] ?? {};
          const allowed = s.allowedModels ?? [];
          return (
            <div key={id} className="field" data-testid="server-model-settings" data-server-id={id}>
              <span className="field-label mono strong">{id}</span>
              <span className="small muted">{allowed.length ? t('settings.allowedSome', { count: allowed.length }) : t('settings.allowedNone')}</span>
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
                {t('settings.serverDefault')}{' '}
                <ModelSelect
                  providers={providers}
                  value={s.defaultModel}
                  label={t('settings.serverDefaultOf', { server: id })}
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
        {saved && <span className="small">{t('settings.saved')}</span>}
        <button type="button" className="btn-primary" data-testid="model-settings-save" disabled={save.pending} onClick={() => void save.run()}>
          {t('settings.save')}
        </button>
      </footer>
    </div>
  );
}
