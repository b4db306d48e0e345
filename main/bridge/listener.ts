/**
 * The console's end of the bridge channel (shared/contract/bridge-protocol.ts): a local socket in the
 * user-data folder (main/bridge/paths.ts; a named pipe on Windows), owner-only, plus a random
 * token written to an owner-only file beside it. Each bridge connection says hello with the token
 * and the bridged server's id; each server request it forwards becomes an
 * {@link IncomingServerRequest} with source `bridge` and the host it came `via`, handed to the
 * console's one door (`requests.receive`) — the same review, rules, limits and history as any
 * other server's request. The answer (or the JSON-RPC error) goes back on the same connection.
 * A connection may instead open with a `control` message and the same token: the command line's
 * `status`, `stop` or `open` (main/bridge/control.ts), answered with the console's status and closed.
 *
 * On a team server, a developer's bridge on another machine reaches the same listener over a
 * WebSocket (`bridge --console <url>`): the team server's listener checked its token before the
 * upgrade ({@link BridgeListener.acceptRemote}); each message is one text frame, and such a
 * connection may not send `control` (nobody stops a team server from a laptop).
 */
import { randomBytes } from 'node:crypto';
import { tokenMatches } from '../http/token.js';
import { chmodSync, lstatSync, rmSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import type { WebSocket } from 'ws';
import {
  BRIDGE_MAX_LINE_BYTES,
  BRIDGE_PROTOCOL_VERSION,
  BridgeToConsoleSchema,
  parseChannelLine,
  type BridgeActivity,
  type BridgeAuth,
  type BridgeControl,
  type BridgeHello,
  type BridgeRequest,
  type ConsoleStatus,
  type ConsoleToBridge,
} from '../../shared/contract/bridge-protocol.js';
import type { PersonRef } from '../../shared/contract/personal-tokens.js';
import type { BridgedServerView } from '../../shared/contract/state.js';
import type { Logger } from '../ports.js';
import { RequestAbort } from '../requests/incoming.js';
import type { ServerRequestRouter } from '../requests/router.js';
import { settlesWithin } from '../shutdown.js';
import { createLineSplitter } from './lines.js';
import { writeOwnerOnly } from './owner-file.js';
import { bridgeSocketPath, bridgeTokenPath } from './paths.js';

/** How long a new connection may take to say hello, in ms. */
export const HELLO_TIMEOUT_MS = 5000;
/** How long closing waits for the answers of requests already settled to be written, in ms. */
const CLOSE_ANSWER_WAIT_MS = 500;

/** JSON-RPC code sent to a bridge for a request the console could not finish (it stopped). */
export const CONSOLE_STOPPED_CODE = -32603;

/** The console's end of the channel, listening. */
export interface BridgeListener {
  /** The socket (or pipe) path. */
  path: string;
  /** The bridges connected now: the server each runs, its host, since when (epoch ms), its requests in hand. */
  connected(): BridgedServerView[];
  /** Tells the bridges of `serverId` that the console's roots for it changed; returns how many were told. */
  rootsChanged(serverId: string): number;
  /** Tells the bridges of `serverId` that the person signed out of it; returns how many were told. */
  signedOut(serverId: string): number;
  /**
   * Takes a bridge connected over a WebSocket from another machine, whose token the team server's
   * listener already checked (`caller` names it): it says hello (its token there is not checked
   * again) and asks as a local bridge does; `control` is refused. Pinged every
   * {@link REMOTE_PING_MS}, and dropped when a ping goes unanswered until the next.
   */
  acceptRemote(socket: WebSocket, caller: RemoteCaller): void;
  /**
   * Stops listening: requests still unanswered end with a -32603 "MCP Approval Console stopped"
   * error to their bridge, connections close, the socket and token files are removed.
   */
  close(): Promise<void>;
}

/** What the listener needs. */
export interface BridgeListenerDeps {
  /** The user-data folder (the socket and token live here). */
  dir: string;
  requests: ServerRequestRouter;
  logger: Logger;
  platform?: NodeJS.Platform;
  /** Told when a bridge connects, names its host, starts or ends a request, or goes. */
  onChange?(): void;
  /** Clock, epoch ms; default Date.now. */
  now?(): number;
  /** A bridged server reported a URL elicitation the console showed complete. */
  onElicitationComplete?(serverId: string, elicitationId: string): void;
  /**
   * An OAuth access token for bridged HTTP server `serverId` at `url` (after a refresh when
   * `refresh` is given). Rejects with why there is none usable (e.g. nobody signed in). Absent:
   * bridged servers get no token from the console.
   */
  auth?(serverId: string, url: string, refresh?: { wwwAuthenticate?: string }): Promise<{ accessToken?: string }>;
  /** A bridge's activity report: its server's protocol log and stderr since the last one, the host's calls in flight. */
  onActivity?(serverId: string, report: BridgeActivity): void;
  /** A bridge said the ids earlier versions derived for its server (`formerly` of its hello). */
  onFormerNames?(serverId: string, formerly: string[]): void;
  /** The console's state for the command line's `status` (absent: control requests are refused). */
  status?(): Omit<ConsoleStatus, 'type' | 'stopping' | 'shown'>;
  /** Shuts the console down as SIGTERM would (the command line's `stop`); absent: `stop` is refused. */
  stop?(): void;
  /** Shows the console's window (the command line's `open`); false when it has none. */
  show?(): boolean;
}

/**
 * Who a bridge connected from another machine is: the name of the token it showed; for a person's
 * personal token (main/team/personal-tokens.ts), its owner (the requests' `requestedBy`), the
 * servers it may bring (another is refused at hello), and whether it is still valid (asked before
 * each request: a token revoked or its owner removed is refused at once, and the bridge closed).
 */
export interface RemoteCaller {
  name: string;
  requestedBy?: PersonRef;
  servers?: readonly string[];
  valid?(): Promise<boolean>;
}

/** JSON-RPC code of a request refused because the bridge's token was revoked (or its owner removed). */
export const TOKEN_REVOKED_CODE = -32001;

/** How often a remote bridge is pinged (a WebSocket ping), in ms; one that missed a ping by the next is dropped. */
export const REMOTE_PING_MS = 20_000;

/** How the listener writes to one connection: a local socket (a line each) or a WebSocket (a frame each). */
interface PeerLink {
  /** Sends one message (its JSON). */
  write(json: string): void;
  /** Sends `json` last (when given), then closes; `then` once written. */
  end(json?: string, then?: () => void): void;
  destroy(): void;
  writable(): boolean;
}

/** One accepted bridge connection. */
interface Peer {
  link: PeerLink;
  /** Set for a bridge on another machine (a WebSocket whose token the team server checked). */
  remote?: RemoteCaller;
  hello?: BridgeHello;
  /** When its hello was accepted, epoch ms. */
  since?: number;
  /** Requests being handled, by the bridge's request id. */
  open: Map<number, { abort: AbortController; done: Promise<void> }>;
}

/**
 * Starts listening.
 * @returns the listener, or `undefined` when another console already listens on this user-data
 *   folder's socket (that one answers the bridges)
 * @throws Error when a file that is not a socket is at the socket path (it is left alone), or the
 *   socket cannot be created
 */
export async function startBridgeListener(deps: BridgeListenerDeps): Promise<BridgeListener | undefined> {
  const platform = deps.platform ?? process.platform;
  const path = bridgeSocketPath(deps.dir, platform);
  if (platform !== 'win32' && (await socketInUse(path))) {
    deps.logger.warn('another console listens for bridges on this user-data folder; this one does not', { path });
    return undefined;
  }
  const token = randomBytes(32).toString('hex');
  writeOwnerOnly(bridgeTokenPath(deps.dir), token);
  const peers = new Set<Peer>();
  const server = net.createServer((socket) => acceptLocal(socket, { deps, token, peers }));
  await listenOwnerOnly(server, path, platform);
  deps.logger.info('listening for bridges', { path });
  return {
    path,
    connected: () =>
      [...peers].flatMap((p) => (p.hello ? [{ serverId: p.hello.serverId, ...(p.hello.via && { via: p.hello.via }), since: p.since ?? 0, pending: p.open.size }] : [])),
    rootsChanged: (serverId) => tell(peers, serverId, { type: 'roots_changed' }),
    signedOut: (serverId) => tell(peers, serverId, { type: 'signed_out' }),
    acceptRemote: (socket, caller) => acceptRemote(socket, caller, { deps, token, peers }),
    close: () => closeListener(server, peers, { path, tokenPath: bridgeTokenPath(deps.dir), platform }),
  };
}

/**
 * Whether a console answers on the socket at `path`. A socket file nobody answers on is stale
 * (a console that crashed) and is removed.
 * @throws Error when a file that is not a socket is there
 */
async function socketInUse(path: string): Promise<boolean> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return false; // nothing there
  }
  if (!isSocket) throw new Error(`${path} exists and is not a socket: the bridge channel is not started (move the file away)`);
  const alive = await new Promise<boolean>((resolve) => {
    const probe = net.connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (!alive) unlinkSync(path);
  return alive;
}

/** Listens on `path` with the socket created owner-only (umask while binding, chmod after). */
async function listenOwnerOnly(server: net.Server, path: string, platform: NodeJS.Platform): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const previous = platform === 'win32' ? undefined : process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      if (previous !== undefined) process.umask(previous);
    }
  });
  if (platform !== 'win32') chmodSync(path, 0o600);
}

