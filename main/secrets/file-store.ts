/**
 * The web host's secret store: one JSON file of AES-256-GCM ciphertexts (node:crypto), each entry
 * `{iv, tag, data}` (base64, 12-byte random IV, 16-byte tag, the entry name as associated data so
 * ciphertexts cannot be swapped between names). Both files are written with mode 0600 through a
 * temporary file and a rename.
 *
 * The 256-bit key comes from, in order:
 * - a passphrase (`MCP_CONSOLE_SECRET_PASSPHRASE` in the web CLI): scrypt (N=2^15, r=8, p=1) with
 *   a random 16-byte salt kept in the secrets file;
 * - otherwise a key file of 32 random bytes created with mode 0600 next to the secrets file
 *   (permissions tightened back to 0600 if they were widened).
 * The key file keeps keys out of plaintext files, logs and backups of providers.json; it does not
 * protect against someone who can read your user-data folder — use a passphrase (or the Electron
 * host, which uses the OS keychain through safeStorage) for that.
 */
import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { SecretStoreError, type SecretStore } from './secret-store.js';

/** File names inside the store's folder. */
export const SECRETS_FILE = 'secrets.enc.json';
export const SECRET_KEY_FILE = 'secrets.key';

const Entry = z.object({ iv: z.string().min(1), tag: z.string().min(1), data: z.string() });
const FileSchema = z.object({
  version: z.literal(1),
  /** Present when the key is derived from a passphrase. */
  scryptSalt: z.string().optional(),
  entries: z.record(z.string(), Entry),
});
type SecretsFile = z.infer<typeof FileSchema>;

/** Options: the folder (the user-data folder), and a passphrase to derive the key from instead of a key file. */
export interface FileSecretStoreOptions {
  dir: string;
  passphrase?: string;
}

function writePrivate(path: string, data: string | Buffer): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

function loadOrCreateKeyFile(path: string): Buffer {
  if (!existsSync(path)) {
    const key = randomBytes(32);
    writePrivate(path, key);
    return key;
  }
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  const key = readFileSync(path);
  if (key.length !== 32) throw new SecretStoreError(`${path} is not a 32-byte key file; move it away to start a new (empty) secret store`);
  return key;
}

/**
 * Opens (creating on first use) the encrypted secrets file in `opts.dir`.
 * Opening reads the secrets file only; the key file is created (or the passphrase stretched) on
 * first use, so a console that never stores a key writes nothing.
 * @throws SecretStoreError when the secrets file is not valid JSON of the expected shape or was made
 *   with the other kind of key; on use, when the key file is damaged or the key / passphrase does
 *   not decrypt an entry.
 */
export function createFileSecretStore(opts: FileSecretStoreOptions): SecretStore {
  const filePath = join(opts.dir, SECRETS_FILE);
  const keyPath = join(opts.dir, SECRET_KEY_FILE);
  let file: SecretsFile = { version: 1, entries: {} };
  if (existsSync(filePath)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(filePath, 'utf8'));
    } catch (e) {
      throw new SecretStoreError(`${filePath} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    const parsed = FileSchema.safeParse(json);
    if (!parsed.success) throw new SecretStoreError(`${filePath} is not a secrets file of this console: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
    file = parsed.data;
  }
  if (opts.passphrase && Object.keys(file.entries).length > 0 && !file.scryptSalt) {
    throw new SecretStoreError(`${filePath} was encrypted with a key file, not a passphrase; unset the passphrase or remove the file`);
  }
  if (!opts.passphrase && file.scryptSalt && Object.keys(file.entries).length > 0) {
    throw new SecretStoreError(`${filePath} is encrypted with a passphrase: set MCP_CONSOLE_SECRET_PASSPHRASE`);
  }
  // The key is made (key file written, or scrypt run) on first use, not when the store is opened.
  let cachedKey: Buffer | undefined;
  const key = (): Buffer => {
    if (cachedKey) return cachedKey;
    if (opts.passphrase) {
      file.scryptSalt ??= randomBytes(16).toString('base64');
      cachedKey = scryptSync(opts.passphrase, Buffer.from(file.scryptSalt, 'base64'), 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    } else cachedKey = loadOrCreateKeyFile(keyPath);
    return cachedKey;
  };

  const save = () => writePrivate(filePath, `${JSON.stringify(file, null, 2)}\n`);

  return {
    backend: opts.passphrase
      ? `encrypted file ${filePath} (AES-256-GCM, key derived from your passphrase with scrypt)`
      : `encrypted file ${filePath} (AES-256-GCM, key in ${keyPath}, mode 0600)`,
    async get(name) {
      const entry = file.entries[name];
      if (!entry) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key(), Buffer.from(entry.iv, 'base64'));
        decipher.setAAD(Buffer.from(name, 'utf8'));
        decipher.setAuthTag(Buffer.from(entry.tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(entry.data, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretStoreError(`cannot decrypt "${name}" from ${filePath}: wrong key or passphrase, or the file was changed`);
      }
    },
    async set(name, value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key(), iv);
      cipher.setAAD(Buffer.from(name, 'utf8'));
      const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      file.entries[name] = { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
      try {
        save();
      } catch (e) {
        throw new SecretStoreError(`cannot write ${filePath}: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    async delete(name) {
      if (!(name in file.entries)) return;
      delete file.entries[name];
      save();
    },
  };
}
