/**
 * The one envelope every request a server makes of the console travels in, whatever its source:
 * {@link IncomingServerRequest}. A source adapter (main/mcp/server-requests.ts for MCP
 * connections, both eras, pushed and embedded in `input_required` results) wraps what arrived;
 * the router (router.ts) hands it to the handler of its kind; the handler validates it once and
 * answers through the promise it returns. Leaf module: it imports only shared types.
 */
import type { GatewayFacts } from '../../shared/contract/gateway.js';
import type { PersonRef } from '../../shared/contract/personal-tokens.js';
import type { CallRef, ProtocolEra, RequestVia, TokenUsage } from '../../shared/contract/state.js';

/**
 * What a server asks of the console: an LLM completion (`sampling`), input from the person, the
 * roots — or, through the provider gateway, a provider API call (`provider_call`: its body already
 * translated to sampling params; reviewed like a sampling request).
 */
export type ServerRequestKind = McpRequestKind | 'provider_call';

/** The kinds an MCP server itself sends (directly or through the bridge). */
export type McpRequestKind = 'sampling' | 'elicitation' | 'roots';

/**
 * Where a request came from: a server connection of the console's own (`mcp`), a server an
 * agent host runs through the console's bridge (`bridge`; the host is named in `via`), or a
 * caller of the provider gateway (`gateway`).
 */
export type RequestSource = 'mcp' | 'bridge' | 'gateway';

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
  /** The person whose personal token made it (a team server's gateway or remote bridge). */
  requestedBy?: PersonRef;
  serverId: string;
  era: ProtocolEra;
  params: unknown;
  call?: CallRef;
  inFlight?: CallRef[];
  signal: AbortSignal;
  progress?(message: string): void;
}

/**
 * Where a provider call's answer streams to while no person reviews the response (an
 * `approve_all` rule): the gateway writes each text delta to its caller as it is generated. A
 * failure after text was passed on ends the request (the promise rejects), and the gateway ends
 * the caller's stream with it.
 */
export interface ProviderCallPort {
  /** A text delta of the generation, in order. */
  text(delta: string): void;
  /** The token usage of the generation whose result is delivered, before the promise resolves. */
  usage(usage: TokenUsage | undefined): void;
  /**
   * An embeddings call's vectors, one per input text in order, when the provider made them
   * (before the promise resolves; the vectors are not reviewed and not recorded).
   */
  vectors?(embeddings: number[][]): void;
  /**
   * The ms the request spent waiting on others — the provider's calls and a person's reviews —
   * before its promise settles (the gateway reports the rest as the console's own added time).
   */
  waited?(ms: number): void;
}

/**
 * A provider API call through the gateway: `params` are the caller's body translated to sampling
 * params (main/gateway/wire), `gateway` says which API, who called and the model asked for. It
 * needs no client request in flight (S-ASSOC-1 does not apply); while one is in flight to the
 * calling server it is linked to it, as an inference when several are.
 */
export interface IncomingProviderCall extends IncomingServerRequest<'provider_call'> {
  gateway: GatewayFacts;
  port?: ProviderCallPort;
  /**
   * The item id to give the call (a UUID): the gateway's answer ids name it, so a later call can
   * find the entry in History (the Responses API's `previous_response_id`). Absent: a fresh one.
   */
  itemId?: string;
}

/** A sampling request in the envelope. */
export type IncomingSampling = IncomingServerRequest<'sampling'>;

/** An elicitation request (form or URL mode) in the envelope. */
export type IncomingElicitation = IncomingServerRequest<'elicitation'>;
