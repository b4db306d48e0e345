/**
 * Media by reference (shared/contract/media-refs.ts): main replaces big image/audio payloads and
 * resource blobs of a whole item, a call or a history entry with references ({@link elideMedia}),
 * the window puts the payloads back when they arrive ({@link fillMedia}). A reference reads
 * `mcp-console-media:<chars>:<bytes>:<path>`: the payload's length in base64 characters, its
 * decoded size in bytes, and where in the item it was first found (`original/messages/0/content/1`).
 * It holds `:`, which base64 never does, so no payload a request carries can be mistaken for one.
 * A call's long texts go the same way with `texts` ({@link ElideOptions}), as
 * `mcp-console-text:<chars>:<UTF-8 bytes>:<path>`. Pure.
 */
import { MEDIA_REF_MIN_CHARS, type MediaPayload, type MediaRef } from '../contract/media-refs.js';
import { base64DecodedBytes } from './base64.js';

const PREFIX = 'mcp-console-media:';
/** A long text's reference (`elideMedia` with `texts`): the same shape, its own prefix, so no image payload is ever filled into a text. */
const TEXT_PREFIX = 'mcp-console-text:';
/** Media blocks sit a few levels down (item → original → messages → i → content → j → tool_result content → k); deeper JSON (tool schemas) is not walked. */
const MAX_DEPTH = 16;

/** What {@link elideMedia} made: the value with references in place of big payloads, the references, and each reference's payload. */
export interface ElidedMedia<T> {
  value: T;
  refs: MediaRef[];
  payloads: Map<string, string>;
}

/** What {@link elideMedia} also replaces. */
export interface ElideOptions {
  /**
   * Long texts too: the `text` of text blocks and of resource contents, by a reference of their own
   * (`mcp-console-text:`). For a call's results only — a tool that returned a 5 MB file would
   * otherwise be in every window's state; a request's texts are what its review shows and edits.
   */
  texts?: boolean;
}

/** What a call's result holds by reference (main's `calls` slice, the call card): big media, resource blobs and long texts. */
export const CALL_ELISION: ElideOptions = { texts: true };

/**
 * `value` (a whole item, call or history entry, or any part of one) with the `data` of every
 * image/audio block and the `blob` of every resource's contents (`{uri, blob}`: an embedded
 * resource, a `resources/read` result) at least
 * {@link MEDIA_REF_MIN_CHARS} long replaced by a reference. Parts holding no such payload are
 * shared, not copied. The same payload found twice (the request as sent and as approved) gets one
 * reference, named after the first place it was found in the order the item's fields are walked;
 * the same item and options give the same references every time.
 */
export function elideMedia<T>(value: T, opts: ElideOptions = {}): ElidedMedia<T> {
  const payloads = new Map<string, string>();
  const refOf = new Map<string, string>();
  const minChars = MEDIA_REF_MIN_CHARS;
  const elided = mapMediaData(value, [], opts.texts === true, (data, at, text) => {
    if (data.length < minChars) return data;
    let ref = refOf.get(data);
    if (ref === undefined) {
      ref = text ? `${TEXT_PREFIX}${data.length}:${utf8Bytes(data)}:${at.join('/')}` : `${PREFIX}${data.length}:${base64DecodedBytes(data)}:${at.join('/')}`;
      refOf.set(data, ref);
      payloads.set(ref, data);
    }
    return ref;
  });
  return { value: elided as T, refs: [...payloads].map(([ref, data]) => ({ ref, chars: data.length })), payloads };
}

/**
 * The payloads `refs` name in `value` (a whole item, call or history entry, as {@link elideMedia}
 * names them with the same `opts`), in the order asked; references `value` does not hold are left out.
 */
export function payloadsFor(value: unknown, refs: readonly string[], opts: ElideOptions = {}): MediaPayload[] {
  const { payloads } = elideMedia(value, opts);
  return refs.flatMap((ref) => (payloads.has(ref) ? [{ ref, data: payloads.get(ref)! }] : []));
}

/** Whether `data`, found at a payload's place (`text`: a text field), has the form of a reference made there. */
const isRef = (data: string, text: boolean): boolean => data.startsWith(text ? TEXT_PREFIX : PREFIX);

/**
 * `value` with every reference that `payloads` holds replaced by its payload (the same object when
 * none was). References `payloads` lacks stay. Text fields only with `opts.texts` (a call), and only
 * from a text reference.
 */
export function fillMedia<T>(value: T, payloads: ReadonlyMap<string, string>, opts: ElideOptions = {}): T {
  if (payloads.size === 0) return value;
  return mapMediaData(value, [], opts.texts === true, (data, _at, text) => (isRef(data, text) ? (payloads.get(data) ?? data) : data)) as T;
}

/**
 * The references still in `value` (each once); long texts' only with `opts.texts` (a call: a
 * request's text that happens to look like a reference is the server's text, nothing to fetch).
 */
export function mediaRefsIn(value: unknown, opts: ElideOptions = {}): string[] {
  const found = new Set<string>();
  mapMediaData(value, [], opts.texts === true, (data, _at, text) => {
    if (isRef(data, text)) found.add(data);
    return data;
  });
  return [...found];
}

/**
 * The sizes a media reference carries (`chars`: base64 characters, `bytes`: decoded); undefined when
 * `data` is not one. A text reference only with `text` (a call's text views): `chars` of the text,
 * `bytes` its UTF-8 size.
 */
export function parseMediaRef(data: string, text = false): { chars: number; bytes: number } | undefined {
  const prefix = text ? TEXT_PREFIX : PREFIX;
  if (!data.startsWith(prefix)) return undefined;
  const [chars, bytes] = data.slice(prefix.length).split(':', 2).map(Number);
  return Number.isSafeInteger(chars) && Number.isSafeInteger(bytes) ? { chars: chars!, bytes: bytes! } : undefined;
}

/** UTF-8 size of `text` in bytes (a lone surrogate counts 3, as the encoder's replacement). */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * `value` with `swap` applied to the string `data` of every object whose `type` is `image` or
 * `audio`, to the string `blob` of every object with a string `uri`, and with `texts` to the
 * string `text` of every object whose `type` is `text` or that has a string `uri` (`at`: the keys
 * leading to that object; `text`: whether the string is a text field). Copies only the objects and
 * arrays on the way to a changed payload; walks at most {@link MAX_DEPTH} levels.
 */
function mapMediaData(value: unknown, at: Array<string | number>, texts: boolean, swap: (data: string, at: Array<string | number>, text: boolean) => string): unknown {
  if (typeof value !== 'object' || value === null || at.length > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((v, i) => {
      const next = mapMediaData(v, [...at, i], texts, swap);
      if (next !== v) (out ??= value.slice())[i] = next;
    });
    return out ?? value;
  }
  const o = value as Record<string, unknown>;
  const media = (o.type === 'image' || o.type === 'audio') && typeof o.data === 'string';
  const resource = typeof o.uri === 'string';
  const blob = resource && typeof o.blob === 'string';
  const text = texts && (o.type === 'text' || resource) && typeof o.text === 'string';
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(o)) {
    const v = o[key];
    const isText = text && key === 'text';
    const payload = (media && key === 'data') || (blob && key === 'blob') || isText;
    const next = payload ? swap(v as string, at, isText) : mapMediaData(v, [...at, key], texts, swap);
    if (next !== v) (out ??= { ...o })[key] = next;
  }
  return out ?? value;
}
