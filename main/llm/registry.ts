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
import { listProviderModels, ModelListError, testProviderConnection, type ListedModel, type ListOptions } from './model-list.js';
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
 * Opens the registry: reads providers.json, loads each provider's key from the secret store
 * (a key that cannot be decrypted becomes a problem, not a crash).
 */
export async function openProviderRegistry(deps: RegistryDeps): Promise<ProviderRegistryService> {
  const read = readProvidersFile(deps.path, deps.env);
  let file: ProvidersFileModel = read.file;
  const problems = [...read.problems];
  const keys = new Map<string, string>();
  for (const e of file.entries) {
    try {
      const key = await deps.secrets.get(apiKeySecretName(e.settings.id));
      if (key) keys.set(e.settings.id, key);
    } catch (err) {
      problems.push(`The API key of provider "${e.settings.id}" could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  let providers: LlmProvider[] = [];
  let defaultRef: ModelRef = { providerId: MANUAL_PROVIDER_ID, modelId: MANUAL_PROVIDER_ID };
  const families = (): FamilyRule[] => file.families ?? [...DEFAULT_FAMILY_RULES];
  const resolved = (e: ConfiguredProvider): ConfiguredProvider => {
    const stored = keys.get(e.settings.id);
    return stored && e.source === 'console' ? { ...e, apiKey: stored } : e;
  };
  const settingsView = (): ModelSettings => ({ families: families(), servers: file.servers, defaultModel: defaultRef });
  const rebuild = (): void => {
    const entries = allEntries(file);
    providers = [...entries.map((e) => createProvider(resolved(e), families())), createManualProvider()];
    defaultRef = chooseDefaultModel(entries, file, 'providers.json', []);
    deps.onChange?.(providers.map((p) => p.view), settingsView());
  };
  rebuild();

  const persist = (): void => {
    if (file.broken) {
      throw new ApiError('invalid_state', ui('error.providersFileBroken', { path: deps.path }));
    }
    const onDisk = readProvidersText(deps.path); // refuses a file broken by hand since it was loaded
    try {
      writeFileAtomic(deps.path, shapeProvidersFile(serializeProvidersFile(file), onDisk), onDisk);
    } catch (err) {
      throw new ApiError('internal', ui('error.cannotWrite', { path: deps.path, why: err instanceof Error ? err.message : String(err) }));
    }
  };
  const entryOf = (id: string): ConfiguredProvider | undefined => allEntries(file).find((e) => e.settings.id === id);

  const connection = (settings: ProviderSettings, id: string, apiKey: string | undefined) => {
    const e = entryOf(id);
    const key = apiKey ?? (e ? resolved(e).apiKey : undefined);
    return {
      label: settings.label ?? settings.id,
      baseURL: baseURLOf(settings),
      ...(key ? { apiKey: key } : {}),
      ...(e?.headers ? { headers: e.headers } : {}),
      ...(settings.openaiApi ? { openaiApi: settings.openaiApi } : {}),
    };
  };
  const settingsFor = (input: { id: string; provider?: ProviderSettings }): ProviderSettings => {
    const s = input.provider ?? entryOf(input.id)?.settings;
    if (!s) throw new ApiError('not_found', ui('error.noProvider', { id: input.id }));
    if (s.kind === 'openai-compatible' && !s.baseURL) throw new ApiError('invalid_input', ui('error.baseUrlFirst', { example: 'http://127.0.0.1:11434/v1' }));
    return s;
  };

  return {
    list: () => providers,
    get: (id) => providers.find((p) => p.view.id === id),
    defaultModel: () => defaultRef,
    views: () => providers.map((p) => p.view),
    settings: settingsView,
    problems,
    priceOf({ providerId, modelId }) {
      if (providerId === MANUAL_PROVIDER_ID) return defaultModelPrice('manual', modelId);
      const e = entryOf(providerId);
      if (!e) return undefined;
      return e.settings.modelFacts?.[modelId]?.price ?? defaultModelPrice(e.settings.kind, modelId, baseURLOf(e.settings));
    },
    select(params, serverId) {
      const server = file.servers[serverId];
      return selectModel({ prefs: params.modelPreferences, providers: providers.map((p) => p.view), fallback: defaultRef, params, families: families(), ...(server ? { server } : {}) });
    },

    async save({ provider, previousId, apiKey }) {
      const oldId = previousId ?? provider.id;
      const old = file.entries.find((e) => e.settings.id === oldId);
      if (provider.id === MANUAL_PROVIDER_ID || entryOf(provider.id)?.source === 'env' || (previousId && entryOf(previousId)?.source === 'env')) {
        throw new ApiError('invalid_input', ui('error.providerReserved', { id: provider.id }));
      }
      if (provider.id !== oldId && entryOf(provider.id)) throw new ApiError('invalid_input', ui('error.providerExists', { id: provider.id }));
      if (previousId && !old) throw new ApiError('not_found', ui('error.noProvider', { id: previousId }));
      if (provider.kind === 'openai-compatible' && !provider.baseURL) throw new ApiError('invalid_input', ui('error.baseUrlNeeded', { example: 'http://127.0.0.1:11434/v1' }));
      const facts = Object.fromEntries(Object.entries(provider.modelFacts ?? {}).filter(([m]) => provider.models.includes(m)));
      const settings: ProviderSettings = { ...provider, models: [...new Set(provider.models)], ...(Object.keys(facts).length ? { modelFacts: facts } : { modelFacts: undefined }) };
      if (!settings.modelFacts) delete settings.modelFacts;
      const next: ConfiguredProvider = { ...(old ?? { source: 'console' as const }), settings };
      const before = file;
      file = { ...file, entries: old ? file.entries.map((e) => (e === old ? next : e)) : [...file.entries, next] };
      try {
        persist();
      } catch (err) {
        file = before;
        throw err;
      }
      const oldKey = keys.get(oldId);
      if (apiKey === null) {
        await deps.secrets.delete(apiKeySecretName(oldId));
        keys.delete(oldId);
      } else if (typeof apiKey === 'string' && apiKey.trim() !== '') {
        await deps.secrets.set(apiKeySecretName(provider.id), apiKey.trim());
        keys.set(provider.id, apiKey.trim());
      }
      if (provider.id !== oldId) {
        if (apiKey === undefined && oldKey) {
          await deps.secrets.set(apiKeySecretName(provider.id), oldKey);
          keys.set(provider.id, oldKey);
        }
        await deps.secrets.delete(apiKeySecretName(oldId));
        keys.delete(oldId);
      }
      rebuild();
      return providers.find((p) => p.view.id === provider.id)!.view;
    },

    async remove(id) {
      const e = entryOf(id);
      if (!e) throw new ApiError('not_found', ui('error.noProvider', { id }));
      if (e.source === 'env') throw new ApiError('invalid_input', ui('error.providerFromEnv', { id }));
      const before = file;
      const servers = Object.fromEntries(
        Object.entries(file.servers).map(([sid, s]) => [
          sid,
          {
            ...(s.allowedModels ? { allowedModels: s.allowedModels.filter((m) => m.providerId !== id) } : {}),
            ...(s.defaultModel && s.defaultModel.providerId !== id ? { defaultModel: s.defaultModel } : {}),
          },
        ]),
      );
      file = { ...file, entries: file.entries.filter((x) => x !== e), servers, ...(file.defaultProvider === id ? { defaultProvider: undefined, defaultModel: undefined } : {}) };
      try {
        persist();
      } catch (err) {
        file = before;
        throw err;
      }
      await deps.secrets.delete(apiKeySecretName(id));
      keys.delete(id);
      rebuild();
    },

    async test(input) {
      const settings = settingsFor(input);
      return testProviderConnection(settings.kind, connection(settings, input.id, input.apiKey), settings.models[0], deps.listOptions);
    },

    async listModels(input) {
      const settings = settingsFor(input);
      try {
        return await listProviderModels(settings.kind, connection(settings, input.id, input.apiKey), deps.listOptions);
      } catch (err) {
        throw new ApiError('invalid_state', err instanceof ModelListError ? err.message : String(err));
      }
    },

    async saveModelSettings(input) {
      const before = file;
      const next: ProvidersFileModel = { ...file };
      if (input.families) next.families = input.families;
      if (input.servers) next.servers = input.servers;
      if (input.defaultModel) {
        const { providerId, modelId } = input.defaultModel;
        if (providerId === MANUAL_PROVIDER_ID) next.defaultProvider = MANUAL_PROVIDER_ID;
        else if (entryOf(providerId)?.settings.models.includes(modelId)) next.defaultProvider = providerId;
        else throw new ApiError('invalid_input', ui('error.noModelInQuoted', { model: modelId, provider: providerId }));
        next.defaultModel = modelId;
      }
      file = next;
      try {
        persist();
      } catch (err) {
        file = before;
        throw err;
      }
      rebuild();
      return settingsView();
    },
  };
}
