/**
 * The anchors a verification checks (docs/audit.md): the anchor files of a folder — the one given,
 * else the configured one (audit-settings.json / `MCP_CONSOLE_AUDIT_ANCHORS`) — and the public keys
 * trusted to have signed them: the given key files, else those exported into the folder and the
 * data folder's own signing key. Shared by `audit verify` and the audit view's Verify.
 */
import { existsSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { loadSigningKey, readAnchorFiles, readTrustedKeys } from './anchor-files.js';
import { loadAuditSettings } from './settings.js';
import type { VerifyInput } from './verify.js';

/** Where to look. */
export interface AnchorSource {
  /** The console's data folder (audit-settings.json, the default signing key). */
  userDataDir: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The anchor folder; default: the configured one, if any. */
  folder?: string;
  /** Public key files (PEM) trusted to sign anchors; default: the folder's and the local signing key's. */
  publicKeys?: readonly string[];
}

/** The keys trusted for anchors. @throws Error when a key file cannot be read */
function trustedKeys(src: AnchorSource, folder: string): Map<string, KeyObject> {
  if (src.publicKeys && src.publicKeys.length > 0) return readTrustedKeys(src.publicKeys);
  const keys = readTrustedKeys([], folder);
  const { settings } = loadAuditSettings(src.userDataDir, src.env);
  if (existsSync(settings.signingKeyFile)) {
    const key = loadSigningKey(settings.signingKeyFile);
    keys.set(key.keyId, key.publicKey);
  }
  return keys;
}

/**
 * The anchors to check, or undefined when no folder is given or configured (then only the chain
 * itself is checked).
 * @throws Error when the folder does not exist, or a key file cannot be read
 */
export function anchorsToCheck(src: AnchorSource): VerifyInput['anchors'] | undefined {
  const folder = src.folder ?? loadAuditSettings(src.userDataDir, src.env).settings.anchorFolder;
  if (!folder) return undefined;
  if (!existsSync(folder)) throw new Error(`the anchor folder ${folder} does not exist`);
  return { files: readAnchorFiles(folder), trusted: trustedKeys(src, folder) };
}
