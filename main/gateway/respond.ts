/** Writing the gateway's plain (non-streamed) HTTP answers, each with the console's added time (overhead.ts). */
import type { ServerResponse } from 'node:http';
import type { ProviderApi } from '../../shared/contract/gateway.js';
import { OVERHEAD_HEADER, overheadMs } from './overhead.js';
import { codecFor } from './wire/index.js';
import type { WireError } from './wire/types.js';

/**
 * Answers `error` with its HTTP status (and `retry-after` when it has one), in the shape of `api`'s
 * SDKs; `extra` top-level fields are added to the body (e.g. the endpoints served, with a 404).
 */
export function sendError(res: ServerResponse, api: ProviderApi, error: WireError, extra?: Record<string, unknown>): void {
  const headers = error.retryAfterSeconds !== undefined ? { 'retry-after': String(error.retryAfterSeconds) } : undefined;
  const body = codecFor(api).errorBody(error) as Record<string, unknown>;
  send(res, error.status, extra ? { ...body, ...extra } : body, headers);
}

/** Answers 200 with `body` as JSON. */
export function sendJson(res: ServerResponse, body: unknown): void {
  send(res, 200, body);
}

/** Writes the JSON answer with the console's added time (overhead.ts) in its headers. */
function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const text = JSON.stringify(body);
  const overhead = overheadMs(res);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(overhead !== undefined && { [OVERHEAD_HEADER]: String(overhead) }), ...headers });
  res.end(text);
}
