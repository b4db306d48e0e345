/**
 * Add or edit one provider: name, id, base URL, API key (typed once, sent to main's secret store,
 * never shown again — only "…abcd"), models (fetched from the provider's list or typed), per-model
 * facts, "Test connection" with a clear result, Save and Remove.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FamilyRule, ProviderTestResult } from '../../../shared/contract/providers';
import type { ProviderView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { ActionError, Banner, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { ModelFactsTable } from './ModelFactsTable';
import { draftProblems, settingsOf, type ProviderDraft } from './provider-draft';
import './providers.css';
import { ProviderFailure } from '../../components/ProviderFailure';
import { useSay } from '../../i18n/say';

/** The API key field: "stored …abcd" with Replace / Remove, or a password input for a new one. */
function ApiKeyField({ view, kind, readOnly, apiKey, onApiKey, removeKey, onRemoveKey, replacing, onReplace }: {
  view?: ProviderView;
  kind: ProviderDraft['kind'];
  readOnly: boolean;
  apiKey: string;
  onApiKey: (key: string) => void;
  removeKey: boolean;
  onRemoveKey: (remove: boolean) => void;
  /** Whether the input for a new key is shown instead of the stored key's hint. */
  replacing: boolean;
  onReplace: () => void;
}) {
  const { t } = useTranslation('providers');
  return (
    <div className="field">
      <label htmlFor="provider-api-key">{t('editor.apiKey')}</label>
      {view?.hasApiKey && !replacing ? (
        <div className="key-stored" data-testid="provider-key-stored">
          <span className="mono">{removeKey ? t('editor.keyWillBeRemoved') : t('editor.keyStored', { hint: view.apiKeyHint ?? t('editor.keyHidden') })}</span>
          {!readOnly && (
            <>
              <button type="button" className="btn-small" onClick={onReplace}>
                {t('editor.replace')}
              </button>
              <button type="button" className="btn-small" data-testid="provider-key-remove" onClick={() => onRemoveKey(!removeKey)}>
                {removeKey ? t('editor.keep') : t('editor.remove')}
              </button>
            </>
          )}
        </div>
      ) : (
        <input
          id="provider-api-key"
          data-testid="provider-api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          disabled={readOnly}
          placeholder={kind === 'openai-compatible' ? t('editor.keyOptional') : t('editor.keyPaste')}
          value={apiKey}
          onChange={(e) => onApiKey(e.target.value)}
        />
      )}
      <span className="field-help small muted">{t('editor.keyHelp')}</span>
    </div>
  );
}

