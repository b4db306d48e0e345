/**
 * The providers, notices and settings slices of the console state (shared/contract/state.ts
 * re-exports everything here). Plain JSON data; times are epoch ms. Kept apart from state.ts only
 * to keep files small; state.ts is still the one contract.
 */
import type { ModelFacts, OpenAIApi, ProviderKind, ProviderTimeoutSettings } from './providers.js';
import type { UiText } from './ui-text.js';

/** A configured LLM provider. API keys never cross into the renderer: only `hasApiKey` (and `apiKeyHint`). */
export interface ProviderView {
  id: string;
  kind: ProviderKind;
  label: string;
  baseURL?: string;
  models: string[];
  hasApiKey: boolean;
  /** The last 4 characters of the stored key, as "…abcd" (keys of 12+ characters only); never more. */
  apiKeyHint?: string;
  /** Where the configuration comes from: the Providers screen (editable), providers.json `${env:…}` or the environment. */
  source?: 'console' | 'env';
  /** The preset it was made from (e.g. "ollama"). */
  preset?: string;
  /** OpenAI only: the endpoint for ordinary requests. */
  openaiApi?: OpenAIApi;
  /** The time limits the person set (ms); the others are DEFAULT_PROVIDER_TIMEOUTS (shared/contract/providers.ts). */
  timeouts?: ProviderTimeoutSettings;
  /** Facts of every model in `models` (the person's where set, else defaults), by model id. */
  modelFacts?: Record<string, ModelFacts>;
  /** Model ids whose facts the person set by hand. */
  customFacts?: string[];
}

/** A message for the person that is not tied to one item (config problems, host warnings). */
export interface Notice {
  id: string;
  level: 'info' | 'warning' | 'error';
  /** What it is about, when typed: `sampling_refused` = a sampling request the console refused (never a rate limit: those are counted). */
  kind?: 'sampling_refused';
  /** In English (logs). */
  message: string;
  /** `message` as a message code, for the person's language (absent when the words are a server's, a file parser's or the OS's). */
  ui?: UiText;
  at: number;
}

/** Facts about where the console keeps its files and which host runs it. */
export interface SettingsView {
  host: 'electron' | 'web' | 'test';
  userDataDir: string;
  serversConfigPath: string;
  providersConfigPath: string;
  historyPath: string;
  /**
   * Where API keys are kept, e.g. "Electron safeStorage (gnome_libsecret), ciphertexts in …" (English;
   * `backendUi` its message code); `warning` when that storage is weak.
   */
  secretStore?: { backend: string; backendUi?: UiText; warning?: string; warningUi?: UiText };
  /**
   * Problems with mcp-servers.json as edited by hand ("line 3, column 5: …"); while set, the last
   * good config stays in force. Absent when the file is fine.
   */
  serversConfigProblems?: string[];
}
