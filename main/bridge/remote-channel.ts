/**
 * The bridge channel to a team server (`bridge --console <url> --token …`): the messages of
 * shared/contract/bridge-protocol.ts, one per WebSocket text frame, over `wss://<host>/bridge`
 * (`ws://` for an `http://` address, which the command line allows on loopback only). The token
 * goes as `Authorization: Bearer <token>` on the upgrade, so a team server refuses a wrong one
 * before anything else (401), and again in the hello as the local channel has it.
 *
 * The connection is pinged every {@link REMOTE_PING_MS}; one that goes unanswered until the next
 * ping counts as gone (a dead instance behind a load balancer may leave the socket open).
 */
import { WebSocket } from 'ws';
import { BRIDGE_MAX_LINE_BYTES, ConsoleToBridgeSchema, parseChannelLine, type BridgeToConsole, type ConsoleToBridge } from '../../shared/contract/bridge-protocol.js';
import { protocolError } from '../mcp/protocol.js';

/** Path of the bridge channel on a team server's listener. */
export const BRIDGE_CHANNEL_PATH = '/bridge';
/** How often the bridge pings a team server, in ms. */
export const REMOTE_PING_MS = 15_000;
/** JSON-RPC code of a request whose team server instance went away (as the local channel's). */
const UNAVAILABLE_CODE = -32603;

/** A team server as a bridge reaches it. */
export interface RemoteConsole {
  /** Its address, `https://console.example.com` (`http://` on loopback). */
  url: string;
  /** A named gateway token made on it. */
  token: string;
  /** Extra CA certificates to trust (PEM), e.g. a team's own CA. */
  ca?: string | Buffer;
}

/** A connected, greeted channel: what the link sends on and the requests waiting for answers. */
export interface Channel {
  /** Sends one message (dropped when the connection is gone). */
  send(message: BridgeToConsole): void;
  /** Whether a message sent now would go out (false once the connection is closing). */
  open(): boolean;
  /** Closes the connection. */
  end(): void;
  pending: Map<number, { resolve(result: Record<string, unknown>): void; reject(err: Error): void; onProgress?(message: string): void }>;
}

/** The team server refused the bridge (its token, its version, no bridge channel there): trying again will not help. */
export class RemoteRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteRefusal';
  }
}

/** `wss://host[:port]/bridge` for `https://host[:port][/…]` (`ws://` for `http://`). @throws Error for an address that is not http(s) */
export function bridgeChannelUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`the team console's address must be http(s): ${url}`);
  return `${u.protocol === 'https:' ? 'wss:' : 'ws:'}//${u.host}${BRIDGE_CHANNEL_PATH}`;
}

/** What the connection tells its link. */
export interface RemoteChannelHandlers {
  /** A message after the welcome. */
  onMessage(ch: Channel, message: ConsoleToBridge): void;
  /** The greeted connection closed (its pending requests were rejected first). */
  onGone(): void;
}

/**
 * Connects, says `hello`, and waits for the welcome (at most `timeoutMs`).
 * @throws RemoteRefusal when the team server refused the token (401, 403), has no bridge channel
 *   there (404) or refused the hello; Error why it could not be reached otherwise (worth trying again)
 */
export function connectRemoteChannel(remote: RemoteConsole, hello: BridgeToConsole, handlers: RemoteChannelHandlers, timeoutMs = 5_000): Promise<Channel> {
  const socket = new WebSocket(bridgeChannelUrl(remote.url), {
    headers: { authorization: `Bearer ${remote.token}` },
    maxPayload: BRIDGE_MAX_LINE_BYTES,
    handshakeTimeout: timeoutMs,
    ...(remote.ca !== undefined && { ca: remote.ca }),
  });
  const ch: Channel = {
    send: (message) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
    open: () => socket.readyState === WebSocket.OPEN,
    end: () => socket.close(1000),
    pending: new Map(),
  };
  return new Promise<Channel>((resolve, reject) => {
    let greeted = false;
    let answered = true;
    let ping: ReturnType<typeof setInterval> | undefined;
    const timer = setTimeout(() => fail(new Error(`the team console did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
    const fail = (err: Error) => {
      if (greeted) return;
      clearTimeout(timer);
      socket.terminate();
      reject(err);
    };
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      if (status === 401 || status === 403) fail(new RemoteRefusal(`the team console refused the token (HTTP ${status}): make a token on its Settings screen and pass it with --token or MCP_CONSOLE_TOKEN`));
      else if (status === 404) fail(new RemoteRefusal(`${remote.url} has no bridge channel (HTTP 404): is it a team server (mcp-approval-console serve)?`));
      else fail(new Error(`the team console answered HTTP ${status}`));
    });
    socket.on('open', () => {
      socket.send(JSON.stringify(hello));
      ping = setInterval(() => {
        if (!answered) return socket.terminate();
        answered = false;
        socket.ping();
      }, REMOTE_PING_MS);
      ping.unref?.();
    });
    socket.on('pong', () => (answered = true));
    socket.on('message', (data, isBinary) => {
      const message = isBinary ? undefined : parseChannelLine(ConsoleToBridgeSchema, Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8'));
      if (!message) return socket.terminate();
      if (greeted) return handlers.onMessage(ch, message);
      if (message.type === 'welcome') {
        greeted = true;
        clearTimeout(timer);
        resolve(ch);
      } else fail(message.type === 'refused' ? new RemoteRefusal(`the team console refused the bridge: ${message.message}`) : new Error('the team console did not greet the bridge'));
    });
    socket.on('error', (err) => fail(err));
    socket.on('close', () => {
      clearInterval(ping);
      if (!greeted) return fail(new Error('the team console closed the connection'));
      for (const p of ch.pending.values()) p.reject(protocolError(UNAVAILABLE_CODE, `The team console's instance went away while the request was under review; ask again (the bridge connects to another instance)`));
      ch.pending.clear();
      handlers.onGone();
    });
  });
}
