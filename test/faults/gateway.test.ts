/**
 * The fault matrix at the provider gateway: the official `openai` and `@anthropic-ai/sdk` clients
 * call every endpoint that reaches a provider — OpenAI Chat Completions and Responses and Anthropic
 * Messages, plain and streamed, and OpenAI embeddings — for each provider fault, auto-approved
 * (token `auto`, an approve_all rule) and reviewed (token `reviewed`).
 *
 * - Answered before any byte was sent: the provider's HTTP status and an error body in the
 *   caller's API's shape (429 with its retry-after; 504 for a timeout; 502 for a reset, broken or
 *   unreadable response).
 * - Once a stream started (the provider's text, or a keep-alive — streams get one after
 *   KEEPALIVE_MS of silence, before a slow provider answers and while a person reviews): the API's
 *   in-stream error event, with the same words.
 * - Reviewed: the person sees the failure and decides; the caller gets the decision (for
 *   embeddings, writing the response is no choice: the person retries on the other model instead).
 * Every cell checks History and that nothing is left waiting.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerText, approveAllFor, arm, decisionFor, endedEntry, expectHistory, expectNothingWaiting, FAULTS, reviewThroughFailure, seenItems, startFaultEnv, waitingItem, type Decision, type Fault, type FaultEnv } from './faults.js';
import { seenVersion } from '../support/console-harness.js';

/** An endpoint of the matrix: Chat Completions, Responses, embeddings (OpenAI's error shape) or Messages. */
type Api = 'openai' | 'responses' | 'embeddings' | 'anthropic';

/** The error shape of an endpoint's API. */
const shapeOf = (api: Api): 'openai' | 'anthropic' => (api === 'anthropic' ? 'anthropic' : 'openai');

/** The error type each API's body carries for a gateway status. */
const ERROR_TYPE: Record<'openai' | 'anthropic', Record<number, string>> = {
  openai: { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 429: 'rate_limit_error', 500: 'api_error', 502: 'api_error', 503: 'api_error', 504: 'api_error' },
  anthropic: { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 429: 'rate_limit_error', 500: 'api_error', 502: 'api_error', 503: 'overloaded_error', 504: 'timeout_error' },
};

/** What a caller ended with: the text, or the SDK's APIError and whether it came inside a started stream. */
interface Outcome {
  text?: string;
  error?: InstanceType<typeof OpenAI.APIError> | InstanceType<typeof Anthropic.APIError>;
  inStream: boolean;
  /** Text deltas received before the end (streams). */
  deltas: string[];
}

let env: FaultEnv;
let url: string;
const tokens: Record<'auto' | 'reviewed', string> = { auto: '', reviewed: '' };

/** What an embeddings call that succeeded is reported as (its vectors are not text). */
const EMBEDDED = 'embedded 1 vector';

