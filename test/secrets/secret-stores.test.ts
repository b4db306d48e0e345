// Secret stores: the web host's AES-256-GCM file (key file 0600 or passphrase) and the Electron
// safeStorage store (with a fake safeStorage): never plaintext on disk, round trips, tamper and
// wrong-key detection, the Linux basic_text warning.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSafeStorageSecretStore, SAFE_SECRETS_FILE, type SafeStorageLike } from '../../app/electron/secrets.js';
import { createFileSecretStore, SECRET_KEY_FILE, SECRETS_FILE } from '../../main/secrets/file-store.js';
import { apiKeyHint, createMemorySecretStore, SecretStoreError } from '../../main/secrets/secret-store.js';

const KEY = 'sk-ant-api03-SECRET-0123456789abcdefXYZ';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'secrets-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every byte written under `dir`, as one string (base64 of the raw bytes too), to grep for the key. */
function everything(): string {
  return readdirSync(dir)
    .map((f) => {
      const raw = readFileSync(path.join(dir, f));
      return `${raw.toString('utf8')}\n${raw.toString('latin1')}`;
    })
    .join('\n');
}

describe('encrypted file store (web host)', () => {
  it('round-trips across reopen, never writes the key in plaintext, files are 0600', async () => {
    const store = createFileSecretStore({ dir });
    await store.set('provider:a:apiKey', KEY);
    expect(await store.get('provider:a:apiKey')).toBe(KEY);
    expect(everything()).not.toContain(KEY);
    expect(everything()).not.toContain(Buffer.from(KEY).toString('base64'));
    for (const f of [SECRETS_FILE, SECRET_KEY_FILE]) expect(statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    const again = createFileSecretStore({ dir });
    expect(await again.get('provider:a:apiKey')).toBe(KEY);
    expect(await again.get('missing')).toBeUndefined();
    await again.delete('provider:a:apiKey');
    expect(await createFileSecretStore({ dir }).get('provider:a:apiKey')).toBeUndefined();
    expect(store.backend).toContain('AES-256-GCM');
    // Said in the person's language on the Settings and Providers screens.
    expect(store.backendUi).toEqual({ code: 'secrets.fileKey', params: { file: path.join(dir, SECRETS_FILE), keyFile: path.join(dir, SECRET_KEY_FILE) } });
  });

  it('tightens a key file whose permissions were widened', async () => {
    await createFileSecretStore({ dir }).set('x', 'value-1234');
    chmodSync(path.join(dir, SECRET_KEY_FILE), 0o644);
    expect(await createFileSecretStore({ dir }).get('x')).toBe('value-1234');
    expect(statSync(path.join(dir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('detects tampering and a ciphertext moved to another name', async () => {
    const store = createFileSecretStore({ dir });
    await store.set('a', KEY);
    await store.set('b', 'other-secret-value');
    const file = JSON.parse(readFileSync(path.join(dir, SECRETS_FILE), 'utf8')) as { entries: Record<string, unknown> };
    file.entries.b = file.entries.a;
    writeFileSync(path.join(dir, SECRETS_FILE), JSON.stringify(file));
    const reopened = createFileSecretStore({ dir });
    const err = await reopened.get('b').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretStoreError);
    expect(String(err)).not.toContain(KEY);
  });

  it('with a passphrase: scrypt key, no key file, wrong passphrase refused', async () => {
    await createFileSecretStore({ dir, passphrase: 'correct horse' }).set('k', KEY);
    expect(readdirSync(dir)).not.toContain(SECRET_KEY_FILE);
    expect(everything()).not.toContain(KEY);
    expect(await createFileSecretStore({ dir, passphrase: 'correct horse' }).get('k')).toBe(KEY);
    await expect(createFileSecretStore({ dir, passphrase: 'wrong' }).get('k')).rejects.toThrow(/cannot decrypt/);
    expect(() => createFileSecretStore({ dir })).toThrow(/MCP_CONSOLE_SECRET_PASSPHRASE/);
  });

  it('a key file of the wrong size is reported as a damaged key file, not as a wrong key', async () => {
    await createFileSecretStore({ dir }).set('x', KEY);
    const keyFile = path.join(dir, SECRET_KEY_FILE);
    writeFileSync(keyFile, Buffer.alloc(10));
    const err = await createFileSecretStore({ dir }).get('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretStoreError);
    expect((err as Error).message).toContain(keyFile);
    expect((err as Error).message).toMatch(/is damaged: it holds 10 bytes, where a key file holds 32/);
    expect((err as Error).message).not.toMatch(/cannot decrypt|wrong key/);
  });

  it('a key file that cannot be read is reported naming the key file', async () => {
    await createFileSecretStore({ dir }).set('x', KEY);
    const keyFile = path.join(dir, SECRET_KEY_FILE);
    rmSync(keyFile);
    mkdirSync(keyFile); // reading a folder fails, also for root
    const err = await createFileSecretStore({ dir }).get('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretStoreError);
    expect((err as Error).message).toContain(`cannot read the key file ${keyFile}`);
  });

  it('delete: a write error is a SecretStoreError, like set', async () => {
    const store = createFileSecretStore({ dir });
    await store.set('x', KEY);
    // the temporary file the write goes through is taken by a folder: the write fails (also for root)
    mkdirSync(path.join(dir, `${SECRETS_FILE}.${process.pid}.tmp`));
    const setErr = await store.set('y', 'other-secret-value').catch((e: unknown) => e);
    expect(setErr).toBeInstanceOf(SecretStoreError);
    const err = await store.delete('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SecretStoreError);
    expect((err as Error).message).toContain(`cannot write ${path.join(dir, SECRETS_FILE)}`);
  });

  it('a set or delete whose write fails leaves the store as the file is', async () => {
    const store = createFileSecretStore({ dir });
    await store.set('x', KEY);
    mkdirSync(path.join(dir, `${SECRETS_FILE}.${process.pid}.tmp`)); // the write fails (also for root)
    await expect(store.set('x', 'other-secret-value')).rejects.toBeInstanceOf(SecretStoreError);
    await expect(store.set('y', 'other-secret-value')).rejects.toBeInstanceOf(SecretStoreError);
    await expect(store.delete('x')).rejects.toBeInstanceOf(SecretStoreError);
    expect(await store.get('x')).toBe(KEY);
    expect(await store.get('y')).toBeUndefined();
    expect(await createFileSecretStore({ dir }).get('x')).toBe(KEY); // and the file agrees
  });

  it('refuses a broken secrets file with a readable error', () => {
    writeFileSync(path.join(dir, SECRETS_FILE), '{nope');
    expect(() => createFileSecretStore({ dir })).toThrow(/not valid JSON/);
  });
});

/** A stand-in for Electron's safeStorage: XOR "encryption", enough to see that values go through it. */
function fakeSafeStorage(backend: string, available = true): SafeStorageLike & { calls: number } {
  const x = (b: Buffer) => Buffer.from(b.map((c) => c ^ 0x5a));
  const fake = {
    calls: 0,
    isEncryptionAvailable: () => available,
    encryptString: (s: string) => {
      fake.calls += 1;
      return x(Buffer.from(s, 'utf8'));
    },
    decryptString: (b: Buffer) => x(b).toString('utf8'),
    getSelectedStorageBackend: () => backend,
  };
  return fake;
}

describe('safeStorage store (Electron host)', () => {
  it('encrypts through safeStorage, keeps only ciphertext on disk (0600), no warning with a keyring', async () => {
    const safe = fakeSafeStorage('gnome_libsecret');
    const store = createSafeStorageSecretStore(safe, dir, 'linux');
    await store.set('provider:a:apiKey', KEY);
    expect(safe.calls).toBe(1);
    expect(everything()).not.toContain(KEY);
    expect(statSync(path.join(dir, SAFE_SECRETS_FILE)).mode & 0o777).toBe(0o600);
    expect(await createSafeStorageSecretStore(safe, dir, 'linux').get('provider:a:apiKey')).toBe(KEY);
    expect(store.warning).toBeUndefined();
    expect(store.backend).toContain('gnome_libsecret');
    expect(store.backendUi).toEqual({ code: 'secrets.safeStorageBackend', params: { backend: 'gnome_libsecret', file: path.join(dir, SAFE_SECRETS_FILE) } });
  });

  it('a write that fails is a SecretStoreError and changes nothing', async () => {
    const safe = fakeSafeStorage('gnome_libsecret');
    const store = createSafeStorageSecretStore(safe, dir, 'linux');
    await store.set('a', KEY);
    mkdirSync(path.join(dir, `${SAFE_SECRETS_FILE}.${process.pid}.tmp`)); // the write fails (also for root)
    await expect(store.set('b', 'other-secret-value')).rejects.toBeInstanceOf(SecretStoreError);
    await expect(store.delete('a')).rejects.toBeInstanceOf(SecretStoreError);
    expect(await store.get('a')).toBe(KEY);
    expect(await store.get('b')).toBeUndefined();
  });

  it('warns when Linux falls back to basic_text', () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage('basic_text'), dir, 'linux');
    expect(store.warning).toMatch(/basic_text.*no keyring/);
    expect(store.warningUi).toEqual({ code: 'secrets.weakBackend', params: { backend: 'basic_text' } }); // translated on the Providers screen
  });

  it('no backend question (or warning) off Linux', () => {
    expect(createSafeStorageSecretStore(fakeSafeStorage('basic_text'), dir, 'darwin').warning).toBeUndefined();
  });

  it('falls back to the encrypted file, with a warning, when safeStorage is unavailable', async () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage('unknown', false), dir, 'linux');
    await store.set('k', KEY);
    expect(store.warning).toMatch(/not available/);
    expect(readdirSync(dir)).toContain(SECRETS_FILE);
    expect(everything()).not.toContain(KEY);
  });
});

describe('helpers', () => {
  it('memory store and key hints', async () => {
    const m = createMemorySecretStore();
    await m.set('a', 'b');
    expect(await m.get('a')).toBe('b');
    expect(apiKeyHint(KEY)).toBe('…fXYZ');
    expect(apiKeyHint('short')).toBeUndefined();
  });
});
