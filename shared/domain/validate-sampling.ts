/**
 * Pure intake validation of `sampling/createMessage` params (the MCP sampling spec).
 *
 * Every failure names the rule it enforces and carries the JSON-RPC code the spec prescribes
 * (-32602 for every malformed request), with a message a person can act on, e.g.
 * "message 3 holds tool_result and text; a tool_result message must hold only tool_result blocks".
 * Message numbers in messages are 1-based, as a person counts them.
 *
 * No Node, DOM or Electron imports: used by main (intake) and renderer (re-checking edits).
 */
import { base64DecodedBytes, isBase64 } from './base64.js';
import { jsonLength } from './json-length.js';
import { english, ui, type UiText } from '../contract/ui-text.js';
import {
  CreateMessageParamsSchema,
  ErrorCodes,
  SAMPLING_CONTENT_TYPES,
  type CreateMessageParams,
  type SamplingContent,
} from '../contract/sampling.js';

export { base64DecodedBytes, isBase64 } from './base64.js';

/** Ids of the rules this validator enforces; SPEC ids where the spec names one. */
export type SamplingRuleId =
  | 'S-MSG-1' // roles user|assistant, known block types, message shape
  | 'S-MAX-1' // maxTokens required, positive integer
  | 'S-TR-1' // a tool_result message holds only tool_result blocks
  | 'S-TR-2' // every tool_use answered by matching tool_result before the next message
  | 'S-CAP-2' // tools/toolChoice only when sampling.tools was declared
  | 'S-ASSOC-1' // only while a client request of ours is in flight to that server
  | 'S-PREF-1' // modelPreferences priorities within 0..1
  | 'S-B64-1' // image/audio data is valid base64
  | 'S-SIZE-1' // request and media size caps (console limits)
  | 'S-LOOP-1' // the console's cap on tool-loop rounds
  | 'S-PARAMS'; // any other structural problem in params

/**
 * A refusal: JSON-RPC `code` (-32602, or -32050 for S-LOOP-1), `message` in English (what the
 * server is told), the rule, and `ui` the same message as a code for the person's language.
 */
export interface SamplingValidationError {
  code: number;
  message: string;
  rule: SamplingRuleId;
  ui: UiText;
}

/** Result of {@link validateSamplingRequest}. */
export type SamplingValidationResult =
  | { ok: true; params: CreateMessageParams }
  | { ok: false; error: SamplingValidationError };

/** What the validator needs to know about the connection and the console's limits. */
export interface SamplingValidationContext {
  /** Whether the console declared `capabilities.sampling.tools` to this server (S-CAP-2). */
  toolsDeclared: boolean;
  /**
   * Number of client requests (tools/call, prompts/get, resources/read) in flight to this server
   * when the request arrived; `undefined` skips S-ASSOC-1 (e.g. when re-checking an edit).
   */
  inFlightClientRequests?: number;
  /** Cap on the whole params object, as UTF-16 code units of its JSON (≈ bytes). Default 25 MB. */
  maxRequestBytes?: number;
  /** Cap on one image or audio block, in decoded bytes. Default 10 MB. */
  maxMediaBytes?: number;
  /**
   * JSON characters of the request that `raw` stands in for but does not hold (media payloads
   * replaced by short stand-ins when re-checking an edit), added to its size for S-SIZE-1. Default 0.
   */
  uncountedBytes?: number;
}

/** Default request cap: 25 MB of JSON. */
export const DEFAULT_MAX_REQUEST_BYTES = 25 * 1024 * 1024;
/** Default media cap: 10 MB decoded per image/audio block. */
export const DEFAULT_MAX_MEDIA_BYTES = 10 * 1024 * 1024;

const fail = (rule: SamplingRuleId, text: UiText): SamplingValidationResult => ({
  ok: false,
  error: { code: ErrorCodes.INVALID_PARAMS, message: english(text), rule, ui: text },
});

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const blocksOf = (content: unknown): unknown[] => (Array.isArray(content) ? content : [content]);

/** Shape checks done by hand first so that the common mistakes get a precise message. */
function precheck(raw: unknown): SamplingValidationResult | undefined {
  if (!isRecord(raw)) return fail('S-PARAMS', ui('validate.paramsObject'));
  if (!Array.isArray(raw.messages)) return fail('S-MSG-1', ui('validate.messagesArray'));
  if (raw.maxTokens === undefined) return fail('S-MAX-1', ui('validate.maxTokensRequired'));
  if (typeof raw.maxTokens !== 'number' || !Number.isInteger(raw.maxTokens) || raw.maxTokens <= 0) {
    return fail('S-MAX-1', ui('validate.maxTokensPositive', { got: JSON.stringify(raw.maxTokens) ?? 'undefined' }));
  }
  for (const [i, m] of raw.messages.entries()) {
    const n = i + 1;
    if (!isRecord(m)) return fail('S-MSG-1', ui('validate.messageObject', { n }));
    if (m.role !== 'user' && m.role !== 'assistant') {
      return fail('S-MSG-1', ui('validate.messageRole', { n, role: JSON.stringify(m.role) ?? 'undefined' }));
    }
    if (m.content === undefined) return fail('S-MSG-1', ui('validate.messageContent', { n }));
    for (const [j, b] of blocksOf(m.content).entries()) {
      const type = isRecord(b) ? b.type : undefined;
      if (!SAMPLING_CONTENT_TYPES.includes(type as never)) {
        return fail('S-MSG-1', ui('validate.blockType', { n, block: j + 1, type: JSON.stringify(type) ?? 'undefined', expected: SAMPLING_CONTENT_TYPES.join(', ') }));
      }
    }
  }
  const prefs = raw.modelPreferences;
  if (prefs !== undefined) {
    if (!isRecord(prefs)) return fail('S-PREF-1', ui('validate.prefsObject'));
    for (const key of ['costPriority', 'speedPriority', 'intelligencePriority'] as const) {
      const v = prefs[key];
      if (v !== undefined && (typeof v !== 'number' || !(v >= 0 && v <= 1))) {
        return fail('S-PREF-1', ui('validate.priority', { key, got: JSON.stringify(v) }));
      }
    }
  }
  return undefined;
}

