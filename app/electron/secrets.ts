/**
 * The Electron host's secret store: Electron `safeStorage` (the OS keychain — macOS Keychain,
 * Windows DPAPI, libsecret/kwallet on Linux) encrypts each secret; the ciphertexts (base64) live in
 * `secrets.safe.json` in the user-data folder, written with mode 0600. Nothing is ever stored in
 * plaintext.
 *
 * On Linux, when no keyring is available safeStorage falls back to its `basic_text` backend (a
 * hard-coded key): the store still works but carries a `warning` the console shows. When
 * encryption is not available at all, the AES-256-GCM key-file store of the web host is used
 * instead (with a warning).
 *
 * Takes `safeStorage` as a parameter (no `electron` import here) so it is testable in Node.
 */
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { createFileSecretStore } from '../../main/secrets/file-store.js';
import { described, SecretStoreError, type SecretStore } from '../../main/secrets/secret-store.js';
import { english, ui, type UiText } from '../../shared/contract/ui-text.js';

/** The part of Electron's `safeStorage` this uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: "basic_text", "gnome_libsecret", "kwallet", …, or "unknown". */
  getSelectedStorageBackend?(): string;
}

/** File name of the safeStorage ciphertexts inside the user-data folder. */
export const SAFE_SECRETS_FILE = 'secrets.safe.json';

const FileSchema = z.object({ version: z.literal(1), entries: z.record(z.string(), z.string()) });

/** `{ warning, warningUi }` of a store from a message code. */
function warned(why: UiText): { warning: string; warningUi: UiText } {
  return { warning: english(why), warningUi: why };
}

/** The ciphertexts of `path` (none when it does not exist). @throws SecretStoreError when it is not valid JSON or not a secrets file */
function readEntries(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new SecretStoreError(`${path} is not valid JSON`);
  }
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success) throw new SecretStoreError(`${path} is not a secrets file of this console`);
  return parsed.data.entries;
}

/** Writes `entries` to `path` (mode 0600, through a temporary file). @throws SecretStoreError when it cannot be written */
function writeEntries(path: string, entries: Record<string, string>): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify({ version: 1, entries }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
  } catch (e) {
    throw new SecretStoreError(`cannot write ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Creates the store. Call after `app.whenReady()` (safeStorage needs it on some platforms).
 * @param platform `process.platform`
 * @throws SecretStoreError when secrets.safe.json exists but is not a valid secrets file
 */
export function createSafeStorageSecretStore(safeStorage: SafeStorageLike, dir: string, platform: NodeJS.Platform = process.platform): SecretStore {
  if (!safeStorage.isEncryptionAvailable()) {
    const fallback = createFileSecretStore({ dir });
    return {
      backend: fallback.backend,
      ...(fallback.backendUi && { backendUi: fallback.backendUi }),
      ...warned(ui('secrets.noSafeStorage')),
      get: (n) => fallback.get(n),
      set: (n, v) => fallback.set(n, v),
      delete: (n) => fallback.delete(n),
    };
  }
  const path = join(dir, SAFE_SECRETS_FILE);
  let entries = readEntries(path);
  /** Writes `next` and only then keeps it, so a failed write changes nothing. */
  const save = (next: Record<string, string>) => {
    writeEntries(path, next);
    entries = next;
  };
  const linuxBackend = platform === 'linux' ? (safeStorage.getSelectedStorageBackend?.() ?? 'unknown') : undefined;
  const weak = linuxBackend === 'basic_text' || linuxBackend === 'unknown';
  return {
    ...described(linuxBackend ? ui('secrets.safeStorageBackend', { backend: linuxBackend, file: path }) : ui('secrets.safeStorage', { file: path })),
    ...(weak
      ? {
          ...warned(ui('secrets.weakBackend', { backend: linuxBackend })),
        }
      : {}),
    async get(name) {
      const data = entries[name];
      if (data === undefined) return undefined;
      try {
        return safeStorage.decryptString(Buffer.from(data, 'base64'));
      } catch {
        throw new SecretStoreError(`cannot decrypt "${name}" from ${path} with safeStorage (was the keyring changed?)`);
      }
    },
    async set(name, value) {
      save({ ...entries, [name]: safeStorage.encryptString(value).toString('base64') });
    },
    async delete(name) {
      if (!(name in entries)) return;
      const { [name]: _gone, ...next } = entries;
      save(next);
    },
  };
}
