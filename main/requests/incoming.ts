/**
 * The one envelope every request a server makes of the console travels in, whatever its source:
 * {@link IncomingServerRequest}. A source adapter (main/mcp/server-requests.ts for MCP
 * connections, both eras, pushed and embedded in `input_required` results) wraps what arrived;
 * the router (router.ts) hands it to the handler of its kind; the handler validates it once and
 * answers through the promise it returns. Leaf module: it imports only shared types.
 */
import type { CallRef, ProtocolEra, RequestVia } from '../../shared/contract/state.js';

/** What a server asks of the console: an LLM completion, input from the person, or the roots. */
export type ServerRequestKind = 'sampling' | 'elicitation' | 'roots';

/**
 * Where a request came from: a server connection of the console's own (`mcp`), or a server an
 * agent host runs through the console's bridge (`bridge`; the host is named in `via`).
 */
export type RequestSource = 'mcp' | 'bridge';

/**
 * Why a server request's signal aborted — typed at the source, so no handler reads the reason's
 * words: the server cancelled it (`notifications/cancelled`), the server said it timed out
 * (its cancel reason), or the connection closed under it.
 */
export type AbortCause = 'server_cancelled' | 'server_timeout' | 'connection_closed';

/** The abort reason of an envelope's signal: the typed cause and, where the server gave one, its words. */
export class RequestAbort extends Error {
  constructor(
    readonly abortCause: AbortCause,
    /** The server's own reason text (notifications/cancelled `reason`), shown as data. */
    readonly serverReason?: string,
  ) {
    super(serverReason ?? abortCause.replaceAll('_', ' '));
    this.name = 'RequestAbort';
  }
}

/** The cause of an aborted signal: the {@link RequestAbort}'s, else `server_cancelled`. */
export function abortCauseOf(reason: unknown): AbortCause {
  return reason instanceof RequestAbort ? reason.abortCause : 'server_cancelled';
}

/**
 * One request a server made of the console, as every handler receives it.
 * - `params`: exactly as the server sent them, not yet validated (the kind's handler validates
 *   them once: sampling intake, the elicitation queue);
 * - `call`: the client request of the person's it belongs to, when the protocol says so (an
 *   input request embedded in a 2026-07-28 `input_required` result); a pushed request leaves it
 *   unset and the handler infers it from the calls in flight (S-ASSOC-1);
 * - `inFlight`: for a source that knows the client requests in flight better than the console
 *   (a bridge: its host's `tools/call`, `prompts/get`, `resources/read`), those candidates, used
 *   instead of the console's own calls;
 * - `signal`: aborts, with a {@link RequestAbort} reason, when the server stops waiting;
 * - the reply: the handler's returned promise is the answer (a result, or a ProtocolError with
 *   its JSON-RPC code); `progress` sends interim notes where the server asked for them (it gave a
 *   progressToken).
 */
export interface IncomingServerRequest<K extends ServerRequestKind = ServerRequestKind> {
  kind: K;
  /** Absent means `mcp`. */
  source?: RequestSource;
  /** For a bridged server: the agent host that runs it (its `clientInfo`). */
  via?: RequestVia;
  serverId: string;
  era: ProtocolEra;
  params: unknown;
  call?: CallRef;
  inFlight?: CallRef[];
  signal: AbortSignal;
  progress?(message: string): void;
}

/** A sampling request in the envelope. */
export type IncomingSampling = IncomingServerRequest<'sampling'>;

/** An elicitation request (form or URL mode) in the envelope. */
export type IncomingElicitation = IncomingServerRequest<'elicitation'>;
