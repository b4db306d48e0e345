/**
 * Roots (MCP "Roots"; deprecated in 2026-07-28 with sampling, still served in both eras): per
 * server, the folders the person exposes as the server's working boundaries, as `file://` URIs.
 * Kept in `roots.json` in the user-data folder (`{ "<serverId>": ["/abs/folder", …] }`).
 * A change is announced to the server with `notifications/roots/list_changed`.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ApiError } from '../shared/api.js';
import { describeJsonError } from './config.js';

/** File in the user-data folder. */
export const ROOTS_FILE = 'roots.json';

/** A root as `roots/list` returns it. */
export interface Root {
  uri: string;
  name?: string;
}

const FileSchema = z.record(z.string(), z.array(z.string()));

/** The roots of every server. */
export interface RootsStore {
  /** The roots offered to `serverId` (empty when none were picked). */
  list(serverId: string): Root[];
  /**
   * Replaces the folders of a server. Each entry is an absolute path or a `file://` URI of an
   * existing folder.
   * @throws ApiError invalid_input naming the first bad entry
   */
  set(serverId: string, folders: string[]): Root[];
  /** A problem reading the file at start, if any (the file is then left untouched). */
  problem?: string;
}

/** Converts an entry to an absolute folder path, or explains why it is not one. */
export function toFolder(entry: string): string {
  const path = entry.startsWith('file://') ? fileURLToPath(entry) : entry;
  if (!isAbsolute(path)) throw new ApiError('invalid_input', `"${entry}" is not an absolute folder path`);
  if (!existsSync(path) || !statSync(path).isDirectory()) throw new ApiError('invalid_input', `"${entry}" is not an existing folder`);
  return resolve(path);
}

/** Opens (or starts) the roots file in `userDataDir`. */
export function openRootsStore(userDataDir: string): RootsStore {
  const path = join(userDataDir, ROOTS_FILE);
  let data: Record<string, string[]> = {};
  let problem: string | undefined;
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    try {
      const parsed = FileSchema.safeParse(JSON.parse(text));
      if (parsed.success) data = parsed.data;
      else problem = `${ROOTS_FILE}: ${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`;
    } catch (err) {
      problem = `${ROOTS_FILE}: ${describeJsonError(text, err)}`;
    }
  }
  const asRoots = (folders: string[]): Root[] => folders.map((f) => ({ uri: pathToFileURL(f).href, name: basename(f) || f }));
  return {
    problem,
    list: (serverId) => asRoots(data[serverId] ?? []),
    set(serverId, folders) {
      const clean = [...new Set(folders.map(toFolder))];
      data = { ...data, [serverId]: clean };
      writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
      return asRoots(clean);
    },
  };
}
