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
import { ui } from '../../shared/contract/ui-text.js';
import { described, SecretStoreError, type SecretStore } from './secret-store.js';

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

/** Writes `data` to `path` with mode 0600, through a temporary file and a rename. */
function writePrivate(path: string, data: string | Buffer): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** The message of an fs error (or whatever was thrown). */
const why = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The key in the key file at `path`, created (32 random bytes) when missing; its permissions
 * tightened back to 0600 when widened.
 * @throws SecretStoreError naming the key file when it is not 32 bytes, or cannot be read or created
 */
function loadOrCreateKeyFile(path: string): Buffer {
  if (!existsSync(path)) {
    const key = randomBytes(32);
    try {
      writePrivate(path, key);
    } catch (e) {
      throw new SecretStoreError(`cannot create the key file ${path}: ${why(e)}`);
    }
    return key;
  }
  let key: Buffer;
  try {
    if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    key = readFileSync(path);
  } catch (e) {
    throw new SecretStoreError(`cannot read the key file ${path}: ${why(e)}`);
  }
  if (key.length !== 32) throw new SecretStoreError(`the key file ${path} is damaged: it holds ${key.length} bytes, where a key file holds 32; move it away to start a new (empty) secret store`);
  return key;
}

/** What one store keeps: where its files are, the secrets file as last read or written, and the key once made. */
interface FileStoreState {
  readonly opts: FileSecretStoreOptions;
  readonly filePath: string;
  readonly keyPath: string;
  readonly file: SecretsFile;
  /** The key is made (key file written, or scrypt run) on first use, not when the store is opened. */
  cachedKey: Buffer | undefined;
}

/**
 * Opens (creating on first use) the encrypted secrets file in `opts.dir`.
 * Opening reads the secrets file only; the key file is created (or the passphrase stretched) on
 * first use, so a console that never stores a key writes nothing.
 * @throws SecretStoreError when the secrets file is not valid JSON of the expected shape or was made
 *   with the other kind of key; on use, when the key file is damaged or unreadable (said as such),
 *   the key / passphrase does not decrypt an entry, or the secrets file cannot be written.
 */
export function createFileSecretStore(opts: FileSecretStoreOptions): SecretStore {
  const filePath = join(opts.dir, SECRETS_FILE);
  const keyPath = join(opts.dir, SECRET_KEY_FILE);
  const file = existsSync(filePath) ? readSecretsFile(filePath) : { version: 1 as const, entries: {} };
  checkKeyKind(file, filePath, opts.passphrase);
  const st: FileStoreState = { opts, filePath, keyPath, file, cachedKey: undefined };
  return {
    ...described(opts.passphrase ? ui('secrets.filePassphrase', { file: filePath }) : ui('secrets.fileKey', { file: filePath, keyFile: keyPath })),
    get: async (name) => getSecret(st, name),
    set: async (name, value) => setSecret(st, name, value),
    delete: async (name) => deleteSecret(st, name),
  };
}

/** The secrets file at `filePath`. @throws SecretStoreError when it is not valid JSON or not of the expected shape */
function readSecretsFile(filePath: string): SecretsFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(filePath, 'utf8'));
  } catch (e) {
    throw new SecretStoreError(`${filePath} is not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success) throw new SecretStoreError(`${filePath} is not a secrets file of this console: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
  return parsed.data;
}

/** @throws SecretStoreError when the file has entries made with the other kind of key than `passphrase` says (a key file, or a passphrase) */
function checkKeyKind(file: SecretsFile, filePath: string, passphrase: string | undefined): void {
  if (passphrase && Object.keys(file.entries).length > 0 && !file.scryptSalt) {
    throw new SecretStoreError(`${filePath} was encrypted with a key file, not a passphrase; unset the passphrase or remove the file`);
  }
  if (!passphrase && file.scryptSalt && Object.keys(file.entries).length > 0) {
    throw new SecretStoreError(`${filePath} is encrypted with a passphrase: set MCP_CONSOLE_SECRET_PASSPHRASE`);
  }
}

/**
 * The 256-bit key, made on first use: scrypt of the passphrase (a salt made and kept in the file
 * when it has none), else the key file (created when missing).
 * @throws SecretStoreError when the key file is not 32 bytes, or cannot be read or created
 */
function keyOf(st: FileStoreState): Buffer {
  if (st.cachedKey) return st.cachedKey;
  const { passphrase } = st.opts;
  if (passphrase) {
    st.file.scryptSalt ??= randomBytes(16).toString('base64');
    st.cachedKey = scryptSync(passphrase, Buffer.from(st.file.scryptSalt, 'base64'), 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  } else st.cachedKey = loadOrCreateKeyFile(st.keyPath);
  return st.cachedKey;
}

/**
 * Writes the secrets file with `entries` (mode 0600, through a temporary file), and only then
 * keeps them: a write that fails leaves the store as the file is.
 * @throws SecretStoreError when it cannot be written
 */
function save(st: FileStoreState, entries: SecretsFile['entries']): void {
  try {
    writePrivate(st.filePath, `${JSON.stringify({ ...st.file, entries }, null, 2)}\n`);
  } catch (e) {
    throw new SecretStoreError(`cannot write ${st.filePath}: ${why(e)}`);
  }
  st.file.entries = entries;
}

/**
 * {@link SecretStore.get}: the decrypted value, undefined when there is none.
 * @throws SecretStoreError when the key cannot be made (the key file damaged or unreadable, said
 *   as such), or when the key does not decrypt the entry
 */
function getSecret(st: FileStoreState, name: string): string | undefined {
  const entry = st.file.entries[name];
  if (!entry) return undefined;
  const key = keyOf(st); // outside the try: a damaged key file is its own error, not "wrong key"
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(entry.iv, 'base64'));
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(Buffer.from(entry.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(entry.data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretStoreError(`cannot decrypt "${name}" from ${st.filePath}: wrong key or passphrase, or the file was changed`);
  }
}

/** {@link SecretStore.set}: encrypts `value` under a fresh IV and writes the file. @throws SecretStoreError when the file cannot be written (or the key file is damaged or unreadable) */
function setSecret(st: FileStoreState, name: string, value: string): void {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(st), iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  save(st, { ...st.file.entries, [name]: { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') } });
}

/** {@link SecretStore.delete}: removes the entry and writes the file; nothing when there is none. @throws SecretStoreError when the file cannot be written */
function deleteSecret(st: FileStoreState, name: string): void {
  if (!(name in st.file.entries)) return;
  const { [name]: _gone, ...entries } = st.file.entries;
  save(st, entries);
}
