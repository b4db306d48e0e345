/**
 * How a failed `ConsoleApi` request is reported, in a file of its own (no zod) so the sandboxed
 * Electron preload can bundle it without the schema table. Re-exported by `shared/contract/api.ts`.
 */
import { english, type UiText } from './ui-text.js';

/** Error codes a request can fail with. */
export type ApiErrorCode =
  | 'invalid_input' // the input failed its zod schema
  | 'unknown_method'
  | 'not_found' // no such item / server / call
  | 'invalid_state' // e.g. approving an item that is no longer awaiting review
  | 'forbidden' // a team server's signed-in person may not call this (role, assigned servers, claim)
  | 'internal';

/**
 * A failed request, as every host reports it. `message` is English (logs); when main words the
 * failure itself it passes a message code, kept as `ui` for the renderer to translate. A plain
 * string is somebody else's words (a file parser's, the OS's) or a test's.
 */
export class ApiError extends Error {
  readonly ui?: UiText;
  constructor(
    readonly code: ApiErrorCode,
    message: string | UiText,
  ) {
    super(typeof message === 'string' ? message : english(message));
    this.name = 'ApiError';
    if (typeof message !== 'string') this.ui = message;
  }
}

/** Separates an encoded bridge error's English from its message code (JSON): U+241E, never in a message. */
export const BRIDGE_UI_MARK = '\u241e';

/** The envelope a host sends back for one request (IPC return value, WebSocket reply). */
export type ApiReply = { ok: true; value: unknown } | { ok: false; error: { code: ApiErrorCode; message: string; ui?: UiText } };
