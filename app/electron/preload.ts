/**
 * The sandboxed preload (built to CommonJS `out/preload/index.cjs`, everything bundled; only
 * `electron` is required at runtime). Exposes `window.api`: the {@link ConsoleApi} built with
 * `createApiClient` over `ipcRenderer.invoke` / `ipcRenderer.on`, so it behaves like the web
 * host's client.
 *
 * Security: the page gets only these functions — never `ipcRenderer` or the IPC event object.
 * Failed requests reject with `Error("[code] message")` (bridge-error.ts), because contextBridge
 * keeps only an Error's message; renderer/api/index.ts turns it back into an `ApiError`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { createApiClient } from '../../shared/contract/api-client.js';
import { API_METHODS, EVENT_CHANNEL, requestChannel, type ApiMethod } from '../../shared/contract/api-methods.js';
import type { ApiReply, ConsoleApi, ConsoleEvent } from '../../shared/contract/api.js';
import { encodeBridgeError } from './bridge-error.js';

const client = createApiClient({
  request: (method: ApiMethod, input: unknown) => ipcRenderer.invoke(requestChannel(method), input) as Promise<ApiReply>,
  subscribe(listener: (event: ConsoleEvent) => void) {
    const handler = (_event: IpcRendererEvent, payload: ConsoleEvent) => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => void ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
});

const exposed: Record<string, unknown> = { onEvent: client.onEvent };
for (const method of API_METHODS) {
  const call = client[method] as (input: unknown) => Promise<unknown>;
  exposed[method] = (input: unknown) =>
    call(input).catch((err: unknown) => {
      throw encodeBridgeError(err);
    });
}

contextBridge.exposeInMainWorld('api', exposed as ConsoleApi);