/** Name, id, base URL and (OpenAI) endpoint fields; `children` adds the key field after them. */
function ConnectionFields({ draft, readOnly, update, children }: { draft: ProviderDraft; readOnly: boolean; update: (patch: Partial<ProviderDraft>) => void; children: ReactNode }) {
  const { t } = useTranslation('providers');
  return (
    <div className="provider-form">
      <div className="field">
        <label htmlFor="provider-label">{t('editor.name')}</label>
        <input id="provider-label" data-testid="provider-label" value={draft.label} disabled={readOnly} onChange={(e) => update({ label: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="provider-id">{t('editor.id')}</label>
        <input id="provider-id" data-testid="provider-id" className="mono" value={draft.id} disabled={readOnly} onChange={(e) => update({ id: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="provider-base-url">{t('editor.baseUrl')}</label>
        <input
          id="provider-base-url"
          data-testid="provider-base-url"
          className="mono"
          value={draft.baseURL}
          disabled={readOnly}
          // eslint-disable-next-line i18next/no-literal-string -- an example URL, not language
          placeholder={draft.kind === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : t('editor.officialApi')}
          onChange={(e) => update({ baseURL: e.target.value })}
        />
      </div>
      {draft.kind === 'openai' && (
        <div className="field">
          <label htmlFor="provider-openai-api">{t('editor.endpoint')}</label>
          <select id="provider-openai-api" value={draft.openaiApi} onChange={(e) => update({ openaiApi: e.target.value as ProviderDraft['openaiApi'] })}>
            <option value="responses">{t('editor.responsesApi')}</option>
            <option value="chat">{t('editor.chatCompletions')}</option>
          </select>
        </div>
      )}
      {children}
    </div>
  );
}

/** A model list entry as a provider lists it. */
type ListedModel = { id: string; contextWindow?: number };

/** The model chips, the "add a model id" field, and "Fetch models" with the listed ones to add. */
function ModelsSection({ draft, readOnly, update, fetchModels }: {
  draft: ProviderDraft;
  readOnly: boolean;
  update: (patch: Partial<ProviderDraft>) => void;
  /** Asks the provider for its models; null while the draft cannot be sent (problems). */
  fetchModels: (() => Promise<ListedModel[]>) | null;
}) {
  const { t } = useTranslation('providers');
  const [newModel, setNewModel] = useState('');
  const [fetched, setFetched] = useState<ListedModel[] | null>(null);
  const fetchAction = useAction(async () => fetchModels && setFetched(await fetchModels()));
  const addModels = (list: ListedModel[]) => {
    const models = [...draft.models];
    for (const m of list) if (m.id.trim() && !models.includes(m.id.trim())) models.push(m.id.trim());
    update({ models });
  };
  const addTyped = () => {
    addModels([{ id: newModel }]);
    setNewModel('');
  };
  const notAdded = (fetched ?? []).filter((m) => !draft.models.includes(m.id));
  return (
    <Section title={t('editor.models', { count: draft.models.length })}>
      <ul className="model-chips" data-testid="provider-models">
        {draft.models.map((m) => (
          <li key={m} className="model-chip mono" data-testid="provider-model">
            {m}
            {!readOnly && (
              <button type="button" aria-label={t('editor.removeModel', { model: m })} onClick={() => update({ models: draft.models.filter((x) => x !== m) })}>
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {!readOnly && (
        <div className="model-add">
          <input
            aria-label={t('editor.modelId')}
            data-testid="provider-model-input"
            className="mono"
            placeholder={t('editor.modelIdPlaceholder')}
            value={newModel}
            onChange={(e) => setNewModel(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && addTyped()}
          />
          <button type="button" data-testid="provider-model-add" disabled={!newModel.trim()} onClick={addTyped}>
            {t('editor.add')}
          </button>
          <button type="button" data-testid="provider-fetch-models" disabled={fetchAction.pending || !fetchModels} onClick={() => void fetchAction.run()}>
            {fetchAction.pending ? t('editor.fetching') : t('editor.fetch')}
          </button>
          <ActionError error={fetchAction.error} />
        </div>
      )}
      {fetched && (
        <div className="fetched-models" data-testid="provider-fetched">
          {notAdded.length === 0 ? (
            <span className="muted small">{fetched.length ? t('editor.allAdded') : t('editor.noneListed')}</span>
          ) : (
            <>
              <button type="button" className="btn-small" data-testid="provider-add-all" onClick={() => addModels(notAdded)}>
                {t('editor.addAll', { count: notAdded.length })}
              </button>
              {notAdded.map((m) => (
                <button key={m.id} type="button" className="btn-small mono" data-testid="provider-fetched-model" onClick={() => addModels([m])}>
                  {t('editor.addOne', { model: m.id })}
                </button>
              ))}
            </>
          )}
        </div>
      )}
    </Section>
  );
}

/** Why the draft cannot be saved, one line per problem. */
function DraftProblemsBanner({ problems }: { problems: ReturnType<typeof draftProblems> }) {
  const { t } = useTranslation('providers');
  if (problems.length === 0) return null;
  return (
    <Banner tone="error" title={t('editor.cannotSave')} testId="provider-problems">
      <ul className="plain-list">
        {problems.map((p) => (
          <li key={p.code}>{p.code === 'idTaken' ? t('problems.idTaken', { id: p.id }) : t(`problems.${p.code}`)}</li>
        ))}
      </ul>
    </Banner>
  );
}

/** The editor. `view` is the saved provider (absent while adding); `initial` the draft to start from. */
export function ProviderEditor({
  view,
  initial,
  takenIds,
  families,
  onSaved,
  onRemoved,
}: {
  view?: ProviderView;
  initial: ProviderDraft;
  takenIds: string[];
  families: readonly FamilyRule[] | undefined;
  onSaved: (id: string) => void;
  onRemoved: () => void;
}) {
  const { t } = useTranslation('providers');
  const say = useSay();
  const [draft, setDraft] = useState<ProviderDraft>(initial);
  const [apiKey, setApiKey] = useState('');
  const [replacingKey, setReplacingKey] = useState(!view?.hasApiKey);
  const [removeKey, setRemoveKey] = useState(false);
  const [test, setTest] = useState<ProviderTestResult | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [saved, setSaved] = useState(false);
  const readOnly = view?.source === 'env';
  const update = (patch: Partial<ProviderDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
  };
  const typedKey = apiKey.trim() || undefined;
  const problems = draftProblems(draft, takenIds.filter((id) => id !== view?.id));
  const target = () => ({ id: view?.id ?? draft.id, provider: settingsOf(draft), ...(typedKey ? { apiKey: typedKey } : {}) });

  const testAction = useAction(async () => {
    setTest(null);
    setTest(await getApi().testProvider(target()));
  });
  const save = useAction(async () => {
    const result = await getApi().saveProvider({
      provider: settingsOf(draft),
      ...(view ? { previousId: view.id } : {}),
      ...(typedKey ? { apiKey: typedKey } : removeKey ? { apiKey: null } : {}),
    });
    setApiKey('');
    setRemoveKey(false);
    setReplacingKey(!result.hasApiKey);
    setSaved(true);
    onSaved(result.id);
  });
  const remove = useAction(async () => {
    if (view) await getApi().removeProvider({ id: view.id });
    onRemoved();
  });
  const busy = save.pending || remove.pending;

  return (
    <div className="review" data-testid="provider-editor" data-provider-id={view?.id ?? ''}>
      <header className="item-header">
        <div className="item-header-top">
          <h2>{view ? draft.label || draft.id : t('editor.addTitle', { label: draft.label })}</h2>
          <span className="badge tone-muted">{t(`kinds.${draft.kind}`)}</span>
        </div>
      </header>
      {readOnly && (
        <Banner tone="info" title={t('editor.envTitle')}>
          {t('editor.envBody')}
        </Banner>
      )}
      <Section title={t('editor.connection')}>
        <ConnectionFields draft={draft} readOnly={readOnly} update={update}>
          <ApiKeyField view={view} kind={draft.kind} readOnly={readOnly} apiKey={apiKey} onApiKey={setApiKey} removeKey={removeKey} onRemoveKey={setRemoveKey} replacing={replacingKey} onReplace={() => setReplacingKey(true)} />
        </ConnectionFields>
        <div className="form-actions">
          <button type="button" data-testid="provider-test" disabled={testAction.pending || problems.length > 0} onClick={() => void testAction.run()}>
            {testAction.pending ? t('editor.testing') : t('editor.test')}
          </button>
          <ActionError error={testAction.error} />
        </div>
        {test && (
          <div className="test-result">
            <Banner tone={test.ok ? 'ok' : 'error'} title={test.ok ? t('editor.testOk') : t('editor.testFailed')} testId="provider-test-result">
              {test.ok ? say(test.messageUi, test.message) : <ProviderFailure failure={test.failure} detail={test.message} />}
            </Banner>
          </div>
        )}
      </Section>
      <ModelsSection draft={draft} readOnly={readOnly} update={update} fetchModels={problems.length > 0 ? null : async () => (await getApi().listProviderModels(target())).models} />
      <Section title={t('editor.facts')}>
        <ModelFactsTable
          draft={draft}
          view={view}
          families={families}
          onChange={(m, f) => {
            const facts = { ...draft.facts };
            if (f) facts[m] = f;
            else delete facts[m];
            update({ facts });
          }}
        />
      </Section>
      <DraftProblemsBanner problems={problems} />
      {!readOnly && (
        <footer className="action-bar">
          <ActionError error={save.error ?? remove.error} />
          {saved && (
            <span className="small" data-testid="provider-saved">
              {t('editor.saved')}
            </span>
          )}
          {view && (
            <button
              type="button"
              className="btn-danger"
              data-testid="provider-remove"
              disabled={busy}
              onClick={() => (confirmRemove ? void remove.run() : setConfirmRemove(true))}
            >
              {confirmRemove ? t('editor.reallyRemove', { label: view.label }) : t('editor.remove')}
            </button>
          )}
          <button type="button" className="btn-primary" data-testid="provider-save" disabled={busy || problems.length > 0} onClick={() => void save.run()}>
            {view ? t('editor.save') : t('editor.addProvider')}
          </button>
        </footer>
      )}
    </div>
  );
}