/** One call through `api`, plain or streamed; `started` resolves when a streamed call's headers arrived. */
function callGateway(api: Api, stream: boolean, who: 'auto' | 'reviewed', prompt: string, started?: () => void): Promise<Outcome> {
  const deltas: string[] = [];
  const failed = (error: unknown, inStream: boolean): Outcome => {
    if (!(error instanceof OpenAI.APIError) && !(error instanceof Anthropic.APIError)) throw error;
    return { error, inStream, deltas };
  };
  if (api === 'responses') return callResponses(stream, who, prompt, deltas, failed, started);
  if (api === 'embeddings') {
    const client = new OpenAI({ baseURL: `${url}/openai/v1`, apiKey: tokens[who], maxRetries: 0 });
    return client.embeddings.create({ model: 'text-embedding-3-small', input: [prompt] }).then((r) => ({ text: `embedded ${r.data.length} vector`, inStream: false, deltas }), (e: unknown) => failed(e, false));
  }
  if (api === 'openai') {
    const client = new OpenAI({ baseURL: `${url}/openai/v1`, apiKey: tokens[who], maxRetries: 0 });
    const body = { model: 'gpt-4o', max_tokens: 50, messages: [{ role: 'user' as const, content: prompt }] };
    if (!stream) return client.chat.completions.create(body).then((r) => ({ text: r.choices[0]!.message.content ?? '', inStream: false, deltas }), (e: unknown) => failed(e, false));
    return client.chat.completions.create({ ...body, stream: true }).then(async (s) => {
      started?.();
      try {
        for await (const chunk of s) deltas.push(chunk.choices[0]?.delta.content ?? '');
        return { text: deltas.join(''), inStream: true, deltas };
      } catch (e) {
        return failed(e, true);
      }
    }, (e: unknown) => failed(e, false));
  }
  const client = new Anthropic({ baseURL: `${url}/anthropic`, apiKey: tokens[who], maxRetries: 0 });
  const body = { model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user' as const, content: prompt }] };
  if (!stream) return client.messages.create(body).then((m) => ({ text: m.content.map((b) => (b.type === 'text' ? b.text : '')).join(''), inStream: false, deltas }), (e: unknown) => failed(e, false));
  return client.messages.create({ ...body, stream: true }).then(async (s) => {
    started?.();
    try {
      for await (const event of s) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') deltas.push(event.delta.text);
      return { text: deltas.join(''), inStream: true, deltas };
    } catch (e) {
      return failed(e, true);
    }
  }, (e: unknown) => failed(e, false));
}

/** A Responses call, plain or streamed (text deltas collected). */
function callResponses(stream: boolean, who: 'auto' | 'reviewed', prompt: string, deltas: string[], failed: (e: unknown, inStream: boolean) => Outcome, started?: () => void): Promise<Outcome> {
  const client = new OpenAI({ baseURL: `${url}/openai/v1`, apiKey: tokens[who], maxRetries: 0 });
  const body = { model: 'gpt-4o', max_output_tokens: 50, input: prompt };
  if (!stream) return client.responses.create(body).then((r) => ({ text: r.output_text, inStream: false, deltas }), (e: unknown) => failed(e, false));
  return client.responses.create({ ...body, stream: true }).then(async (s) => {
    started?.();
    try {
      for await (const event of s) if (event.type === 'response.output_text.delta') deltas.push(event.delta);
      return { text: deltas.join(''), inStream: true, deltas };
    } catch (e) {
      return failed(e, true);
    }
  }, (e: unknown) => failed(e, false));
}

/** Checks an error answer: the status (none in a stream), the API's body shape and type, the words, retry-after. */
function expectError(api: Api, out: Outcome, status: number, words: RegExp, retryAfter?: number): void {
  expect(out.error, `expected an error, got ${JSON.stringify(out).slice(0, 300)}`).toBeDefined();
  const error = out.error!;
  expect(error.status).toBe(out.inStream ? undefined : status);
  const shape = shapeOf(api);
  const body = (shape === 'openai' ? error.error : (error.error as { error?: unknown } | undefined)?.error) as { type: string; message: string };
  if (shape === 'anthropic') expect(error.error).toMatchObject({ type: 'error' });
  expect(body).toMatchObject({ type: ERROR_TYPE[shape][status], message: expect.stringMatching(words) });
  if (!out.inStream && retryAfter !== undefined) expect(error.headers?.get('retry-after')).toBe(String(retryAfter));
}

beforeAll(async () => {
  env = await startFaultEnv();
  const state = await env.h.state();
  url = state.gateway!.url!;
  tokens.auto = (await env.h.service.createGatewayToken({ name: 'auto' })).token;
  tokens.reviewed = (await env.h.service.createGatewayToken({ name: 'reviewed' })).token;
  await approveAllFor(env.h, ['gateway:auto']);
}, 60_000);
afterAll(async () => env?.close());

const DOORS = [
  { api: 'openai' as const, stream: false, door: 'OpenAI Chat Completions, plain' },
  { api: 'openai' as const, stream: true, door: 'OpenAI Chat Completions, streamed' },
  { api: 'responses' as const, stream: false, door: 'OpenAI Responses, plain' },
  { api: 'responses' as const, stream: true, door: 'OpenAI Responses, streamed' },
  { api: 'embeddings' as const, stream: false, door: 'OpenAI embeddings' },
  { api: 'anthropic' as const, stream: false, door: 'Anthropic, plain' },
  { api: 'anthropic' as const, stream: true, door: 'Anthropic, streamed' },
];

/** The fault as an embeddings call meets it: a JSON body, not a stream, so a broken body reads as a closed connection. */
function asMet(api: Api, fault: Fault): Fault {
  if (api !== 'embeddings' || fault.name !== 'stream broken half-way') return fault;
  return { ...fault, words: /closed the connection|connection was lost/ };
}

describe.each(DOORS)('gateway $door', ({ api, stream }) => {
  describe('auto-approved: the caller gets the failure', () => {
    it.each(FAULTS)('$name', async (armed: Fault) => {
      const { h, llm } = env;
      const fault = asMet(api, armed);
      arm(llm, fault);
      const seen = await seenItems(h);
      const out = await callGateway(api, stream, 'auto', `auto ${fault.name}`);
      // A stream has started by the time a timeout strikes (a keep-alive) or once the provider's text passed through.
      const started = stream && (fault.textFirst || fault.kind === 'timeout');
      expect(out.inStream).toBe(started);
      expectError(api, out, fault.gatewayStatus, fault.words, fault.retryAfter);
      if (stream && fault.textFirst) expect(out.deltas.join('')).not.toBe('');
      const item = (await h.state()).items.find((i) => i.serverId === 'gateway:auto' && !seen.has(i.id))!;
      const entry = await endedEntry(h, item.id);
      expectHistory(entry, fault, 'auto');
      expect(entry).toMatchObject({ kind: 'provider_call', gateway: { api: shapeOf(api), stream } });
      await expectNothingWaiting(env);
    });
  });

  describe('reviewed: the person sees the failure and decides; the caller gets the decision', () => {
    it.each(FAULTS.map((fault, i) => ({ ...asMet(api, fault), decision: decisionOf(api, i) })))('$name → $decision', async ({ decision, ...fault }: Fault & { decision: Decision }) => {
      const { h, llm } = env;
      arm(llm, fault);
      const seen = await seenItems(h);
      let headers!: () => void;
      const streaming = new Promise<void>((r) => (headers = r));
      const answer = callGateway(api, stream, 'reviewed', `reviewed ${fault.name}`, headers);
      const item = await waitingItem(h, 'gateway:reviewed', seen);
      if (stream) await streaming; // the keep-alives started the stream while the request waits for the person
      await reviewThroughFailure(h, item, fault, decision);
      const out = await answer;
      const text = api === 'embeddings' && decision !== 'reject' ? EMBEDDED : answerText(decision);
      if (text) expect(out.text).toBe(text);
      else {
        expect(out.inStream).toBe(stream);
        expectError(api, out, 403, /rejected by the reviewer/);
      }
      expectHistory(await endedEntry(h, item.id), fault, decision);
      await expectNothingWaiting(env);
    });
  });
});

/** The person's choice for the `i`-th fault at `api`'s door (embeddings: the other model instead of writing the response). */
function decisionOf(api: Api, i: number): Decision {
  const decision = decisionFor(i + (api === 'anthropic' || api === 'responses' ? 1 : 0));
  return api === 'embeddings' && decision === 'write' ? 'other_model' : decision;
}

describe('keep-alives while a person reviews', () => {
  it.each([
    { api: 'responses' as const, path: '/openai/v1/responses', ping: ': ping\n\n', body: { model: 'gpt-4o', stream: true, input: 'wait for me' } },
    { api: 'openai' as const, path: '/openai/v1/chat/completions', ping: ': ping\n\n', body: { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'wait for me' }] } },
    { api: 'anthropic' as const, path: '/anthropic/messages', ping: 'event: ping\ndata: {"type":"ping"}\n\n', body: { model: 'claude-sonnet-4-5', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'wait for me' }] } },
    { api: 'anthropic' as const, path: '/anthropic/v1/messages', ping: 'event: ping\ndata: {"type":"ping"}\n\n', body: { model: 'claude-sonnet-4-5', max_tokens: 20, stream: true, messages: [{ role: 'user', content: 'wait for me' }] } },
  ])('$path: the stream starts and gets keep-alives the SDKs skip; a rejection then is its in-stream error', async ({ path, ping, body }) => {
    const { h } = env;
    const seen = await seenItems(h);
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${tokens.reviewed}`, 'x-api-key': tokens.reviewed, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (text.split(ping).length - 1 < 2) text += decoder.decode((await reader.read()).value);
    const item = await waitingItem(h, 'gateway:reviewed', seen);
    await h.service.rejectRequest({ itemId: item.id, version: await seenVersion(h, item.id) });
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    expect(text).toContain('permission_error');
    expect(text).toContain('rejected by the reviewer');
    await expectNothingWaiting(env);
  });
});
