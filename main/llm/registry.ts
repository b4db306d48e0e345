/**
 * The provider registry: the configured providers, their API keys (through the injected
 * {@link SecretStore}, never anywhere else), model-selection settings, and every change the
 * Providers screen makes — persisted to providers.json (keys excluded) and published as state.
 *
 * It satisfies the sampling pipeline's ProviderRegistry (`list`, `get`, `defaultModel`) and adds
 * `select(params, serverId)`: the explainable ranking of shared/domain/model-selection.ts with the
 * server's allowed/default models and the family table.
 */
import { writeFileAtomic } from '../user-file.js';
import { readProvidersText, shapeProvidersFile } from './providers-file-shape.js';
import { ApiError } from '../../shared/contract/api-error.js';
import { defaultModelPrice, type ModelPrice } from '../../shared/domain/model-prices.js';
import { selectModel, type ModelSelection } from '../../shared/domain/model-selection.js';
import { DEFAULT_FAMILY_RULES, type FamilyRule, type ModelSettings, type ProviderSettings, type ProviderTestResult, type ServerModelSettings } from '../../shared/contract/providers.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { ModelRef, ProviderView } from '../../shared/contract/state.js';
import { apiKeySecretName, type SecretStore } from '../secrets/secret-store.js';
import { baseURLOf, createProvider } from './create-provider.js';
import { createManualProvider, MANUAL_PROVIDER_ID } from './manual.js';
import type { ListedModel, ListOptions } from './model-list.js';
import type { ProviderConnection } from './hosted-providers.js';
import type { LlmProvider } from './provider.js';
import { allEntries, chooseDefaultModel, readProvidersFile, serializeProvidersFile, type ConfiguredProvider, type Env, type ProvidersFileModel } from './providers-config.js';
import { ui } from '../../shared/contract/ui-text.js';

/** What the registry needs. `onChange` is called after every change with the new views and settings. */
export interface RegistryDeps {
  /** Path of providers.json. */
  path: string;
  env: Env;
  secrets: SecretStore;
  onChange?(providers: ProviderView[], settings: ModelSettings): void;
  /** For model lists and connection tests (tests inject timeouts). */
  listOptions?: ListOptions;
}

/** A provider change from the Providers screen. `apiKey`: a string sets it, null removes it, absent keeps it. */
export interface SaveProviderInput {
  provider: ProviderSettings;
  /** The id before an edit that renames the provider. */
  previousId?: string;
  apiKey?: string | null;
}

/** Settings changes; absent fields stay as they are. `defaultModel` must be a configured model or manual. */
export interface ModelSettingsInput {
  families?: FamilyRule[];
  servers?: Record<string, ServerModelSettings>;
  defaultModel?: ModelRef;
}

/** The registry. All methods that change something persist first, then publish. */
export interface ProviderRegistryService {
  list(): LlmProvider[];
  get(id: string): LlmProvider | undefined;
  defaultModel(): ModelRef;
  /** Ranks the models for a request from `serverId` (see shared/domain/model-selection.ts). */
  select(params: CreateMessageParams, serverId: string): ModelSelection;
  /**
   * A model's price in USD per million tokens: the `price` in its facts, else the built-in one
   * (shared/domain/model-prices.ts: list prices of known hosted models, 0 on a loopback endpoint and for
   * the manual provider); undefined when unknown (e.g. a remote OpenAI-compatible endpoint).
   */
  priceOf(model: ModelRef): ModelPrice | undefined;
  views(): ProviderView[];
  settings(): ModelSettings;
  /** Problems found reading providers.json and the secret store, for notices. */
  problems: string[];
  /** @throws ApiError `invalid_input` (unknown kind settings, reserved/duplicate id, env provider), `internal` when the file cannot be written */
  save(input: SaveProviderInput): Promise<ProviderView>;
  /** @throws ApiError `not_found`, `invalid_input` for the environment provider */
  remove(id: string): Promise<void>;
  /** Tests a saved provider, or unsaved settings (`provider`, `apiKey`, falling back to the stored key of `id`). Never throws for connection failures. */
  test(input: { id: string; provider?: ProviderSettings; apiKey?: string }): Promise<ProviderTestResult>;
  /** The provider's model list. @throws ApiError `invalid_state` with the readable reason (cannot connect, 401, no list, …) */
  listModels(input: { id: string; provider?: ProviderSettings; apiKey?: string }): Promise<ListedModel[]>;
  saveModelSettings(input: ModelSettingsInput): Promise<ModelSettings>;
}

/**
 * The registry's mutable state, shared by the steps below. `file` is the providers.json model in
 * effect (the last one persisted, or the one read at open); `keys` holds the API keys read from or
 * written to the secret store, by provider id; `providers` and `defaultRef` are derived from both
 * by {@link rebuild}.
 */
