/**
 * Listing a provider's models and "Test connection" ("list its models from the
 * provider's model-list endpoint where it has one, else entered by hand; a Test connection button
 * with a clear result").
 *
 * Model lists (plain `fetch`, the AI SDK has no list call):
 * - OpenAI and OpenAI-compatible: `GET {baseURL}/models`, `Authorization: Bearer` → `data[].id`;
 * - Anthropic: `GET {baseURL}/models?limit=1000`, `x-api-key` + `anthropic-version` → `data[].id`;
 * - Gemini: `GET {baseURL}/models?pageSize=1000`, `x-goog-api-key` → `models[]` that support
 *   `generateContent`, `name` without `models/`, `inputTokenLimit` as the context window.
 * Test connection lists the models; where the server has no list (404) it asks the first
 * configured model for a tiny non-streaming reply instead (`generateText`, ≤16 tokens).
 * Every message is key-free (errors.ts redacts).
 */
import { generateText } from 'ai';
import type { ProviderKind, ProviderTestResult } from '../../shared/contract/providers.js';
import { toProviderError, type ErrorContext } from './errors.js';
import { sdkModelFactory, type ProviderConnection } from './hosted-providers.js';
import { apiRoot } from './base-url.js';
import { english, ui } from '../../shared/contract/ui-text.js';
import type { ProviderFailureKind } from '../../shared/contract/providers.js';

/** One listed model. `contextWindow` in tokens, when the list says. */
export interface ListedModel {
  id: string;
  contextWindow?: number;
}

/** A model-list failure; `status` is the HTTP status when there was one. Message is key-free. */
export class ModelListError extends Error {
  override name = 'ModelListError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Per-call options: `fetch` (tests), `timeoutMs` (default 15 000 ms). */
export interface ListOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

type Listable = Exclude<ProviderKind, 'manual'>;

function request(kind: Listable, conn: ProviderConnection): { url: string; headers: Record<string, string> } {
  const base = apiRoot(conn.baseURL);
  const headers: Record<string, string> = { ...conn.headers };
  if (kind === 'anthropic') {
    if (conn.apiKey) headers['x-api-key'] = conn.apiKey;
    headers['anthropic-version'] = '2023-06-01';
    return { url: `${base}/models?limit=1000`, headers };
  }
  if (kind === 'google') {
    if (conn.apiKey) headers['x-goog-api-key'] = conn.apiKey;
    return { url: `${base}/models?pageSize=1000`, headers };
  }
  if (conn.apiKey) headers.authorization = `Bearer ${conn.apiKey}`;
  return { url: `${base}/models`, headers };
}

function parseList(kind: Listable, json: unknown): ListedModel[] {
  if (kind === 'google') {
    const models = (json as { models?: Array<{ name?: unknown; inputTokenLimit?: unknown; supportedGenerationMethods?: unknown }> }).models ?? [];
    return models
      .filter((m) => typeof m.name === 'string' && (!Array.isArray(m.supportedGenerationMethods) || m.supportedGenerationMethods.includes('generateContent')))
      .map((m) => ({ id: String(m.name).replace(/^models\//, ''), ...(typeof m.inputTokenLimit === 'number' ? { contextWindow: m.inputTokenLimit } : {}) }));
  }
  const data = (json as { data?: Array<{ id?: unknown }> }).data;
  if (!Array.isArray(data)) throw new ModelListError('the model list is not in the expected format ({"data": [{"id": …}]})');
  return data.filter((m) => typeof m.id === 'string').map((m) => ({ id: String(m.id) }));
}

/**
 * Fetches the provider's model list.
 * @throws ModelListError with a readable, key-free message: HTTP status with what to do (401/403
 *   → check the key; 404 → the server has no list), unreachable server, timeout, bad format.
 */
export async function listProviderModels(kind: Listable, conn: ProviderConnection, opts: ListOptions = {}): Promise<ListedModel[]> {
  const { url, headers } = request(kind, conn);
  const shown = url.split('?')[0]!;
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) });
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
    const timedOut = e instanceof Error && e.name === 'TimeoutError';
    throw new ModelListError(timedOut ? `no answer from ${shown} within ${(opts.timeoutMs ?? 15_000) / 1000} s` : `cannot connect to ${shown} (${cause}) — is the server running and is the base URL right?`);
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    let said = text;
    try {
      const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
      said = typeof j.error === 'string' ? j.error : typeof j.error?.message === 'string' ? j.error.message : typeof j.message === 'string' ? j.message : text;
    } catch {
      // keep the raw text
    }
    const keyProblem = res.status === 401 || res.status === 403 || (res.status === 400 && /api[ _-]?key/i.test(said));
    const todo = keyProblem ? 'check the API key' : res.status === 404 ? 'this server has no model list here; enter model ids by hand' : 'check the base URL';
    const clean = conn.apiKey ? said.split(conn.apiKey).join('***') : said;
    throw new ModelListError(`GET ${shown}: ${res.status} — ${todo}${clean ? `. Server said: "${clean}"` : ''}`, res.status);
  }
  return parseList(kind, await res.json());
}

/** The failure kind of an HTTP status from a model list (no status: the network). */
function failureOfStatus(status: number | undefined): ProviderFailureKind {
  if (status === undefined) return 'network';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not-found';
  if (status === 429) return 'rate-limit';
  return status >= 500 ? 'server' : 'bad-request';
}

/**
 * "Test connection": lists the models (see {@link listProviderModels}); when the server has no
 * list (404) and `probeModel` is given, asks that model for "OK" (non-streaming, at most 16
 * tokens). Never throws.
 * @returns ok + one readable line + latency (ms) + the listed model ids
 */
export async function testProviderConnection(kind: Listable, conn: ProviderConnection & { label: string }, probeModel?: string, opts: ListOptions = {}): Promise<ProviderTestResult> {
  const started = Date.now();
  const took = () => Date.now() - started;
  try {
    const models = await listProviderModels(kind, conn, opts);
    const listed = ui(models.length === 1 ? 'test.listedOne' : 'test.listedMany', { label: conn.label, count: models.length, ms: took() });
    return { ok: true, message: english(listed), messageUi: listed, latencyMs: took(), models: models.map((m) => m.id) };
  } catch (e) {
    const listError = e instanceof ModelListError ? e : new ModelListError(String(e));
    if (listError.status !== 404 || !probeModel) return { ok: false, message: `${conn.label}: ${listError.message}`, failure: failureOfStatus(listError.status), latencyMs: took() };
  }
  const ctx: ErrorContext = { label: conn.label, baseURL: conn.baseURL, modelId: probeModel, ...(conn.apiKey ? { apiKey: conn.apiKey } : {}) };
  try {
    const result = await generateText({
      model: sdkModelFactory(kind, conn)(probeModel),
      prompt: 'Reply with the single word OK.',
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
    });
    const said = result.text.trim().slice(0, 40);
    const answered = ui('test.answered', { label: conn.label, model: probeModel, said, ms: took() });
    return { ok: true, message: english(answered), messageUi: answered, latencyMs: took() };
  } catch (e) {
    const err = toProviderError(e, ctx);
    return { ok: false, message: err.message, failure: err.kind, latencyMs: took() };
  }
}
