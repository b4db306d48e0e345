/**
 * How the preload reports a failed request across contextBridge, which keeps only an Error's
 * message: `Error("[code] message")`, followed by `BRIDGE_UI_MARK` and the message code as JSON
 * when main worded the failure. renderer/api/bridge-errors.ts decodes it back into an
 * `ApiError`; test/hosts/bridge-errors.test.ts checks that the two agree. No `electron` import.
 */
import { ApiError, BRIDGE_UI_MARK } from '../../shared/contract/api-error.js';

/**
 * Turns a rejection of the preload's API client into an Error that survives contextBridge.
 * @returns `Error("[code] message")` for an {@link ApiError}; other Errors unchanged; other values
 *   as `Error("[internal] value")`.
 */
export function encodeBridgeError(err: unknown): Error {
  if (err instanceof ApiError) return new Error(`[${err.code}] ${err.message}${err.ui ? BRIDGE_UI_MARK + JSON.stringify(err.ui) : ''}`);
  if (err instanceof Error) return err;
  return new Error(`[internal] ${String(err)}`);
}
