/**
 * Big payloads stored once: the base64 `data` of image and audio blocks, and the base64 `blob` of
 * embedded resources, move out of an entry's JSON into the `blobs` table (keyed by the SHA-256 of
 * the base64 text) and are replaced in place by `blobRef` (that hash) and `bytes` (decoded size).
 * {@link inflateMedia} puts them back, so an entry round-trips exactly. Pure functions; no database.
 *
 * The walk is structural (any depth, any part of `original`/`sent`/`generated`/`delivered`), so
 * media inside `tool_result` content and in raw params that failed validation are handled too.
 *
 * Big texts (a 25 MB prompt) move out the same way when the caller already wrote them to a file
 * (./big-texts.ts): the string is replaced by `{textRef, bytes}` (hash and UTF-8 size), so the
 * row stays small and saving the entry again does not write the text again.
 */
import { createHash } from 'node:crypto';
import type { HistoryEntry } from '../../shared/contract/state.js';

/** One payload taken out of an entry. */
export interface MediaBlob {
  /** Hex SHA-256 of `data` (the base64 text, as UTF-8). */
  sha256: string;
  /** The base64 text exactly as it was in the entry. */
  data: string;
  /** Decoded size in bytes (approximate for text that is not valid base64). */
  bytes: number;
  mimeType: string | null;
}

/** The entry parts that may hold media. */
const MEDIA_PARTS = ['original', 'sent', 'generated', 'delivered'] as const;

/** A big text already in a file: its hash and UTF-8 size in bytes. */
export interface TextRef {
  sha256: string;
  bytes: number;
}

/** Strings at least this long (characters) are big texts (./big-texts.ts): 256 KiB. */
export const BIG_TEXT_CHARS = 256 * 1024;

/**
 * Returns a copy of `entry` whose media payloads are replaced by references, and the payloads
 * (distinct by hash); and, when `textRef` knows a big string's file, that string replaced by
 * `{textRef, bytes}` (listed in `texts`). Entries without either come back as the same object.
 */
export function externalizeMedia(
  entry: HistoryEntry,
  textRef?: (text: string) => TextRef | undefined,
): { entry: HistoryEntry; blobs: MediaBlob[]; texts: TextRef[] } {
  const blobs = new Map<string, MediaBlob>();
  const texts = new Map<string, TextRef>();
  let changed = false;
  const out: HistoryEntry = { ...entry };
  const moveTexts = (obj: Record<string, unknown>): Record<string, unknown> => {
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(obj)) {
      const ref = typeof v === 'string' && v.length >= BIG_TEXT_CHARS ? textRef!(v) : undefined;
      if (!ref) continue;
      texts.set(ref.sha256, ref);
      copy ??= { ...obj };
      copy[k] = { textRef: ref.sha256, bytes: ref.bytes };
    }
    return copy ?? obj;
  };
  for (const part of MEDIA_PARTS) {
    if (entry[part] === undefined) continue;
    const mapped = mapJson(entry[part], (obj) => {
      const key = payloadKey(obj);
      if (key === null) return textRef ? moveTexts(obj) : obj;
      const data = obj[key] as string;
      const sha256 = createHash('sha256').update(data).digest('hex');
      const bytes = base64Bytes(data);
      if (!blobs.has(sha256)) blobs.set(sha256, { sha256, data, bytes, mimeType: typeof obj.mimeType === 'string' ? obj.mimeType : null });
      return replaceKey(obj, key, { blobRef: sha256, bytes });
    });
    if (mapped !== entry[part]) changed = true;
    (out as unknown as Record<string, unknown>)[part] = mapped;
  }
  return changed ? { entry: out, blobs: [...blobs.values()], texts: [...texts.values()] } : { entry, blobs: [], texts: [] };
}

/** The big strings of an entry's parts (not media payloads): what ./big-texts.ts writes to files. */
export function bigStrings(entry: HistoryEntry): string[] {
  const found = new Set<string>();
  for (const part of MEDIA_PARTS) {
    mapJson(entry[part], (obj) => {
      const key = payloadKey(obj);
      for (const [k, v] of Object.entries(obj)) {
        if (k !== key && typeof v === 'string' && v.length >= BIG_TEXT_CHARS) found.add(v);
      }
      return obj;
    });
  }
  return [...found];
}

