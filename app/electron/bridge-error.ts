/**
 * How the preload reports a failed request across contextBridge, which keeps only an Error's
 * message: `Error("[code] message")`. renderer/api/bridge-errors.ts decodes it back into an
 * `ApiError`; test/hosts/bridge-errors.test.ts checks that the two agree. No `electron` import.
 */
import { ApiError } from '../../shared/api-error.js';

/**
 * Turns a rejection of the preload's API client into an Error that survives contextBridge.
 * @returns `Error("[code] message")` for an {@link ApiError}; other Errors unchanged; other values
 *   as `Error("[internal] value")`.
 */
export function encodeBridgeError(err: unknown): Error {
  if (err instanceof ApiError) return new Error(`[${err.code}] ${err.message}`);
  if (err instanceof Error) return err;
  return new Error(`[internal] ${String(err)}`);
}