/** What accepting a connection needs. */
interface AcceptContext {
  deps: BridgeListenerDeps;
  token: string;
  peers: Set<Peer>;
}

/** Takes a new local connection: its lines are the messages. */
function acceptLocal(socket: net.Socket, ctx: AcceptContext): void {
  const link: PeerLink = {
    write: (json) => void socket.write(`${json}\n`),
    end: (json, then) => void (json === undefined ? socket.end() : socket.end(`${json}\n`, then)),
    destroy: () => void socket.destroy(),
    writable: () => socket.writable,
  };
  const { onMessage, onClose } = attach({ link, open: new Map() }, ctx);
  const splitter = createLineSplitter(BRIDGE_MAX_LINE_BYTES, onMessage);
  socket.on('data', (chunk: Buffer) => {
    try {
      splitter.push(chunk);
    } catch {
      socket.destroy();
    }
  });
  socket.on('error', () => undefined); // 'close' follows
  socket.on('close', onClose);
}

/** Takes a bridge connected over a WebSocket from another machine: each text frame is a message. */
function acceptRemote(socket: WebSocket, caller: RemoteCaller, ctx: AcceptContext): void {
  const link: PeerLink = {
    write: (json) => socket.send(json),
    end: (json, then) => {
      if (json !== undefined) socket.send(json, () => then?.());
      socket.close(1000);
    },
    destroy: () => socket.terminate(),
    writable: () => socket.readyState === socket.OPEN,
  };
  const { onMessage, onClose } = attach({ link, remote: caller, open: new Map() }, ctx);
  let answered = true;
  socket.on('pong', () => (answered = true));
  const ping = setInterval(() => {
    if (!answered) return socket.terminate(); // gone without a word (its machine slept, the network dropped)
    answered = false;
    socket.ping();
  }, REMOTE_PING_MS);
  ping.unref?.();
  socket.on('message', (data, isBinary) => {
    if (isBinary) return socket.close(1003, 'binary frames are not accepted');
    onMessage(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8'));
  });
  socket.on('error', () => undefined); // 'close' follows
  socket.on('close', () => {
    clearInterval(ping);
    onClose();
  });
}

/**
 * Adds `peer` to the listener: its messages (`onMessage`, one each) are hello first, then
 * requests and cancels; `onClose` when its connection closed.
 */
function attach(peer: Peer, ctx: AcceptContext): { onMessage(line: string): void; onClose(): void } {
  ctx.peers.add(peer);
  const helloTimer = setTimeout(() => peer.link.destroy(), HELLO_TIMEOUT_MS);
  const onMessage = (line: string) => {
    const message = parseChannelLine(BridgeToConsoleSchema, line);
    if (!message) {
      ctx.deps.logger.warn('bridge sent a message that does not parse; closing its connection', { server: peer.hello?.serverId });
      peer.link.destroy();
      return;
    }
    if (!peer.hello) {
      clearTimeout(helloTimer);
      greet(peer, message, ctx);
      return;
    }
    if (message.type === 'request') handleRequest(peer, message, ctx.deps);
    else if (message.type === 'cancel') peer.open.get(message.id)?.abort.abort(new RequestAbort(message.cause, message.reason));
    else if (message.type === 'elicitation_complete') ctx.deps.onElicitationComplete?.(peer.hello.serverId, message.elicitationId);
    else if (message.type === 'auth') answerAuth(peer, message, ctx.deps);
    else if (message.type === 'activity') {
      // The host is known once it initialized, which may be after the hello: its report names it.
      if (message.via && (message.via.host !== peer.hello.via?.host || message.via.version !== peer.hello.via?.version)) {
        peer.hello.via = message.via;
        ctx.deps.onChange?.();
      }
      ctx.deps.onActivity?.(peer.hello.serverId, message);
    }
  };
  const onClose = () => {
    clearTimeout(helloTimer);
    ctx.peers.delete(peer);
    for (const { abort } of peer.open.values()) abort.abort(new RequestAbort('connection_closed'));
    if (peer.hello) ctx.deps.onChange?.();
  };
  return { onMessage, onClose };
}

/** Checks the first message: a hello of this version with the right token, else refuses and closes. */
function greet(peer: Peer, message: ReturnType<typeof BridgeToConsoleSchema.parse>, ctx: { deps: BridgeListenerDeps; token: string }): void {
  const refuse = (why: string) => {
    ctx.deps.logger.warn('bridge refused', { why, ...(peer.remote && { caller: peer.remote.name }) });
    peer.link.end(JSON.stringify({ type: 'refused', message: why } satisfies ConsoleToBridge));
  };
  if (message.type !== 'hello' && message.type !== 'control') return refuse('the first message must be hello');
  if (peer.remote && message.type === 'control') return refuse('a team server takes status, stop and open only on its own machine');
  // A remote bridge's token was checked by the team server's listener before the upgrade.
  if (!peer.remote && !tokenMatches(message.token, ctx.token)) return refuse('wrong token (is the bridge using the same user-data folder as the console?)');
  if (message.protocol !== BRIDGE_PROTOCOL_VERSION) return refuse(`channel version ${message.protocol} is not supported (this console speaks ${BRIDGE_PROTOCOL_VERSION})`);
  if (message.type === 'control') return control(peer, message, ctx.deps, refuse);
  if (peer.remote?.servers && !peer.remote.servers.includes(message.serverId)) return refuse(`the token ${peer.remote.name} may not bring server ${message.serverId}`);
  peer.hello = message;
  peer.since = (ctx.deps.now ?? Date.now)();
  if (message.formerly?.length) ctx.deps.onFormerNames?.(message.serverId, message.formerly);
  ctx.deps.onChange?.();
  ctx.deps.logger.info('bridge connected', { server: message.serverId, host: message.via?.host, pid: message.pid, ...(peer.remote && { caller: peer.remote.name }) });
  send(peer, { type: 'welcome', protocol: BRIDGE_PROTOCOL_VERSION });
}

/**
 * Answers the command line's control request with the console's status and closes; then, for
 * `stop`, shuts the console down (once the answer is written), for `show`, shows its window.
 */
function control(peer: Peer, message: BridgeControl, deps: BridgeListenerDeps, refuse: (why: string) => void): void {
  if (!deps.status || (message.action === 'stop' && !deps.stop)) return refuse(`this console cannot be asked to ${message.action}`);
  const shown = message.action === 'show' ? (deps.show?.() ?? false) : undefined;
  const answer: ConsoleStatus = { type: 'status', ...deps.status(), ...(message.action === 'stop' && { stopping: true as const }), ...(shown !== undefined && { shown }) };
  peer.link.end(JSON.stringify(answer), () => {
    if (message.action === 'stop') deps.stop!();
  });
}

/** Hands one forwarded request to the console's door; its answer or error goes back to the bridge. */
function handleRequest(peer: Peer, message: BridgeRequest, deps: BridgeListenerDeps): void {
  if (peer.open.has(message.id)) return send(peer, { type: 'error', id: message.id, code: -32600, message: `request id ${message.id} is already in use` });
  const valid = peer.remote?.valid;
  if (!valid) return forward(peer, message, deps);
  // A personal token is checked again before each request: revoked (or its owner removed) on any instance, it is refused now.
  const revoked = () => {
    send(peer, { type: 'error', id: message.id, code: TOKEN_REVOKED_CODE, message: `the token ${peer.remote!.name} was revoked` });
    peer.link.end(JSON.stringify({ type: 'refused', message: `the token ${peer.remote!.name} was revoked` } satisfies ConsoleToBridge));
  };
  valid().then(
    (ok) => (ok ? forward(peer, message, deps) : revoked()),
    (err: unknown) => send(peer, { type: 'error', id: message.id, ...errorOf(err) }),
  );
}

/** Hands a request whose bridge may ask to the console's door. */
function forward(peer: Peer, message: BridgeRequest, deps: BridgeListenerDeps): void {
  const hello = peer.hello!;
  const abort = new AbortController();
  // The host is known once it initialized, which may be after the hello: the latest one names it.
  if (message.via) hello.via = message.via;
  const via = hello.via;
  const answer = deps.requests.receive({
    kind: message.kind,
    source: 'bridge',
    ...(via && { via }),
    ...(peer.remote?.requestedBy && { requestedBy: peer.remote.requestedBy }),
    serverId: hello.serverId,
    era: message.era,
    ...(message.calls && (message.exact && message.calls.length === 1 ? { call: message.calls[0] } : { inFlight: message.calls })),
    params: message.params,
    signal: abort.signal,
    ...(message.progress && { progress: (text: string) => send(peer, { type: 'progress', id: message.id, message: text }) }),
  });
  const done = answer.then(
    (result) => send(peer, { type: 'result', id: message.id, result: result as Record<string, unknown> }),
    (err: unknown) => send(peer, { type: 'error', id: message.id, ...errorOf(err) }),
  ).finally(() => {
    peer.open.delete(message.id);
    deps.onChange?.();
  });
  peer.open.set(message.id, { abort, done });
  deps.onChange?.();
}

/** Answers a bridge's OAuth token request from the console's sign-in for its server. */
function answerAuth(peer: Peer, message: BridgeAuth, deps: BridgeListenerDeps): void {
  const serverId = peer.hello!.serverId;
  const asked = deps.auth ? deps.auth(serverId, message.url, message.refresh) : Promise.resolve({});
  asked.then(
    (result) => send(peer, { type: 'result', id: message.id, result }),
    (err: unknown) => send(peer, { type: 'error', id: message.id, code: -32001, message: err instanceof Error ? err.message : String(err) }),
  );
}

/** The JSON-RPC code and message of a handler's rejection (-32603 when it carries no code). */
function errorOf(err: unknown): { code: number; message: string; data?: unknown } {
  const e = err as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e?.code === 'number' && Number.isInteger(e.code) ? e.code : -32603;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return { code, message, ...(e?.data !== undefined && { data: e.data }) };
}

/** Sends `message` to every bridge of `serverId`; returns how many there are. */
function tell(peers: Set<Peer>, serverId: string, message: ConsoleToBridge): number {
  const told = [...peers].filter((p) => p.hello?.serverId === serverId);
  for (const p of told) send(p, message);
  return told.length;
}

/** Writes one message (dropped when the connection is gone). */
function send(peer: Peer, message: ConsoleToBridge): void {
  if (peer.link.writable()) peer.link.write(JSON.stringify(message));
}

/** See {@link BridgeListener.close}. */
async function closeListener(server: net.Server, peers: Set<Peer>, at: { path: string; tokenPath: string; platform: NodeJS.Platform }): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const pending = [...peers].flatMap((p) => [...p.open.values()].map((o) => o.done));
  await settlesWithin(Promise.allSettled(pending), CLOSE_ANSWER_WAIT_MS);
  for (const peer of peers) {
    for (const id of peer.open.keys()) send(peer, { type: 'error', id, code: CONSOLE_STOPPED_CODE, message: 'MCP Approval Console stopped before the request was answered' });
    peer.open.clear();
    peer.link.end();
  }
  await settlesWithin(closed, CLOSE_ANSWER_WAIT_MS);
  for (const peer of peers) peer.link.destroy();
  if (at.platform !== 'win32') rmSync(at.path, { force: true });
  rmSync(at.tokenPath, { force: true });
}
