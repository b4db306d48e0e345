/**
 * `POST /openai/v1/embeddings`: one call is one item in the queue however many inputs it holds —
 * its input texts as messages (one user message each; `maxTokens` 1, unused), reviewed and decided
 * like any call (rules, limits, redaction; a rule may approve bulk jobs). Once approved, the
 * texts go to a provider that makes embeddings (main/sampling/steps.ts `embed`) and its vectors
 * come back to the caller, unreviewed and unrecorded; History keeps the request, the model and the
 * usage. Answers are OpenAI's `list` of `embedding` objects (`float`, or `base64` of little-endian
 * float32 as the `openai` SDK asks by default) and its error bodies.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { GatewayFacts } from '../../shared/contract/gateway.js';
import type { CreateMessageParams } from '../../shared/contract/sampling.js';
import type { TokenUsage } from '../../shared/contract/state.js';
import { RequestAbort } from '../requests/incoming.js';
import { wireErrorOf, type CallContext, type CallInput } from './call.js';
import { addOutside } from './overhead.js';
import { sendError, sendJson } from './respond.js';
import { ignoredFields, invalidRequest, isPlainObject, zodFailure, ZOD_PARSE_OPTIONS, type FieldMessage } from './wire/common.js';
import { openAiCodec } from './wire/openai.js';
import type { WireError } from './wire/types.js';

const Request = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.unknown()).min(1)]),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  dimensions: z.number().int().positive().nullish(),
});

/** The top-level fields carried over (or answered for); any other is listed in `ignored`. */
const CONSUMED = ['model', 'input', 'encoding_format', 'dimensions'];

const wordField: FieldMessage = (param, message, missing) => (missing ? `Missing required parameter: '${param}'.` : `Invalid value for '${param}': ${message}`);

/** A parsed embeddings request. */
interface EmbeddingsCall {
  texts: string[];
  model: string;
  base64: boolean;
  dimensions?: number;
  ignored: string[];
}

/** The texts of `input` (a string or strings); a 400 for token arrays or an empty text. */
function textsOf(input: string | unknown[]): string[] | WireError {
  const texts = typeof input === 'string' ? [input] : input;
  for (const [i, t] of texts.entries()) {
    const param = typeof input === 'string' ? 'input' : `input[${i}]`;
    if (typeof t !== 'string') return invalidRequest("token arrays are not supported by the console's gateway; send the input as text", param);
    if (t === '') return invalidRequest('an input text must not be empty', param);
  }
  return texts as string[];
}

/** Parses an embeddings body. @returns the call, or the 400 to answer (naming the field as `param`) */
export function parseEmbeddingsRequest(body: unknown): { ok: true; call: EmbeddingsCall } | { ok: false; error: WireError } {
  if (!isPlainObject(body)) return { ok: false, error: invalidRequest('the request body must be a JSON object') };
  const parsed = Request.safeParse(body, ZOD_PARSE_OPTIONS);
  if (!parsed.success) return { ok: false, error: zodFailure(parsed.error, wordField) };
  const req = parsed.data;
  const texts = textsOf(req.input);
  if (!Array.isArray(texts)) return { ok: false, error: texts };
  const call: EmbeddingsCall = { texts, model: req.model, base64: req.encoding_format === 'base64', ignored: ignoredFields(body, CONSUMED) };
  if (req.dimensions != null) call.dimensions = req.dimensions;
  return { ok: true, call };
}

/** The call as sampling params: one user message per text. */
function paramsOf(call: EmbeddingsCall): CreateMessageParams {
  return { messages: call.texts.map((text) => ({ role: 'user', content: [{ type: 'text', text }] })), maxTokens: 1, modelPreferences: { hints: [{ name: call.model }] } };
}

/** One vector as the caller asked for it: numbers, or base64 of little-endian float32. */
function encoded(vector: number[], base64: boolean): number[] | string {
  if (!base64) return vector;
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [i, v] of vector.entries()) bytes.writeFloatLE(v, i * 4);
  return bytes.toString('base64');
}

/** OpenAI's embeddings answer. */
function answerOf(call: EmbeddingsCall, vectors: number[][], model: string, usage: TokenUsage | undefined): unknown {
  const tokens = usage?.inputTokens ?? 0;
  return {
    object: 'list',
    data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: encoded(v, call.base64) })),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/** Answers one embeddings call (never throws: every failure is answered in OpenAI's error shape). */
export async function handleEmbeddings(ctx: CallContext, input: Omit<CallInput, 'codec'>): Promise<void> {
  const { holder, res } = input;
  const parsed = parseEmbeddingsRequest(input.body);
  if (!parsed.ok) return sendError(res, 'openai', parsed.error);
  const { call } = parsed;
  const hangUp = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) hangUp.abort(new RequestAbort('connection_closed'));
  });
  let vectors: number[][] | undefined;
  let usage: TokenUsage | undefined;
  const gateway: GatewayFacts = {
    api: 'openai',
    endpoint: 'embeddings',
    requestedModel: call.model,
    stream: false,
    caller: holder.caller,
    embeddings: { inputs: call.texts.length, ...(call.dimensions !== undefined && { dimensions: call.dimensions }) },
    ...(call.ignored.length > 0 && { ignored: call.ignored }),
  };
  const port = { text: () => undefined, usage: (u: TokenUsage | undefined) => (usage = u), vectors: (v: number[][]) => (vectors = v), waited: (ms: number) => addOutside(res, ms) };
  try {
    const result = await ctx.requests.receive({ kind: 'provider_call', source: 'gateway', serverId: holder.serverId, ...(holder.personal && { requestedBy: holder.personal.owner }), era: 'legacy', params: paramsOf(call), gateway, port, signal: hangUp.signal, itemId: randomUUID() });
    if (!vectors) return sendError(res, 'openai', { status: 500, kind: 'api_error', message: 'the call ended without embeddings' });
    sendJson(res, answerOf(call, vectors, result.model, usage));
  } catch (err) {
    if (hangUp.signal.aborted) return void res.end();
    sendError(res, 'openai', wireErrorOf(err, openAiCodec));
  }
}