/** Whether `v` is a big-text reference left by {@link externalizeMedia}. */
function isTextRef(v: unknown): v is { textRef: string; bytes: number } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return typeof o.textRef === 'string' && typeof o.bytes === 'number' && Object.keys(o).length === 2;
}

/**
 * The inverse of {@link externalizeMedia}: replaces every reference whose hash `lookup` knows with
 * the payload. Unknown references are left as they are (e.g. a raw request that itself carried a
 * `blobRef` field).
 */
export function inflateMedia(entry: HistoryEntry, lookup: (sha256: string) => string | undefined, readText?: (sha256: string) => string | undefined): HistoryEntry {
  if (!hasRefs(entry) && !readText) return entry;
  const out: HistoryEntry = { ...entry };
  const putTexts = (obj: Record<string, unknown>): Record<string, unknown> => {
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(obj)) {
      if (!isTextRef(v)) continue;
      const text = readText!(v.textRef);
      if (text === undefined) continue;
      copy ??= { ...obj };
      copy[k] = text;
    }
    return copy ?? obj;
  };
  for (const part of MEDIA_PARTS) {
    if (entry[part] === undefined) continue;
    (out as unknown as Record<string, unknown>)[part] = mapJson(entry[part], (found) => {
      const obj = readText ? putTexts(found) : found;
      if (typeof obj.blobRef !== 'string' || typeof obj.bytes !== 'number' || 'data' in obj || 'blob' in obj) return obj;
      const key = obj.type === 'image' || obj.type === 'audio' ? 'data' : typeof obj.uri === 'string' ? 'blob' : null;
      const data = key === null ? undefined : lookup(obj.blobRef);
      if (key === null || data === undefined) return obj;
      const restored: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(obj)) {
        if (k === 'blobRef') restored[key] = data;
        else if (k !== 'bytes') restored[k] = v;
      }
      return restored;
    });
  }
  return out;
}

/** Hashes referenced by an (externalized) entry. */
export function mediaRefs(entry: HistoryEntry): string[] {
  const refs = new Set<string>();
  for (const part of MEDIA_PARTS) {
    mapJson(entry[part], (obj) => {
      if (typeof obj.blobRef === 'string' && typeof obj.bytes === 'number') refs.add(obj.blobRef);
      return obj;
    });
  }
  return [...refs];
}

/** Decoded size of base64 text: 3 bytes per 4 characters, minus padding; whitespace ignored. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Which key of `obj` holds a payload to move out, if any. */
function payloadKey(obj: Record<string, unknown>): 'data' | 'blob' | null {
  if ('blobRef' in obj) return null; // never stack references (raw params could carry the field)
  if ((obj.type === 'image' || obj.type === 'audio') && typeof obj.data === 'string') return 'data';
  if (typeof obj.uri === 'string' && typeof obj.blob === 'string') return 'blob';
  return null;
}

/** A copy of `obj` with `key` replaced, at the same position, by the fields of `fields`. */
function replaceKey(obj: Record<string, unknown>, key: string, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === key) Object.assign(out, fields);
    else out[k] = v;
  }
  return out;
}

/** Whether any part of the stored entry mentions a reference (cheap pre-check on the JSON). */
function hasRefs(entry: HistoryEntry): boolean {
  return mediaRefs(entry).length > 0;
}

/**
 * Maps every plain object of a JSON value bottom-up with `fn` (arrays and objects are copied only
 * where something changed). @throws TypeError on a cyclic value (it could not be stored as JSON).
 */
function mapJson(value: unknown, fn: (obj: Record<string, unknown>) => Record<string, unknown>, path = new Set<object>()): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (path.has(value)) throw new TypeError('history entry: a part is cyclic and cannot be stored as JSON');
  path.add(value);
  try {
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const m = mapJson(v, fn, path);
        if (m !== v) changed = true;
        return m;
      });
      return changed ? out : value;
    }
    let changed = false;
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const m = mapJson(v, fn, path);
      if (m !== v) changed = true;
      copy[k] = m;
    }
    return fn(changed ? copy : (value as Record<string, unknown>));
  } finally {
    path.delete(value);
  }
}
