/**
 * The provider editor's state: the draft and what is wrong with it, the API key typed or the stored
 * one's fate, the connection test, and saving and removing the provider (Remove asks once first).
 */
import { useState } from 'react';
import type { ModelFacts, ProviderTestResult } from '../../../shared/contract/providers';
import type { ProviderView } from '../../../shared/contract/state';
import { getApi } from '../../api';
import { useAction } from '../../hooks';
import { draftProblems, settingsOf, type ProviderDraft } from './provider-draft';

/**
 * The API key field's state: the key typed (sent once, on test or save), whether the stored key is
 * to be removed on save, and whether the input for a new key shows instead of the stored key's hint
 * (from the start when there is no stored key).
 */
function useApiKey(view: ProviderView | undefined) {
  const [apiKey, setApiKey] = useState('');
  const [replacing, setReplacing] = useState(!view?.hasApiKey);
  const [removeKey, setRemoveKey] = useState(false);
  /** After a save: the typed key is gone, and the input shows unless a key is now stored. */
  const saved = (hasApiKey: boolean) => {
    setApiKey('');
    setRemoveKey(false);
    setReplacing(!hasApiKey);
  };
  return { apiKey, setApiKey, typed: apiKey.trim() || undefined, removeKey, setRemoveKey, replacing, replace: () => setReplacing(true), saved };
}

/** The API key field's state, as {@link useProviderEditor} returns it in `key`. */
export type ApiKeyState = ReturnType<typeof useApiKey>;

/**
 * Edits the provider `view` (absent while adding), starting from `initial`. `takenIds` are the ids of
 * the configured providers (the draft may keep `view`'s own id); `onSaved` gets the saved id,
 * `onRemoved` is called once the provider is removed.
 */
export function useProviderEditor(view: ProviderView | undefined, initial: ProviderDraft, takenIds: string[], onSaved: (id: string) => void, onRemoved: () => void) {
  const [draft, setDraft] = useState<ProviderDraft>(initial);
  const key = useApiKey(view);
  const [test, setTest] = useState<ProviderTestResult | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [saved, setSaved] = useState(false);
  const update = (patch: Partial<ProviderDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
  };
  const setFacts = (modelId: string, f: ModelFacts | undefined) => {
    const facts = { ...draft.facts };
    if (f) facts[modelId] = f;
    else delete facts[modelId];
    update({ facts });
  };
  const typedKey = key.typed;
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
      ...(typedKey ? { apiKey: typedKey } : key.removeKey ? { apiKey: null } : {}),
    });
    key.saved(result.hasApiKey);
    setSaved(true);
    onSaved(result.id);
  });
  const remove = useAction(async () => {
    if (view) await getApi().removeProvider({ id: view.id });
    onRemoved();
  });
  /** Asks the provider for its models; null while the draft has problems. */
  const fetchModels = problems.length > 0 ? null : async () => (await getApi().listProviderModels(target())).models;
  const readOnly = view?.source === 'env';
  return { draft, update, setFacts, readOnly, problems, key, test, testAction, fetchModels, save, remove, busy: save.pending || remove.pending, saved, confirmRemove, setConfirmRemove };
}

/** The provider editor's state, as {@link useProviderEditor} returns it. */
export type ProviderEditorState = ReturnType<typeof useProviderEditor>;
