/**
 * Builds a {@link ConsoleApi} from a transport's two primitives: send one request and get its
 * {@link ApiReply}, and subscribe to events. Used by the Electron preload (ipcRenderer) and the
 * renderer's WebSocket client, so both behave identically. No zod here: input is validated by the
 * host on the other side.
 */
import { API_METHODS, type ApiMethod } from './api-methods.js';
import { ApiError, type ApiReply } from './api-error.js';
import type { ConsoleApi, ConsoleEvent } from './api.js';

/** The two things a transport must provide. */
export interface ApiTransport {
  /** Sends `input` for `method`; resolves with the host's reply envelope. */
  request(method: ApiMethod, input: unknown): Promise<ApiReply>;
  /** Subscribes to the event stream; returns the unsubscribe function. */
  subscribe(listener: (event: ConsoleEvent) => void): () => void;
}

/**
 * Creates the renderer-side API.
 * @throws nothing itself; each request rejects with {@link ApiError} when the host reports one.
 */
export function createApiClient(transport: ApiTransport): ConsoleApi {
  const api: Record<string, unknown> = {
    onEvent: (listener: (event: ConsoleEvent) => void) => transport.subscribe(listener),
  };
  for (const method of API_METHODS) {
    api[method] = async (input: unknown) => {
      const reply = await transport.request(method, input ?? {});
      if (!reply.ok) throw new ApiError(reply.error.code, reply.error.ui ?? reply.error.message);
      return reply.value;
    };
  }
  return api as ConsoleApi;
}
