/**
 * The single door of server requests into the console: every {@link IncomingServerRequest},
 * whatever its source, enters through {@link ServerRequestRouter.receive} and goes to the handler
 * of its kind.
 */
import type { ElicitResult } from '../../shared/contract/elicitation.js';
import type { CreateMessageResult } from '../../shared/contract/sampling.js';
import { protocolError } from '../mcp/protocol.js';
import type { Root } from '../roots.js';
import type { IncomingElicitation, IncomingProviderCall, IncomingSampling, IncomingServerRequest } from './incoming.js';

/** What answers each kind. `roots` answers at once; the others may wait on the person. */
export interface ServerRequestHandlers {
  sampling(request: IncomingSampling): Promise<CreateMessageResult>;
  /** Absent: elicitation was not declared; the request is answered -32601. */
  elicitation?(request: IncomingElicitation): Promise<ElicitResult>;
  /** The roots offered to `serverId` (`roots/list`). */
  roots(serverId: string): Root[];
  /** A provider call through the gateway, reviewed as a sampling request. Absent: -32601. */
  providerCall?(request: IncomingProviderCall): Promise<CreateMessageResult>;
}

/** The answer type of each kind. */
export interface ServerRequestResults {
  sampling: CreateMessageResult;
  elicitation: ElicitResult;
  roots: { roots: Root[] };
  provider_call: CreateMessageResult;
}

/** The envelope of each kind (a provider call carries its gateway facts and stream port). */
export type EnvelopeOf<K extends keyof ServerRequestResults> = K extends 'provider_call' ? IncomingProviderCall : IncomingServerRequest<K>;

/** Receives every server request. */
export interface ServerRequestRouter {
  /**
   * Hands `request` to its kind's handler and resolves with the answer for the server.
   * @throws ProtocolError as the handler does (-1 rejected, -32602 invalid params, -32050 loop
   *   limit, -32051 limits); -32601 when the kind has no handler
   */
  receive<K extends keyof ServerRequestResults>(request: EnvelopeOf<K>): Promise<ServerRequestResults[K]>;
}

/** Creates the router over the handlers of each kind. */
export function createServerRequestRouter(handlers: ServerRequestHandlers): ServerRequestRouter {
  const route = (request: IncomingServerRequest): Promise<unknown> => {
    switch (request.kind) {
      case 'sampling':
        return handlers.sampling(request as IncomingSampling);
      case 'elicitation':
        return handlers.elicitation ? handlers.elicitation(request as IncomingElicitation) : Promise.reject(protocolError(-32601, 'elicitation is not available'));
      case 'roots':
        return Promise.resolve({ roots: handlers.roots(request.serverId) });
      case 'provider_call':
        return handlers.providerCall ? handlers.providerCall(request as IncomingProviderCall) : Promise.reject(protocolError(-32601, 'the provider gateway is not available'));
    }
  };
  return { receive: (request) => route(request as IncomingServerRequest) as never };
}
