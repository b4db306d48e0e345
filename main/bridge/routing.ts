/**
 * Where the bridge sends each server request of the client, and what it declares to the server
 * on the host's behalf: the rules the proxy (./proxy.ts) and the input rounds (./input-rounds.ts)
 * share.
 */
import type { BridgeCall, BridgeVia } from '../../shared/contract/bridge-protocol.js';
import type { ProtocolEra } from '../../shared/contract/primitives.js';
import type { McpRequestKind } from '../requests/incoming.js';
import { argumentsLine } from '../../shared/domain/call-args.js';
import { asObject, type JsonRpcId, type Loose } from './messages.js';

/** What the proxy knows while it runs. */
export interface ProxyState {
  /**
   * Who answers the server's sampling: the console (default), or — chosen per server with
   * `--sampling host` — a host that declares sampling itself (e.g. VS Code), without review here.
   */
  samplingTo?: 'console' | 'host';
  hostCaps?: Loose;
  via?: BridgeVia;
  era: ProtocolEra;
  initializeId?: JsonRpcId;
  /** Server requests the console is answering, by id key: aborting one sends the link's cancel. */
  handled: Map<string, AbortController>;
  /** The host's client requests in flight (tools/call, prompts/get, resources/read), by id key. */
  calls: Map<string, BridgeCall>;
}

/**
 * The capabilities the real server sees: the host's, with sampling (tools) always, elicitation in
 * both modes (the host's where it has them, the console's otherwise) and roots (the host's, else
 * the console's, whose changes the bridge announces: `listChanged`). `tasks` is dropped: the
 * console answers sampling directly, never as a task.
 */
export function bridgeCapabilities(host: Loose | undefined): Loose {
  const { tasks: _tasks, ...rest } = host ?? {};
  return { ...rest, sampling: { tools: {} }, elicitation: { form: {}, url: {} }, roots: asObject(rest.roots) ?? { listChanged: true } };
}

/**
 * Whether the host answers this server request itself: elicitation in a mode it declared (no mode
 * keys means form only), roots when it declared roots, sampling only when the server's entry says
 * `--sampling host` and the host declared sampling.
 */
export function hostAnswers(method: string, params: Loose | undefined, hostCaps: Loose | undefined, samplingTo: ProxyState['samplingTo'] = 'console'): boolean {
  if (method === 'sampling/createMessage') return samplingTo === 'host' && hostCaps?.sampling !== undefined;
  if (method === 'roots/list') return hostCaps?.roots !== undefined;
  if (method !== 'elicitation/create') return false;
  const elicitation = asObject(hostCaps?.elicitation);
  if (!elicitation) return false;
  const declaresModes = elicitation.form !== undefined || elicitation.url !== undefined;
  if (params?.mode === 'url') return elicitation.url !== undefined;
  return !declaresModes || elicitation.form !== undefined;
}

/**
 * The kind the console answers a server request (pushed, or embedded in an input round) as:
 * sampling, elicitation and roots unless {@link hostAnswers}; undefined for any other method.
 */
export function consoleKind(method: unknown, params: Loose | undefined, hostCaps: Loose | undefined, samplingTo?: ProxyState['samplingTo']): McpRequestKind | undefined {
  if (method !== 'sampling/createMessage' && method !== 'elicitation/create' && method !== 'roots/list') return undefined;
  if (hostAnswers(method, params, hostCaps, samplingTo)) return undefined;
  return method === 'roots/list' ? 'roots' : method === 'elicitation/create' ? 'elicitation' : 'sampling';
}

/** Methods of the host's client requests a server request may belong to (and whose results may be `input_required`). */
export const CALL_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The call reference of a host request of one of {@link CALL_METHODS}: `host:<id>` as its id, the
 * tool or prompt name or the resource URI, and its arguments as one short line.
 */
export function callOf(method: string, id: JsonRpcId, params: Loose | undefined): BridgeCall {
  const name = typeof params?.name === 'string' ? params.name : typeof params?.uri === 'string' ? params.uri : '';
  const args = asObject(params?.arguments);
  const line = args && Object.keys(args).length > 0 ? argumentsLine(args) : undefined;
  return { callId: `host:${String(id)}`.slice(0, 200), kind: method as BridgeCall['kind'], name: name.slice(0, 2000), ...(line && { args: line }) };
}
