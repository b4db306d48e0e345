/**
 * The provider gateway's wire codecs: pure translation between provider APIs (OpenAI Chat
 * Completions and Responses, Anthropic Messages) and MCP sampling params/results. See ./types.ts.
 */
import { anthropicCodec } from './anthropic.js';
import { openAiCodec } from './openai.js';
import type { ProviderApi, WireCodec } from './types.js';

export * from './types.js';
export { anthropicCodec } from './anthropic.js';
export { openAiCodec } from './openai.js';
export { responsesCodec } from './responses.js';
export { IMAGE_URL_REFUSED } from './common.js';
export { replyIdFor, readResponsesId } from './ids.js';

/** The codec of a provider API's chat endpoint (Chat Completions, Messages); its error shape is the API's. */
export function codecFor(api: ProviderApi): WireCodec {
  return api === 'openai' ? openAiCodec : anthropicCodec;
}
