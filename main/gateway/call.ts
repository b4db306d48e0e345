/**
 * One provider call through the gateway (Chat Completions, Responses, Messages), from the caller's
 * parsed body to its answer: translated
 * by the API's wire codec, put in the one envelope as a `provider_call` (reviewed like a sampling
 * request: same queue, rules, limits, redaction, response review and History), and answered in
 * the provider's shape:
 *
 * - approved → the (possibly edited) response as the provider's JSON, or as its SSE stream;
 * - a streamed call whose response no person reviews (an `approve_all` rule) gets each text delta
 *   as it is generated; one whose response is reviewed gets the approved response streamed after
 *   approval;
 * - a streamed call gets a keep-alive (an SSE comment; Anthropic's `ping` event) after every
 *   `keepAliveMs` without a write, so clients and proxies with read timeouts keep waiting while a
 *   person reviews or the provider thinks; the first one sends the headers;
 * - rejected → 403 "rejected by the reviewer"; invalid → 400; a limit → 429; the provider failed
 *   with nobody reviewing → its status and words (provider-failure.ts); else 500. Before any byte
 *   was sent these are HTTP answers; once the stream started (a keep-alive included), the
 *   provider's in-stream error event;
 * - the caller hanging up stops the request (it ends `cancelled`, as when a server stops waiting);
 * - every answer carries the console's own added time (overhead.ts): a plain one in its headers,
 *   a streamed one as its last line.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { GatewayEndpoint, GatewayFacts } from '../../shared/contract/gateway.js';
import { RATE_LIMITED_CODE } from '../../shared/contract/rules-schema.js';
import { ErrorCodes } from '../../shared/contract/sampling.js';
import type { TokenUsage } from '../../shared/contract/state.js';
import type { Logger } from '../ports.js';
import { RequestAbort, type ProviderCallPort } from '../requests/incoming.js';
import type { ServerRequestRouter } from '../requests/router.js';
import { HistoryUnavailableError } from '../store/history-api.js';
import { addOutside, overheadComment } from './overhead.js';
import { providerWireError } from './provider-failure.js';
import { sendError, sendJson } from './respond.js';
import type { TokenHolder } from './tokens.js';
import { replyIdFor } from './wire/index.js';
import type { EarlierLookup, GatewayCall, GatewayReply, StreamEncoder, WireCodec, WireError } from './wire/types.js';

/** The message a rejected call's 403 carries (the SDKs show it as the error's message). */
export const REJECTED_BY_REVIEWER = 'rejected by the reviewer in MCP Approval Console';

/** Default ms without a write after which a streamed call gets a keep-alive (the longest silence is under twice this). */
export const GATEWAY_KEEPALIVE_MS = 5_000;

/** What a call needs of the console. */
export interface CallContext {
  requests: ServerRequestRouter;
  now: () => number;
  logger: Logger;
  /** See {@link GATEWAY_KEEPALIVE_MS} (the default). */
  keepAliveMs?: number;
}

/** One authenticated call with its parsed JSON body. */
export interface CallInput {
  codec: WireCodec;
  holder: TokenHolder;
  body: unknown;
  req: IncomingMessage;
  res: ServerResponse;
  /** Earlier answers by id, for the Responses API (`previous_response_id`, `item_reference`). */
  earlier?: EarlierLookup;
}

/**
 * Answers one call (never throws: every failure is answered in the provider's error shape). The
 * answer's id names the call's item (wire/ids.ts), so History finds it again.
 */
