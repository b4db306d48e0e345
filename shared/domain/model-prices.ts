/**
 * Model prices in USD and cost estimates (the rule condition "estimated cost ≤ $X" and
 * the per-server "spend per day" limit).
 *
 * - {@link defaultModelPrice}: built-in list prices (USD per million input / output tokens) of the
 *   known Anthropic, OpenAI and Gemini models; 0 for the person's own machine (an OpenAI-compatible
 *   endpoint on a loopback address, e.g. Ollama or LM Studio) and for the manual provider; unknown
 *   (undefined) for any other OpenAI-compatible endpoint until the person sets a price. A price set
 *   in a model's facts (`price` in providers.json `modelFacts`) wins.
 * - {@link estimateInputTokens} / {@link estimateCostUsd}: what a request may cost before it is
 *   sent — input estimated from its size, output taken as `maxTokens` (the most it may cost).
 * - {@link costOfUsage}: what a generation did cost, from the token usage the provider reported.
 *
 * Pure: imports zod and the sampling contract only (no runtime import of providers.ts, which
 * imports this file).
 */
import { z } from 'zod';
import { contentBlocks, type CreateMessageParams, type SamplingContent } from '../contract/sampling.js';
import type { ProviderKind, TokenUsage } from '../contract/primitives.js';
import { globMatches } from './user-pattern.js';
import { base64DecodedBytes } from './base64.js';

/** A model's price: USD per million input tokens and per million output tokens. */
export const ModelPriceSchema = z
  .object({
    inputPerMTok: z.number().min(0).max(100_000),
    outputPerMTok: z.number().min(0).max(100_000),
  })
  .strict();
/** See {@link ModelPriceSchema}. */
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

const p = (inputPerMTok: number, outputPerMTok: number): ModelPrice => ({ inputPerMTok, outputPerMTok });

/**
 * Built-in list prices (USD per million tokens, standard tier, no caching or batch discounts) by
 * provider kind. The first row whose pattern the model id contains (case-insensitive, `*` = any run
 * of characters) decides, so specific rows come first. Prices change: set `price` in a model's facts
 * to override one.
 */
export const DEFAULT_MODEL_PRICES: Readonly<Record<'anthropic' | 'openai' | 'google', ReadonlyArray<{ pattern: string; price: ModelPrice }>>> = {
  anthropic: [
    { pattern: 'opus-4-5', price: p(5, 25) },
    { pattern: 'opus', price: p(15, 75) },
    { pattern: 'sonnet', price: p(3, 15) },
    { pattern: 'haiku-4', price: p(1, 5) },
    { pattern: '3-5-haiku', price: p(0.8, 4) },
    { pattern: 'haiku', price: p(0.25, 1.25) },
  ],
  openai: [
    { pattern: 'gpt-5*nano', price: p(0.05, 0.4) },
    { pattern: 'gpt-5*mini', price: p(0.25, 2) },
    { pattern: 'gpt-5', price: p(1.25, 10) },
    { pattern: 'gpt-4.1-nano', price: p(0.1, 0.4) },
    { pattern: 'gpt-4.1-mini', price: p(0.4, 1.6) },
    { pattern: 'gpt-4.1', price: p(2, 8) },
    { pattern: 'gpt-4o-mini', price: p(0.15, 0.6) },
    { pattern: 'gpt-4o', price: p(2.5, 10) },
    { pattern: 'gpt-4-turbo', price: p(10, 30) },
    { pattern: 'gpt-3.5-turbo', price: p(0.5, 1.5) },
    { pattern: 'o4-mini', price: p(1.1, 4.4) },
    { pattern: 'o3-mini', price: p(1.1, 4.4) },
    { pattern: 'o3-pro', price: p(20, 80) },
    { pattern: 'o3', price: p(2, 8) },
    { pattern: 'o1-mini', price: p(1.1, 4.4) },
    { pattern: 'o1', price: p(15, 60) },
  ],
  google: [
    { pattern: 'gemini-2.5-pro', price: p(1.25, 10) },
    { pattern: 'gemini-2.5-flash-lite', price: p(0.1, 0.4) },
    { pattern: 'gemini-2.5-flash', price: p(0.3, 2.5) },
    { pattern: 'gemini-2.0-flash-lite', price: p(0.075, 0.3) },
    { pattern: 'gemini-2.0-flash', price: p(0.1, 0.4) },
    { pattern: 'gemini-1.5-pro', price: p(1.25, 5) },
    { pattern: 'gemini-1.5-flash', price: p(0.075, 0.3) },
  ],
};

