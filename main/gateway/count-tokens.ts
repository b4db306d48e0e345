/**
 * `POST /anthropic/v1/messages/count_tokens`: the input tokens of a Messages request, estimated —
 * no provider is asked (the request would leave the console unreviewed, and most providers have no
 * counting endpoint). The estimate is the one budgets use (shared/domain/model-prices.ts
 * `estimateInputTokens`): one token per 4 characters of text (system prompt, messages, tool calls
 * and results, tool definitions) plus a size-based count per image and audio clip.
 */
import { estimateInputTokens } from '../../shared/domain/model-prices.js';
import { parseAnthropicRequest } from './wire/anthropic-parse.js';
import { isPlainObject } from './wire/common.js';
import type { WireError } from './wire/types.js';

/**
 * The answer to a count_tokens body (a Messages request without `max_tokens`).
 * @returns `{input_tokens}`, or the 400 of a request the Messages endpoint would refuse
 */
export function countTokens(body: unknown): { ok: true; body: { input_tokens: number } } | { ok: false; error: WireError } {
  const parsed = parseAnthropicRequest(isPlainObject(body) ? { max_tokens: 1, ...body } : body);
  if (!parsed.ok) return parsed;
  return { ok: true, body: { input_tokens: estimateInputTokens(parsed.call.params) } };
}
