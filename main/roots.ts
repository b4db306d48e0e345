/**
 * Roots (MCP "Roots"; deprecated in 2026-07-28 with sampling, still served in both eras): per
 * server, the folders the person exposes as the server's working boundaries, as `file://` URIs.
 * Kept in `roots.json` in the user-data folder (`{ "<serverId>": ["/abs/folder", …] }`).
 * A change is announced to the server with `notifications/roots/list_changed`. The file is the
 * person's (main/user-file.ts): a broken one is reported at start, its roots are not offered, and
 * no change from the UI is written over it until it is fixed; writes are atomic, keep the other
 * servers' entries in the file's order and leave `roots.json.bak`.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ApiError } from '../shared/contract/api.js';
import { brokenFileError, readUserFile, writeUserFile, type UserFileSpec } from './user-file.js';
import { ui } from '../shared/contract/ui-text.js';

/** File in the user-data folder. */
export const ROOTS_FILE = 'roots.json';

/** A root as `roots/list` returns it. */
export interface Root {
  uri: string;
  name?: string;
}

const FileSchema = z.record(z.string(), z.array(z.string()));
const spec: UserFileSpec<typeof FileSchema> = { label: ROOTS_FILE, schema: FileSchema };

/** The roots of every server. */
export interface RootsStore {
  /** The roots offered to `serverId` (empty when none were picked). */
  list(serverId: string): Root[];
  /**
   * Replaces the folders of a server. Each entry is an absolute path or a `file://` URI of an
   * existing folder.
   * @throws ApiError invalid_input naming the first bad entry; invalid_state when roots.json is
   *   broken (nothing is written)
   */
  set(serverId: string, folders: string[]): Root[];
  /** A problem reading the file at start, if any (the file is then left untouched). */
  problem?: string;
}

/** Converts an entry to an absolute folder path, or explains why it is not one. */
export function toFolder(entry: string): string {
  const path = entry.startsWith('file://') ? fileURLToPath(entry) : entry;
  if (!isAbsolute(path)) throw new ApiError('invalid_input', ui('error.rootNotAbsolute', { entry }));
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new ApiError('invalid_input', ui('error.rootMissing', { entry }));
  return resolve(path);
}

/** Opens (or starts) the roots file in `userDataDir`. */
export function openRootsStore(userDataDir: string): RootsStore {
  const path = join(userDataDir, ROOTS_FILE);
  const read = readUserFile(path, spec);
  let data: Record<string, string[]> = read.state === 'ok' ? read.value : {};
  const problem = read.state === 'broken' ? `${read.problems.join('; ')} — no roots are offered and no change is saved over the file until it is fixed` : undefined;
  const asRoots = (folders: string[]): Root[] => folders.map((f) => ({ uri: pathToFileURL(f).href, name: basename(f) || f }));
  return {
    problem,
    list: (serverId) => asRoots(data[serverId] ?? []),
    set(serverId, folders) {
      const clean = [...new Set(folders.map(toFolder))];
      const fresh = readUserFile(path, spec); // a hand edit since start counts
      if (fresh.state === 'broken') throw brokenFileError(ROOTS_FILE, fresh.problems);
      data = writeUserFile(path, spec, { ...(fresh.state === 'ok' ? fresh.value : {}), [serverId]: clean });
      return asRoots(clean);
    },
  };
}
