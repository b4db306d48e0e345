/**
 * Electron's contextBridge copies only the message of an Error that crosses from the preload to
 * the page, so `ApiError.code` would be lost. The preload (app/electron/bridge-error.ts) therefore
 * rejects with `Error("[code] message")`; this module turns that back into an {@link ApiError}.
 * The two formats are checked against each other in test/hosts/bridge-errors.test.ts.
 */
import { ApiError, BRIDGE_UI_MARK, type ApiErrorCode } from '../../shared/contract/api.js';
import { isUiText } from '../../shared/contract/ui-text.js';

/** `[code] message`, found anywhere in the message (a bridge may prefix it). */
const PATTERN = /\[(invalid_input|unknown_method|not_found|invalid_state|internal)\] ([\s\S]*)$/;

/**
 * Rebuilds an {@link ApiError} from whatever a `window.api` call rejected with.
 * @returns the same error if it already is an ApiError; `[code] message` with a known code → that
 *   code; any other Error or value → `internal` with its message.
 */
export function decodeBridgeError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const m = PATTERN.exec(message);
  if (m) {
    const [english, uiJson] = m[2]!.split(BRIDGE_UI_MARK);
    return new ApiError(m[1] as ApiErrorCode, (uiJson !== undefined && parseUi(uiJson)) || english!);
  }
  return new ApiError('internal', message);
}

/** The message code after the mark, or undefined when it does not parse as one. */
function parseUi(json: string) {
  try {
    const v: unknown = JSON.parse(json);
    return isUiText(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