export async function handleCall(ctx: CallContext, input: CallInput): Promise<void> {
  const { codec, holder, res } = input;
  const parsed = codec.parse(input.body, input.earlier ? { earlier: input.earlier } : {});
  if (!parsed.ok) return sendError(res, codec.api, parsed.error);
  const call = parsed.call;
  const beta = input.req.headers['anthropic-beta'];
  if (codec.api === 'anthropic' && beta) call.ignored.push(`anthropic-beta (${String(beta)})`);
  const itemId = randomUUID();
  const id = replyIdFor(codec.endpoint, itemId);
  const created = Math.floor(ctx.now() / 1000);
  const hangUp = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) hangUp.abort(new RequestAbort('connection_closed'));
  });
  const out = call.stream ? streamTo(res, codec.stream(call, id, created), ctx.keepAliveMs ?? GATEWAY_KEEPALIVE_MS) : undefined;
  let usage: TokenUsage | undefined;
  const port: ProviderCallPort = { text: (delta) => out?.text(delta), usage: (u) => (usage = u), waited: (ms) => addOutside(res, ms) };
  try {
    const result = await ctx.requests.receive({ kind: 'provider_call', source: 'gateway', serverId: holder.serverId, ...(holder.personal && { requestedBy: holder.personal.owner }), era: 'legacy', params: call.params, gateway: factsOf(call, codec.endpoint, holder), port, signal: hangUp.signal, itemId });
    const reply: GatewayReply = { id, created, result, ...(usage && { usage }) };
    if (out) out.finish(reply);
    else sendJson(res, codec.response(reply, call));
  } catch (err) {
    if (hangUp.signal.aborted) return void res.end(); // the caller is gone
    const error = wireErrorOf(err, codec);
    if (out?.started()) out.fail(error);
    else sendError(res, codec.api, error);
  } finally {
    out?.stop();
  }
}

/** What the item and History show of the call. */
function factsOf(call: GatewayCall, endpoint: GatewayEndpoint, holder: TokenHolder): GatewayFacts {
  return {
    api: call.api,
    endpoint,
    requestedModel: call.requestedModel,
    stream: call.stream,
    caller: holder.caller,
    ...(call.ignored.length > 0 && { ignored: call.ignored }),
    ...(call.movedToSystem && { movedToSystem: call.movedToSystem }),
    ...(call.previousResponseId && { previousResponseId: call.previousResponseId }),
  };
}

/** The HTTP error for how the request ended (a ProtocolError's JSON-RPC code; a provider failure's `data`; 503 while History's database cannot be reached), in `codec`'s API. */
export function wireErrorOf(err: unknown, codec: WireCodec): WireError {
  const code = err instanceof ProtocolError ? err.code : undefined;
  const message = err instanceof Error ? err.message : String(err);
  if (code === ErrorCodes.PROVIDER_FAILED) return providerWireError(message, (err as ProtocolError).data, codec);
  if (code === ErrorCodes.USER_REJECTED) return { status: 403, kind: 'permission', message: REJECTED_BY_REVIEWER };
  if (code === ErrorCodes.INVALID_PARAMS || code === ErrorCodes.LOOP_LIMIT) return { status: 400, kind: 'invalid_request', message };
  if (code === RATE_LIMITED_CODE || code === -32029) return { status: 429, kind: 'rate_limit', message };
  // A team's database cannot be reached (restarting): the call can be tried again in a moment.
  if (err instanceof HistoryUnavailableError) return { status: 503, kind: 'api_error', message, retryAfterSeconds: 1 };
  return { status: 500, kind: 'api_error', message };
}

/**
 * A streamed answer: its headers and first event are written with the first text, keep-alive or
 * the end. A keep-alive is written at each tick of `keepAliveMs` that saw no write since the last.
 */
function streamTo(res: ServerResponse, encoder: StreamEncoder, keepAliveMs: number) {
  let started = false;
  let wrote = false;
  const write = (text: string) => {
    wrote = true;
    if (!started) {
      started = true;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write(encoder.start());
    }
    if (text) res.write(text);
  };
  const ticker = setInterval(() => {
    if (!wrote && !res.writableEnded && !res.destroyed) write(encoder.ping());
    wrote = false;
  }, keepAliveMs);
  return {
    started: () => started,
    text: (delta: string) => write(encoder.text(delta)),
    finish: (reply: GatewayReply) => {
      write(encoder.finish(reply));
      res.end(overheadComment(res));
    },
    fail: (error: WireError) => {
      write(encoder.error(error));
      res.end(overheadComment(res));
    },
    stop: () => clearInterval(ticker),
  };
}
