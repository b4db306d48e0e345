/**
 * Checking an edited request quickly enough to do it on every keystroke (renderer
 * scale). Pure: shared/ only, unit-tested on Node.
 */
import { contentBlocks, type CreateMessageParams, type SamplingContent } from '../../../shared/contract/sampling.js';
import { parseMediaRef } from '../../../shared/domain/media-refs.js';
import { validateSamplingRequest } from '../../../shared/domain/validate-sampling.js';

/**
 * The shared validator's verdict on `params` (built from `base`, the params the review started
 * from), as "message (rule)", or null when valid. Media `base` already held are not rescanned
 * (see {@link withoutReceivedMedia}); the size cap still counts them.
 */
export function checkDraftParams(params: CreateMessageParams, base: CreateMessageParams): string | null {
  const light = withoutReceivedMedia(params, base);
  const check = validateSamplingRequest(light.params, { toolsDeclared: true, uncountedBytes: light.stripped + blobsOnTheirWay(params) });
  return check.ok ? null : `${check.error.message} (${check.error.rule})`;
}

/** Stand-in for media data the request arrived with: valid base64 of 3 bytes. */
const MEDIA_STAND_IN = 'AAAA';

/** Whether `b` is an image/audio block whose data a review may leave out of the check. */
const isMedia = (b: { type: string; data?: unknown }): b is { type: 'image' | 'audio'; data: string } =>
  (b.type === 'image' || b.type === 'audio') && typeof b.data === 'string';

/**
 * `params` with every image/audio payload that is the very string the request arrived with (main
 * validated it at intake: base64, size caps), or a reference to such a payload still on its way
 * (shared/contract/media-refs.ts), replaced by a 4-character stand-in, and how many characters
 * that removed from the JSON (base64 needs no escaping; a reference counts as its payload). Media
 * nested in a `tool_result`'s content (a screenshot tool's result fed back) are stood in for too:
 * the validator checks them as well (S-B64-1), and a reference there is not base64. The review
 * re-validates on every keystroke; scanning a multi-megabyte image each time cost ~45 ms per
 * keystroke (`npm run bench`, renderer scenario). The person can only remove media, never change it.
 */
export function withoutReceivedMedia(params: CreateMessageParams, base: CreateMessageParams): { params: CreateMessageParams; stripped: number } {
  const received = new Set<string>();
  const note = (b: { type: string; data?: unknown }): void => {
    if (isMedia(b) && b.data.length > MEDIA_STAND_IN.length) received.add(b.data);
  };
  for (const m of base.messages) {
    for (const b of contentBlocks(m.content)) {
      note(b);
      if (b.type === 'tool_result') b.content.forEach(note);
    }
  }
  if (received.size === 0) return { params, stripped: 0 };
  let stripped = 0;
  const stand = <B extends { type: string; data?: unknown }>(b: B): B => {
    if (!isMedia(b) || !received.has(b.data)) return b;
    stripped += (parseMediaRef(b.data)?.chars ?? b.data.length) - MEDIA_STAND_IN.length;
    return { ...b, data: MEDIA_STAND_IN };
  };
  const light = (b: SamplingContent): SamplingContent => {
    if (b.type !== 'tool_result') return stand(b);
    const content = b.content.map(stand);
    return content.some((c, i) => c !== b.content[i]) ? { ...b, content } : b;
  };
  const messages = params.messages.map((m) => ({ ...m, content: Array.isArray(m.content) ? m.content.map(light) : light(m.content) }));
  return { params: { ...params, messages }, stripped };
}

/**
 * Characters the JSON of `params` lacks for resource blobs still on their way (a tool_result's
 * embedded resource held by reference): each counts as its payload in the size cap (S-SIZE-1).
 */
function blobsOnTheirWay(params: CreateMessageParams): number {
  let missing = 0;
  for (const m of params.messages) {
    for (const b of contentBlocks(m.content)) {
      if (b.type !== 'tool_result') continue;
      for (const c of b.content) {
        const blob = (c as { resource?: { blob?: unknown } }).resource?.blob;
        const ref = typeof blob === 'string' ? parseMediaRef(blob) : undefined;
        if (ref) missing += ref.chars - (blob as string).length;
      }
    }
  }
  return missing;
}

/**
 * Deep equality of JSON values, `a === b` first at every level: a draft shares every unedited
 * part with the params it started from, so this is quick where comparing serialisations of a
 * request with megabytes of media was not (~20 ms per keystroke).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
