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
import { ActionBar, ActionError, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { modelValue, parseModelValue } from '../queue/drafts';
import './providers.css';

const same = (a: ModelRef | undefined, b: ModelRef): boolean => !!a && a.providerId === b.providerId && a.modelId === b.modelId;

/** A select of every configured model by provider; with `allowNone`, a first option for the console's default. */
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

/**
 * The settings being edited (from the mirrored ones), whether they are saved, and their edits: the
 * default model, the family rows (add, restore, change, move up, remove) and each server's settings.
 * Any edit clears "saved"; `save` drops incomplete family rows and saves all three parts at once.
 */
function useModelSettings(settings: ModelSettings) {
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
  const setServer = (id: string, next: ServerModelSettings) => {
    setServers((s) => ({ ...s, [id]: next }));
    touch();
  };
  const setRow = (i: number, patch: Partial<FamilyRule>) => {
    setFamilies((f) => f.map((r, j) => (j === i ? { ...r, ...patch } : r)));
    touch();
  };
  const rows = {
    add: () => (setFamilies([...families, { pattern: '', family: '' }]), touch()),
    restoreDefaults: () => (setFamilies([...DEFAULT_FAMILY_RULES]), touch()),
    set: setRow,
    moveUp: (i: number) => (setFamilies((f) => [...f.slice(0, i - 1), f[i]!, f[i - 1]!, ...f.slice(i + 1)]), touch()),
    remove: (i: number) => (setFamilies((f) => f.filter((_, j) => j !== i)), touch()),
  };
  const setDefault = (m: ModelRef | undefined) => m && (setDefaultModel(m), touch());
  return { families, servers, defaultModel, saved, save, rows, setServer, setDefault };
}

/** The family rows' edits, as {@link useModelSettings} returns them. */
type FamilyRows = ReturnType<typeof useModelSettings>['rows'];

/** The family table: "pattern → family" rows with move up and remove, Add row and Restore defaults. */
function FamilyTableSection({ families, rows }: { families: FamilyRule[]; rows: FamilyRows }) {
  const { t } = useTranslation('providers');
  return (
    <Section
      title={t('settings.familyTable')}
      actions={
        <>
          <button type="button" className="btn-small" onClick={rows.add}>
            {t('settings.addRow')}
          </button>
          <button type="button" className="btn-small" onClick={rows.restoreDefaults}>
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
                <input aria-label={t('settings.rowPattern', { n: i + 1 })} className="mono" value={r.pattern} onChange={(e) => rows.set(i, { pattern: e.target.value })} />
              </td>
              <td>
                <input aria-label={t('settings.rowFamily', { n: i + 1 })} value={r.family} onChange={(e) => rows.set(i, { family: e.target.value })} />
              </td>
              <td>
                <button type="button" className="btn-small" aria-label={t('settings.moveUp', { n: i + 1 })} disabled={i === 0} onClick={() => rows.moveUp(i)}>
                  ↑
                </button>{' '}
                <button type="button" className="btn-small" aria-label={t('settings.removeRow', { n: i + 1 })} onClick={() => rows.remove(i)}>
                  ×
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

/** A model the servers may be allowed, with its label. */
type AllowableModel = ModelRef & { label: string };

/** One server's settings: the models it may use (none ticked = all) and its default model. */
function ServerModels({ id, settings: s, models, providers, onChange }: { id: string; settings: ServerModelSettings; models: AllowableModel[]; providers: ProviderView[]; onChange: (next: ServerModelSettings) => void }) {
  const { t } = useTranslation('providers');
  const allowed = s.allowedModels ?? [];
  return (
    <div className="field" data-testid="server-model-settings" data-server-id={id}>
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
                onChange({ ...s, allowedModels: next });
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
            onChange(m ? { ...rest, defaultModel: m } : rest);
          }}
        />
      </label>
    </div>
  );
}

/** The panel; starts from the mirrored settings and saves all three parts at once. */
export function ModelSettingsPanel({ settings, providers, serverIds }: { settings: ModelSettings; providers: ProviderView[]; serverIds: string[] }) {
  const { t } = useTranslation('providers');
  const { families, servers, defaultModel, saved, save, rows, setServer, setDefault } = useModelSettings(settings);
  const models = providers.filter((p) => p.kind !== 'manual').flatMap((p) => p.models.map((modelId) => ({ providerId: p.id, modelId, label: `${p.label} — ${modelId}` })));
  const allServers = [...new Set([...serverIds, ...Object.keys(servers)])];

  return (
    <div className="review" data-testid="model-settings">
      <header className="item-header">
        <div className="item-header-top">
          <h2>{t('settings.title')}</h2>
        </div>
        <p className="small muted">{t('settings.intro')}</p>
      </header>
      <Section title={t('settings.defaultModel')}>
        <ModelSelect providers={providers} value={defaultModel} label={t('settings.defaultModel')} testId="default-model" onChange={setDefault} />
      </Section>
      <FamilyTableSection families={families} rows={rows} />
      <Section title={t('settings.perServer')}>
        {allServers.length === 0 && <p className="muted small">{t('settings.noServers')}</p>}
        {allServers.map((id) => (
          <ServerModels key={id} id={id} settings={servers[id] ?? {}} models={models} providers={providers} onChange={(next) => setServer(id, next)} />
        ))}
      </Section>
      <ActionBar>
        <ActionError error={save.error} />
        {saved && <span className="small">{t('settings.saved')}</span>}
        <button type="button" className="btn-primary" data-testid="model-settings-save" disabled={save.pending} onClick={() => void save.run()}>
          {t('settings.save')}
        </button>
      </ActionBar>
    </div>
  );
}
