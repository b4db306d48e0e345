/**
 * Owner-only files in the user-data folder: the bridge channel's token (rewritten at every console
 * start) and the loopback HTTP serving's token (kept: hosts' config files carry it).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/** Writes `text` to `file` readable and writable by the owner only (atomically, by rename). */
export function writeOwnerOnly(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/**
 * The token kept in `file` (trimmed), created on first use: 32 random bytes as hex, written
 * owner-only (mode 0600). Two processes creating it at once agree: the file is linked into place
 * only when absent, and the loser reads the winner's.
 * @throws Error when the file cannot be read or written (e.g. the folder is not writable)
 */
export function ownerToken(file: string): string {
  const existing = readToken(file);
  if (existing) return existing;
  const tmp = `${file}.${process.pid}.new`;
  writeFileSync(tmp, randomBytes(32).toString('hex'), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  const token = readToken(file);
  if (!token) throw new Error(`${file} is empty: remove it and a new token is made`);
  return token;
}

/** The file's trimmed text; undefined when it does not exist. */
function readToken(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
