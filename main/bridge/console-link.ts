/**
 * The bridge's end of the channel to the running console (shared/contract/bridge-protocol.ts): connects
 * to the socket of the user-data folder with the token from its owner-only file, says hello, and
 * forwards the server requests the bridge intercepts. Connects lazily and again after the console
 * went away; when nobody listens it asks `launch` to start the console (at most once per
 * {@link RELAUNCH_AFTER_MS}). Every failure reaches the caller as a JSON-RPC error:
 * {@link CONSOLE_UNAVAILABLE_CODE} "MCP Approval Console is not running: …" when it cannot be
 * reached, the same code "… stopped while the request was under review" when it goes away with a
 * request open — nothing waits forever.
 *
 * With `remote` the link goes to a team server instead (`bridge --console <url>`): a WebSocket to
 * `<url>/bridge` with the token as `Authorization: Bearer` (main/bridge/remote-channel.ts), the
 * same messages one per frame. It never launches anything; when the connection drops (the
 * instance died, the load balancer moved it) it connects again with backoff — the load balancer
 * picks a live instance — and a request asked meanwhile waits for that up to
 * {@link REMOTE_CONNECT_WAIT_MS}. Requests in flight at an instance that went away end with a
 * clear {@link CONSOLE_UNAVAILABLE_CODE} error; the next ones go to the new connection.
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import {
  BRIDGE_MAX_LINE_BYTES,
  BRIDGE_PROTOCOL_VERSION,
  ConsoleToBridgeSchema,
  parseChannelLine,
  type BridgeCall,
  type BridgeActivity,
  type BridgeToConsole,
  type BridgeVia,
  type ConsoleToBridge,
} from '../../shared/contract/bridge-protocol.js';
import type { ProtocolEra } from '../../shared/contract/primitives.js';
import { protocolError } from '../mcp/protocol.js';
import { abortCauseOf, RequestAbort, type McpRequestKind } from '../requests/incoming.js';
import { createLineSplitter } from './lines.js';
import { bridgeSocketPath, bridgeTokenPath } from './paths.js';
import { connectRemoteChannel, RemoteRefusal, type Channel, type RemoteConsole } from './remote-channel.js';

export type { RemoteConsole } from './remote-channel.js';

/** JSON-RPC code of a request the console could not be reached for, or that it dropped. */
export const CONSOLE_UNAVAILABLE_CODE = -32603;
/** Prefix of the error message when the console cannot be reached. */
export const NOT_RUNNING_MESSAGE = 'MCP Approval Console is not running';
/** How long connecting and the hello may take, in ms. */
export const CONNECT_TIMEOUT_MS = 5000;
/** After a launch attempt, how long until another may be made, in ms. */
export const RELAUNCH_AFTER_MS = 30_000;
/** How long a request waits for a team server that cannot be reached before it fails, in ms. */
export const REMOTE_CONNECT_WAIT_MS = 20_000;
/** First wait before connecting to a team server again, in ms (doubling, with jitter). */
export const REMOTE_RETRY_MIN_MS = 250;
/** Longest wait between two attempts to connect to a team server, in ms. */
export const REMOTE_RETRY_MAX_MS = 5_000;

/** What the link needs. */
export interface ConsoleLinkOptions {
  /** The console's user-data folder (socket and token). */
  dir: string;
  /** The bridged server's id in the console. */
  serverId: string;
  /** Ids earlier versions derived for the same server (said in the hello: their rules and limits apply). */
  formerly?: string[];
  /** The host, once its `initialize` passed (said in the hello, so a console reached later knows it too). */
  via?(): BridgeVia | undefined;
  platform?: NodeJS.Platform;
  /** Starts the console headless; resolves once it listens, rejects with why it could not start. */
  launch?(): Promise<void>;
  now?(): number;
  /** The console's roots for this server changed (a `roots_changed` message). */
  onRootsChanged?(): void;
  /** The person signed out of this server in the console (a `signed_out` message). */
  onSignedOut?(): void;
  /**
   * A team server to reach instead of the local console (`bridge --console <url> --token …`):
   * its address (http(s)), the token (a named gateway token made there), and extra CA
   * certificates to trust (PEM; Node's own and NODE_EXTRA_CA_CERTS are trusted anyway).
   */
  remote?: RemoteConsole;
  /** Overrides of {@link REMOTE_CONNECT_WAIT_MS} and the retry waits, in ms (tests). */
  remoteTimings?: { waitMs?: number; retryMinMs?: number; retryMaxMs?: number };
}

