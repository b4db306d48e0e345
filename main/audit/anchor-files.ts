/**
 * Anchors: the chain's head signed with the server's Ed25519 key (node:crypto) and written to a
 * folder outside the database (one the operator chooses, e.g. one shipped off-site), so that what
 * a chain alone cannot show — its newest records deleted, or the whole chain rebuilt with
 * recomputed hashes — shows as a chain that no longer reaches, or no longer matches, an anchor.
 *
 * Files in the anchor folder:
 * - `audit-anchor-<seq, 12 digits>-<time>.json`: one anchor (shared/contract/audit.ts
 *   {@link AuditAnchorSchema}), never overwritten;
 * - `audit-public-key-<first 16 hex of the key id>.pem`: the public key anchors are signed with,
 *   written beside the first anchor of each key; `verify` trusts the keys in this folder (or those
 *   given with `--public-key`).
 *
 * The private key is a PKCS #8 PEM file, owner-only (0600), by default `audit-signing-key.pem` in
 * the data folder; made on first use.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, linkSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AUDIT_ANCHOR_FORMAT, AUDIT_ANCHOR_VERSION, AuditAnchorSchema, type AuditAnchor, type AuditHead } from '../../shared/contract/audit.js';

/** Default file name of the signing key inside the data folder. */
export const SIGNING_KEY_FILE = 'audit-signing-key.pem';
/** Name prefix of anchor files. */
export const ANCHOR_PREFIX = 'audit-anchor-';
/** Name prefix of exported public keys. */
export const PUBLIC_KEY_PREFIX = 'audit-public-key-';

/** The server's signing key: the private key, its public key, and the public key's id. */
export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Hex SHA-256 of the public key's SPKI DER. */
  keyId: string;
  /** The public key as PEM (SPKI). */
  publicPem: string;
}

/** The id of a public key: hex SHA-256 of its SPKI DER. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex');
}

/** Thrown when the signing key file cannot be used (unreadable, not an Ed25519 private key, readable by others). */
export class SigningKeyError extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`The audit signing key ${path} cannot be used: ${why}`);
    this.name = 'SigningKeyError';
  }
}

/**
 * Reads the Ed25519 private key at `path`; when the file does not exist and `create` is set,
 * makes a new key there (mode 0600, created exclusively, so two processes never both make one).
 * @throws SigningKeyError when the file is not an Ed25519 private key, or (POSIX) group or others
 *   may read it; the fs error when it cannot be read or written
 */
