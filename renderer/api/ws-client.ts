/**
 * The browser side of the web host's API: a {@link ConsoleApi} over one WebSocket, built on
 * `createApiClient` so it behaves exactly like Electron's `window.api`.
 *
 * Wire format (JSON text frames; app/web/ws-protocol.ts is the server side):
 * - request  → `{"id": n, "method": "approveRequest", "input": {...}}` (ids grow from 1)
 * - reply    ← `{"id": n, "reply": ApiReply}`
 * - event    ← `{"event": ConsoleEvent}`
 *
 * Connection loss: every request not yet answered rejects with `ApiError('internal',
 * 'connection lost')`; the client reconnects with exponential backoff (250 ms doubling to 10 s,
 * ±20 % jitter). After a *re*connect it calls `getState` itself and delivers the result to event
 * listeners as a `{type: 'snapshot'}` event, holding back patches that arrive meanwhile and then
 * passing on only those newer than the snapshot — so a mirror that replaces its state on
 * `snapshot` and applies patches otherwise stays correct across reconnects. On the *first*
 * connect no snapshot is synthesised: the renderer subscribes and then calls `getState`.
 *
 * Only shared/ and DOM: this file runs in the renderer.
 */
import { createApiClient } from '../../shared/contract/api-client.js';
import type { ApiMethod } from '../../shared/contract/api-methods.js';
import { ApiError, type ApiReply, type ConsoleApi, type ConsoleEvent } from '../../shared/contract/api.js';

/** The part of the WebSocket interface the client uses (DOM `WebSocket` and `ws` both fit). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error' | 'message', listener: (ev: SocketEvent) => void): void;
}

/** What the client reads from socket events. */
export interface SocketEvent {
  type: string;
  data?: unknown;
}

/** Where the connection stands. `closed` only after {@link WsClient.close}. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** Options of {@link createWsClient}. */
export interface WsClientOptions {
  /** `ws://127.0.0.1:PORT/api?token=…`. */
  url: string;
  /** Opens a socket; default `new WebSocket(url)` (the browser sends the page's Origin). */
  createSocket?: (url: string) => SocketLike;
  /** First reconnect delay in ms (default 250). */
  minBackoffMs?: number;
  /** Largest reconnect delay in ms (default 10 000). */
  maxBackoffMs?: number;
}

/** A connected API plus its connection controls. */
export interface WsClient {
  api: ConsoleApi;
  /** The current connection status. */
  status(): ConnectionStatus;
  /** Subscribes to status changes; returns the unsubscribe function. */
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  /** Closes for good: no more reconnects, pending requests reject with `connection lost`. */
  close(): void;
}

const OPEN = 1;

/** The message of the `internal` ApiError a request rejects with when the socket closes (renderer/api/error-text.ts words it for the person). */
export const CONNECTION_LOST = 'connection lost';

/**
 * Creates the client and starts connecting at once. Requests made before the socket opens are
 * queued and sent on open.
 * @throws nothing; request promises reject with {@link ApiError} (host errors keep their code;
 *   transport loss is `internal` / `connection lost`).
 */
