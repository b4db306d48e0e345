/**
 * Add or edit one provider: name, id, base URL, API key (typed once, sent to main's secret store,
 * never shown again — only "…abcd"), models (fetched from the provider's list or typed), per-model
 * facts, the time limits of a call, "Test connection" with a clear result, Save and Remove.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PROVIDER_TIMEOUTS, type FamilyRule } from '../../../shared/contract/providers';
import type { ProviderView } from '../../../shared/contract/state';
import { ActionBar, ActionError, Banner, Section } from '../../components/common';
import { useAction } from '../../hooks';
import { ModelFactsTable } from './ModelFactsTable';
import { draftProblems, LIMIT_NAMES, type ProviderDraft } from './provider-draft';
import { useProviderEditor, type ProviderEditorState } from './useProviderEditor';
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

/**
 * The models' editing state: the model id being typed, the models the provider listed (null until
 * fetched), fetching them, and adding models to the draft (trimmed, each once).
 */
function useModelList(draft: ProviderDraft, update: (patch: Partial<ProviderDraft>) => void, fetchModels: (() => Promise<ListedModel[]>) | null) {
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
  return { newModel, setNewModel, fetched, fetchAction, addModels, addTyped };
}

/** The models' editing state, as {@link useModelList} returns it. */
type ModelList = ReturnType<typeof useModelList>;

/** The model chips, each with × unless read-only. */
function ModelChips({ draft, readOnly, update }: { draft: ProviderDraft; readOnly: boolean; update: (patch: Partial<ProviderDraft>) => void }) {
  const { t } = useTranslation('providers');
  return (
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
  );
}

/** The "add a model id" field with Add, and "Fetch models" (disabled while the draft cannot be sent). */
function ModelAdd({ list, canFetch }: { list: ModelList; canFetch: boolean }) {
  const { t } = useTranslation('providers');
  const { newModel, setNewModel, addTyped, fetchAction } = list;
  return (
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
      <button type="button" data-testid="provider-fetch-models" disabled={fetchAction.pending || !canFetch} onClick={() => void fetchAction.run()}>
        {fetchAction.pending ? t('editor.fetching') : t('editor.fetch')}
      </button>
      <ActionError error={fetchAction.error} />
    </div>
  );
}

/** The fetched models not in the draft yet, each to add, and Add all; or that all are added or none were listed. */
function FetchedModels({ fetched, notAdded, addModels }: { fetched: ListedModel[]; notAdded: ListedModel[]; addModels: (list: ListedModel[]) => void }) {
  const { t } = useTranslation('providers');
  return (
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
  );
}

/** The model chips, the "add a model id" field, and "Fetch models" with the listed ones to add. */
function ModelsSection({ draft, readOnly, update, fetchModels }: {
  draft: ProviderDraft;
  readOnly: boolean;
  update: (patch: Partial<ProviderDraft>) => void;
  /** Asks the provider for its models; null while the draft cannot be sent (problems). */
  fetchModels: (() => Promise<ListedModel[]>) | null;
}) {
  const { t } = useTranslation('providers');
  const list = useModelList(draft, update, fetchModels);
  const { fetched } = list;
  const notAdded = (fetched ?? []).filter((m) => !draft.models.includes(m.id));
  return (
    <Section title={t('editor.models', { count: draft.models.length })}>
      <ModelChips draft={draft} readOnly={readOnly} update={update} />
      {!readOnly && <ModelAdd list={list} canFetch={!!fetchModels} />}
      {fetched && <FetchedModels fetched={fetched} notAdded={notAdded} addModels={list.addModels} />}
    </Section>
  );
}

/**
 * The time limits of a call, in seconds: time to the first byte, the longest silence inside a
 * response, the total deadline. Empty keeps the default, shown as the placeholder.
 */
function LimitsSection({ draft, readOnly, update }: { draft: ProviderDraft; readOnly: boolean; update: (patch: Partial<ProviderDraft>) => void }) {
  const { t } = useTranslation('providers');
  return (
    <Section title={t('limits.title')}>
      <div className="provider-form" data-testid="provider-limits">
        {LIMIT_NAMES.map((name) => (
          <div className="field" key={name}>
            <label htmlFor={`provider-limit-${name}`}>{t(`limits.${name}`)}</label>
            <input
              id={`provider-limit-${name}`}
              data-testid={`provider-limit-${name}`}
              type="number"
              min={0.05}
              max={3600}
              step="any"
              inputMode="decimal"
              disabled={readOnly}
              placeholder={t('limits.default', { s: DEFAULT_PROVIDER_TIMEOUTS[name] / 1000 })}
              value={draft.limits[name]}
              onChange={(e) => update({ limits: { ...draft.limits, [name]: e.target.value } })}
            />
          </div>
        ))}
      </div>
      <p className="field-help small muted">{t('limits.help')}</p>
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

/** The connection section: the fields and the API key, "Test connection" and its result. */
function ConnectionSection({ view, editor }: { view?: ProviderView; editor: ProviderEditorState }) {
  const { t } = useTranslation('providers');
  const say = useSay();
  const { draft, readOnly, update, key, test, testAction } = editor;
  return (
    <Section title={t('editor.connection')}>
      <ConnectionFields draft={draft} readOnly={readOnly} update={update}>
        <ApiKeyField view={view} kind={draft.kind} readOnly={readOnly} apiKey={key.apiKey} onApiKey={key.setApiKey} removeKey={key.removeKey} onRemoveKey={key.setRemoveKey} replacing={key.replacing} onReplace={key.replace} />
      </ConnectionFields>
      <div className="form-actions">
        <button type="button" data-testid="provider-test" disabled={testAction.pending || editor.problems.length > 0} onClick={() => void testAction.run()}>
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
  );
}

/** The action bar: the error, "saved", Remove (asks once: "really remove?") for a saved provider, and Save. */
function EditorActionBar({ view, editor }: { view?: ProviderView; editor: ProviderEditorState }) {
  const { t } = useTranslation('providers');
  const { save, remove, busy, confirmRemove } = editor;
  return (
    <ActionBar>
      <ActionError error={save.error ?? remove.error} />
      {editor.saved && (
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
          onClick={() => (confirmRemove ? void remove.run() : editor.setConfirmRemove(true))}
        >
          {confirmRemove ? t('editor.reallyRemove', { label: view.label }) : t('editor.remove')}
        </button>
      )}
      <button type="button" className="btn-primary" data-testid="provider-save" disabled={busy || editor.problems.length > 0} onClick={() => void save.run()}>
        {view ? t('editor.save') : t('editor.addProvider')}
      </button>
    </ActionBar>
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
  const editor = useProviderEditor(view, initial, takenIds, onSaved, onRemoved);
  const { draft, readOnly } = editor;

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
      <ConnectionSection view={view} editor={editor} />
      <ModelsSection draft={draft} readOnly={readOnly} update={editor.update} fetchModels={editor.fetchModels} />
      <Section title={t('editor.facts')}>
        <ModelFactsTable draft={draft} view={view} families={families} onChange={editor.setFacts} />
      </Section>
      <LimitsSection draft={draft} readOnly={readOnly} update={editor.update} />
      <DraftProblemsBanner problems={editor.problems} />
      {!readOnly && <EditorActionBar view={view} editor={editor} />}
    </div>
  );
}
