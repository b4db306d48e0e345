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
  const st = initialState(opts);
  connect(st);
  return {
    api: createApiClient({
      request: (method, input) => request(st, method, input),
      subscribe(listener) {
        st.listeners.add(listener);
        return () => void st.listeners.delete(listener);
      },
    }),
    status: () => st.status,
    onStatus(listener) {
      st.statusListeners.add(listener);
      return () => void st.statusListeners.delete(listener);
    },
    close: () => closeClient(st),
  };
}

/** A request sent (or queued) and not yet answered. */
interface Pending {
  resolve: (reply: ApiReply) => void;
  reject: (err: Error) => void;
}

/** Everything one client keeps between calls; the steps below read and change it. */
interface ClientState {
  readonly url: string;
  readonly createSocket: (url: string) => SocketLike;
  /** First reconnect delay in ms. */
  readonly minBackoff: number;
  /** Largest reconnect delay in ms. */
  readonly maxBackoff: number;
  /** The socket in use; null between a close and the next connect. */
  socket: SocketLike | null;
  status: ConnectionStatus;
  /** Set by {@link WsClient.close}; never cleared. */
  closed: boolean;
  /** Whether a socket has opened before (the next open is a reconnect). */
  connectedOnce: boolean;
  /** Reconnect attempts since the last open (the backoff exponent). */
  attempt: number;
  /** The pending reconnect, if any. */
  timer: ReturnType<typeof setTimeout> | null;
  nextId: number;
  /** Requests awaiting their reply, by id. */
  readonly pending: Map<number, Pending>;
  /** Request frames made while the socket was not open, sent in order on open. */
  readonly queue: string[];
  readonly listeners: Set<(event: ConsoleEvent) => void>;
  readonly statusListeners: Set<(s: ConnectionStatus) => void>;
  /** Events held back while a post-reconnect snapshot is being fetched; null when not resyncing. */
  held: ConsoleEvent[] | null;
}

function initialState(opts: WsClientOptions): ClientState {
  return {
    url: opts.url,
    createSocket: opts.createSocket ?? ((url: string): SocketLike => new WebSocket(url)),
    minBackoff: opts.minBackoffMs ?? 250,
    maxBackoff: opts.maxBackoffMs ?? 10_000,
    socket: null,
    status: 'connecting',
    closed: false,
    connectedOnce: false,
    attempt: 0,
    timer: null,
    nextId: 1,
    pending: new Map(),
    queue: [],
    listeners: new Set(),
    statusListeners: new Set(),
    held: null,
  };
}

function setStatus(st: ClientState, next: ConnectionStatus): void {
  if (st.status === next) return;
  st.status = next;
  for (const l of [...st.statusListeners]) l(next);
}

/** Passes an event to every listener; a listener that throws is logged and the rest still run. */
function deliver(st: ClientState, event: ConsoleEvent): void {
  for (const l of [...st.listeners]) {
    try {
      l(event);
    } catch (err) {
      console.error('console event listener failed', err);
    }
  }
}

/** Drops the queued frames and rejects every pending request with `internal` / `connection lost`. */
function failAll(st: ClientState): void {
  st.queue.length = 0;
  const entries = [...st.pending.values()];
  st.pending.clear();
  for (const p of entries) p.reject(new ApiError('internal', CONNECTION_LOST));
}

/** Sends a request now if the socket is open, else queues it; resolves with the host's reply. */
function request(st: ClientState, method: ApiMethod, input: unknown): Promise<ApiReply> {
  return new Promise<ApiReply>((resolve, reject) => {
    if (st.closed) return reject(new ApiError('internal', CONNECTION_LOST));
    const id = st.nextId++;
    st.pending.set(id, { resolve, reject });
    const text = JSON.stringify({ id, method, input });
    if (st.socket && st.socket.readyState === OPEN && st.status === 'open') st.socket.send(text);
    else st.queue.push(text);
  });
}

/** Returns the held-back events and stops holding. */
function takeHeld(st: ClientState): ConsoleEvent[] {
  const buffered = st.held ?? [];
  st.held = null;
  return buffered;
}

/**
 * After a reconnect: fetches `getState`, delivers it as a `snapshot` event, then the events held
 * meanwhile (patches only when newer than the snapshot). If `getState` fails, the held events are
 * delivered as they are.
 */
function resync(st: ClientState): void {
  st.held = [];
  request(st, 'getState', {}).then(
    (reply) => {
      const buffered = takeHeld(st);
      if (!reply.ok) return buffered.forEach((e) => deliver(st, e));
      const state = reply.value as Extract<ConsoleEvent, { type: 'snapshot' }>['state'];
      deliver(st, { type: 'snapshot', state });
      for (const e of buffered) if (e.type !== 'patch' || e.patch.version > state.version) deliver(st, e);
    },
    () => takeHeld(st).forEach((e) => deliver(st, e)),
  );
}

/** Handles one incoming frame: a reply settles its request, an event is delivered (or held); anything else is ignored. */
function onMessage(st: ClientState, data: unknown): void {
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
    const p = st.pending.get(f.id);
    if (!p) return;
    st.pending.delete(f.id);
    p.resolve(f.reply);
  } else if (isEvent(f.event)) {
    if (st.held) st.held.push(f.event);
    else deliver(st, f.event);
  }
}

/** Opens a new socket (unless closed) and wires its events; a socket that cannot be created schedules a reconnect. */
function connect(st: ClientState): void {
  st.timer = null;
  if (st.closed) return;
  setStatus(st, st.connectedOnce ? 'reconnecting' : 'connecting');
  let s: SocketLike;
  try {
    s = st.createSocket(st.url);
  } catch {
    return scheduleReconnect(st);
  }
  st.socket = s;
  s.addEventListener('open', () => {
    if (st.socket === s) onOpen(st, s);
  });
  s.addEventListener('message', (ev) => {
    if (st.socket === s) onMessage(st, ev.data);
  });
  // A failed connect fires `error` then `close`; the close handler does the work.
  s.addEventListener('error', () => {});
  s.addEventListener('close', () => {
    if (st.socket === s) onClose(st);
  });
}

/** The current socket opened: reset the backoff, send the queue, resync if this is a reconnect. */
function onOpen(st: ClientState, s: SocketLike): void {
  st.attempt = 0;
  setStatus(st, 'open');
  for (const text of st.queue.splice(0)) s.send(text);
  if (st.connectedOnce) resync(st);
  st.connectedOnce = true;
}

/** The current socket closed: fail what is pending and, unless closed for good, reconnect. */
function onClose(st: ClientState): void {
  st.socket = null;
  st.held = null;
  failAll(st);
  if (st.closed) return;
  setStatus(st, 'reconnecting');
  scheduleReconnect(st);
}

/** Schedules the next connect after the backoff delay (minBackoff · 2^attempt ms, capped at maxBackoff, ±20 % jitter). */
function scheduleReconnect(st: ClientState): void {
  if (st.closed || st.timer) return;
  const base = Math.min(st.maxBackoff, st.minBackoff * 2 ** st.attempt);
  st.attempt++;
  const delay = Math.round(base * (0.8 + Math.random() * 0.4));
  st.timer = setTimeout(() => connect(st), delay);
}

/** {@link WsClient.close}: stops reconnecting, fails pending requests, sets `closed`, closes the socket. */
function closeClient(st: ClientState): void {
  if (st.closed) return;
  st.closed = true;
  if (st.timer) clearTimeout(st.timer);
  st.timer = null;
  const s = st.socket;
  st.socket = null;
  failAll(st);
  setStatus(st, 'closed');
  try {
    s?.close(1000, 'client closed');
  } catch {
    // already closing
  }
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