interface RegistryState {
  readonly deps: RegistryDeps;
  file: ProvidersFileModel;
  readonly keys: Map<string, string>;
  providers: LlmProvider[];
  defaultRef: ModelRef;
}

/** A provider id with unsaved settings and key, as `test` and `listModels` take it. */
interface ConnectionInput {
  id: string;
  provider?: ProviderSettings;
  apiKey?: string;
}

/**
 * Opens the registry: reads providers.json, loads each provider's key from the secret store
 * (a key that cannot be decrypted becomes a problem, not a crash).
 */
export async function openProviderRegistry(deps: RegistryDeps): Promise<ProviderRegistryService> {
  const read = readProvidersFile(deps.path, deps.env);
  const problems = [...read.problems];
  const keys = await loadKeys(deps.secrets, read.file, problems);
  const state: RegistryState = { deps, file: read.file, keys, providers: [], defaultRef: { providerId: MANUAL_PROVIDER_ID, modelId: MANUAL_PROVIDER_ID } };
  rebuild(state);

  return {
    list: () => state.providers,
    get: (id) => state.providers.find((p) => p.view.id === id),
    defaultModel: () => state.defaultRef,
    views: () => state.providers.map((p) => p.view),
    settings: () => settingsView(state),
    problems,
    priceOf: (model) => priceOf(state, model),
    select: (params, serverId) => selectFor(state, params, serverId),
    save: (input) => saveProvider(state, input),
    remove: (id) => removeProvider(state, id),
    test: (input) => testProvider(state, input),
    listModels: (input) => listModels(state, input),
    saveModelSettings: (input) => saveModelSettings(state, input),
  };
}

/**
 * The stored API key of each entry of `file`, by provider id, read one after another. An entry
 * without a stored key is absent; a key that cannot be read is absent and adds a line to `problems`.
 */
