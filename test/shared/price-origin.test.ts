import { describe, expect, it } from 'vitest';
import { PRICE_SOURCES, priceWithOrigin } from '../../shared/domain/model-prices.js';

describe('priceWithOrigin: the price in force and where it comes from', () => {
  it('yours wins; else the list price with its page and date; 0 on this machine; unknown elsewhere', () => {
    expect(priceWithOrigin('anthropic', 'claude-sonnet-4-5', undefined, { inputPerMTok: 1, outputPerMTok: 2 })).toEqual({
      price: { inputPerMTok: 1, outputPerMTok: 2 },
      origin: { kind: 'custom' },
    });
    expect(priceWithOrigin('anthropic', 'claude-sonnet-4-5', undefined, undefined)).toEqual({
      price: { inputPerMTok: 3, outputPerMTok: 15 },
      origin: { kind: 'list', ...PRICE_SOURCES.anthropic },
    });
    expect(priceWithOrigin('openai-compatible', 'llama3.2', 'http://127.0.0.1:11434/v1', undefined)).toEqual({ price: { inputPerMTok: 0, outputPerMTok: 0 }, origin: { kind: 'local' } });
    expect(priceWithOrigin('openai-compatible', 'x', 'https://openrouter.ai/api/v1', undefined)).toEqual({ origin: { kind: 'unknown' } });
    expect(priceWithOrigin('google', 'not-a-gemini-model', undefined, undefined)).toEqual({ origin: { kind: 'unknown' } });
  });
});
