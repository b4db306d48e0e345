/**
 * Writing `providers.json` the way the person wrote it (main/user-file.ts): the console's model
 * of the file, serialised, is shaped like the file on disk — its key order and indentation, and
 * the fields the console does not know (top level, provider entries, per-server settings) kept.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { ServerModelSettingsSchema } from '../../shared/contract/providers.js';
import { describeJsonError } from '../config.js';
import { brokenFileError, indentOf, shapeLike, type JsonPath } from '../user-file.js';
import { ProviderEntrySchema, ProvidersFileSchema } from './providers-file-model.js';

const TOP_KEYS = new Set(Object.keys(ProvidersFileSchema.shape));
const ENTRY_KEYS = new Set(Object.keys(ProviderEntrySchema.shape));
const SERVER_KEYS = new Set(Object.keys(ServerModelSettingsSchema.shape));

/** Whether the file's `key` at `path` is one the console does not know (so it is kept). */
function unknownField(path: JsonPath, key: string): boolean {
  if (path.length === 0) return !TOP_KEYS.has(key);
  if (path.length === 2 && path[0] === 'providers') return !ENTRY_KEYS.has(key);
  if (path.length === 2 && path[0] === 'servers') return !SERVER_KEYS.has(key);
  return false;
}

/**
 * The file's text as it is now, or undefined when there is none.
 * @throws ApiError invalid_state when it is not JSON or its top level is wrong (it is never overwritten)
 */
export function readProvidersText(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw brokenFileError(basename(path), [`cannot be read: ${(err as Error).message}`]);
  }
  if (text.trim() === '') return text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw brokenFileError(basename(path), [describeJsonError(text, err)]);
  }
  const top = ProvidersFileSchema.safeParse(json);
  if (!top.success) throw brokenFileError(basename(path), [top.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')]);
  return text;
}

/** `serialized` (the console's text for the file) shaped like `onDisk` (see the module doc). */
export function shapeProvidersFile(serialized: string, onDisk: string | undefined): string {
  if (onDisk === undefined || onDisk.trim() === '') return serialized;
  const shaped = shapeLike(JSON.parse(serialized), JSON.parse(onDisk), unknownField);
  return `${JSON.stringify(shaped, null, indentOf(onDisk))}\n`;
}