/** Whether a URL points at this machine (localhost, 127.0.0.0/8, ::1). False for anything unparsable. */
export function isLoopbackURL(url: string | undefined): boolean {
  if (!url) return false;
  // scheme://[userinfo@]host[:port]/… — shared/ has no URL global (no DOM, no Node types).
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(url.trim());
  if (!m) return false;
  const host = m[1]!.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/**
 * The built-in price of a model: the {@link DEFAULT_MODEL_PRICES} row for hosted kinds, 0 for the
 * manual provider and for an OpenAI-compatible endpoint on a loopback address; undefined (unknown)
 * for a hosted model not in the table and for a remote OpenAI-compatible endpoint.
 * @param baseURL the provider's API root (only OpenAI-compatible providers need it)
 */
export function defaultModelPrice(kind: ProviderKind, modelId: string, baseURL?: string): ModelPrice | undefined {
  if (kind === 'manual') return p(0, 0);
  if (kind === 'openai-compatible') return isLoopbackURL(baseURL) ? p(0, 0) : undefined;
  return DEFAULT_MODEL_PRICES[kind].find((row) => globMatches(row.pattern, modelId, { ignoreCase: true }))?.price;
}

/**
 * Where the built-in list prices come from (each provider's public pricing page, standard tier)
 * and when the table was written from them. Prices change: shown next to every price so a person
 * can tell a list price from their own and check it.
 */
export const PRICE_SOURCES: Readonly<Record<keyof typeof DEFAULT_MODEL_PRICES, { page: string; asOf: string }>> = {
  anthropic: { page: 'https://www.anthropic.com/pricing', asOf: '2026-11-22' },
  openai: { page: 'https://openai.com/api/pricing', asOf: '2026-11-22' },
  google: { page: 'https://ai.google.dev/gemini-api/docs/pricing', asOf: '2026-11-22' },
};

/** Where a model's price comes from: set by the person, a built-in list price, free (local), or unknown. */
export type PriceOrigin = { kind: 'custom' } | { kind: 'list'; page: string; asOf: string } | { kind: 'local' } | { kind: 'unknown' };

/** The price in force for a model (the person's, else the built-in one) and where it comes from. */
export function priceWithOrigin(kind: ProviderKind, modelId: string, baseURL: string | undefined, custom: ModelPrice | undefined): { price?: ModelPrice; origin: PriceOrigin } {
  if (custom) return { price: custom, origin: { kind: 'custom' } };
  const price = defaultModelPrice(kind, modelId, baseURL);
  if (!price) return { origin: { kind: 'unknown' } };
  if (kind === 'manual' || kind === 'openai-compatible') return { price, origin: { kind: 'local' } };
  return { price, origin: { kind: 'list', ...PRICE_SOURCES[kind] } };
}

/** Tokens assumed per image: about 85 plus one per 250 decoded bytes, at most 1,600 (providers downscale large images to about that). */
export const imageTokens = (bytes: number): number => Math.min(1600, 85 + Math.ceil(bytes / 250));
/** Tokens assumed per audio clip: one per 500 decoded bytes (≈ 32 tokens per second of 16 kB/s audio). */
export const audioTokens = (bytes: number): number => Math.ceil(bytes / 500);

function blockTokens(b: SamplingContent | { type: string; data?: unknown }): { chars: number; tokens: number } {
  if ((b.type === 'image' || b.type === 'audio') && typeof (b as { data?: unknown }).data === 'string') {
    const bytes = base64DecodedBytes((b as { data: string }).data);
    return { chars: 0, tokens: b.type === 'image' ? imageTokens(bytes) : audioTokens(bytes) };
  }
  if (b.type === 'text') return { chars: (b as { text: string }).text.length, tokens: 0 };
  if (b.type === 'tool_result') {
    let chars = 0;
    let tokens = 0;
    for (const inner of (b as { content: Array<{ type: string }> }).content) {
      const t = blockTokens(inner as never);
      chars += t.chars;
      tokens += t.tokens;
    }
    return { chars: chars + 40, tokens };
  }
  return { chars: JSON.stringify(b).length, tokens: 0 };
}

/**
 * Estimated input tokens of a request: one token per 4 characters of text (system prompt, text
 * blocks, tool calls and results as JSON, tool definitions) plus {@link imageTokens} per image and
 * {@link audioTokens} per audio clip (from their decoded size). An estimate, not a tokenizer.
 */
export function estimateInputTokens(params: CreateMessageParams): number {
  let chars = (params.systemPrompt ?? '').length;
  let tokens = 0;
  for (const m of params.messages) {
    for (const b of contentBlocks(m.content)) {
      const t = blockTokens(b);
      chars += t.chars;
      tokens += t.tokens;
    }
  }
  for (const tool of params.tools ?? []) chars += JSON.stringify(tool).length;
  return Math.ceil(chars / 4) + tokens;
}

/**
 * The most a request may cost in USD at `price`: {@link estimateInputTokens} input tokens plus
 * `maxTokens` output tokens.
 */
export function estimateCostUsd(params: CreateMessageParams, price: ModelPrice): number {
  return (estimateInputTokens(params) * price.inputPerMTok + params.maxTokens * price.outputPerMTok) / 1_000_000;
}

/** What a generation cost in USD at `price`, from the token usage the provider reported (missing counts as 0). */
export function costOfUsage(usage: TokenUsage | undefined, price: ModelPrice): number {
  return ((usage?.inputTokens ?? 0) * price.inputPerMTok + (usage?.outputTokens ?? 0) * price.outputPerMTok) / 1_000_000;
}
