/**
 * How a failed `ConsoleApi` request is reported, in a file of its own (no zod) so the sandboxed
 * Electron preload can bundle it without the schema table. Re-exported by `shared/api.ts`.
 */

/** Error codes a request can fail with. */
export type ApiErrorCode =
  | 'invalid_input' // the input failed its zod schema
  | 'unknown_method'
  | 'not_found' // no such item / server / call
  | 'invalid_state' // e.g. approving an item that is no longer awaiting review
  | 'internal';

/** A failed request, as every host reports it. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The envelope a host sends back for one request (IPC return value, WebSocket reply). */
export type ApiReply = { ok: true; value: unknown } | { ok: false; error: { code: ApiErrorCode; message: string } };
