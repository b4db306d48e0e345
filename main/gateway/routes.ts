/**
 * The gateway's endpoints and how a request's method and path find one.
 *
 * OpenAI's under `/openai/v1` (`OPENAI_BASE_URL=http://127.0.0.1:<port>/openai/v1`). Anthropic's
 * under `/anthropic/v1` and also under `/anthropic`: the official SDKs take
 * `ANTHROPIC_BASE_URL=…/anthropic` as a root and append `/v1/messages`, while libraries that read
 * the same variable as a root already ending in `/v1` (the AI SDK's `@ai-sdk/anthropic`) append
 * `/messages` — one variable, both conventions served.
 */
import type { GatewayEndpoint, ProviderApi } from '../../shared/contract/gateway.js';

/** What a request asks for. */
export type Endpoint =
  | { kind: 'call'; endpoint: Exclude<GatewayEndpoint, 'embeddings'> }
  | { kind: 'embeddings' }
  | { kind: 'count_tokens' }
  | { kind: 'models'; api: ProviderApi; id?: string }
  | { kind: 'response'; id: string };

/** The endpoints served, as `METHOD path` (named in the 404 of an unknown path). */
export const SERVED_ENDPOINTS: readonly string[] = [
  'POST /openai/v1/chat/completions',
  'POST /openai/v1/responses',
  'GET /openai/v1/responses/{id}',
  'POST /openai/v1/embeddings',
  'GET /openai/v1/models',
  'GET /openai/v1/models/{id}',
  'POST /anthropic/v1/messages',
  'POST /anthropic/v1/messages/count_tokens',
  'GET /anthropic/v1/models',
  'GET /anthropic/v1/models/{id}',
];

/** Where a request goes: its endpoint (absent: none at this path), the method the path wants when another was used, and the API whose shape errors take. */
export interface Routed {
  endpoint?: Endpoint;
  /** Set when the path is served but not for this method: the method it is served for. */
  allow?: 'GET' | 'POST';
  shape: ProviderApi;
}

/** `rest` after `prefix`, decoded; undefined when `path` does not start with `prefix` or the rest is empty. */
function after(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix) || path.length === prefix.length) return undefined;
  try {
    return decodeURIComponent(path.slice(prefix.length));
  } catch {
    return undefined;
  }
}

/** An OpenAI path (after `/openai/v1`) → its endpoint and method. */
function openaiRoute(rest: string): [Endpoint, 'GET' | 'POST'] | undefined {
  if (rest === '/chat/completions') return [{ kind: 'call', endpoint: 'chat_completions' }, 'POST'];
  if (rest === '/responses') return [{ kind: 'call', endpoint: 'responses' }, 'POST'];
  if (rest === '/embeddings') return [{ kind: 'embeddings' }, 'POST'];
  if (rest === '/models') return [{ kind: 'models', api: 'openai' }, 'GET'];
  const model = after(rest, '/models/');
  if (model !== undefined) return [{ kind: 'models', api: 'openai', id: model }, 'GET'];
  const response = after(rest, '/responses/');
  if (response !== undefined && !response.includes('/')) return [{ kind: 'response', id: response }, 'GET'];
  return undefined;
}

/** An Anthropic path (after `/anthropic/v1` or `/anthropic`) → its endpoint and method. */
function anthropicRoute(rest: string): [Endpoint, 'GET' | 'POST'] | undefined {
  if (rest === '/messages') return [{ kind: 'call', endpoint: 'messages' }, 'POST'];
  if (rest === '/messages/count_tokens') return [{ kind: 'count_tokens' }, 'POST'];
  if (rest === '/models') return [{ kind: 'models', api: 'anthropic' }, 'GET'];
  const model = after(rest, '/models/');
  return model === undefined ? undefined : [{ kind: 'models', api: 'anthropic', id: model }, 'GET'];
}

/** Finds the endpoint of `method` `path` (the path without its query). */
export function route(method: string | undefined, path: string): Routed {
  const anthropic = path === '/anthropic' || path.startsWith('/anthropic/');
  const shape: ProviderApi = anthropic ? 'anthropic' : 'openai';
  let found: [Endpoint, 'GET' | 'POST'] | undefined;
  if (path.startsWith('/openai/v1/')) found = openaiRoute(path.slice('/openai/v1'.length));
  else if (path.startsWith('/anthropic/v1/')) found = anthropicRoute(path.slice('/anthropic/v1'.length));
  else if (anthropic) found = anthropicRoute(path.slice('/anthropic'.length));
  if (!found) return { shape };
  const [endpoint, wanted] = found;
  return wanted === method ? { endpoint, shape } : { allow: wanted, shape };
}
