/**
 * Helpers shared by the OpenAI and Anthropic codecs: request-field paths, zod failures as 400
 * answers, data: URLs, the reply's text and tool calls, and SSE framing.
 */
import type { z } from 'zod';
import {
  contentBlocks,
  type CreateMessageResult,
  type SamplingContent,
  type ToolUseContent,
} from '../../../shared/contract/sampling.js';
import type { GatewayErrorKind, WireError } from './types.js';

/** The message zod reports for a required field that is absent (see {@link ZOD_PARSE_OPTIONS}). */
export const MISSING_FIELD = 'Field required';

/** safeParse options: an absent required field is reported as {@link MISSING_FIELD}. */
export const ZOD_PARSE_OPTIONS = {
  error: (issue: { code?: string; input?: unknown }) =>
    issue.code === 'invalid_type' && issue.input === undefined ? MISSING_FIELD : undefined,
};

/** A request field path as providers print it: `['messages', 2, 'content']` → `messages[2].content`. */
export function paramPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** A 400 `invalid_request` error naming `param` when given. */
export function invalidRequest(message: string, param?: string): WireError {
  return param === undefined
    ? { status: 400, kind: 'invalid_request', message }
    : { status: 400, kind: 'invalid_request', message, param };
}

/** How a codec words a failed field: `missing` when the field is absent, else zod's `message`. */
export type FieldMessage = (param: string, message: string, missing: boolean) => string;

/** A zod issue as far as {@link zodFailure} reads it. */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: unknown;
  errors?: Issue[][];
}

/**
 * The most telling issue under a union failure: the branch whose first issue lies deepest (the
 * branch the input was meant for), with its path made absolute. When every branch fails at the
 * union itself, one issue listing what each branch expected.
 */
function deepestIssue(issue: Issue): Issue {
  const branches = (issue.errors ?? []).flatMap((b) => (b[0] ? [b[0]] : []));
  if (issue.code !== 'invalid_union' || branches.length === 0) return issue;
  const deepest = branches.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  if (deepest.path.length === 0 && deepest.code !== 'invalid_union') {
    const expected = branches.flatMap((b) => (typeof b.expected === 'string' ? [b.expected] : []));
    if (expected.length === branches.length) return { ...issue, message: `Invalid input: expected ${expected.join(' or ')}` };
    return issue;
  }
  return deepestIssue({ ...deepest, path: [...issue.path, ...deepest.path] });
}

/** The first zod issue as a 400 answer, worded by `word` and naming the field path as `param`. */
export function zodFailure(error: z.ZodError, word: FieldMessage): WireError {
  const first = error.issues[0] as Issue | undefined;
  if (!first) return invalidRequest('invalid request body');
  const issue = deepestIssue(first);
  const param = paramPath(issue.path);
  if (param === '') return invalidRequest(`request body: ${issue.message}`);
  return invalidRequest(word(param, issue.message, issue.message === MISSING_FIELD), param);
}

/** Whether `v` is a JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The message for an http(s) image URL, which the console does not fetch. */
export const IMAGE_URL_REFUSED =
  "image URLs are not supported by the console's gateway; send the image as a data: URL";

/**
 * Splits a `data:<mime>;base64,<data>` URL into MIME type and base64 data; a refusal (400 naming
 * `param`) for http(s) URLs, other schemes and data: URLs that are not base64.
 */
export function parseDataUrl(url: string, param: string): { mimeType: string; data: string } | WireError {
  const lower = url.slice(0, 8).toLowerCase();
  if (lower.startsWith('http://') || lower.startsWith('https://')) return invalidRequest(IMAGE_URL_REFUSED, param);
  const comma = url.indexOf(',');
  if (!lower.startsWith('data:') || comma < 0) {
    return invalidRequest('expected a data:<mime>;base64,<data> URL', param);
  }
  const header = url.slice(5, comma);
  if (!header.toLowerCase().endsWith(';base64')) {
    return invalidRequest('data: URLs must be base64-encoded (data:<mime>;base64,<data>)', param);
  }
  const mimeType = header.split(';')[0] ?? '';
  if (mimeType === '') return invalidRequest('the data: URL names no MIME type', param);
  return { mimeType, data: url.slice(comma + 1) };
}

/** Whether a value returned by a helper is a {@link WireError} rather than a result. */
export function isWireError(v: unknown): v is WireError {
  return isPlainObject(v) && typeof v.status === 'number' && typeof v.kind === 'string' && typeof v.message === 'string';
}

/**
 * The top-level fields of `body` that are not in `consumed` and not null, in body order: what the
 * console does not carry over.
 */
export function ignoredFields(body: Record<string, unknown>, consumed: readonly string[]): string[] {
  return Object.keys(body).filter((k) => !consumed.includes(k) && body[k] !== null && body[k] !== undefined);
}

/** The blocks of a result's content, always as an array. */
export function replyBlocks(result: CreateMessageResult): SamplingContent[] {
  return contentBlocks(result.content);
}

/** The concatenated text of a result's text blocks (joined with "\n"), '' when there is none. */
export function replyText(result: CreateMessageResult): string {
  return replyBlocks(result)
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n');
}

/** The result's tool_use blocks, in order. */
export function replyToolUses(result: CreateMessageResult): ToolUseContent[] {
  return replyBlocks(result).filter((b): b is ToolUseContent => b.type === 'tool_use');
}

/**
 * What of `text` still has to be streamed after `streamed` was: all of it when nothing was
 * streamed, the rest when `streamed` is its beginning, else '' (sent deltas cannot be taken back).
 */
export function unstreamedText(streamed: string, text: string): string {
  if (streamed === '') return text;
  return text.startsWith(streamed) ? text.slice(streamed.length) : '';
}

/** One SSE event with a JSON `data` line and, when named, an `event` line. */
export function sseEvent(data: unknown, event?: string): string {
  const line = `data: ${JSON.stringify(data)}\n\n`;
  return event === undefined ? line : `event: ${event}\n${line}`;
}

/** Per-provider HTTP status of each error kind. */
export type StatusTable = Record<GatewayErrorKind, number>;

/** The statuses both providers share; the overloaded status differs (503 vs 529). */
export const COMMON_STATUS: Omit<StatusTable, 'overloaded'> = {
  invalid_request: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  too_large: 413,
  rate_limit: 429,
  api_error: 500,
  timeout: 504,
};

/** A WireError of `kind` with the status `table` gives it. */
export function makeError(table: StatusTable, kind: GatewayErrorKind, message: string, param?: string): WireError {
  const error: WireError = { status: table[kind], kind, message };
  if (param !== undefined) error.param = param;
  return error;
}