function checkMedia(params: CreateMessageParams, maxMediaBytes: number): SamplingValidationResult | undefined {
  for (const [i, m] of params.messages.entries()) {
    for (const [j, b] of blocksOf(m.content).entries()) {
      const block = b as SamplingContent;
      const media: Array<{ data: string; mimeType: string; type: string }> = [];
      if (block.type === 'image' || block.type === 'audio') media.push(block);
      if (block.type === 'tool_result') {
        for (const inner of block.content) {
          if ((inner.type === 'image' || inner.type === 'audio') && typeof inner.data === 'string') {
            media.push(inner as { data: string; mimeType: string; type: string });
          }
        }
      }
      for (const item of media) {
        const where = { n: i + 1, block: j + 1, type: item.type };
        const bytes = base64DecodedBytes(item.data);
        if (bytes > maxMediaBytes) {
          return fail('S-SIZE-1', ui('validate.mediaSize', { ...where, size: formatBytes(bytes), limit: formatBytes(maxMediaBytes) }));
        }
        if (!isBase64(item.data)) return fail('S-B64-1', ui('validate.base64', where));
      }
    }
  }
  return undefined;
}

function checkToolBalance(params: CreateMessageParams): SamplingValidationResult | undefined {
  const msgs = params.messages;
  for (const [i, m] of msgs.entries()) {
    const n = i + 1;
    const blocks = blocksOf(m.content) as SamplingContent[];
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (results.length > 0) {
      const others = [...new Set(blocks.filter((b) => b.type !== 'tool_result').map((b) => b.type))];
      if (others.length > 0) {
        return fail('S-TR-1', ui('validate.toolResultMixed', { n, others: others.join(', ') }));
      }
      if (m.role !== 'user') return fail('S-TR-1', ui('validate.toolResultRole', { n, role: m.role }));
      const prev = i > 0 ? (blocksOf(msgs[i - 1]!.content) as SamplingContent[]) : [];
      const prevIds = new Set(prev.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
      for (const r of results) {
        if (r.type === 'tool_result' && !prevIds.has(r.toolUseId)) {
          return fail('S-TR-2', ui('validate.toolResultUnasked', { n, id: r.toolUseId, prev: i }));
        }
      }
    }
    const uses = blocks.filter((b) => b.type === 'tool_use');
    if (uses.length > 0) {
      if (m.role !== 'assistant') return fail('S-TR-2', ui('validate.toolUseRole', { n, role: m.role }));
      const next = msgs[i + 1];
      if (!next) {
        return fail('S-TR-2', ui('validate.toolResultMissingLast', { n }));
      }
      const nextBlocks = blocksOf(next.content) as SamplingContent[];
      const answered = new Set(nextBlocks.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])));
      const missing = uses.flatMap((u) => (u.type === 'tool_use' && !answered.has(u.id) ? [u.id] : []));
      if (missing.length > 0) {
        return fail('S-TR-2', ui('validate.toolResultMissing', { next: n + 1, ids: missing.map((id) => `"${id}"`).join(', '), n }));
      }
    }
  }
  return undefined;
}

/**
 * Validates raw `sampling/createMessage` params against the MCP sampling spec.
 *
 * @param raw the params as received (untrusted)
 * @param ctx what the connection declared and the console's size limits
 * @returns `{ok: true, params}` with the parsed params, or `{ok: false, error}` where
 *   `error.code` is -32602 (INVALID_PARAMS) and `error.rule` names the rule (S-MSG-1, S-MAX-1,
 *   S-TR-1, S-TR-2, S-CAP-2, S-ASSOC-1, S-PREF-1, S-B64-1, S-SIZE-1, S-PARAMS).
 *   Never throws.
 */
export function validateSamplingRequest(raw: unknown, ctx: SamplingValidationContext): SamplingValidationResult {
  const maxRequestBytes = ctx.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  if (ctx.inFlightClientRequests !== undefined && ctx.inFlightClientRequests === 0) {
    return fail('S-ASSOC-1', ui('validate.noCallInFlight'));
  }
  const pre = precheck(raw);
  if (pre) return pre;
  let size: number;
  try {
    size = jsonLength(raw) + (ctx.uncountedBytes ?? 0); // JSON.stringify(raw).length, without making a 25 MB string
  } catch {
    return fail('S-PARAMS', ui('validate.notJson'));
  }
  if (size > maxRequestBytes) {
    return fail('S-SIZE-1', ui('validate.requestSize', { size: formatBytes(size), limit: formatBytes(maxRequestBytes) }));
  }
  const parsed = CreateMessageParamsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length ? issue.path.join('.') : 'params';
    return fail('S-PARAMS', ui('validate.schema', { path, detail: issue.message }));
  }
  const params = parsed.data;
  if (!ctx.toolsDeclared && (params.tools !== undefined || params.toolChoice !== undefined)) {
    return fail('S-CAP-2', ui('validate.toolsUndeclared'));
  }
  return checkMedia(params, ctx.maxMediaBytes ?? DEFAULT_MAX_MEDIA_BYTES) ?? checkToolBalance(params) ?? { ok: true, params };
}

/** "1.5 MB", "820 B": bytes for people (1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
