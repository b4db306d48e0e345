/**
 * A provider failure as the gateway answers it, for each row of the table in
 * docs/providers-failures.md: the provider's own status when it answered one (with its
 * retry-after), 504 for a timeout, the API's overloaded status for overload reported inside a 200
 * stream, 400 for content the console could not send, 502 for everything else.
 */
import { describe, expect, it } from 'vitest';
import type { ProviderFailureData } from '../../shared/contract/providers.js';
import { providerWireError } from '../../main/gateway/provider-failure.js';
import { anthropicCodec, openAiCodec } from '../../main/gateway/wire/index.js';

const data = (provider: ProviderFailureData['provider']): ProviderFailureData => ({ provider });

describe('providerWireError', () => {
  it.each([
    [data({ kind: 'bad-request', status: 400 }), { status: 400, kind: 'invalid_request' }, { status: 400, kind: 'invalid_request' }],
    [data({ kind: 'auth', status: 401 }), { status: 401, kind: 'authentication' }, { status: 401, kind: 'authentication' }],
    [data({ kind: 'rate-limit', status: 429, retryAfterSeconds: 7 }), { status: 429, kind: 'rate_limit', retryAfterSeconds: 7 }, { status: 429, kind: 'rate_limit', retryAfterSeconds: 7 }],
    [data({ kind: 'server', status: 500 }), { status: 500, kind: 'api_error' }, { status: 500, kind: 'api_error' }],
    [data({ kind: 'server', status: 503 }), { status: 503, kind: 'overloaded' }, { status: 503, kind: 'overloaded' }],
    [data({ kind: 'rate-limit', status: 529 }), { status: 529, kind: 'overloaded' }, { status: 529, kind: 'overloaded' }],
    [data({ kind: 'timeout', timeout: { phase: 'idle', ms: 1000 } }), { status: 504, kind: 'timeout' }, { status: 504, kind: 'timeout' }],
    [data({ kind: 'rate-limit' }), { status: 503, kind: 'overloaded' }, { status: 529, kind: 'overloaded' }],
    [data({ kind: 'unsupported' }), { status: 400, kind: 'invalid_request' }, { status: 400, kind: 'invalid_request' }],
    [data({ kind: 'network' }), { status: 502, kind: 'api_error' }, { status: 502, kind: 'api_error' }],
    [data({ kind: 'protocol' }), { status: 502, kind: 'api_error' }, { status: 502, kind: 'api_error' }],
    [data({ kind: 'server' }), { status: 502, kind: 'api_error' }, { status: 502, kind: 'api_error' }],
    [undefined, { status: 502, kind: 'api_error' }, { status: 502, kind: 'api_error' }],
  ])('%j → OpenAI %j, Anthropic %j, with the provider’s words', (failure, openai, anthropic) => {
    expect(providerWireError('The LLM provider failed: x', failure, openAiCodec)).toEqual({ ...openai, message: 'The LLM provider failed: x' });
    expect(providerWireError('The LLM provider failed: x', failure, anthropicCodec)).toEqual({ ...anthropic, message: 'The LLM provider failed: x' });
  });

  it('each API names a timeout its own way', () => {
    const timeout = providerWireError('late', data({ kind: 'timeout' }), openAiCodec);
    expect(openAiCodec.errorBody(timeout)).toEqual({ error: { message: 'late', type: 'api_error', param: null, code: 'timeout' } });
    expect(anthropicCodec.errorBody(timeout)).toEqual({ type: 'error', error: { type: 'timeout_error', message: 'late' } });
  });
});
