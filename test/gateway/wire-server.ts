/**
 * A tiny loopback HTTP server for the wire-codec tests that uses nothing but a codec: parse the
 * body, then answer the scripted reply (JSON or SSE) or error. The official SDKs are its clients.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayCall, GatewayReply, WireCodec, WireError } from '../../main/gateway/wire/index.js';

/** What the server answers the next request with. */
export interface Script {
  /** The reply (JSON body, or streamed with `deltas` first). */
  reply?: GatewayReply;
  /** Answered instead of the reply, with its status. */
  error?: WireError;
  /** Text deltas streamed before finish(reply). */
  deltas?: string[];
  /** Streamed after the deltas instead of finish(reply). */
  midStreamError?: WireError;
  /** Write a keep-alive between events. */
  pings?: boolean;
}

/** A running server: its base URL, what it parsed, and the script of the next answer. */
export interface WireServer {
  url: string;
  /** The calls parsed so far, in order. */
  calls: GatewayCall[];
  /** The raw request bodies received, in order. */
  bodies: unknown[];
  /** The raw response text (SSE or JSON) of the last answer. */
  lastAnswer: string;
  script: Script;
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

/** Starts a server on 127.0.0.1:0 answering with `codec`. */
export async function startWireServer(codec: WireCodec): Promise<WireServer> {
  const state: WireServer = { url: '', calls: [], bodies: [], lastAnswer: '', script: {}, close: async () => {} };
  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    state.lastAnswer = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' }).end(state.lastAnswer);
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body: unknown = JSON.parse(await readBody(req));
      state.bodies.push(body);
      const parsed = codec.parse(body);
      if (!parsed.ok) return sendJson(res, parsed.error.status, codec.errorBody(parsed.error));
      const { call } = parsed;
      state.calls.push(call);
      const { reply, error, deltas = [], midStreamError, pings } = state.script;
      if (error) return sendJson(res, error.status, codec.errorBody(error));
      if (!reply) throw new Error('the test scripted no reply');
      if (!call.stream) return sendJson(res, 200, codec.response(reply, call));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const enc = codec.stream(call, reply.id, reply.created);
      const parts = [enc.start()];
      if (pings) parts.push(enc.ping());
      for (const d of deltas) parts.push(enc.text(d), ...(pings ? [enc.ping()] : []));
      parts.push(midStreamError ? enc.error(midStreamError) : enc.finish(reply));
      state.lastAnswer = parts.join('');
      for (const p of parts) if (p !== '') res.write(p);
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** Splits SSE text into its events: `{event, data}` with `data` JSON-parsed ('[DONE]' kept as is). */
export function sseEvents(text: string): Array<{ event?: string; data: unknown }> {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '' && !chunk.startsWith(':'))
    .map((chunk) => {
      const lines = chunk.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length);
      const data = lines.find((l) => l.startsWith('data: '))?.slice('data: '.length) ?? '';
      return { event, data: data === '[DONE]' ? data : (JSON.parse(data) as unknown) };
    });
}

/** A text reply as the console answers a call (`id` in the provider's style: `chatcmpl-…` or `msg_…`). */
export function textReplyWith(id: string, text: string, extra: Partial<GatewayReply['result']> = {}): GatewayReply {
  return {
    id,
    created: 1_700_000_000,
    result: { role: 'assistant', content: { type: 'text', text }, model: 'reviewed-model', stopReason: 'endTurn', ...extra },
    usage: { inputTokens: 12, outputTokens: 5 },
  };
}