export function createWsClient(opts: WsClientOptions): WsClient {
  const createSocket = opts.createSocket ?? ((url: string): SocketLike => new WebSocket(url));
  const minBackoff = opts.minBackoffMs ?? 250;
  const maxBackoff = opts.maxBackoffMs ?? 10_000;

  let socket: SocketLike | null = null;
  let status: ConnectionStatus = 'connecting';
  let closed = false;
  let connectedOnce = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve: (reply: ApiReply) => void; reject: (err: Error) => void }>();
  const queue: string[] = [];
  const listeners = new Set<(event: ConsoleEvent) => void>();
  const statusListeners = new Set<(s: ConnectionStatus) => void>();
  /** Events held back while a post-reconnect snapshot is being fetched; null when not resyncing. */
  let held: ConsoleEvent[] | null = null;

  const setStatus = (next: ConnectionStatus): void => {
    if (status === next) return;
    status = next;
    for (const l of [...statusListeners]) l(next);
  };

  const deliver = (event: ConsoleEvent): void => {
    for (const l of [...listeners]) {
      try {
        l(event);
      } catch (err) {
        console.error('console event listener failed', err);
      }
    }
  };

  const failAll = (): void => {
    queue.length = 0;
    const entries = [...pending.values()];
    pending.clear();
    for (const p of entries) p.reject(new ApiError('internal', CONNECTION_LOST));
  };

  const request = (method: ApiMethod, input: unknown): Promise<ApiReply> =>
    new Promise<ApiReply>((resolve, reject) => {
      if (closed) return reject(new ApiError('internal', CONNECTION_LOST));
      const id = nextId++;
      pending.set(id, { resolve, reject });
      const text = JSON.stringify({ id, method, input });
      if (socket && socket.readyState === OPEN && status === 'open') socket.send(text);
      else queue.push(text);
    });

  const resync = (): void => {
    held = [];
    request('getState', {}).then(
      (reply) => {
        const buffered = held ?? [];
        held = null;
        if (!reply.ok) return buffered.forEach(deliver);
        const state = reply.value as Extract<ConsoleEvent, { type: 'snapshot' }>['state'];
        deliver({ type: 'snapshot', state });
        for (const e of buffered) if (e.type !== 'patch' || e.patch.version > state.version) deliver(e);
      },
      () => {
        const buffered = held ?? [];
        held = null;
        buffered.forEach(deliver);
      },
    );
  };

  const onMessage = (data: unknown): void => {
    if (typeof data !== 'string') return;
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof frame !== 'object' || frame === null) return;
    const f = frame as { id?: unknown; reply?: unknown; event?: unknown };
    if (typeof f.id === 'number' && isReply(f.reply)) {
      const p = pending.get(f.id);
      if (!p) return;
      pending.delete(f.id);
      p.resolve(f.reply);
    } else if (isEvent(f.event)) {
      if (held) held.push(f.event);
      else deliver(f.event);
    }
  };

  const connect = (): void => {
    timer = null;
    if (closed) return;
    setStatus(connectedOnce ? 'reconnecting' : 'connecting');
    let s: SocketLike;
    try {
      s = createSocket(opts.url);
    } catch {
      return scheduleReconnect();
    }
    socket = s;
    s.addEventListener('open', () => {
      if (socket !== s) return;
      attempt = 0;
      setStatus('open');
      for (const text of queue.splice(0)) s.send(text);
      if (connectedOnce) resync();
      connectedOnce = true;
    });
    s.addEventListener('message', (ev) => {
      if (socket === s) onMessage(ev.data);
    });
    // A failed connect fires `error` then `close`; the close handler does the work.
    s.addEventListener('error', () => {});
    s.addEventListener('close', () => {
      if (socket !== s) return;
      socket = null;
      held = null;
      failAll();
      if (closed) return;
      setStatus('reconnecting');
      scheduleReconnect();
    });
  };

  const scheduleReconnect = (): void => {
    if (closed || timer) return;
    const base = Math.min(maxBackoff, minBackoff * 2 ** attempt);
    attempt++;
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    timer = setTimeout(connect, delay);
  };

  connect();

  return {
    api: createApiClient({
      request,
      subscribe(listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    }),
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => void statusListeners.delete(listener);
    },
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const s = socket;
      socket = null;
      failAll();
      setStatus('closed');
      try {
        s?.close(1000, 'client closed');
      } catch {
        // already closing
      }
    },
  };
}

function isReply(value: unknown): value is ApiReply {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as { ok?: unknown; error?: unknown };
  if (r.ok === true) return true;
  if (r.ok !== false || typeof r.error !== 'object' || r.error === null) return false;
  const e = r.error as { code?: unknown; message?: unknown };
  return typeof e.code === 'string' && typeof e.message === 'string';
}

function isEvent(value: unknown): value is ConsoleEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as { type?: unknown; state?: unknown; patch?: unknown };
  return (e.type === 'snapshot' && typeof e.state === 'object') || (e.type === 'patch' && typeof e.patch === 'object');
}