export function loadSigningKey(path: string, opts: { create?: boolean } = {}): SigningKey {
  if (!existsSync(path)) {
    if (!opts.create) throw new SigningKeyError(path, 'the file does not exist');
    makeKeyFile(path);
  }
  if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) throw new SigningKeyError(path, 'group or others may read it (chmod 600 it)');
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SigningKeyError(path, `not a private key in PEM (${(err as Error).message})`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(path, `an ${privateKey.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey), publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** Writes a new Ed25519 private key to `path` (0600, exclusive create; another process's key wins a race). */
function makeKeyFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw err;
  }
  try {
    writeSync(fd, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (process.platform !== 'win32') chmodSync(path, 0o600); // whatever the umask did
}

/** The exact text an anchor's signature covers. */
export function anchorSignedText(a: Pick<AuditAnchor, 'seq' | 'hash' | 'at' | 'keyId'>): string {
  return JSON.stringify([AUDIT_ANCHOR_FORMAT, AUDIT_ANCHOR_VERSION, a.seq, a.hash, a.at, a.keyId]);
}

/** The anchor of `head` at `at` (epoch ms), signed with `key`. */
export function signAnchor(head: AuditHead, at: number, key: SigningKey): AuditAnchor {
  const fields = { seq: head.seq, hash: head.hash, at, keyId: key.keyId };
  const signature = sign(null, Buffer.from(anchorSignedText(fields), 'utf8'), key.privateKey).toString('base64');
  return { format: AUDIT_ANCHOR_FORMAT, version: AUDIT_ANCHOR_VERSION, ...fields, time: new Date(at).toISOString(), publicKey: key.publicPem, signature };
}

/** Public keys the operator trusts, by key id. */
export type TrustedKeys = ReadonlyMap<string, KeyObject>;

/** Whether `anchor` is signed by one of `trusted`: `ok`, `unknown_key` (no trusted key has its id), or `bad_signature`. */
export function checkAnchorSignature(anchor: AuditAnchor, trusted: TrustedKeys): 'ok' | 'unknown_key' | 'bad_signature' {
  const key = trusted.get(anchor.keyId);
  if (!key) return 'unknown_key';
  let ok: boolean;
  try {
    ok = verify(null, Buffer.from(anchorSignedText(anchor), 'utf8'), key, Buffer.from(anchor.signature, 'base64'));
  } catch {
    ok = false; // a signature that is not one (wrong length)
  }
  return ok ? 'ok' : 'bad_signature';
}

/** An anchor file as read: the anchor, or why it could not be read. */
export type AnchorFile = { file: string; anchor: AuditAnchor } | { file: string; problem: string };

/** Every anchor file in `dir` (by name), each parsed. @throws the fs error when `dir` cannot be read */
export function readAnchorFiles(dir: string): AnchorFile[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith(ANCHOR_PREFIX) && name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = join(dir, name);
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        return { file, problem: (err as Error).message };
      }
      const parsed = AuditAnchorSchema.safeParse(value);
      if (!parsed.success) return { file, problem: `not an anchor (${parsed.error.issues[0]?.path.join('.') || 'top level'}: ${parsed.error.issues[0]?.message})` };
      return { file, anchor: parsed.data };
    });
}

/**
 * Reads public keys (PEM files; a private key file gives its public key too): `files`, or, when
 * none are given, the `audit-public-key-*.pem` files in `dir`.
 * @throws Error naming a file that holds no usable Ed25519 key
 */
export function readTrustedKeys(files: readonly string[], dir?: string): Map<string, KeyObject> {
  const paths = files.length > 0 || dir === undefined ? files : readdirSync(dir).filter((n) => n.startsWith(PUBLIC_KEY_PREFIX) && n.endsWith('.pem')).sort().map((n) => join(dir, n));
  const keys = new Map<string, KeyObject>();
  for (const path of paths) {
    let key: KeyObject;
    try {
      key = createPublicKey(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new Error(`${path}: not a public key in PEM (${(err as Error).message})`, { cause: err });
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${path}: an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
    keys.set(keyIdOf(key), key);
  }
  return keys;
}

/** `2026-05-01T10-00-00Z` for file names. */
const stampOf = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-');

/**
 * Writes `anchor` to `dir` (made if missing) as a new file — atomically (a temporary file synced,
 * then linked to its name, which fails rather than replace a file), never over an existing one,
 * even when two instances anchor at the same moment — and the signing key's public key beside it
 * when it is not there yet. Returns the anchor file's path.
 * @throws the fs error when the folder cannot be written
 */
export function writeAnchorFile(dir: string, anchor: AuditAnchor, publicPem: string): string {
  mkdirSync(dir, { recursive: true });
  const keyFile = join(dir, `${PUBLIC_KEY_PREFIX}${anchor.keyId.slice(0, 16)}.pem`);
  if (!existsSync(keyFile)) writeNew(keyFile, publicPem);
  const base = `${ANCHOR_PREFIX}${String(anchor.seq).padStart(12, '0')}-${stampOf(anchor.at)}`;
  const text = `${JSON.stringify(anchor, null, 2)}\n`;
  for (let n = 1; ; n++) {
    const file = join(dir, n === 1 ? `${base}.json` : `${base}-${n}.json`);
    if (writeNew(file, text)) return file;
  }
}

/**
 * Writes `text` to a temporary file, syncs it, and links it to `path` (readable by all: anchors
 * are public). Returns false, writing nothing, when `path` exists already.
 */
function writeNew(path: string, text: string): boolean {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}