/** One request's options. */
export interface LinkRequestOptions {
  era: ProtocolEra;
  via?: BridgeVia;
  /** The host's client requests in flight (`exact`: the one it belongs to). */
  calls?: BridgeCall[];
  exact?: boolean;
  /** Aborts when the server stops waiting; its reason (a RequestAbort) is sent as the cancel cause. */
  signal?: AbortSignal;
  /** Interim notes from the console (present only when the server gave a progressToken). */
  onProgress?(message: string): void;
}

/** The link to the console. */
export interface ConsoleLink {
  /**
   * Asks the console to answer one server request.
   * @returns the JSON-RPC result for the server
   * @throws ProtocolError with the console's code (-1 rejected by the person, -32602 invalid …),
   *   or {@link CONSOLE_UNAVAILABLE_CODE} when the console cannot be reached or went away;
   *   the signal's reason when the server stopped waiting
   */
  request(kind: McpRequestKind, params: unknown, opts: LinkRequestOptions): Promise<Record<string, unknown>>;
  /** Connects now (launching the console if needed) without sending anything; never throws. */
  warmUp(): Promise<void>;
  /** Tells the console the server completed a URL elicitation it showed (dropped when not connected). */
  elicitationComplete(elicitationId: string): void;
  /** Sends an activity report (dropped when not connected: a report never starts the console). */
  report(report: BridgeActivity): void;
  /**
   * The console's OAuth access token for the server at `url` (refreshed first with `refresh`).
   * @returns undefined when nobody signed in yet
   * @throws Error saying why (the console is not running, the sign-in expired: sign in again)
   */
  auth(url: string, refresh?: { wwwAuthenticate?: string }): Promise<string | undefined>;
  close(): void;
}


/**
 * What one link keeps: the channel (connecting or connected; undefined when there is none), when a
 * launch was last tried and why it failed, the next message id, and whether the link is closing.
 */
interface LinkState {
  readonly opts: ConsoleLinkOptions;
  readonly now: () => number;
  channel: Promise<Channel> | undefined;
  lastLaunch: number;
  nextId: number;
  closed: boolean;
  launchFailure: string | undefined;
  /** Forgets the channel (a channel calls it once it closed), made once. */
  readonly forget: () => void;
  /** The next reconnect to a team server, when one is scheduled. */
  reconnect?: ReturnType<typeof setTimeout>;
}

/** Creates the link (nothing is connected until {@link ConsoleLink.warmUp} or a request). */
export function createConsoleLink(opts: ConsoleLinkOptions): ConsoleLink {
  const st: LinkState = {
    opts,
    now: opts.now ?? Date.now,
    channel: undefined,
    lastLaunch: -Infinity,
    nextId: 1,
    closed: false,
    launchFailure: undefined,
    forget: () => {
      st.channel = undefined;
      keepConnected(st, remoteTimings(opts).retryMinMs); // a team server's bridge shows on its Servers screen again as soon as it can
    },
  };
  return {
    request: (kind, params, ro) => request(st, kind, params, ro),
    warmUp: () => ensure(st).then(() => undefined, () => keepConnected(st, remoteTimings(opts).retryMaxMs)),
    auth: (url, refresh) => auth(st, url, refresh),
    report(report) {
      void st.channel?.then((ch) => ch.send(report), () => undefined);
    },
    elicitationComplete(elicitationId) {
      void st.channel?.then((ch) => ch.send({ type: 'elicitation_complete', elicitationId }), () => undefined);
    },
    close() {
      st.closed = true;
      clearTimeout(st.reconnect);
      void st.channel?.then((ch) => ch.end(), () => undefined);
    },
  };
}

/** The remote timings in effect. */
function remoteTimings(opts: ConsoleLinkOptions): { waitMs: number; retryMinMs: number; retryMaxMs: number } {
  return { waitMs: opts.remoteTimings?.waitMs ?? REMOTE_CONNECT_WAIT_MS, retryMinMs: opts.remoteTimings?.retryMinMs ?? REMOTE_RETRY_MIN_MS, retryMaxMs: opts.remoteTimings?.retryMaxMs ?? REMOTE_RETRY_MAX_MS };
}

/** A team server's bridge connects again after `delayMs` (and keeps trying, with backoff, while the link is open); nothing for a local one. */
function keepConnected(st: LinkState, delayMs: number): void {
  if (!st.opts.remote || st.closed || st.reconnect) return;
  st.reconnect = setTimeout(() => {
    st.reconnect = undefined;
    if (st.closed || st.channel) return;
    ensure(st).catch(() => keepConnected(st, remoteTimings(st.opts).retryMaxMs));
  }, delayMs);
  st.reconnect.unref?.();
}

