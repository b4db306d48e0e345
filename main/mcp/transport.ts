/**
 * Builds the transport of one connection from its config entry: stdio (`command: "node"` runs the
 * console's own Node), Streamable HTTP, or the deprecated HTTP+SSE transport; HTTP transports take
 * an OAuth client provider when the server needs one. Every transport is wrapped so the protocol
 * log sees each message.
 */
import { useLinearReadBuffer } from './line-buffer.js';
import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type AuthProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { isStdio, type ServerConfig } from '../config.js';
import type { Offload } from '../offload/offload.js';
import type { ConsolePorts } from '../ports.js';
import { withProtocolLog, type ServerLog } from './protocol-log.js';

/** Largest stdio message accepted from a server, in bytes (64 MB). */
export const STDIO_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** A transport and the raw object behind the log wrapper (for `pid`, `finishAuth`). */
export interface BuiltTransport {
  transport: Transport;
  /** The stdio transport, for its pid. */
  stdio?: StdioClientTransport;
  /** The HTTP transport, when it is one. */
  http?: StreamableHTTPClientTransport | SSEClientTransport;
}

/**
 * Makes a stdio transport's sends wait for each other. The SDK's `send` adds a `drain` listener
 * for every message written while the server's stdin is full, so a server that floods the console
 * with requests and reads its answers slowly collected thousands of listeners
 * (MaxListenersExceededWarning); in turn, at most one send waits for `drain`. Order is kept.
 */
export function sendOneAtATime(stdio: StdioClientTransport): void {
  const send = stdio.send.bind(stdio);
  let tail: Promise<unknown> = Promise.resolve();
  stdio.send = (message) => {
    const sent = tail.then(() => send(message));
    tail = sent.catch(() => undefined);
    return sent;
  };
}

/**
 * Creates the transport for `config` (not started).
 * @param onStderr receives stderr chunks of a stdio server
 * @param authProvider bearer-token provider for HTTP servers (OAuth) (absent: no Authorization header is added)
 * @param offload where stdio lines of 1 MiB or more are parsed (absent: on the event loop)
 * @param extraEnv set in a stdio server's environment over its entry's `env`
 */
export function buildTransport(
  config: ServerConfig,
  opts: { log: ServerLog; nodeRuntime?: ConsolePorts['nodeRuntime']; onStderr(chunk: string): void; authProvider?: AuthProvider; offload?: Offload; extraEnv?: Record<string, string> },
): BuiltTransport {
  const record = (entry: Parameters<ServerLog['addProtocol']>[0]) => opts.log.addProtocol(entry);
  if (isStdio(config)) {
    const runtime = config.command === 'node' ? opts.nodeRuntime : undefined;
    const stdio = new StdioClientTransport({
      command: runtime?.command ?? config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...runtime?.env, ...config.env, ...opts.extraEnv },
      cwd: config.cwd,
      stderr: 'pipe',
      // Above the 25 MB request cap, so an oversized request is answered -32602 by intake
      // (S-SIZE-1) instead of the transport dropping the connection at the SDK's 10 MB default.
      maxBufferSize: STDIO_MAX_MESSAGE_BYTES,
    });
    useLinearReadBuffer(stdio, STDIO_MAX_MESSAGE_BYTES, opts.offload);
    sendOneAtATime(stdio);
    stdio.stderr?.on('data', (d: Buffer) => opts.onStderr(d.toString('utf8')));
    return { transport: withProtocolLog(stdio, record), stdio };
  }
  const url = new URL(config.url);
  const requestInit = config.headers ? { headers: config.headers } : undefined;
  const http =
    config.type === 'sse'
      ? new SSEClientTransport(url, { requestInit, authProvider: opts.authProvider })
      : new StreamableHTTPClientTransport(url, { requestInit, authProvider: opts.authProvider });
  return { transport: withProtocolLog(http, record), http };
}
