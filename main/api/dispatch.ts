/**
 * The one place host input enters main: look up the method, parse the input with its zod schema
 * from `shared/contract/api.ts`, call the service, and wrap the outcome in an {@link ApiReply}.
 * Both hosts (Electron IPC, web WebSocket) call this, so validation cannot differ between them.
 */
import { API_METHODS, ApiError, apiRequests, type ApiMethod, type ApiReply, type ConsoleService } from '../../shared/contract/api.js';

/** Whether `name` is a known API method. */
export function isApiMethod(name: unknown): name is ApiMethod {
  return typeof name === 'string' && (API_METHODS as readonly string[]).includes(name);
}

/**
 * Dispatches one request. Never throws: every failure becomes `{ok: false, error}` with code
 * `unknown_method`, `invalid_input` (zod message with the field path), or the service's
 * {@link ApiError} code; anything else is `internal` with its message.
 */
export async function dispatch(service: ConsoleService, method: unknown, input: unknown): Promise<ApiReply> {
  if (!isApiMethod(method)) {
    return { ok: false, error: { code: 'unknown_method', message: `unknown method ${JSON.stringify(method)}` } };
  }
  const parsed = apiRequests[method].input.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.length ? `${issue.path.join('.')}: ` : '';
    return { ok: false, error: { code: 'invalid_input', message: `${method}: ${path}${issue.message}` } };
  }
  try {
    const fn = service[method] as (i: unknown) => Promise<unknown>;
    const value = await fn.call(service, parsed.data);
    return { ok: true, value: value ?? null };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: { code: err.code, message: err.message, ...(err.ui && { ui: err.ui }) } };
    return { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
  }
}
