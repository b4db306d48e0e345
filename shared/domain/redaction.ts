/**
 * Redaction: the sensitive data found in a sampling request (./sensitive-data.ts) replaced with
 * typed placeholders such as `[REDACTED:email]` — in one text, in a whole request (system prompt,
 * message text, text inside tool results), or anywhere in a JSON value (history scrubbing). Clients
 * may offer to redact (the MCP sampling spec, "Security considerations" 5).
 *
 * Pure: no Node, no DOM. Offsets are UTF-16 code-unit indices into the scanned string.
 */
import { contentBlocks, type CreateMessageParams, type SamplingContent, type SamplingMessage } from '../contract/sampling.js';
import { detectSensitive, type DetectOptions, type Finding } from './sensitive-data.js';

/** The typed placeholder a finding is replaced with: `[REDACTED:email]`, `[REDACTED:employee-id]`. */
export function placeholderFor(f: Pick<Finding, 'kind' | 'detector'>): string {
  return `[REDACTED:${f.kind === 'custom' ? f.detector : f.kind}]`;
}

/** Replaces the given findings of `text` (non-overlapping, as {@link detectSensitive} returns them) with placeholders. */
export function redactText(text: string, findings: readonly Finding[]): string {
  let out = '';
  let at = 0;
  for (const f of [...findings].sort((a, b) => a.start - b.start)) {
    if (f.start < at || text.slice(f.start, f.end) !== f.value) continue; // stale finding: the text changed
    out += text.slice(at, f.start) + placeholderFor(f);
    at = f.end;
  }
  return out + text.slice(at);
}

/** Where in a request a finding is: the system prompt, or text block `block` of message `message` (a tool result's inner text has `inner`). */
export type FindingPlace = { where: 'system' } | { where: 'message'; message: number; block: number; inner?: number };

/** A finding with its place in the request. */
export interface PlacedFinding extends Finding {
  place: FindingPlace;
}

/** Stable key of a place, e.g. `system`, `m0:1`, `m2:0:1`. */
export function placeKey(place: FindingPlace): string {
  if (place.where === 'system') return 'system';
  return `m${place.message}:${place.block}${place.inner !== undefined ? `:${place.inner}` : ''}`;
}

/** Every text a person can read in a request, with its place: system prompt, text blocks, and text inside tool results. */
export function requestTexts(params: CreateMessageParams): Array<{ place: FindingPlace; text: string }> {
  const out: Array<{ place: FindingPlace; text: string }> = [];
  if (params.systemPrompt) out.push({ place: { where: 'system' }, text: params.systemPrompt });
  params.messages.forEach((m, message) => {
    contentBlocks(m.content).forEach((b, block) => {
      if (b.type === 'text') out.push({ place: { where: 'message', message, block }, text: b.text });
      if (b.type === 'tool_result') {
        b.content.forEach((inner, i) => {
          if (inner.type === 'text' && typeof inner.text === 'string') out.push({ place: { where: 'message', message, block, inner: i }, text: inner.text });
        });
      }
    });
  });
  return out;
}

/** Finds sensitive data everywhere in a request (system prompt, message text, tool-result text). */
export function detectInRequest(params: CreateMessageParams, options: DetectOptions = {}): PlacedFinding[] {
  return requestTexts(params).flatMap(({ place, text }) => detectSensitive(text, options).map((f) => ({ ...f, place })));
}

function redactBlock(block: SamplingContent, placed: Map<string, Finding[]>, message: number, index: number): SamplingContent {
  if (block.type === 'text') {
    const found = placed.get(placeKey({ where: 'message', message, block: index }));
    return found ? { ...block, text: redactText(block.text, found) } : block;
  }
  if (block.type === 'tool_result') {
    let changed = false;
    const content = block.content.map((inner, i) => {
      const found = placed.get(placeKey({ where: 'message', message, block: index, inner: i }));
      if (!found || inner.type !== 'text' || typeof inner.text !== 'string') return inner;
      changed = true;
      return { ...inner, text: redactText(inner.text, found) };
    });
    return changed ? { ...block, content } : block;
  }
  return block;
}

/**
 * A copy of `params` with the given findings replaced by placeholders (all of them when
 * `findings` is omitted). Everything else is kept exactly.
 */
export function redactRequest(params: CreateMessageParams, findings: readonly PlacedFinding[] = detectInRequest(params)): CreateMessageParams {
  if (findings.length === 0) return params;
  const placed = new Map<string, Finding[]>();
  for (const f of findings) placed.set(placeKey(f.place), [...(placed.get(placeKey(f.place)) ?? []), f]);
  const messages: SamplingMessage[] = params.messages.map((m, i) => {
    const before = contentBlocks(m.content);
    const blocks = before.map((b, j) => redactBlock(b, placed, i, j));
    if (blocks.every((b, j) => b === before[j])) return m;
    return { ...m, content: Array.isArray(m.content) ? blocks : blocks[0]! };
  });
  const next: CreateMessageParams = { ...params, messages };
  const sys = placed.get('system');
  if (sys && params.systemPrompt !== undefined) next.systemPrompt = redactText(params.systemPrompt, sys);
  return next;
}

/**
 * Replaces, in every string of a JSON value, the sensitive data for which `drop(finding)` is true
 * (used to keep unredacted originals out of history). Returns the same value when nothing changed.
 */
export function scrubJson(value: unknown, drop: (f: Finding) => boolean, options: DetectOptions = {}): unknown {
  if (typeof value === 'string') {
    const found = detectSensitive(value, options).filter(drop);
    return found.length ? redactText(value, found) : value;
  }
  if (Array.isArray(value)) {
    const next = value.map((v) => scrubJson(v, drop, options));
    return next.some((v, i) => v !== value[i]) ? next : value;
  }
  if (value && typeof value === 'object') {
    let changed = false;
    const next: Record<string, unknown> = {};
    // Image/audio payloads are base64 of binary data: never text to scan (and scanning a 16 MB
    // string with the detectors blocked the event loop for minutes).
    const media = (value as { type?: unknown }).type === 'image' || (value as { type?: unknown }).type === 'audio';
    for (const [k, v] of Object.entries(value)) {
      if (media && k === 'data') {
        next[k] = v;
        continue;
      }
      next[k] = scrubJson(v, drop, options);
      if (next[k] !== v) changed = true;
    }
    return changed ? next : value;
  }
  return value;
}
