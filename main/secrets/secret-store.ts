/**
 * The secret-store port (ConsolePorts.secrets): where API keys live. Hosts inject an
 * implementation — Electron safeStorage (app/electron/secrets.ts), an AES-256-GCM encrypted file
 * (file-store.ts) in the web host — and main only ever talks to this interface.
 *
 * Rules every implementation keeps: a secret is never written in plaintext, never
 * logged, never part of an error message, and `describe()` never reveals it.
 */
import { english, ui, type UiText } from '../../shared/contract/ui-text.js';

/** `{ backend, backendUi }` of a store from its message code. */
export function described(where: UiText): { backend: string; backendUi: UiText } {
  return { backend: english(where), backendUi: where };
}

/** A place to keep secrets by name. Names are short ASCII ids such as "provider:anthropic:apiKey". */
export interface SecretStore {
  /** Where secrets go, in English (logs): e.g. "encrypted file … (AES-256-GCM, key in …, mode 0600)". */
  readonly backend: string;
  /** `backend` as a message code, for the settings and providers screens in the person's language. */
  readonly backendUi?: UiText;
  /** Set when the storage is weak (e.g. Linux safeStorage fell back to "basic_text"); shown to the person. */
  readonly warning?: string;
  /** `warning` as a message code, for the person's language. */
  readonly warningUi?: UiText;
  /** The secret, or undefined when none is stored. @throws SecretStoreError when the store cannot be read or decrypted. */
  get(name: string): Promise<string | undefined>;
  /** Stores (replaces) a secret; durable when the promise resolves. @throws SecretStoreError when it cannot be written. */
  set(name: string, value: string): Promise<void>;
  /** Removes a secret (no-op when absent). */
  delete(name: string): Promise<void>;
}

/** A failure of the secret store. Messages name files and causes, never secret values. */
export class SecretStoreError extends Error {
  override name = 'SecretStoreError';
}

/** Name under which a provider's API key is stored. */
export const apiKeySecretName = (providerId: string): string => `provider:${providerId}:apiKey`;

/**
 * A store that keeps secrets in memory only (tests, and hosts that inject none): nothing survives
 * a restart, nothing is written anywhere.
 */
export function createMemorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    ...described(ui('secrets.memory')),
    get: async (name) => values.get(name),
    set: async (name, value) => void values.set(name, value),
    delete: async (name) => void values.delete(name),
  };
}

/** "…abcd" for keys of 12 or more characters (the last 4), undefined for shorter ones: never more of a key is shown. */
export function apiKeyHint(key: string | undefined): string | undefined {
  return key && key.length >= 12 ? `…${key.slice(-4)}` : undefined;
}