async function loadKeys(secrets: SecretStore, file: ProvidersFileModel, problems: string[]): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const e of file.entries) {
    try {
      const key = await secrets.get(apiKeySecretName(e.settings.id));
      if (key) keys.set(e.settings.id, key);
    } catch (err) {
      problems.push(`The API key of provider "${e.settings.id}" could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return keys;
}

/** The family rules in effect: the file's, else a copy of the built-in ones. */
function families(state: RegistryState): FamilyRule[] {
  return state.file.families ?? [...DEFAULT_FAMILY_RULES];
}

/** The entry with its stored key filled in; entries from the environment keep their own key. */
function resolved(state: RegistryState, e: ConfiguredProvider): ConfiguredProvider {
  const stored = state.keys.get(e.settings.id);
  return stored && e.source === 'console' ? { ...e, apiKey: stored } : e;
}

/** The model settings as published: family rules, per-server settings, default model. */
function settingsView(state: RegistryState): ModelSettings {
  return { families: families(state), servers: state.file.servers, defaultModel: state.defaultRef };
}

/** Re-derives the providers (each entry, then manual) and the default model from the state, then calls `onChange`. */
function rebuild(state: RegistryState): void {
  const entries = allEntries(state.file);
  state.providers = [...entries.map((e) => createProvider(resolved(state, e), families(state))), createManualProvider()];
  state.defaultRef = chooseDefaultModel(entries, state.file, 'providers.json', []);
  state.deps.onChange?.(state.providers.map((p) => p.view), settingsView(state));
}

/**
 * Writes `state.file` to providers.json (without keys), keeping the on-disk layout.
 * @throws ApiError `invalid_state` when the file was broken at open or has been broken (unreadable, not
 *   JSON, wrong top level) since; `internal` when the file cannot be written
 */
function persist(state: RegistryState): void {
  const { path } = state.deps;
  if (state.file.broken) {
    throw new ApiError('invalid_state', ui('error.providersFileBroken', { path }));
  }
  const onDisk = readProvidersText(path); // refuses a file broken by hand since it was loaded
  try {
    writeFileAtomic(path, shapeProvidersFile(serializeProvidersFile(state.file), onDisk), onDisk);
  } catch (err) {
    throw new ApiError('internal', ui('error.cannotWrite', { path, why: err instanceof Error ? err.message : String(err) }));
  }
}

/** Makes `next` the file in effect and persists it; when persisting throws, restores the previous file and rethrows. */
function commitFile(state: RegistryState, next: ProvidersFileModel): void {
  const before = state.file;
  state.file = next;
  try {
    persist(state);
  } catch (err) {
    state.file = before;
    throw err;
  }
}

/** The entry (from providers.json or the environment) with that id. */
function entryOf(state: RegistryState, id: string): ConfiguredProvider | undefined {
  return allEntries(state.file).find((e) => e.settings.id === id);
}

/** A model's price; see {@link ProviderRegistryService.priceOf}. */
function priceOf(state: RegistryState, { providerId, modelId }: ModelRef): ModelPrice | undefined {
  if (providerId === MANUAL_PROVIDER_ID) return defaultModelPrice('manual', modelId);
  const e = entryOf(state, providerId);
  if (!e) return undefined;
  return e.settings.modelFacts?.[modelId]?.price ?? defaultModelPrice(e.settings.kind, modelId, baseURLOf(e.settings));
}

/** The ranking for a request from `serverId`; see {@link ProviderRegistryService.select}. */
function selectFor(state: RegistryState, params: CreateMessageParams, serverId: string): ModelSelection {
  const server = state.file.servers[serverId];
  return selectModel({ prefs: params.modelPreferences, providers: state.providers.map((p) => p.view), fallback: state.defaultRef, params, families: families(state), ...(server ? { server } : {}) });
}

/**
 * Validates a provider change against the current entries.
 * @throws ApiError `invalid_input` (manual or environment id, id taken by another provider, openai-compatible
 *   without base URL), `not_found` when `previousId` names no providers.json entry
 */
function checkSave(state: RegistryState, { provider, previousId }: SaveProviderInput, oldId: string, old: ConfiguredProvider | undefined): void {
  if (provider.id === MANUAL_PROVIDER_ID || entryOf(state, provider.id)?.source === 'env' || (previousId && entryOf(state, previousId)?.source === 'env')) {
    throw new ApiError('invalid_input', ui('error.providerReserved', { id: provider.id }));
  }
  if (provider.id !== oldId && entryOf(state, provider.id)) throw new ApiError('invalid_input', ui('error.providerExists', { id: provider.id }));
  if (previousId && !old) throw new ApiError('not_found', ui('error.noProvider', { id: previousId }));
  if (provider.kind === 'openai-compatible' && !provider.baseURL) throw new ApiError('invalid_input', ui('error.baseUrlNeeded', { example: 'http://127.0.0.1:11434/v1' }));
}

/** The settings as stored: models deduplicated, model facts only for listed models (the field left out when none remain). */
function storedSettings(provider: ProviderSettings): ProviderSettings {
  const facts = Object.fromEntries(Object.entries(provider.modelFacts ?? {}).filter(([m]) => provider.models.includes(m)));
  const settings: ProviderSettings = { ...provider, models: [...new Set(provider.models)], ...(Object.keys(facts).length ? { modelFacts: facts } : { modelFacts: undefined }) };
  if (!settings.modelFacts) delete settings.modelFacts;
  return settings;
}

/**
 * Applies a saved provider's key change to the secret store and `state.keys`: null removes the key of
 * `oldId`, a non-blank string sets the trimmed key of `newId`; on a rename, the old key (when no key
 * was given) moves to `newId` and the key of `oldId` is deleted.
 */
async function storeKeyChange(state: RegistryState, oldId: string, newId: string, apiKey: string | null | undefined): Promise<void> {
  const { secrets } = state.deps;
  const oldKey = state.keys.get(oldId);
  if (apiKey === null) {
    await secrets.delete(apiKeySecretName(oldId));
    state.keys.delete(oldId);
  } else if (typeof apiKey === 'string' && apiKey.trim() !== '') {
    await secrets.set(apiKeySecretName(newId), apiKey.trim());
    state.keys.set(newId, apiKey.trim());
  }
  if (newId !== oldId) {
    if (apiKey === undefined && oldKey) {
      await secrets.set(apiKeySecretName(newId), oldKey);
      state.keys.set(newId, oldKey);
    }
    await secrets.delete(apiKeySecretName(oldId));
    state.keys.delete(oldId);
  }
}

/** Adds or edits (and possibly renames) a providers.json entry; see {@link ProviderRegistryService.save}. */
async function saveProvider(state: RegistryState, input: SaveProviderInput): Promise<ProviderView> {
  const { provider, previousId, apiKey } = input;
  const oldId = previousId ?? provider.id;
  const old = state.file.entries.find((e) => e.settings.id === oldId);
  checkSave(state, input, oldId, old);
  const next: ConfiguredProvider = { ...(old ?? { source: 'console' as const }), settings: storedSettings(provider) };
  const { file } = state;
  commitFile(state, { ...file, entries: old ? file.entries.map((e) => (e === old ? next : e)) : [...file.entries, next] });
  await storeKeyChange(state, oldId, provider.id, apiKey);
  rebuild(state);
  return state.providers.find((p) => p.view.id === provider.id)!.view;
}

/** Per-server settings with the models of provider `id` taken out of the allowed lists and defaults. */
function serversWithout(servers: Record<string, ServerModelSettings>, id: string): Record<string, ServerModelSettings> {
  return Object.fromEntries(
    Object.entries(servers).map(([sid, s]) => [
      sid,
      {
        ...(s.allowedModels ? { allowedModels: s.allowedModels.filter((m) => m.providerId !== id) } : {}),
        ...(s.defaultModel && s.defaultModel.providerId !== id ? { defaultModel: s.defaultModel } : {}),
      },
    ]),
  );
}

/** Removes a providers.json entry, its key and its models from server settings; see {@link ProviderRegistryService.remove}. */
async function removeProvider(state: RegistryState, id: string): Promise<void> {
  const e = entryOf(state, id);
  if (!e) throw new ApiError('not_found', ui('error.noProvider', { id }));
  if (e.source === 'env') throw new ApiError('invalid_input', ui('error.providerFromEnv', { id }));
  const { file } = state;
  const servers = serversWithout(file.servers, id);
  commitFile(state, { ...file, entries: file.entries.filter((x) => x !== e), servers, ...(file.defaultProvider === id ? { defaultProvider: undefined, defaultModel: undefined } : {}) });
  await state.deps.secrets.delete(apiKeySecretName(id));
  state.keys.delete(id);
  rebuild(state);
}

/**
 * The settings to connect with: the unsaved `provider`, else the saved entry's.
 * @throws ApiError `not_found` when neither exists, `invalid_input` for openai-compatible without base URL
 */
function settingsFor(state: RegistryState, input: { id: string; provider?: ProviderSettings }): ProviderSettings {
  const s = input.provider ?? entryOf(state, input.id)?.settings;
  if (!s) throw new ApiError('not_found', ui('error.noProvider', { id: input.id }));
  if (s.kind === 'openai-compatible' && !s.baseURL) throw new ApiError('invalid_input', ui('error.baseUrlFirst', { example: 'http://127.0.0.1:11434/v1' }));
  return s;
}

/** How to reach a provider with `settings`: `apiKey`, else the stored key of entry `id`; that entry's extra headers. */
function connection(state: RegistryState, settings: ProviderSettings, id: string, apiKey: string | undefined): ProviderConnection & { label: string } {
  const e = entryOf(state, id);
  const key = apiKey ?? (e ? resolved(state, e).apiKey : undefined);
  return {
    label: settings.label ?? settings.id,
    baseURL: baseURLOf(settings),
    ...(key ? { apiKey: key } : {}),
    ...(e?.headers ? { headers: e.headers } : {}),
    ...(settings.openaiApi ? { openaiApi: settings.openaiApi } : {}),
  };
}

/** Tests a connection; see {@link ProviderRegistryService.test}. */
async function testProvider(state: RegistryState, input: ConnectionInput): Promise<ProviderTestResult> {
  const settings = settingsFor(state, input);
  const { testProviderConnection } = await import('./model-list.js'); // the AI SDK, loaded when first needed
  return testProviderConnection(settings.kind, connection(state, settings, input.id, input.apiKey), settings.models[0], state.deps.listOptions);
}

/** Lists a provider's models; see {@link ProviderRegistryService.listModels}. */
async function listModels(state: RegistryState, input: ConnectionInput): Promise<ListedModel[]> {
  const settings = settingsFor(state, input);
  const { listProviderModels, ModelListError } = await import('./model-list.js'); // the AI SDK, loaded when first needed
  try {
    return await listProviderModels(settings.kind, connection(state, settings, input.id, input.apiKey), state.deps.listOptions);
  } catch (err) {
    throw new ApiError('invalid_state', err instanceof ModelListError ? err.message : String(err));
  }
}

/**
 * Applies settings changes and persists them; see {@link ProviderRegistryService.saveModelSettings}.
 * @throws ApiError `invalid_input` when `defaultModel` is neither manual nor a configured model; what {@link persist} throws
 */
async function saveModelSettings(state: RegistryState, input: ModelSettingsInput): Promise<ModelSettings> {
  const next: ProvidersFileModel = { ...state.file };
  if (input.families) next.families = input.families;
  if (input.servers) next.servers = input.servers;
  if (input.defaultModel) {
    const { providerId, modelId } = input.defaultModel;
    if (providerId === MANUAL_PROVIDER_ID) next.defaultProvider = MANUAL_PROVIDER_ID;
    else if (entryOf(state, providerId)?.settings.models.includes(modelId)) next.defaultProvider = providerId;
    else throw new ApiError('invalid_input', ui('error.noModelInQuoted', { model: modelId, provider: providerId }));
    next.defaultModel = modelId;
  }
  commitFile(state, next);
  rebuild(state);
  return settingsView(state);
}
