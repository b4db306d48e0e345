/** Which failed 2025-11-25 connects make `auto` go on to 2026-07-28, and which are shown as they are. */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { refusesLegacy } from '../../main/mcp/legacy-refusal.js';

const httpError = (status: number, text: string) => new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status, statusText: 'x', text });

describe('refusesLegacy', () => {
  it('a JSON-RPC refusal of initialize: -32022 unsupported version, -32601, -32600, -32602', () => {
    for (const code of [-32022, -32601, -32600, -32602]) expect(refusesLegacy(new ProtocolError(code, 'no'))).toBe(true);
    expect(refusesLegacy(new ProtocolError(-32603, 'internal error'))).toBe(false);
  });

  it('over HTTP: a 400 holding a refusal code, or a bare 400; not 404, 500 or a 400 holding another code', () => {
    expect(refusesLegacy(httpError(400, '{"jsonrpc":"2.0","error":{"code":-32022,"message":"Unsupported protocol version: 2025-11-25"},"id":0}'))).toBe(true);
    expect(refusesLegacy(httpError(400, 'Bad Request'))).toBe(true);
    expect(refusesLegacy(httpError(400, '{"jsonrpc":"2.0","error":{"code":-32603,"message":"boom"},"id":0}'))).toBe(false);
    expect(refusesLegacy(httpError(404, 'Not Found'))).toBe(false);
    expect(refusesLegacy(httpError(500, 'oops'))).toBe(false);
  });

  it('an initialize answered with a 2026-07-28 version; not an older unknown one', () => {
    expect(refusesLegacy(new Error("Server's protocol version is not supported: 2026-07-28"))).toBe(true);
    expect(refusesLegacy(new Error("Server's protocol version is not supported: 2024-01-01"))).toBe(false);
  });

  it('failures that say nothing about the era: closed, timed out, unauthorized, spawn errors', () => {
    expect(refusesLegacy(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'))).toBe(false);
    expect(refusesLegacy(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'))).toBe(false);
    expect(refusesLegacy(new UnauthorizedError('sign in'))).toBe(false);
    expect(refusesLegacy(Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT' }))).toBe(false);
  });
});