/**
 * Connects to the team server, trying again with backoff (doubling from the minimum wait, with
 * jitter) until the wait runs out; a refusal (its token, its version) is final at once.
 * @throws Error why it could not be reached or refused the bridge
 */
async function openRemote(st: LinkState, remote: RemoteConsole): Promise<Channel> {
  const { waitMs, retryMinMs, retryMaxMs } = remoteTimings(st.opts);
  const until = st.now() + waitMs;
  for (let delay = retryMinMs; ; delay = Math.min(delay * 2, retryMaxMs)) {
    try {
      return await connectRemoteChannel(remote, hello(st.opts, remote.token), { onMessage: (ch, message) => onConsoleMessage(st.opts, ch, message), onGone: st.forget }, CONNECT_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof RemoteRefusal || st.closed) throw err;
      const wait = delay * (0.8 + Math.random() * 0.4);
      if (st.now() + wait > until) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The hello the link says with `token`. */
function hello(opts: ConsoleLinkOptions, token: string): BridgeToConsole {
  const via = opts.via?.();
  return { type: 'hello', protocol: BRIDGE_PROTOCOL_VERSION, token, serverId: opts.serverId, ...(opts.formerly?.length && { formerly: opts.formerly }), ...(via && { via }), pid: process.pid };
}

/** A message from the console after the welcome: roots changed, signed out, or an answer to a request. */
function onConsoleMessage(opts: ConsoleLinkOptions, ch: Channel, message: ConsoleToBridge): void {
  if (message.type === 'roots_changed') return opts.onRootsChanged?.();
  if (message.type === 'signed_out') return opts.onSignedOut?.();
  deliver(ch, message);
}

/**
 * Connects; when nobody listens and `launch` is given, launches the console (at most once per
 * {@link RELAUNCH_AFTER_MS}) and connects again.
 * @throws Error why the console cannot be reached (with why the last launch failed, within
 *   {@link RELAUNCH_AFTER_MS} of it), or why the launch failed
 */
async function open(st: LinkState): Promise<Channel> {
  const { opts, now } = st;
  if (opts.remote) return openRemote(st, opts.remote);
  try {
    return await connectChannel(opts, st.forget);
  } catch (first) {
    if (!opts.launch) throw first;
    if (now() - st.lastLaunch < RELAUNCH_AFTER_MS) throw st.launchFailure ? new Error(`${(first as Error).message}; ${st.launchFailure}`) : first;
    st.lastLaunch = now();
    try {
      await opts.launch();
      st.launchFailure = undefined;
    } catch (err) {
      st.launchFailure = err instanceof Error ? err.message : String(err);
      throw err;
    }
    return connectChannel(opts, st.forget);
  }
}

/** The channel, opened when there is none; a failed open is forgotten. @throws (rejects) what {@link open} throws; Error when the link is closing */
function ensure(st: LinkState): Promise<Channel> {
  if (st.closed) return Promise.reject(new Error('the bridge is closing'));
  st.channel ??= open(st).catch((err: unknown) => {
    st.channel = undefined;
    throw err;
  });
  return st.channel;
}

/** {@link ConsoleLink.request}: a console that cannot be reached becomes {@link CONSOLE_UNAVAILABLE_CODE} "MCP Approval Console is not running: …". */
async function request(st: LinkState, kind: McpRequestKind, params: unknown, ro: LinkRequestOptions): Promise<Record<string, unknown>> {
  let ch: Channel;
  try {
    ch = await ensure(st);
    // A connection closing under it (the instance just went away) has not said so yet: nothing was sent, so a new one may take it.
    if (!ch.open()) {
      if (st.channel) st.channel = undefined;
      ch = await ensure(st);
    }
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw protocolError(CONSOLE_UNAVAILABLE_CODE, st.opts.remote ? `The team console at ${st.opts.remote.url} cannot be reached: ${why}` : `${NOT_RUNNING_MESSAGE}: ${why}`);
  }
  return sendRequest(ch, st.nextId++, { kind, params, ...ro });
}

/** {@link ConsoleLink.auth}: asks the console for the server's access token and waits for the answer. */
async function auth(st: LinkState, url: string, refresh?: { wwwAuthenticate?: string }): Promise<string | undefined> {
  const ch = await ensure(st);
  const id = st.nextId++;
  const answer = new Promise<Record<string, unknown>>((resolve, reject) => ch.pending.set(id, { resolve, reject }));
  ch.send({ type: 'auth', id, url, ...(refresh && { refresh }) });
  const { accessToken } = await answer;
  return typeof accessToken === 'string' ? accessToken : undefined;
}

/** Sends one request on `ch` and settles with the console's answer, or on abort or a lost channel. */
function sendRequest(ch: Channel, id: number, r: { kind: McpRequestKind; params: unknown } & LinkRequestOptions): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const signal = r.signal;
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      ch.pending.delete(id);
      const reason = signal!.reason;
      const serverReason = reason instanceof RequestAbort ? reason.serverReason : undefined;
      ch.send({ type: 'cancel', id, cause: abortCauseOf(reason), ...(serverReason && { reason: serverReason.slice(0, 2000) }) });
      reject(reason instanceof Error ? reason : new RequestAbort('server_cancelled'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    ch.pending.set(id, {
      resolve: (result) => (done(), resolve(result)),
      reject: (err) => (done(), reject(err)),
      ...(r.onProgress && { onProgress: r.onProgress }),
    });
    ch.send({ type: 'request', id, kind: r.kind, era: r.era, params: r.params, ...(r.via && { via: r.via }), ...(r.calls && { calls: r.calls }), ...(r.exact && { exact: true }), ...(r.onProgress && { progress: true }) });
  });
}

/** Writes one message line. */
function write(socket: net.Socket, message: BridgeToConsole): void {
  if (socket.writable) socket.write(`${JSON.stringify(message)}\n`);
}

/** The error a request in flight gets when its channel closes. */
export const STOPPED_MESSAGE = 'MCP Approval Console stopped while the request was under review; ask again once it runs';

/**
 * Connects, says hello and waits for the welcome.
 * @param onGone called once the channel closed (after its pending requests were rejected)
 * @throws Error why the console cannot be reached (no token file, nobody listening, refused, timeout)
 */
async function connectChannel(opts: ConsoleLinkOptions, onGone: () => void): Promise<Channel> {
  let token: string;
  try {
    token = readFileSync(bridgeTokenPath(opts.dir), 'utf8').trim();
  } catch {
    throw new Error(`no console uses ${opts.dir} (its bridge token file is missing)`);
  }
  const socket = net.connect(bridgeSocketPath(opts.dir, opts.platform));
  const ch: Channel = { send: (message) => write(socket, message), open: () => socket.writable, end: () => void socket.end(), pending: new Map() };
  return new Promise<Channel>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`the console did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
    let greeted = false;
    const fail = (err: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    const splitter = createLineSplitter(BRIDGE_MAX_LINE_BYTES, (line) => {
      const message = parseChannelLine(ConsoleToBridgeSchema, line);
      if (!message) return socket.destroy(new Error('the console sent a message that does not parse'));
      if (greeted) return onConsoleMessage(opts, ch, message);
      if (message.type === 'welcome') {
        greeted = true;
        clearTimeout(timer);
        resolve(ch);
      } else fail(new Error(message.type === 'refused' ? `the console refused the bridge: ${message.message}` : 'the console did not greet the bridge'));
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        splitter.push(chunk);
      } catch (err) {
        socket.destroy(err as Error);
      }
    });
    socket.once('connect', () => write(socket, hello(opts, token)));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!greeted) fail(new Error(err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? `nothing listens on ${bridgeSocketPath(opts.dir, opts.platform)}` : err.message));
    });
    socket.once('close', () => {
      if (!greeted) return fail(new Error('the console closed the connection'));
      for (const p of ch.pending.values()) p.reject(protocolError(CONSOLE_UNAVAILABLE_CODE, STOPPED_MESSAGE));
      ch.pending.clear();
      onGone();
    });
  });
}

/** Routes one console message to its pending request. */
function deliver(ch: Channel, message: ConsoleToBridge): void {
  if (message.type === 'welcome' || message.type === 'refused' || message.type === 'roots_changed' || message.type === 'signed_out' || message.type === 'status') return;
  const p = ch.pending.get(message.id);
  if (!p) return; // cancelled meanwhile
  if (message.type === 'progress') return p.onProgress?.(message.message);
  ch.pending.delete(message.id);
  if (message.type === 'result') p.resolve(message.result);
  else p.reject(new ProtocolError(message.code, message.message, message.data));
}
