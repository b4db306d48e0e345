/**
 * The provider gateway's contract: loopback endpoints that speak the OpenAI (Chat Completions,
 * Responses, Embeddings) and Anthropic Messages wire protocols, so a server, a script or an agent
 * framework that calls an LLM provider directly gets the same review as a sampling request. What a provider call carries on its item,
 * the gateway's view in the state, and the names of its tokens. No Node, DOM or Electron imports.
 */
import { z } from 'zod';

/** The provider wire protocols the gateway speaks. */
export const PROVIDER_APIS = ['openai', 'anthropic'] as const;
/** See {@link PROVIDER_APIS}. */
export type ProviderApi = (typeof PROVIDER_APIS)[number];

/**
 * The endpoint a call came through: OpenAI `chat_completions` (`POST /v1/chat/completions`),
 * `responses` (`POST /v1/responses`) and `embeddings` (`POST /v1/embeddings`), Anthropic
 * `messages` (`POST /v1/messages`).
 */
export const GATEWAY_ENDPOINTS = ['chat_completions', 'responses', 'embeddings', 'messages'] as const;
/** See {@link GATEWAY_ENDPOINTS}. */
export type GatewayEndpoint = (typeof GATEWAY_ENDPOINTS)[number];

/** The endpoint of a call's facts: `endpoint`, else the API's chat endpoint (facts recorded before endpoints were named). */
export function endpointOf(facts: Pick<GatewayFacts, 'api' | 'endpoint'>): GatewayEndpoint {
  return facts.endpoint ?? (facts.api === 'openai' ? 'chat_completions' : 'messages');
}

/**
 * Who made a provider call: a stdio server the console launched with `providerGateway` on (its
 * per-run token names it; the item's `serverId` is that server), or a caller holding a named
 * token created in Settings (the item's `serverId` is {@link tokenCallerId} of its name).
 */
export type GatewayCaller = { kind: 'server' } | { kind: 'token'; name: string };

/** What a provider call that came through the gateway carries on its item and history entry. */
export interface GatewayFacts {
  api: ProviderApi;
  /** The model the caller asked for; the console takes it as a hint (`modelPreferences.hints`). */
  requestedModel: string;
  /** Whether the caller asked for a streamed answer (SSE). */
  stream: boolean;
  caller: GatewayCaller;
  /** Request fields the console does not carry over (e.g. `top_p`), shown to the reviewer. */
  ignored?: string[];
  /** The endpoint; absent in entries recorded before it was named (see {@link endpointOf}). */
  endpoint?: GatewayEndpoint;
  /**
   * Messages of role `system` found after the first turn (their request paths, e.g.
   * `messages[3]`), carried into the system prompt in order: the reviewer sees where its parts came from.
   */
  movedToSystem?: string[];
  /**
   * A Responses API call that continues an earlier one (`previous_response_id`): that response's
   * id. Its conversation (what was sent and what was answered, from History) opens the messages.
   */
  previousResponseId?: string;
  /**
   * An embeddings call: the input texts are the messages (one user message each); the vectors the
   * provider returns go to the caller unreviewed. `dimensions` is asked of the provider when given.
   */
  embeddings?: { inputs: number; dimensions?: number };
}

/** The server id under which the calls of a named token are queued, limited and recorded. */
export function tokenCallerId(name: string): string {
  return `gateway:${name}`;
}

/** A named gateway token's name: 1–64 letters, digits, `.`, `_` or `-`. */
export const GatewayTokenNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w.-]+$/, 'use letters, digits, ".", "_" or "-"');

/** A named token as Settings lists it (never the token itself: `revealGatewayToken`). */
export interface GatewayTokenView {
  name: string;
  /** Epoch ms. */
  createdAt: number;
  /** Calls made with it since the console started. */
  calls: number;
  /** Epoch ms of its last call since the console started. */
  lastUsedAt?: number;
}

/**
 * The gateway as Settings shows it: where it listens (127.0.0.1 only), the base URLs a caller
 * sets, the servers that get it injected, and the named tokens. `error` says why it is not
 * listening (e.g. the port is taken by another program).
 */
export interface GatewayView {
  listening: boolean;
  /** `http://127.0.0.1:<port>` while listening. */
  url?: string;
  /** What `OPENAI_BASE_URL` is set to (`<url>/openai/v1`). */
  openaiBaseUrl?: string;
  /** What `ANTHROPIC_BASE_URL` is set to (`<url>/anthropic`). */
  anthropicBaseUrl?: string;
  error?: string;
  /** Servers whose entry has `providerGateway: true`. */
  servers: string[];
  tokens: GatewayTokenView[];
  /**
   * Present on a team server: named tokens are shown once, when made (never copied again), and
   * programs on other machines call the gateway at `url` (the team server's public address, e.g.
   * `https://console.example.com`: `<url>/openai/v1`, `<url>/anthropic`) when known.
   */
  team?: { url?: string };
}
