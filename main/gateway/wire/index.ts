/**
 * The provider gateway's wire codecs: pure translation between provider APIs (OpenAI Chat
 * Completions, Anthropic Messages) and MCP sampling params/results. See ./types.ts.
 */
import { anthropicCodec } from './anthropic.js';
import { openAiCodec } from './openai.js';
import type { ProviderApi, WireCodec } from './types.js';

export * from './types.js';
export { anthropicCodec } from './anthropic.js';
export { openAiCodec } from './openai.js';
export { IMAGE_URL_REFUSED } from './common.js';

/** The codec of a provider API. */
export function codecFor(api: ProviderApi): WireCodec {
  return api === 'openai' ? openAiCodec : anthropicCodec;
}

/**
 * A fresh response id in the provider's style: `chatcmpl-<32 hex>` (OpenAI) or
 * `msg_<32 hex>` (Anthropic).
 */
export function replyId(api: ProviderApi): string {
  const hex = crypto.randomUUID().replaceAll('-', '');
  return api === 'openai' ? `chatcmpl-${hex}` : `msg_${hex}`;
}
