/**
 * The renderer's one way to reach main: {@link getApi} returns the {@link ConsoleApi}, chosen once
 * per page — Electron's `window.api` (exposed by the preload) when present, else a WebSocket client
 * to the web host this page was served from.
 *
 * Usage: `const api = getApi(); api.onEvent(...); await api.getState({})` — subscribe first, then
 * fetch the state (renderer/mirror.ts `startMirror`). Over WebSocket, after a reconnect the client
 * itself delivers a fresh `{type: 'snapshot'}` event (see ws-client.ts); in Electron the IPC
 * channel does not drop.
 *
 * Only shared/ and DOM: this file runs in the renderer.
 */
import { createApiClient } from '../../shared/contract/api-client.js';
import type { ConsoleApi } from '../../shared/contract/api.js';
import { decodeBridgeError } from './bridge-errors.js';
import { takeToken } from './token.js';
import { createWsClient, type ConnectionStatus } from './ws-client.js';

export { type ConnectionStatus } from './ws-client.js';

declare global {
  interface Window {
    /** The API the Electron preload exposes through contextBridge; absent in a browser. */
    api?: ConsoleApi;
  }
}

/** Connection status and changes, the same shape in both hosts (Electron is always `open`). */
export interface Connection {
  status(): ConnectionStatus;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
}

let chosen: { api: ConsoleApi; connection: Connection } | null = null;

/**
 * The API for this page (created on first call, then the same object).
 * Errors: every request rejects with `ApiError` carrying the host's code, in both hosts.
 */
export function getApi(): ConsoleApi {
  return choose().api;
}

/** The connection behind {@link getApi}, for a "reconnecting…" indicator. */
export function getConnection(): Connection {
  return choose().connection;
}

function choose(): { api: ConsoleApi; connection: Connection } {
  if (chosen) return chosen;
  if (window.api) {
    chosen = { api: fromElectronBridge(window.api), connection: { status: () => 'open', onStatus: () => () => {} } };
    return chosen;
  }
  const token = takeToken(window) ?? '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const client = createWsClient({ url: `${scheme}//${location.host}/api?token=${encodeURIComponent(token)}` });
  chosen = { api: client.api, connection: { status: client.status, onStatus: client.onStatus } };
  return chosen;
}

/**
 * Wraps the preload's `window.api` so that rejections are {@link ApiError}s with their code again
 * (contextBridge keeps only an Error's message; see bridge-errors.ts).
 */
export function fromElectronBridge(bridge: ConsoleApi): ConsoleApi {
  return createApiClient({
    async request(method, input) {
      const call = bridge[method] as (i: unknown) => Promise<unknown>;
      try {
        return { ok: true, value: await call(input) };
      } catch (err) {
        const e = decodeBridgeError(err);
        return { ok: false, error: { code: e.code, message: e.message, ...(e.ui && { ui: e.ui }) } };
      }
    },
    subscribe: (listener) => bridge.onEvent(listener),
  });
}
