/**
 * Media by reference (shared/contract/media-refs.ts): main replaces big image/audio payloads and
 * resource blobs of a whole item, a call or a history entry with references
 * ({@link elideMedia}), the window puts the payloads back when they arrive ({@link fillMedia}). A reference reads `mcp-console-media:<chars>:<bytes>:<path>`: the
 * payload's length in base64 characters, its decoded size in bytes, and where in the item it was
 * first found (`original/messages/0/content/1`). It holds `:`, which base64 never does, so no
 * payload a request carries can be mistaken for one. Pure.
 */
import { MEDIA_REF_MIN_CHARS, type MediaPayload, type MediaRef } from '../contract/media-refs.js';
import { base64DecodedBytes } from './base64.js';

const PREFIX = 'mcp-console-media:';
/** Media blocks sit a few levels down (item → original → messages → i → content → j → tool_result content → k); deeper JSON (tool schemas) is not walked. */
const MAX_DEPTH = 16;

/** What {@link elideMedia} made: the value with references in place of big payloads, the references, and each reference's payload. */
export interface ElidedMedia<T> {
  value: T;
  refs: MediaRef[];
  payloads: Map<string, string>;
}

/**
 * `value` (a whole item, call or history entry, or any part of one) with the `data` of every
 * image/audio block and the `blob` of every resource's contents (`{uri, blob}`: an embedded
 * resource, a `resources/read` result) at least
 * {@link MEDIA_REF_MIN_CHARS} long replaced by a reference. Parts holding no such payload are
 * shared, not copied. The same payload found twice (the request as sent and as approved) gets one
 * reference, named after the first place it was found in the order the item's fields are walked;
 * the same item and options give the same references every time.
 */
export function elideMedia<T>(value: T): ElidedMedia<T> {
  const payloads = new Map<string, string>();
  const refOf = new Map<string, string>();
  const minChars = MEDIA_REF_MIN_CHARS;
  const elided = mapMediaData(value, [], (data, at) => {
    if (data.length < minChars) return data;
    let ref = refOf.get(data);
    if (ref === undefined) {
      ref = `${PREFIX}${data.length}:${base64DecodedBytes(data)}:${at.join('/')}`;
      refOf.set(data, ref);
      payloads.set(ref, data);
    }
    return ref;
  });
  return { value: elided as T, refs: [...payloads].map(([ref, data]) => ({ ref, chars: data.length })), payloads };
}

/**
 * The payloads `refs` name in `value` (a whole item, call or history entry, as {@link elideMedia}
 * names them), in the order asked; references `value` does not hold are left out.
 */
export function payloadsFor(value: unknown, refs: readonly string[]): MediaPayload[] {
  const { payloads } = elideMedia(value);
  return refs.flatMap((ref) => (payloads.has(ref) ? [{ ref, data: payloads.get(ref)! }] : []));
}

/**
 * `value` with every reference that `payloads` holds replaced by its payload (the same object when
 * none was). References `payloads` lacks stay.
 */
export function fillMedia<T>(value: T, payloads: ReadonlyMap<string, string>): T {
  if (payloads.size === 0) return value;
  return mapMediaData(value, [], (data) => (data.startsWith(PREFIX) ? (payloads.get(data) ?? data) : data)) as T;
}

/** The references still in `value` (each once). */
export function mediaRefsIn(value: unknown): string[] {
  const found = new Set<string>();
  mapMediaData(value, [], (data) => {
    if (data.startsWith(PREFIX)) found.add(data);
    return data;
  });
  return [...found];
}

/** The sizes a reference carries (`chars`: base64 characters, `bytes`: decoded); undefined when `data` is not a reference. */
export function parseMediaRef(data: string): { chars: number; bytes: number } | undefined {
  if (!data.startsWith(PREFIX)) return undefined;
  const [chars, bytes] = data.slice(PREFIX.length).split(':', 2).map(Number);
  return Number.isSafeInteger(chars) && Number.isSafeInteger(bytes) ? { chars: chars!, bytes: bytes! } : undefined;
}

/**
 * `value` with `swap` applied to the string `data` of every object whose `type` is `image` or
 * `audio`, and to the string `blob` of every object with a string `uri` (`at`: the
 * keys leading to that object). Copies only the objects and arrays on the way to a changed
 * payload; walks at most {@link MAX_DEPTH} levels.
 */
function mapMediaData(value: unknown, at: Array<string | number>, swap: (data: string, at: Array<string | number>) => string): unknown {
  if (typeof value !== 'object' || value === null || at.length > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((v, i) => {
      const next = mapMediaData(v, [...at, i], swap);
      if (next !== v) (out ??= value.slice())[i] = next;
    });
    return out ?? value;
  }
  const o = value as Record<string, unknown>;
  const media = (o.type === 'image' || o.type === 'audio') && typeof o.data === 'string';
  const blob = typeof o.uri === 'string' && typeof o.blob === 'string';
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(o)) {
    const v = o[key];
    const payload = (media && key === 'data') || (blob && key === 'blob');
    const next = payload ? swap(v as string, at) : mapMediaData(v, [...at, key], swap);
    if (next !== v) (out ??= { ...o })[key] = next;
  }
  return out ?? value;
}
